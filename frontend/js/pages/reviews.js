// Reviews as lists: the card on a game's page (its reviews, and "Review this game" once it is over) and the
// #/reviews page (my reviews, a new review of an uploaded SGF record, KataGo's reviews of my uploaded records).
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { errorToast } from "../ui.js";
import { limitChars } from "../textlimit.js";
import { recordErrorToast } from "./ai_review.js";
import { isAnonymous } from "../session.js";

function reviewItem(review) {
  return h(
    "li",
    { class: "item", dataset: { review: review.id } },
    h("a", { href: review.url || `#/reviews/${review.id}` }, review.title),
    h("span", { class: "muted small" }, " ", t("review.by", { name: review.owner.name })),
  );
}

/** The reviews of one game, on its page; ``update(finished)`` after each render of the game. */
export class ReviewsCard {
  constructor(gameId) {
    this.gameId = gameId;
    this.finished = null;
    this.list = h("ul", { class: "list review-list" });
    this.start = h("button", { type: "button", class: "btn small", dataset: { action: "start-review" }, i18n: "review.start_review", hidden: true, onclick: () => this.create() });
    this.el = h(
      "div",
      { class: "card reviews-card" },
      h("div", { class: "row spread" }, h("h2", { i18n: "review.reviews" }), this.start),
      this.list,
      h("a", { href: "#/reviews", class: "small", i18n: "review.my_reviews" }),
    );
  }

  update(finished) {
    if (finished === this.finished) return;
    this.finished = finished;
    this.start.hidden = !finished;
    this.load();
  }

  async load() {
    try {
      const { reviews } = await api.gameReviews(this.gameId);
      replace(this.list, reviews.length ? reviews.map(reviewItem) : h("li", { class: "muted small", i18n: "review.none" }));
    } catch (err) {
      errorToast(err);
    }
  }

  async create() {
    this.start.disabled = true;
    try {
      const review = await api.createReview({ game_id: this.gameId });
      location.hash = review.url;
    } catch (err) {
      errorToast(err);
    } finally {
      this.start.disabled = false;
    }
  }
}

const RECORD_STATES = { none: "ai_review.state_none", queued: "ai_review.state_queued", running: "ai_review.state_running", done: "ai_review.state_done", failed: "ai_review.state_failed" };

/** One of my uploaded records: its title (to the shared review it came from, where its AI review shows), its
 *  review's state, and a button that deletes it (a player keeps a few: the list says how many). */
function recordItem(record, reload) {
  const title = record.review_id ? h("a", { href: `#/reviews/${record.review_id}` }, record.title) : h("span", {}, record.title);
  const remove = async () => {
    try {
      await api.deleteAiRecord(record.record_id);
    } catch (err) {
      errorToast(err);
    }
    reload();
  };
  return h(
    "li",
    { class: "item row spread", dataset: { record: record.record_id } },
    h("span", {}, title, h("span", { class: "muted small" }, " ", t(RECORD_STATES[record.state] || RECORD_STATES.none))),
    h("button", { type: "button", class: "btn small", dataset: { action: "delete-record" }, i18n: "ai_review.delete_record", onclick: remove }),
  );
}

/** #/reviews: my reviews, and a review of an uploaded record. */
export function mount(container) {
  const list = h("ul", { class: "list review-list" });
  const file = h("input", { type: "file", accept: ".sgf,application/x-go-sgf,text/plain", class: "sgf-file", i18nAria: "review.upload_file" });
  const paste = h("textarea", { rows: 4, class: "sgf-paste", i18nAria: "review.paste" });
  const title = limitChars(h("input", { type: "text", class: "review-title-input", i18nAria: "review.title" }), 100);
  const withKatago = h("input", { type: "checkbox", name: "ai-review-record" });
  const records = h("ul", { class: "list record-list" });
  const recordsNote = h("p", { class: "muted small" });
  // an anonymous visitor has no records, and the server would refuse to list them (session.js: a page does not
  // ask for what the server must refuse)
  const loadRecords = () =>
    isAnonymous()
      ? replace(records, h("li", { class: "muted small", i18n: "ai_review.no_records" }))
      : api.aiRecords().then(
          ({ records: mine, limit }) => {
            replace(records, mine.length ? mine.map((r) => recordItem(r, loadRecords)) : h("li", { class: "muted small", i18n: "ai_review.no_records" }));
            recordsNote.textContent = t("ai_review.records_limit", { count: mine.length, limit });
          },
          (err) => errorToast(err),
        );
  const create = async (sgf) => {
    if (!sgf.trim()) return;
    try {
      const review = await api.createReview({ sgf, title: title.value.trim() });
      if (withKatago.checked) {
        try {
          await api.uploadAiRecord(sgf, review.id);
        } catch (err) {
          recordErrorToast(err); // the shared review stands; its page offers the AI review again
        }
      }
      location.hash = review.url;
    } catch (err) {
      errorToast(err);
    }
  };
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    if (chosen) await create(await chosen.text());
  });
  const root = h(
    "div",
    { class: "reviews-page" },
    h("section", { class: "card" }, h("h1", { i18n: "review.my_reviews" }), list),
    h(
      "section",
      { class: "card stack" },
      h("h2", { i18n: "review.new_from_sgf" }),
      h("label", { class: "field" }, h("span", { i18n: "review.title" }), title),
      h("label", { class: "field" }, h("span", { i18n: "review.upload_file" }), file),
      h("label", { class: "field" }, h("span", { i18n: "review.paste" }), paste),
      h("label", { class: "check" }, withKatago, h("span", { i18n: "ai_review.record_with_katago" })),
      h("div", { class: "actions" }, h("button", { type: "button", class: "btn primary", dataset: { action: "review-paste" }, i18n: "review.start_review", onclick: () => create(paste.value) })),
    ),
  );
  root.append(h("section", { class: "card ai-records" }, h("h2", { i18n: "ai_review.my_records" }), recordsNote, records));
  container.append(root);
  loadRecords();
  api.myReviews().then(
    ({ reviews }) => replace(list, reviews.length ? reviews.map(reviewItem) : h("li", { class: "muted small", i18n: "review.none" })),
    (err) => errorToast(err),
  );
  return () => root.remove();
}
