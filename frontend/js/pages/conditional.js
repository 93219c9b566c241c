// Conditional moves on the game page (docs/protocol.md §3.5, docs/frontend.md): while the opponent is to move in
// a correspondence game, the player plays a hypothetical move of the opponent and their answer on the board,
// may go on ("then if … answer …"), adds the line to a draft of their tree and saves the draft with the
// `conditional` action. The server checks the tree and is the only source of the stored one (sent to its owner
// alone, in the snapshot and in `conditional` events). The line's positions are the server's too: each click asks
// /api/study/position (docs/study.md) for the position after the game's moves and the line, so its captures and
// a refused point (ko and superko judged against the whole game, as when the line is played) come from the rules
// engine, and a refusal is shown with the server's reason; nothing here decides legality or captures.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { parsePosition } from "../board.js";
import { gtp } from "../coords.js";
import { isPlayer, myColors, myTurn } from "../gamestate.js";
import { errorToast, toast } from "../ui.js";

const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const copyTree = (tree) => (tree || []).map(([theirs, mine, next]) => [theirs, mine, copyTree(next)]);

/** The tree with the line [their move, my answer, their move, my answer, …] added (a new tree): branches the
 * line already follows are kept; where it answers differently, the new answer replaces the old branch. */
export function addLine(tree, line) {
  const out = copyTree(tree);
  let level = out;
  for (let i = 0; i + 1 < line.length; i += 2) {
    let branch = level.find((b) => same(b[0], line[i]));
    if (!branch) {
      branch = [line[i], line[i + 1], []];
      level.push(branch);
    } else if (!same(branch[1], line[i + 1])) {
      branch[1] = line[i + 1];
      branch[2] = [];
    }
    level = branch[2];
  }
  return out;
}

/** The tree without the branch at path (indices from the root), a new tree. */
function removeAt(tree, path) {
  const out = copyTree(tree);
  let level = out;
  for (const i of path.slice(0, -1)) level = level[i][2];
  level.splice(path[path.length - 1], 1);
  return out;
}

export class ConditionalEditor {
  /** handlers: send(tree) -> Promise (the socket's `conditional`), changed() (redraw the page). */
  constructor(handlers) {
    this.handlers = handlers;
    this.editing = false;
    this.draft = [];
    this.line = [];
    this.grids = []; // the server's position after each move of the line
    this.pending = Promise.resolve(); // the clicks' questions to the server, answered in turn
    this.el = h("div", { class: "card conditional", id: "conditional", hidden: true });
  }

  /** Shown to a player of a correspondence game in play (the server sends them their tree; null otherwise). */
  shown(s) {
    return isPlayer(s) && !s.practice && myColors(s).length === 1 && Boolean(s.timeControl.correspondence) && s.phase === "playing" && Array.isArray(s.conditional);
  }

  mine(s) {
    return myColors(s)[0];
  }

  theirs(s) {
    return this.mine(s) === "B" ? "W" : "B";
  }

  /** The colour of the next click: the opponent's move first, then the answer, alternately. */
  nextColor(s) {
    return this.line.length % 2 === 0 ? this.theirs(s) : this.mine(s);
  }

  start() {
    this.editing = true;
    this.draft = copyTree(this.state.conditional);
    this.clearLine();
    this.handlers.changed();
  }

  stop() {
    this.editing = false;
    this.clearLine();
    this.handlers.changed();
  }

  clearLine() {
    this.line = [];
    this.grids = [];
  }

  /** Play the next move of the line at p, after the clicks before it: the server works out the position (or
   * refuses the point, told). */
  click(p) {
    if (!this.editing) return;
    this.pending = this.pending.then(() => this.extend([p[0], p[1]]));
  }

  async extend(p) {
    if (!this.editing) return;
    const s = this.state;
    const line = [...this.line, p];
    const moves = line.map((q, i) => ({ color: i % 2 === 0 ? this.theirs(s) : this.mine(s), point: q }));
    try {
      const pos = await api.gamePosition(s.id, moves);
      if (!this.editing || this.line.length !== line.length - 1) return; // stopped or taken back meanwhile
      this.line = line;
      this.grids.push(parsePosition(pos.rows, s.size));
    } catch (err) {
      errorToast(err);
    }
    this.handlers.changed();
  }

