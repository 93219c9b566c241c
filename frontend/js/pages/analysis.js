// The analysis board (#/analysis, #/analysis/game/<id>[/<move>]): a tree of variations kept in the
// browser (studytree.js), drawn on the board. Every position, capture and refusal comes from the server
// (/api/study/position); score estimates and engine hints too. Nothing of it reaches a game's players.
// Over 400 lines as one module: the layout, the requests and the drawing all read the view's state (the node
// shown, the tool, the estimate, the hints); the tree itself is studytree.js.
import { h, replace, setText } from "../dom.js";
import { t, onLanguageChange } from "../i18n.js";
import { api } from "../api.js";
import { Board } from "../board.js";
import { gtp } from "../coords.js";
import { errorToast, toast } from "../ui.js";
import { StudyTree } from "../studytree.js";
import { limitChars } from "../textlimit.js";
import { estimateOf, showEstimate } from "./estimate.js";

export function mount(container, gameId, moveNumber) {
  const view = new AnalysisView(container, gameId || null, moveNumber === undefined ? null : Number(moveNumber));
  return () => view.destroy();
}

const TOOLS = ["play", "triangle", "square", "circle", "label"];

/** One hint's line: "1. D4 (2.5)" from GNU Go; from KataGo "1. D4 Black 62% B+1.5: D4 C3 E5" (win rate and lead
 *  for Black, the principal variation). */
function hintText(m, i, size) {
  const where = (p) => (p ? gtp(p, size) : t("analysis.pass"));
  if (typeof m.winrate !== "number") {
    return `${i + 1}. ${where(m.point)}${m.value !== null && m.value !== undefined ? ` (${m.value.toFixed(1)})` : ""}`;
  }
  const lead = `${m.score_lead >= 0 ? "B" : "W"}+${Math.abs(m.score_lead).toFixed(1)}`;
  return `${i + 1}. ${t("analysis.hint_katago", { move: where(m.point), winrate: Math.round(m.winrate * 100), lead, pv: (m.pv || []).map(where).join(" ") })}`;
}

export class AnalysisView {
  constructor(container, gameId, moveNumber) {
    this.gameId = gameId;
    this.tree = null;
    this.node = null;
    this.board = null;
    this.tool = "play";
    this.estimate = null;
    this.hints = null;
    this.asked = 0; // the newest position request: older answers are dropped
    this.build(container);
    this.offLang = onLanguageChange(() => this.render());
    this.onKeyDown = (ev) => this.keyboard(ev);
    document.addEventListener("keydown", this.onKeyDown);
    if (gameId) {
      api.studyGame(gameId).then(
        (doc) => this.load(doc, moveNumber),
        (err) => {
          errorToast(err);
          this.load(StudyTree.empty(19).toDoc());
        },
      );
    } else {
      this.load(StudyTree.empty(19).toDoc());
    }
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener("keydown", this.onKeyDown);
    this.offLang();
    if (this.board) this.board.destroy();
    this.root.remove();
  }

