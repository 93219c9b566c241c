// A shared review (#/reviews/<id>): the board follows the one leading, live; the people in the room, who leads,
// hand-off and take-back; the leader's tools (moves and variations, comments, marks, removing a branch); chat.
// The server decides everything: the position shown is the one its events carry (docs/protocol.md §9).
import { h, replace, setText } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { Board } from "../board.js";
import { gtp } from "../coords.js";
import { renderMessage } from "../chat.js";
import { ReviewSocket } from "../protocol.js";
import { StudyTree } from "../studytree.js";
import { errorToast } from "../ui.js";
import { ensureUser } from "../session.js";
import { hold, release, socketHandlers } from "./live_view.js";
import { AiReviewCard, recordErrorToast } from "./ai_review.js";
import { clip, limitChars } from "../textlimit.js";
import { estimateOf, showEstimate } from "./estimate.js";

const TOOLS = ["play", "triangle", "square", "circle", "label"];
const MAX_CHAT = 500;
const MAX_COMMENT = 2000;

export function mount(container, reviewId) {
  const view = new ReviewView(container, reviewId);
  return () => view.destroy();
}

const key = (p) => `${p[0]},${p[1]}`;

export class ReviewView {
  constructor(container, reviewId) {
    this.reviewId = reviewId;
    this.tree = null;
    this.tool = "play";
    this.estimate = null; // the score estimate asked for a node: { node, dead, rows, result, lead, winrate }
    this.build(container);
    this.socket = new ReviewSocket(reviewId, socketHandlers(this));
    // A shared review lists its people by name and hands control to them: joining one starts a guest
    // session for a visitor who has none (watching a game does not).
    ensureUser()
      .catch((err) => errorToast(err))
      .finally(() => {
        if (!this.destroyed) this.socket.start();
      });
    hold(this);
  }

  destroy() {
    if (this.aiReview) this.aiReview.destroy();
    release(this);
  }

