// The AI review card (docs/review.md), on the game page once the game is over and in a shared review made from a
// game: the score lead graph (win rate on a switch; a click jumps to the move), the progress while KataGo works
// (live from the game socket's ai_review message), each player's biggest mistakes (n / p jump between them), the
// better move and its line as a variation to step through, the ownership overlay, the per-player summary and
// accuracy, and in words under the board which groups or areas a mistake gave away.
// It shows the server's facts only: the raw figures of each position and the derived figures as
// GET /api/games/{id}/review gives them (GET /api/ai-reviews/records/{id} for a record its player uploaded, shown
// on the shared review it came from, to them alone); nothing is recomputed here.
import { h, replace, setText } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { gtp } from "../coords.js";
import { errorToast, toast } from "../ui.js";

const OWNED = 0.5; // the overlay marks a point from this ownership (as the changed-hands words count it)
const CATEGORIES = ["excellent", "good", "inaccuracy", "mistake", "blunder"];
const POLL_MS = 10000; // a shared review has no game socket: it asks again while the review runs
const SVG = (tag, attrs, ...children) => h(`svg:${tag}`, attrs, ...children);
const colourName = (c) => t(c === "B" ? "color.black" : "color.white");

/** An uploaded record refused: the number of the move the rules refuse, or the error's own words. */
export function recordErrorToast(err) {
  if (err && err.code === "illegal_move" && typeof err.move === "number") toast("ai_review.record_illegal_move", { move: err.move }, "error");
  else errorToast(err);
}

export class AiReviewCard {
  /** options: gameId or recordId (an uploaded record's review: always polled), onJump(i) (go to position i), poll
   *  (ask again while running: no socket carries it) */
  constructor(options) {
    this.gameId = options.gameId;
    this.recordId = options.recordId || null;
    this.onJump = options.onJump;
    this.poll = Boolean(options.poll || this.recordId);
    this.data = null;
    this.index = 0;
    this.metric = "score";
    this.showOwnership = false;
    this.line = null; // the better move's line being stepped through: {i (the move it replaces), k (moves shown)}
    this.status = h("p", { class: "ai-status muted small", "aria-live": "polite" });
    this.progress = h("progress", { class: "ai-progress", max: 1, value: 0, i18nAria: "ai_review.progress", hidden: true });
    this.actions = h("div", { class: "row wrap ai-actions" });
    this.tabs = h(
      "div",
      { class: "segmented graph-tabs", role: "tablist" },
      ["score", "winrate"].map((m) => h("button", { type: "button", role: "tab", dataset: { metric: m }, i18n: m === "score" ? "ai_review.score_lead" : "ai_review.winrate", onclick: () => this.setMetric(m) })),
    );
    this.graphHost = h("div", { class: "ai-graph-host" });
    this.ownershipBox = h("input", { type: "checkbox", name: "ai-ownership" });
    this.ownershipBox.addEventListener("change", () => {
      this.showOwnership = this.ownershipBox.checked;
      this.onJump(this.index);
    });
    this.detail = h("div", { class: "ai-detail" });
    this.mistakes = h("div", { class: "ai-mistakes" });
    this.summary = h("div", { class: "ai-summary" });
    this.body = h(
      "div",
      { class: "ai-body", hidden: true },
      this.tabs,
      this.graphHost,
      h("label", { class: "check" }, this.ownershipBox, h("span", { i18n: "ai_review.ownership" })),
      this.detail,
      h("h3", { i18n: "ai_review.mistakes" }),
      h("p", { class: "muted small", i18n: "ai_review.mistakes_keys" }),
      this.mistakes,
      h("h3", { i18n: "ai_review.summary" }),
      this.summary,
    );
    this.el = h("section", { class: "card ai-review", hidden: true, i18nAria: "ai_review.title" }, h("h2", { i18n: "ai_review.title" }), this.status, this.progress, this.actions, this.body);
    // Words under the board: what the move shown gave away, or the better line being stepped through.
    this.caption = h("div", { class: "ai-caption", "aria-live": "polite", hidden: true });
  }

  destroy() {
    clearTimeout(this.timer);
    this.gone = true;
  }

  // ---- the server's figures -----------------------------------------------------------------------------
  async load() {
    clearTimeout(this.timer);
    try {
      this.data = await (this.recordId ? api.aiRecordReview(this.recordId) : api.aiReview(this.gameId));
    } catch (err) {
      // 404: no such game; 409 review_game_live: nobody sees the engine's view of a game in progress.
      this.data = null;
      if (err.status !== 404 && err.code !== "review_game_live") errorToast(err);
    }
    if (this.gone) return;
    this.render();
    if (this.poll && this.data && (this.data.state === "queued" || this.data.state === "running")) {
      this.timer = setTimeout(() => this.load(), POLL_MS);
    }
  }