  // ---- layout -------------------------------------------------------------------------------------------
  build(container) {
    this.boardHost = h("div", { class: "board-host" });
    this.status = h("p", { class: "status-line", "aria-live": "polite" });
    this.source = h("p", { class: "muted small" });
    this.estimateLine = h("p", { class: "estimate-line", "aria-live": "polite", hidden: true });
    this.hintList = h("ol", { class: "hint-list", hidden: true });
    this.lineList = h("ol", { class: "move-list analysis-line", i18nAria: "analysis.line" });
    this.variations = h("div", { class: "variations" });
    this.comment = limitChars(h("textarea", { class: "comment", rows: 4, i18nAria: "analysis.comment", i18nPlaceholder: "analysis.comment" }), 4000);
    this.comment.addEventListener("input", () => {
      if (this.node) this.node.comment = this.comment.value;
    });
    this.tools = h(
      "div",
      { class: "tools", role: "radiogroup", i18nAria: "analysis.tool" },
      TOOLS.map((tool) => h("button", { type: "button", class: "btn small", role: "radio", dataset: { tool }, i18n: `analysis.tool_${tool}`, onclick: () => this.setTool(tool) })),
    );
    const nav = h(
      "div",
      { class: "move-nav" },
      this.navButton("M3 2h2v12H3zM14 2v12L6 8z", "analysis.first", () => this.first()),
      this.navButton("M12 2v12L4 8z", "analysis.prev", () => this.prev()),
      this.navButton("M4 2v12l8-6z", "analysis.next", () => this.next()),
      this.navButton("M2 2v12l8-6zM11 2h2v12h-2z", "analysis.last", () => this.last()),
    );
    const fileInput = h("input", { type: "file", accept: ".sgf,application/x-go-sgf,text/plain", class: "sgf-file", i18nAria: "analysis.import_file" });
    fileInput.addEventListener("change", async () => {
      const file = fileInput.files && fileInput.files[0];
      fileInput.value = "";
      if (file) this.importRecord(new Uint8Array(await file.arrayBuffer()));
    });
    this.paste = h("textarea", { class: "sgf-paste", rows: 3, i18nAria: "analysis.paste", i18nPlaceholder: "analysis.paste" });
    const size = h("select", { class: "new-size", i18nAria: "analysis.size" }, [19, 13, 9].map((n) => h("option", { value: n }, `${n}×${n}`)));
    this.root = h(
      "div",
      { class: "game analysis" },
      h("div", { class: "board-col" }, this.boardHost, h("div", { class: "row spread analysis-bar" }, this.status, nav)),
      h(
        "aside",
        { class: "side" },
        h(
          "div",
          { class: "card" },
          h("h1", { class: "analysis-title", i18n: "analysis.title" }),
          this.source,
          h("p", { class: "muted small", i18n: "analysis.local_note" }),
          this.tools,
          h(
            "div",
            { class: "actions" },
            h("button", { type: "button", class: "btn", dataset: { action: "pass" }, i18n: "analysis.pass", onclick: () => this.play(null) }),
            h("button", { type: "button", class: "btn", dataset: { action: "estimate" }, i18n: "analysis.estimate", onclick: () => this.askEstimate() }),
            h("button", { type: "button", class: "btn", dataset: { action: "hints" }, i18n: "analysis.hints", onclick: () => this.askHints() }),
            h("button", { type: "button", class: "btn danger-outline", dataset: { action: "remove" }, i18n: "analysis.remove", onclick: () => this.removeBranch() }),
          ),
          this.estimateLine,
          this.hintList,
        ),
        h("div", { class: "card moves-card" }, h("h2", { i18n: "analysis.line" }), this.lineList, h("h3", { class: "small", i18n: "analysis.variations" }), this.variations),
        h("div", { class: "card" }, h("h2", { i18n: "analysis.comment" }), this.comment),
        h(
          "div",
          { class: "card" },
          h("h2", { i18n: "analysis.records" }),
          h("div", { class: "actions" }, h("button", { type: "button", class: "btn primary", dataset: { action: "export" }, i18n: "analysis.export", onclick: () => this.exportSgf() })),
          h("label", { class: "field" }, h("span", { i18n: "analysis.import_file" }), fileInput),
          this.paste,
          h("div", { class: "actions" }, h("button", { type: "button", class: "btn", dataset: { action: "import-paste" }, i18n: "analysis.import_paste", onclick: () => this.importRecord(this.paste.value) })),
          h("div", { class: "actions" }, size, h("button", { type: "button", class: "btn", dataset: { action: "new" }, i18n: "analysis.new_board", onclick: () => this.load(StudyTree.empty(Number(size.value)).toDoc()) })),
        ),
      ),
    );
    container.append(this.root);
  }