  // ---- layout -------------------------------------------------------------------------------------------
  build(container) {
    this.banner = h("div", { class: "banner warn", role: "status", hidden: true });
    this.title = h("h1", { class: "review-title" });
    this.source = h("p", { class: "muted small" });
    this.boardHost = h("div", { class: "board-host" });
    this.leader = h("p", { class: "status-line review-leader", "aria-live": "polite" });
    this.takeBtn = h("button", { type: "button", class: "btn primary", dataset: { action: "take-control" }, i18n: "review.take_control", onclick: () => this.send("take_control") });
    this.peopleList = h("ul", { class: "review-people", i18nAria: "review.participants" });
    this.nav = h(
      "div",
      { class: "move-nav review-nav" },
      this.navButton("M3 2h2v12H3zM14 2v12L6 8z", "game.first", "first", () => this.goto(this.tree && this.tree.root)),
      this.navButton("M12 2v12L4 8z", "game.prev", "prev", () => this.goto(this.node() && this.node().parent)),
      this.navButton("M4 2v12l8-6z", "game.next", "next", () => this.goto(this.node() && this.node().children[0])),
      this.navButton("M2 2v12l8-6zM11 2h2v12h-2z", "review.end", "last", () => this.goto(this.lineEnd())),
    );
    this.moveLabel = h("p", { class: "muted small review-move" });
    this.line = h("ol", { class: "move-list review-line", i18nAria: "game.moves" });
    this.variations = h("div", { class: "row wrap review-variations" });
    // anyone in the room may ask the score estimate of the node shown (for themselves: nothing of it is shared)
    this.estimateBtn = h("button", { type: "button", class: "btn small", dataset: { action: "estimate" }, i18n: "analysis.estimate", onclick: () => this.askEstimate() });
    this.estimateLine = h("p", { class: "estimate-line", "aria-live": "polite", hidden: true });
    this.tools = h("div", { class: "row wrap review-tools", role: "group", i18nAria: "review.tools" },
      TOOLS.map((tool) => h("button", { type: "button", class: "btn small", dataset: { tool }, i18n: `review.tool_${tool}`, onclick: () => this.setTool(tool) })));
    this.removeBtn = h("button", { type: "button", class: "btn small danger", dataset: { action: "remove-branch" }, i18n: "review.remove_branch", onclick: () => this.removeBranch() });
    this.comment = limitChars(h("textarea", { class: "review-comment", rows: 3, i18nAria: "review.comment" }), MAX_COMMENT);
    this.commentBtn = h("button", { type: "button", class: "btn small", dataset: { action: "save-comment" }, i18n: "review.save_comment", onclick: () => this.saveComment() });
    this.commentText = h("p", { class: "review-comment-text" });
    this.chatList = h("ol", { class: "chat-list", role: "log", "aria-live": "polite", i18nAria: "chat.log" });
    this.chatInput = limitChars(h("input", { type: "text", class: "chat-input", i18nPlaceholder: "chat.placeholder", i18nAria: "chat.message" }), MAX_CHAT);
    this.chatForm = h("form", { class: "chat-form", onsubmit: (ev) => this.sendChat(ev) }, this.chatInput, h("button", { type: "submit", class: "btn", i18n: "chat.send" }));
    this.chatNote = h("p", { class: "chat-note muted", i18n: "review.chat_sign_in", hidden: true });
    this.sgf = h("a", { class: "btn small", href: api.reviewSgfUrl(this.reviewId), download: `tengen-review-${this.reviewId}.sgf`, i18n: "game.download_sgf" });
    this.link = h("button", { type: "button", class: "btn small", dataset: { action: "copy-link" }, i18n: "review.copy_link", onclick: () => this.copyLink() });
    this.root = h(
      "div",
      { class: "game review", dataset: { review: this.reviewId } },
      this.banner,
      h("div", { class: "board-col" }, h("div", {}, this.title, this.source), this.boardHost, this.aiCaption = h("div"), this.moveLabel),
      h(
        "aside",
        { class: "side" },
        h("div", { class: "card" }, this.leader, this.takeBtn, h("h2", { i18n: "review.participants" }), this.peopleList),
        h("div", { class: "card moves-card" }, h("div", { class: "row spread" }, h("h2", { i18n: "game.moves" }), this.nav), this.line, this.variations, h("div", { class: "row" }, this.estimateBtn), this.estimateLine),
        h("div", { class: "card" }, h("h2", { i18n: "review.comment" }), this.commentText, this.comment, h("div", { class: "row spread" }, this.commentBtn, this.removeBtn), this.tools),
        h("div", { class: "card" }, h("section", { class: "chat", i18nAria: "chat.title" }, h("h2", { i18n: "chat.title" }), this.chatList, this.chatNote, this.chatForm)),
        h("div", { class: "card" }, h("div", { class: "row spread" }, this.link, this.sgf)),
        this.aiHost = h("div"),
      ),
    );
    container.append(this.root);
  }