  /** The game socket's ai_review message: new positions' raw figures and the progress; the derived figures are
   *  asked for again once the review is done. */
  onMessage(msg) {
    if (!this.data) {
      this.load();
      return;
    }
    const wasDone = this.data.state === "done" && this.data.depth === msg.depth;
    Object.assign(this.data, { state: msg.state, depth: msg.depth, progress: msg.progress });
    for (const [i, raw] of Object.entries(msg.positions || {})) this.data.positions[Number(i)] = raw;
    if (msg.state === "done" && !wasDone) this.load();
    else this.render();
  }

  async request(depth) {
    try {
      const answer = await (this.recordId ? api.requestAiRecordReview(this.recordId, depth) : api.requestAiReview(this.gameId, depth));
      if (answer && answer.state) this.data = { ...this.data, ...answer };
    } catch (err) {
      errorToast(err);
    }
    this.load();
  }

  raw(i) {
    return (this.data && this.data.positions && this.data.positions[i]) || null;
  }

  listed() {
    const m = (this.data && this.data.mistakes) || {};
    return [...(m.B || []), ...(m.W || [])].sort((a, b) => a.i - b.i);
  }

  // ---- what the page asks -------------------------------------------------------------------------------
  /** n / p: the next or previous listed mistake from the position shown (true when the key was used). */
  keyboard(ev) {
    if (!this.data || this.el.hidden || (ev.key !== "n" && ev.key !== "p")) return false;
    const list = this.listed();
    const target = ev.key === "n" ? list.find((m) => m.i > this.index) : [...list].reverse().find((m) => m.i < this.index);
    if (target) this.onJump(target.i);
    return Boolean(target);
  }

  /** The page shows position i on the board: draw the overlay and the marks (after the page's own, `marks`). */
  show(board, i, marks = []) {
    if (this.line && i !== this.line.i - 1) this.line = null;
    this.index = i;
    this.size = board.size;
    this.render();
    if (i === null) return; // a variation of a shared review: no figures of KataGo's for it
    const raw = this.raw(i);
    if (this.showOwnership && raw && raw.ownership) {
      board.setScoring([], raw.ownership.map((row) => row.map((v) => (v >= OWNED ? "X" : v <= -OWNED ? "O" : ".")).join("")), []);
    }
    const mine = [];
    if (this.line) {
      const best = this.best(this.line.i);
      (best ? best.pv : []).slice(0, this.line.k).forEach((p, n) => {
        if (p) mine.push({ point: p, kind: "hint", label: String(n + 1) });
      });
    } else {
      for (const words of this.changedHands(i)) {
        for (const p of words.points) mine.push({ point: p, kind: "square" });
      }
    }
    board.setAnnotations([...marks, ...mine]);
  }

  best(move) {
    const raw = this.raw(move - 1);
    return raw && raw.best && raw.best.length ? raw.best[0] : null;
  }

  changedHands(i) {
    return (this.data && this.data.changed_hands && this.data.changed_hands[String(i)]) || [];
  }

