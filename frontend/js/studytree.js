// The tree of variations of an analysis board, as data (docs/study.md, "The tree as JSON"). It holds moves,
// comments and marks, and the positions the server computed for them; it decides nothing about the rules
// (every position and every refusal comes from the server). Drawing is the page's and the board's business.

export const MARK_KINDS = ["triangle", "square", "circle", "label"];

const key = (p) => `${p[0]},${p[1]}`;
const sameMove = (a, b) =>
  a.color === b.color && ((a.point === null && b.point === null) || (a.point && b.point && a.point[0] === b.point[0] && a.point[1] === b.point[1]));

export class StudyTree {
  /** doc: {format, setup, info, nodes: [{id, parent, move, comment, marks}] in preorder, next_id}. */
  constructor(doc) {
    this.setup = doc.setup;
    this.info = doc.info || {};
    this.nodes = new Map();
    this.root = null;
    let next = 1;
    for (const n of doc.nodes) {
      const parent = n.parent === null || n.parent === undefined ? null : this.nodes.get(n.parent);
      const node = {
        id: n.id,
        parent,
        move: n.move ? { color: n.move.color, point: n.move.point ? [n.move.point[0], n.move.point[1]] : null } : null,
        comment: n.comment || "",
        marks: new Map((n.marks || []).map((m) => [key(m.point), { point: [m.point[0], m.point[1]], kind: m.kind, label: m.label || "" }])),
        children: [],
        pos: null, // the server's position at this node, once asked
      };
      if (parent) parent.children.push(node);
      else this.root = node;
      this.nodes.set(node.id, node);
      next = Math.max(next, node.id + 1);
    }
    this.nextId = Math.max(next, doc.next_id || 0); // ids a removed node retired stay retired
  }

  /** An empty board of ``size`` under Chinese rules. */
  static empty(size = 19) {
    return new StudyTree({ format: 1, setup: { size, rules: "chinese", komi: 7.5 }, info: {}, nodes: [{ id: 0, parent: null }] });
  }

  get size() {
    return this.setup.size || 19;
  }

  /** The nodes from the root to ``node``. */
  path(node) {
    const out = [];
    for (let n = node; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The moves from the start to ``node``, as the server's line. */
  line(node) {
    return this.path(node).filter((n) => n.move).map((n) => n.move);
  }

  depth(node) {
    return this.line(node).length;
  }

  childWith(node, move) {
    return node.children.find((c) => sameMove(c.move, move)) || null;
  }

  /** Add ``move`` below ``node`` (the server has accepted it; ``pos`` is its answer); an identical child is reused. */
  add(node, move, pos, id = null) {
    let child = this.childWith(node, move);
    if (!child) {
      // ``id``: the server's, when the server grew the tree (a shared review); else the next free one.
      child = { id: id ?? this.nextId, parent: node, move, comment: "", marks: new Map(), children: [], pos: null };
      this.nextId = Math.max(this.nextId, child.id + 1);
      node.children.push(child);
      this.nodes.set(child.id, child);
    }
    child.pos = pos;
    return child;
  }

  /** Remove ``node`` and everything below it; returns its parent. */
  remove(node) {
    const parent = node.parent;
    if (!parent) return node;
    parent.children.splice(parent.children.indexOf(node), 1);
    const stack = [node];
    while (stack.length) {
      const n = stack.pop();
      this.nodes.delete(n.id);
      stack.push(...n.children);
    }
    return parent;
  }

  /** Toggle a mark: the same kind again removes it; a label gets the next free letter. */
  toggleMark(node, point, kind) {
    const k = key(point);
    const old = node.marks.get(k);
    if (old && old.kind === kind) {
      node.marks.delete(k);
      return;
    }
    let label = "";
    if (kind === "label") {
      const used = new Set([...node.marks.values()].filter((m) => m.kind === "label").map((m) => m.label));
      label = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("").find((l) => !used.has(l)) || "?";
    }
    node.marks.set(k, { point, kind, label });
  }

  /** Every node in preorder, without recursion. */
  *walk() {
    const stack = [this.root];
    while (stack.length) {
      const n = stack.pop();
      yield n;
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }

  toDoc() {
    const nodes = [];
    for (const n of this.walk()) {
      nodes.push({
        id: n.id,
        parent: n.parent ? n.parent.id : null,
        move: n.move,
        comment: n.comment,
        marks: [...n.marks.values()].map((m) => ({ point: m.point, kind: m.kind, label: m.label })),
      });
    }
    return { format: 1, setup: this.setup, info: this.info, nodes, next_id: this.nextId };
  }
}