  navButton(path, key, onclick) {
    const icon = h("svg:svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" }, h("svg:path", { d: path, fill: "currentColor" }));
    return h("button", { type: "button", class: "btn icon", i18nAria: key, i18nTitle: key, onclick }, icon);
  }

  // ---- the tree -----------------------------------------------------------------------------------------
  load(doc, moveNumber = null) {
    if (this.destroyed) return;
    this.tree = new StudyTree(doc);
    const size = this.tree.size;
    if (!this.board || this.board.size !== size) {
      if (this.board) this.board.destroy();
      replace(this.boardHost);
      this.board = new Board(this.boardHost, {
        size,
        label: t("analysis.title"),
        onPlay: (p) => this.play(p),
        // the board itself turns down a click on a stone: a mark may go there, and a move is for the server to refuse
        onIllegal: (p) => this.play(p),
        isLegal: () => true, // the server decides
        ghostColor: () => (this.tool === "play" && this.node && this.node.pos ? this.node.pos.to_move : null),
      });
    }
    let node = this.tree.root;
    for (let i = 0; moveNumber !== null && i < moveNumber && node.children.length; i++) node = node.children[0];
    this.root.dataset.size = String(size);
    this.goTo(node);
  }

  async goTo(node) {
    const before = this.node;
    this.node = node;
    this.estimate = null;
    this.hints = null;
    if (!node.pos) {
      const asked = ++this.asked;
      this.board.setInteractive(false);
      try {
        const pos = await api.studyPosition(this.tree.setup, this.tree.line(node));
        node.pos = pos;
      } catch (err) {
        errorToast(err);
        if (asked === this.asked && this.node === node && before && before.pos && this.tree.nodes.get(before.id) === before) {
          this.node = before; // stay where the board is
          this.render();
        }
        return;
      }
      if (asked !== this.asked || this.destroyed || this.node !== node) return;
    }
    this.render();
  }

  async play(p) {
    const node = this.node;
    if (!node || !node.pos) return;
    if (this.tool !== "play") {
      if (!p) return;
      this.tree.toggleMark(node, p, this.tool);
      this.render();
      return;
    }
    const move = { color: node.pos.to_move, point: p };
    const known = this.tree.childWith(node, move);
    if (known) {
      this.goTo(known);
      return;
    }
    this.board.setInteractive(false);
    try {
      const pos = await api.studyPosition(this.tree.setup, [...this.tree.line(node), move]);
      if (this.destroyed || this.node !== node) return;
      this.goTo(this.tree.add(node, move, pos));
    } catch (err) {
      errorToast(err);
      this.board.setInteractive(true);
    }
  }

  removeBranch() {
    if (!this.node || !this.node.parent) return;
    this.goTo(this.tree.remove(this.node));
  }

  setTool(tool) {
    this.tool = tool;
    this.render();
  }

  first() {
    if (this.node) this.goTo(this.tree.root);
  }

  prev() {
    if (this.node && this.node.parent) this.goTo(this.node.parent);
  }

  next() {
    if (this.node && this.node.children.length) this.goTo(this.node.children[0]);
  }

  last() {
    if (!this.node) return;
    let n = this.node;
    while (n.children.length) n = n.children[0];
    this.goTo(n);
  }

  sibling(step) {
    const n = this.node;
    if (!n || !n.parent) return;
    const list = n.parent.children;
    const i = list.indexOf(n) + step;
    if (i >= 0 && i < list.length) this.goTo(list[i]);
  }

  keyboard(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !this.node) return;
    const target = ev.target;
    if (target && target.closest("input, textarea, select, [contenteditable], svg.board, dialog")) return;
    const keys = {
      ArrowLeft: () => this.prev(),
      ArrowRight: () => this.next(),
      Home: () => this.first(),
      End: () => this.last(),
      ArrowUp: () => this.sibling(-1),
      ArrowDown: () => this.sibling(1),
    };
    const fn = keys[ev.key];
    if (!fn) return;
    ev.preventDefault();
    fn();
  }

  // ---- the server's help --------------------------------------------------------------------------------
  async askEstimate() {
    const node = this.node;
    if (!node || !node.pos) return;
    if (this.estimate) {
      this.estimate = null;
      this.render();
      return;
    }
    try {
      const answer = await api.studyEstimate(this.tree.setup, this.tree.line(node));
      if (this.node !== node) return;
      this.estimate = estimateOf(answer);
      this.render();
    } catch (err) {
      errorToast(err);
    }
  }

  async askHints() {
    const node = this.node;
    if (!node || !node.pos) return;
    try {
      const answer = await api.studyHints(this.tree.setup, this.tree.line(node));
      if (this.node !== node) return;
      this.hints = answer.moves;
      if (!this.hints.length) toast("analysis.no_hints");
      this.render();
    } catch (err) {
      errorToast(err);
    }
  }

  async exportSgf() {
    try {
      const text = await api.studyExport(this.tree.toDoc());
      const url = URL.createObjectURL(new Blob([text], { type: "application/x-go-sgf" }));
      const name = this.tree.info.game_id ? `tengen-${this.tree.info.game_id}-analysis.sgf` : "tengen-analysis.sgf";
      const link = h("a", { href: url, download: name, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (err) {
      errorToast(err);
    }
  }

  // A record from a file (its bytes) or pasted (text).
  async importRecord(record) {
    if (typeof record === "string" ? !record.trim() : !record.length) {
      toast("error.bad_sgf", {}, "error");
      return;
    }
    try {
      const doc = await api.studyImport(record);
      this.gameId = null;
      this.load(doc);
      toast("analysis.imported");
    } catch (err) {
      errorToast(err);
    }
  }

  // ---- drawing ------------------------------------------------------------------------------------------
  render() {
    const node = this.node;
    if (!node || !node.pos || !this.board) return;
    const pos = node.pos;
    const size = this.tree.size;
    this.board.setPosition(pos.rows);
    this.board.setLastMove(node.move && node.move.point);
    this.board.setScoring(this.estimate ? this.estimate.dead : [], this.estimate ? this.estimate.rows : null);
    const marks = [...node.marks.values()];
    (this.hints || []).forEach((m, i) => {
      if (m.point) marks.push({ point: m.point, kind: "hint", label: String(i + 1) });
    });
    this.board.setAnnotations(marks);
    this.board.setInteractive(true);
    this.root.dataset.node = String(node.id);
    this.root.dataset.depth = String(this.tree.depth(node));
    for (const b of this.tools.children) {
      const on = b.dataset.tool === this.tool;
      b.classList.toggle("primary", on);
      b.setAttribute("aria-checked", String(on));
    }
    const info = this.tree.info;
    if (info.black || info.white) {
      setText(this.source, "analysis.source", { black: info.black || "?", white: info.white || "?", result: info.result || "" });
    } else {
      setText(this.source, "analysis.source_none");
    }
    setText(this.status, "analysis.status", {
      color: t(pos.to_move === "B" ? "color.black" : "color.white"),
      n: this.tree.depth(node),
      b: pos.prisoners.B,
      w: pos.prisoners.W,
    });
    showEstimate(this.estimateLine, this.estimate);
    if (this.hints && this.hints.length) {
      replace(
        this.hintList,
        this.hints.map((m, i) => h("li", { class: "hint" }, hintText(m, i, size))),
      );
      this.hintList.hidden = false;
    } else {
      this.hintList.hidden = true;
    }
    if (document.activeElement !== this.comment) this.comment.value = node.comment;
    this.renderLine();
  }

  moveLabel(move) {
    return move.point ? gtp(move.point, this.tree.size) : t("analysis.pass");
  }

  renderLine() {
    const path = this.tree.path(this.node);
    // the current line, continued along the first variations after the current node
    const line = path.slice(1);
    for (let n = this.node; n.children.length; ) {
      n = n.children[0];
      line.push(n);
    }
    replace(
      this.lineList,
      line.length
        ? line.map((n, i) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: `mv${n === this.node ? " current" : ""}${n.parent.children.length > 1 ? " branch" : ""}`,
                  "aria-current": n === this.node ? "step" : undefined,
                  dataset: { node: n.id },
                  onclick: () => this.goTo(n),
                },
                h("span", { class: "mv-n" }, String(i + 1)),
                h("span", { class: `stone-icon ${n.move.color === "B" ? "black" : "white"}`, "aria-hidden": "true" }),
                this.moveLabel(n.move),
                n.comment ? h("span", { class: "has-comment", "aria-hidden": "true" }, " ✎") : null,
              ),
            ),
          )
        : h("li", { class: "muted small", i18n: "game.no_moves" }),
    );
    const current = this.lineList.querySelector(".current");
    if (current) {
      const box = this.lineList.getBoundingClientRect();
      const item = current.getBoundingClientRect();
      if (item.top < box.top) this.lineList.scrollTop -= box.top - item.top;
      else if (item.bottom > box.bottom) this.lineList.scrollTop += item.bottom - box.bottom;
    }
    const kids = this.node.children;
    replace(
      this.variations,
      kids.length > 1
        ? kids.map((c, i) =>
            h("button", { type: "button", class: `btn small${i === 0 ? " primary" : ""}`, dataset: { variation: i }, onclick: () => this.goTo(c) }, `${String.fromCharCode(65 + (i % 26))}: ${this.moveLabel(c.move)}`),
          )
        : h("p", { class: "muted small", i18n: "analysis.no_variations" }),
    );
  }
}