  takeBack() {
    this.line.pop();
    this.grids.pop();
    this.handlers.changed();
  }

  addLine() {
    this.draft = addLine(this.draft, this.line.slice(0, this.line.length - (this.line.length % 2)));
    this.clearLine();
    this.handlers.changed();
  }

  async save(tree) {
    try {
      await this.handlers.send(tree);
      this.editing = false;
      this.clearLine();
      toast(tree.length ? "cond.saved" : "cond.cleared", {}, "info", 2500);
    } catch (err) {
      errorToast(err);
    }
    this.handlers.changed();
  }

  /** The board while editing: the server's position after the line, its moves numbered in order. */
  drawOn(board, s) {
    board.setPosition(this.line.length ? this.grids[this.line.length - 1] : s.board);
    board.setLastMove(this.line.length ? this.line[this.line.length - 1] : null);
    board.setInteractive(true);
    board.setConfirmMode(false);
    board.setAnnotations(this.line.map((p, i) => ({ point: p, kind: "label", label: String(i + 1) })));
  }

  treeView(tree, s, editable, path = []) {
    const items = tree.map(([theirs, mine, next], i) =>
      h(
        "li",
        { dataset: { theirs: theirs.join(","), mine: mine.join(",") } },
        h("span", { i18n: path.length ? "cond.then_if" : "cond.if", i18nParams: { theirs: gtp(theirs, s.size), mine: gtp(mine, s.size) } }),
        editable ? h("button", { type: "button", class: "btn small link cond-remove", i18n: "cond.remove", onclick: () => {
          this.draft = removeAt(this.draft, [...path, i]);
          this.handlers.changed();
        } }) : null,
        next && next.length ? this.treeView(next, s, editable, [...path, i]) : null,
      ),
    );
    return h("ul", { class: "cond-tree" }, items);
  }

  render(s) {
    this.state = s;
    const shown = this.shown(s);
    this.el.hidden = !shown;
    if (!shown || myTurn(s)) this.editing = false;
    if (!shown) return;
    const stored = s.conditional;
    const parts = [h("h2", { i18n: "cond.title" })];
    if (!this.editing) {
      parts.push(h("p", { class: "muted small", i18n: "cond.help" }));
      parts.push(stored.length ? this.treeView(stored, s, false) : h("p", { class: "cond-none muted small", i18n: "cond.none" }));
      const row = [];
      if (!myTurn(s)) row.push(h("button", { type: "button", class: "btn small", id: "cond-edit", i18n: "cond.edit", onclick: () => this.start() }));
      if (stored.length) row.push(h("button", { type: "button", class: "btn small danger-outline", id: "cond-clear", i18n: "cond.clear", onclick: () => this.save([]) }));
      parts.push(h("div", { class: "row" }, row));
    } else {
      const next = this.nextColor(s) === this.mine(s) ? "cond.play_answer" : "cond.play_theirs";
      parts.push(h("p", { class: "small", id: "cond-prompt", i18n: next }));
      parts.push(h("p", { class: "cond-line small" }, this.line.length ? this.line.map((p) => gtp(p, s.size)).join(" → ") : ""));
      const complete = this.line.length >= 2;
      parts.push(
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "btn small", id: "cond-add", i18n: "cond.add_line", disabled: !complete, onclick: () => this.addLine() }),
          h("button", { type: "button", class: "btn small", id: "cond-back", i18n: "cond.take_back", disabled: !this.line.length, onclick: () => this.takeBack() }),
        ),
      );
      parts.push(this.draft.length ? this.treeView(this.draft, s, true) : h("p", { class: "cond-none muted small", i18n: "cond.none" }));
      parts.push(
        h(
          "div",
          { class: "row" },
          h("button", { type: "button", class: "btn small primary", id: "cond-save", i18n: "cond.save", onclick: () => this.pending.then(() => this.save(addLine(this.draft, this.line.slice(0, this.line.length - (this.line.length % 2))))) }),
          h("button", { type: "button", class: "btn small", id: "cond-cancel", i18n: "common.cancel", onclick: () => this.stop() }),
        ),
      );
    }
    replace(this.el, parts);
  }
}