  navButton(path, labelKey, name, onclick) {
    const icon = h("svg:svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" }, h("svg:path", { d: path, fill: "currentColor" }));
    return h("button", { type: "button", class: "btn icon", dataset: { nav: name }, i18nAria: labelKey, i18nTitle: labelKey, onclick }, icon);
  }

  ensureBoard(size) {
    if (this.board && this.board.size === size) return;
    if (this.board) this.board.destroy();
    this.board = new Board(this.boardHost, {
      size,
      onPlay: (p) => this.send("play", { p }),
      onInactive: (p) => this.markAt(p),
      isLegal: () => true,
      ghostColor: () => (this.leading() && this.position ? this.position.to_move : null),
      mode: "play",
    });
  }

  // ---- state --------------------------------------------------------------------------------------------
  node() {
    return this.tree ? this.tree.nodes.get(this.current) : null;
  }

  leading() {
    return Boolean(this.me && this.controller && this.me.id === this.controller.id);
  }

  owning() {
    return Boolean(this.me && this.owner && this.me.id === this.owner.id);
  }

  lineEnd() {
    let n = this.node();
    while (n && n.children.length) n = n.children[0];
    return n;
  }

  onSnapshot(msg) {
    const r = msg.review;
    this.me = msg.you.user;
    this.owner = r.owner;
    this.controller = r.controller;
    this.tree = new StudyTree(r.tree);
    this.current = r.current;
    this.position = r.position;
    this.chat = r.chat.slice();
    this.participants = msg.participants;
    this.anonymous = msg.anonymous;
    this.titleText = r.title;
    this.gameId = r.game_id;
    this.ensureBoard(this.tree.size);
    this.ensureAiReview();
    this.render();
  }

  /** A review made from a game shows that game's AI review; no game socket here, so it asks again while it runs.
   *  The board is the leader's: their jumps (the graph, a mistake, n / p) move it for everyone. */
  ensureAiReview() {
    if (!this.gameId) {
      this.ensureRecordReview();
      return;
    }
    if (this.aiReview && this.aiReview.gameId === this.gameId) return;
    if (this.aiReview) this.aiReview.destroy();
    this.aiReview = new AiReviewCard({ gameId: this.gameId, poll: true, onJump: (i) => this.gotoMove(i) });
    replace(this.aiHost, this.aiReview.el);
    replace(this.aiCaption, this.aiReview.caption);
    this.aiReview.load();
  }

  /** A review made from an uploaded record: its viewer may have KataGo review the record's main line. That review
   *  is theirs alone (docs/review.md, "Uploaded records"): found again among their records by this review's id. */
  async ensureRecordReview() {
    if (this.recordAsked || !this.me) return;
    this.recordAsked = true;
    let records = [];
    try {
      ({ records } = await api.aiRecords());
    } catch (err) {
      errorToast(err);
    }
    if (this.destroyed) return;
    const mine = records.find((r) => r.review_id === this.reviewId);
    if (mine) {
      this.showRecordReview(mine.record_id);
      return;
    }
    const ask = h("button", { type: "button", class: "btn primary small", dataset: { action: "ai-review-record" }, i18n: "ai_review.start", onclick: () => this.uploadRecord(ask) });
    replace(this.aiHost, h("section", { class: "card ai-review-offer" }, h("h2", { i18n: "ai_review.title" }), h("p", { class: "muted small", i18n: "ai_review.record_offer" }), ask));
  }

  async uploadRecord(button) {
    button.disabled = true;
    try {
      const response = await fetch(api.reviewSgfUrl(this.reviewId), { credentials: "same-origin" });
      const record = await api.uploadAiRecord(await response.text(), this.reviewId);
      this.showRecordReview(record.record_id);
    } catch (err) {
      recordErrorToast(err);
      button.disabled = false;
    }
  }

  showRecordReview(recordId) {
    if (this.aiReview) this.aiReview.destroy();
    this.aiReview = new AiReviewCard({ recordId, onJump: (i) => this.gotoMove(i) });
    replace(this.aiHost, this.aiReview.el);
    replace(this.aiCaption, this.aiReview.caption);
    this.aiReview.load();
    this.render();
  }

  /** The game's move i: the node i steps down the main line (the game's own moves). */
  gotoMove(i) {
    let n = this.tree && this.tree.root;
    for (let k = 0; n && k < i; k++) n = n.children[0];
    if (n && n.id !== this.current && this.leading()) this.goto(n);
    else this.render();
  }

  /** How many moves down the main line the node shown is, or null in a variation. */
  moveIndex() {
    const path = this.tree.path(this.node());
    for (let k = 1; k < path.length; k++) if (path[k - 1].children[0] !== path[k]) return null;
    return path.length - 1;
  }

  onEvent(ev) {
    if (!this.tree) return;
    const node = (id) => this.tree.nodes.get(id);
    if (ev.t === "goto") {
      this.current = ev.node;
      this.position = ev.position;
    } else if (ev.t === "play") {
      if (!node(ev.node.id)) {
        const parent = node(ev.node.parent);
        if (!parent) {
          this.socket.resync();
          return;
        }
        this.tree.add(parent, ev.node.move, null, ev.node.id);
      }
      this.current = ev.node.id;
      this.position = ev.position;
    } else if (ev.t === "comment") {
      if (node(ev.node)) node(ev.node).comment = ev.text;
    } else if (ev.t === "mark") {
      const n = node(ev.node);
      if (n && ev.kind) n.marks.set(key(ev.p), { point: ev.p, kind: ev.kind, label: ev.label || "" });
      else if (n) n.marks.delete(key(ev.p));
    } else if (ev.t === "remove_branch") {
      if (node(ev.node)) this.tree.remove(node(ev.node));
      this.current = ev.current;
      this.position = ev.position;
    } else if (ev.t === "control") {
      this.controller = ev.controller;
    } else if (ev.t === "chat") {
      this.chat.push(ev);
    }
    this.render();
  }

  onEphemeral(msg) {
    if (msg.t === "participants") {
      this.participants = msg.participants;
      this.anonymous = msg.anonymous;
      this.renderPeople();
    }
  }

  onStatus(status, detail) {
    const failed = status === "failed";
    this.banner.hidden = status === "open" || status === "connecting";
    setText(this.banner, failed ? t(detail && detail.code === "review_full" ? "error.review_full" : "error.no_such_review") : t("game.reconnecting"));
  }

  // ---- actions ------------------------------------------------------------------------------------------
  send(type, fields = {}) {
    return this.socket.send(type, fields).catch((err) => {
      errorToast(err);
      throw err;
    });
  }

  goto(node) {
    if (node && this.leading() && node.id !== this.current) this.send("goto", { node: node.id }).catch(() => {});
  }

  setTool(tool) {
    this.tool = tool;
    this.render();
  }

  markAt(p) {
    if (!this.leading() || this.tool === "play") return;
    const n = this.node();
    const old = n && n.marks.get(key(p));
    if (old && old.kind === this.tool) {
      this.send("mark", { p, kind: "clear" }).catch(() => {});
      return;
    }
    const fields = { p, kind: this.tool };
    if (this.tool === "label") {
      const used = new Set([...(n ? n.marks.values() : [])].map((m) => m.label));
      fields.label = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("").find((l) => !used.has(l)) || "?";
    }
    this.send("mark", fields).catch(() => {});
  }

  saveComment() {
    if (this.leading()) this.send("comment", { text: clip(this.comment.value, MAX_COMMENT) }).catch(() => {});
  }

  removeBranch() {
    const n = this.node();
    if (this.leading() && n && n.parent) this.send("remove_branch", { node: n.id }).catch(() => {});
  }

  /** The score estimate of the node shown, under the review's own setup, rules and komi (the analysis board's
   *  request, with its limits and priority); asked again, it is put away. */
  async askEstimate() {
    const node = this.node();
    if (!node) return;
    if (this.estimate && this.estimate.node === node.id) {
      this.estimate = null;
      this.render();
      return;
    }
    try {
      const answer = await api.studyEstimate(this.tree.setup, this.tree.line(node));
      this.estimate = { ...estimateOf(answer), node: node.id };
      this.render();
    } catch (err) {
      errorToast(err);
    }
  }

  handTo(person) {
    this.send("hand_control", { to: person.id }).catch(() => {});
  }

  async sendChat(ev) {
    ev.preventDefault();
    const text = this.chatInput.value.trim();
    if (!text) return;
    try {
      await this.send("chat", { text: clip(text, MAX_CHAT) });
      this.chatInput.value = "";
    } catch {
      /* shown by send */
    }
  }

  copyLink() {
    const url = `${location.origin}${location.pathname}#/reviews/${this.reviewId}`;
    if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
  }

  keyboard(ev) {
    if (!this.leading() || ev.target.closest("input, textarea, select, svg")) return;
    if (this.aiReview && this.aiReview.keyboard(ev)) {
      ev.preventDefault();
      return;
    }
    const n = this.node();
    if (!n) return;
    const target = { ArrowLeft: n.parent, ArrowRight: n.children[0], Home: this.tree.root, End: this.lineEnd() }[ev.key];
    if (target === undefined) return;
    ev.preventDefault();
    this.goto(target);
  }

  // ---- drawing ------------------------------------------------------------------------------------------
  render() {
    if (!this.tree) return;
    const lead = this.leading();
    setText(this.title, this.titleText);
    replace(this.source, this.gameId ? h("a", { href: `#/game/${this.gameId}`, i18n: "review.the_game" }) : t("review.uploaded"));
    const pos = this.position;
    this.board.setPosition(pos.board);
    this.board.setLastMove(pos.move && pos.move.p);
    const node = this.node();
    this.board.setAnnotations(node ? [...node.marks.values()] : []);
    const estimate = this.estimate && this.estimate.node === this.current ? this.estimate : null;
    this.board.setScoring(estimate ? estimate.dead : [], estimate ? estimate.rows : null);
    showEstimate(this.estimateLine, estimate);
    if (this.aiReview) this.aiReview.show(this.board, this.moveIndex(), node ? [...node.marks.values()] : []);
    this.board.setInteractive(lead && this.tool === "play");
    setText(this.leader, lead ? t("review.you_lead") : t("review.led_by", { name: this.controller.name }));
    this.root.dataset.leading = String(lead);
    this.takeBtn.hidden = !this.owning() || lead;
    this.nav.querySelectorAll("button").forEach((b) => {
      b.disabled = !lead;
    });
    setText(this.moveLabel, pos.move
      ? t("review.move_n", { n: pos.number, move: pos.move.p ? gtp(pos.move.p, this.tree.size) : t("game.pass_move") })
      : t("review.start"));
    for (const b of this.tools.querySelectorAll("button")) b.classList.toggle("primary", b.dataset.tool === this.tool);
    this.tools.hidden = !lead;
    this.removeBtn.hidden = !lead || !node || !node.parent;
    this.commentBtn.hidden = !lead;
    this.comment.hidden = !lead;
    if (lead && document.activeElement !== this.comment) this.comment.value = node ? node.comment : "";
    this.commentText.hidden = lead || !(node && node.comment);
    setText(this.commentText, node ? node.comment : "");
    this.renderLine();
    this.renderPeople();
    this.renderChat();
  }

  renderLine() {
    const lead = this.leading();
    const nodes = this.tree.path(this.node()).slice(1);
    replace(this.line, nodes.map((n, i) => {
      const label = `${i + 1}. ${n.move.point ? gtp(n.move.point, this.tree.size) : t("game.pass_move")}`;
      const item = h("button", { type: "button", class: n.id === this.current ? "mv current" : "mv", disabled: !lead, dataset: { node: n.id }, onclick: () => this.goto(n) }, label);
      if (n.id === this.current) item.setAttribute("aria-current", "true");
      return h("li", {}, item);
    }));
    this.line.scrollTop = this.line.scrollHeight;
    const node = this.node();
    const next = node ? node.children : [];
    replace(this.variations, next.length > 1 ? next.map((c, i) => h(
      "button",
      { type: "button", class: "btn small", disabled: !lead, dataset: { variation: c.id }, onclick: () => this.goto(c) },
      `${i === 0 ? t("review.main_line") : t("review.variation_n", { n: i })}: ${c.move.point ? gtp(c.move.point, this.tree.size) : t("game.pass_move")}`,
    )) : []);
  }

  renderPeople() {
    const canHand = this.owning() || this.leading();
    replace(this.peopleList, (this.participants || []).map((p) => h(
      "li",
      { class: "review-person", dataset: { user: p.id } },
      h("span", {}, p.name),
      this.owner && p.id === this.owner.id ? h("span", { class: "muted small", i18n: "review.owner" }) : null,
      this.controller && p.id === this.controller.id ? h("span", { class: "badge", i18n: "review.leading" }) : null,
      canHand && this.controller && p.id !== this.controller.id
        ? h("button", { type: "button", class: "btn small", dataset: { action: "hand" }, i18n: "review.hand_control", onclick: () => this.handTo(p) })
        : null,
    )), this.anonymous ? h("li", { class: "muted small" }, t("review.anonymous_n", { n: this.anonymous })) : null);
  }

  renderChat() {
    const atBottom = this.chatList.scrollHeight - this.chatList.scrollTop - this.chatList.clientHeight < 30;
    replace(this.chatList, this.chat.map(renderMessage));
    if (atBottom) this.chatList.scrollTop = this.chatList.scrollHeight;
    this.chatForm.hidden = !this.me;
    this.chatNote.hidden = Boolean(this.me);
  }
}
