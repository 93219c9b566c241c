// Reviews as lists: the card on a game's page (its reviews, and "Review this game" once it is over) and the
// #/reviews page (my reviews, and a new review of an uploaded SGF record).
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { errorToast } from "../ui.js";
import { limitChars } from "../textlimit.js";

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

/** #/reviews: my reviews, and a review of an uploaded record. */
export function mount(container) {
  const list = h("ul", { class: "list review-list" });
  const file = h("input", { type: "file", accept: ".sgf,application/x-go-sgf,text/plain", class: "sgf-file", i18nAria: "review.upload_file" });
  const paste = h("textarea", { rows: 4, class: "sgf-paste", i18nAria: "review.paste" });
  const title = limitChars(h("input", { type: "text", class: "review-title-input", i18nAria: "review.title" }), 100);
  const create = async (sgf) => {
    if (!sgf.trim()) return;
    try {
      const review = await api.createReview({ sgf, title: title.value.trim() });
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
      h("div", { class: "actions" }, h("button", { type: "button", class: "btn primary", dataset: { action: "review-paste" }, i18n: "review.start_review", onclick: () => create(paste.value) })),
    ),
  );
  container.append(root);
  api.myReviews().then(
    ({ reviews }) => replace(list, reviews.length ? reviews.map(reviewItem) : h("li", { class: "muted small", i18n: "review.none" })),
    (err) => errorToast(err),
  );
  return () => root.remove();
}