  // ---- drawing ------------------------------------------------------------------------------------------
  render() {
    const d = this.data;
    this.el.hidden = !d;
    if (!d) {
      this.caption.hidden = true;
      return;
    }
    const running = d.state === "queued" || d.state === "running";
    this.progress.hidden = !running;
    if (running) {
      this.progress.max = Math.max(1, d.progress.total);
      this.progress.value = d.progress.done;
    }
    const depth = t(d.depth === "deep" ? "ai_review.depth_deep" : "ai_review.depth_quick");
    const statusKey = { none: "ai_review.none", queued: "ai_review.queued", running: "ai_review.running", done: "ai_review.done", failed: "ai_review.failed" }[d.state] || "ai_review.none";
    setText(this.status, statusKey, { done: d.progress.done, total: d.progress.total, depth });
    this.el.dataset.state = d.state;
    const buttons = [];
    if (d.state === "none" || d.state === "failed") {
      buttons.push(h("button", { type: "button", class: "btn primary small", dataset: { action: "ai-review" }, i18n: d.state === "none" ? "ai_review.start" : "ai_review.retry", onclick: () => this.request("quick") }));
    } else if (d.depth !== "deep") {
      buttons.push(h("button", { type: "button", class: "btn small", dataset: { action: "ai-review-deep" }, i18n: "ai_review.deeper", onclick: () => this.request("deep") }));
    }
    replace(this.actions, buttons);
    const any = (d.positions || []).some(Boolean);
    this.body.hidden = !any;
    if (!any) {
      this.caption.hidden = true;
      return;
    }
    this.tabs.querySelectorAll("button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.metric === this.metric)));
    replace(this.graphHost, this.graph());
    this.ownershipBox.checked = this.showOwnership;
    this.renderDetail();
    this.renderMistakes();
    this.renderSummary();
    this.renderCaption();
  }

  setMetric(metric) {
    this.metric = metric;
    this.render();
  }

  /** Black's score lead (or win rate) of each position computed; a dot on each listed mistake; a line at the
   *  position shown. A click goes to the nearest position. */
  graph() {
    const d = this.data;
    const n = Math.max(1, d.positions.length - 1);
    const width = 280; // the side column's width in CSS pixels, so the axis text reads at its own size
    const height = 110;
    const pad = { left: 40, right: 6, top: 6, bottom: 6 };
    const score = this.metric === "score";
    const value = (raw) => (score ? raw.score_lead : raw.winrate);
    const leads = d.positions.filter(Boolean).map((r) => Math.abs(r.score_lead));
    const span = score ? Math.max(5, Math.ceil(Math.max(0, ...leads))) : 1;
    const lo = score ? -span : 0;
    const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / n;
    const y = (v) => pad.top + ((span - Math.min(span, Math.max(lo, v))) * (height - pad.top - pad.bottom)) / (span - lo);
    const runs = [];
    let run = [];
    d.positions.forEach((raw, i) => {
      if (raw) run.push(`${x(i)},${y(value(raw))}`);
      else if (run.length) {
        runs.push(run);
        run = [];
      }
    });
    if (run.length) runs.push(run);
    const middle = score ? 0 : 0.5;
    const ticks = score ? [span, 0, -span] : [1, 0.5, 0];
    const tickText = (v) => (score ? this.lead(v) : `${Math.round(v * 100)}%`);
    const label = t(score ? "ai_review.graph_score" : "ai_review.graph_winrate", { n });
    const svg = SVG(
      "svg",
      { class: `ai-graph ${this.metric}`, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label },
      SVG("rect", { class: "ahead-black", x: pad.left, y: pad.top, width: width - pad.left - pad.right, height: y(middle) - pad.top }),
      ticks.map((v) => [
        SVG("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v) }),
        SVG("text", { class: "axis", x: pad.left - 4, y: y(v) + 4, "text-anchor": "end" }, tickText(v)),
      ]),
      runs.map((r) => SVG("polyline", { class: "line", points: r.join(" ") })),
      this.listed().filter((m) => d.positions[m.i]).map((m) =>
        SVG("circle", { class: `dot ${m.category}`, cx: x(m.i), cy: y(value(d.positions[m.i])), r: 3 }, SVG("title", {}, `${this.mistakeText(m)} (${t(`ai_review.category.${m.category}`)})`))),
      this.index === null ? null : SVG("line", { class: "cursor", x1: x(this.index), x2: x(this.index), y1: pad.top, y2: height - pad.bottom }),
    );
    svg.addEventListener("click", (ev) => {
      const box = svg.getBoundingClientRect();
      const at = ((ev.clientX - box.left) / box.width) * width;
      const i = Math.round(((at - pad.left) * n) / (width - pad.left - pad.right));
      this.onJump(Math.max(0, Math.min(n, i)));
    });
    return svg;
  }

  lead(v) {
    const text = Math.abs(v).toFixed(1).replace(/\.0$/, "");
    return v === 0 ? "0" : t(v > 0 ? "ai_review.lead_black" : "ai_review.lead_white", { n: text });
  }

  mistakeAt(i) {
    return this.listed().find((m) => m.i === i) || null;
  }

  mistakeText(m) {
    const point = m.point ? gtp(m.point, this.size) : t("game.pass_move");
    return t("ai_review.mistake_item", { n: m.i, point, points: m.points_lost.toFixed(1) });
  }

  renderDetail() {
    // While the better line is stepped through, the board is at the position before the move it replaces.
    const i = this.line ? this.line.i : this.index;
    const raw = this.raw(this.index);
    const rows = [];
    rows.push(h("p", { class: "ai-position" }, raw
      ? t("ai_review.position", { lead: this.lead(raw.score_lead), winrate: `${Math.round(raw.winrate * 100)}%` })
      : t("ai_review.no_figures")));
    const lost = this.data.points_lost ? this.data.points_lost[i] : null;
    const category = this.data.categories ? this.data.categories[i] : null;
    if (i > 0 && lost !== null && lost !== undefined && category) {
      // a gain (a negative loss: the search found more after the move) is shown as no loss, as docs/review.md counts it
      rows.push(h("p", { class: `ai-move ${category}` }, t("ai_review.move_lost", {
        n: i,
        points: Math.max(0, lost).toFixed(1),
        category: t(`ai_review.category.${category}`),
      })));
    }
    const best = i > 0 ? this.best(i) : null;
    if (best) {
      const point = best.point ? gtp(best.point, this.size) : t("game.pass_move");
      rows.push(h("p", { class: "ai-better" }, t("ai_review.better", { point, lead: this.lead(best.score_lead) })));
      if (best.pv && best.pv.length) {
        if (this.line) {
          const k = this.line.k;
          rows.push(h(
            "div",
            { class: "row wrap ai-line" },
            h("button", { type: "button", class: "btn small", dataset: { action: "line-prev" }, disabled: k <= 1, i18n: "ai_review.line_prev", onclick: () => this.stepLine(-1) }),
            h("span", { class: "muted small" }, t("ai_review.line_step", { k, n: best.pv.length })),
            h("button", { type: "button", class: "btn small", dataset: { action: "line-next" }, disabled: k >= best.pv.length, i18n: "ai_review.line_next", onclick: () => this.stepLine(1) }),
            h("button", { type: "button", class: "btn small", dataset: { action: "line-close" }, i18n: "ai_review.line_close", onclick: () => this.closeLine() }),
          ));
        } else {
          rows.push(h("button", { type: "button", class: "btn small", dataset: { action: "show-better" }, i18n: "ai_review.show_better", onclick: () => this.openLine(i) }));
        }
      }
    }
    replace(this.detail, rows);
  }

  openLine(i) {
    this.line = { i, k: 1 };
    this.onJump(i - 1);
  }

  stepLine(delta) {
    const best = this.line && this.best(this.line.i);
    if (!best) return;
    this.line.k = Math.max(1, Math.min(best.pv.length, this.line.k + delta));
    this.onJump(this.line.i - 1);
  }

  closeLine() {
    const i = this.line ? this.line.i : this.index;
    this.line = null;
    this.onJump(i);
  }

  renderMistakes() {
    const m = this.data.mistakes || { B: [], W: [] };
    replace(this.mistakes, ["B", "W"].map((c) => h(
      "div",
      { class: "ai-mistake-col", dataset: { color: c } },
      h("h4", {}, colourName(c)),
      (m[c] || []).length
        ? h("ol", { class: "ai-mistake-list" }, m[c].map((x) => h("li", {}, h("button", {
          type: "button",
          class: `mv ai-mistake ${x.category}${x.i === this.index ? " current" : ""}`,
          dataset: { move: x.i },
          title: t(`ai_review.category.${x.category}`),
          "aria-label": `${this.mistakeText(x)} (${t(`ai_review.category.${x.category}`)})`,
          onclick: () => this.onJump(x.i),
        }, this.mistakeText(x)))))
        : h("p", { class: "muted small", i18n: "ai_review.no_mistakes" }),
    )));
  }

  renderSummary() {
    const s = this.data.summary || {};
    const cell = (c, f) => h("td", { dataset: { color: c } }, s[c] ? f(s[c]) : "—");
    const number = (v, suffix = "") => (v === null || v === undefined ? "—" : `${v}${suffix}`);
    replace(this.summary, h(
      "table",
      { class: "ai-summary-table" },
      h("thead", {}, h("tr", {}, h("th", {}), h("th", {}, colourName("B")), h("th", {}, colourName("W")))),
      h(
        "tbody",
        {},
        h("tr", { class: "accuracy" }, h("th", { i18n: "ai_review.accuracy" }), cell("B", (x) => number(x.accuracy, "%")), cell("W", (x) => number(x.accuracy, "%"))),
        h("tr", {}, h("th", { i18n: "ai_review.mean_lost" }), cell("B", (x) => number(x.mean_points_lost)), cell("W", (x) => number(x.mean_points_lost))),
        h("tr", {}, h("th", { i18n: "ai_review.moves" }), cell("B", (x) => x.moves), cell("W", (x) => x.moves)),
        CATEGORIES.map((k) => h("tr", { class: `category ${k}` }, h("th", { i18n: `ai_review.category.${k}` }), cell("B", (x) => x.categories[k]), cell("W", (x) => x.categories[k]))),
      ),
    ));
  }

  renderCaption() {
    const lines = [];
    if (this.line) {
      const best = this.best(this.line.i);
      const pv = best ? best.pv.slice(0, this.line.k).map((p) => (p ? gtp(p, this.size) : t("game.pass_move"))) : [];
      lines.push(h("p", { class: "ai-line-words" }, t("ai_review.line_words", { n: this.line.i, line: pv.join(" ") })));
    } else {
      for (const w of this.changedHands(this.index)) {
        const params = { ...w.params, colour: colourName(w.params.colour) };
        lines.push(h("p", { class: "ai-hands", dataset: { key: w.key } }, t(w.key, params)));
      }
    }
    replace(this.caption, lines);
    this.caption.hidden = !lines.length;
  }
}
