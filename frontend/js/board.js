// The SVG Go board: wood, grid, star points, coordinates, shaded stones, last-move marker, ghost stone,
// territory and dead-stone marks, pointer and keyboard input. It only draws and reports intents; it
// never decides legality on its own (the page passes isLegal).
// Over 400 lines as one module: every layer of the one SVG (grid, stones, marks, territory, annotations,
// input) shares its coordinates and elements.
import { h } from "./dom.js";
import { columnLabel, rowLabel, gtp, starPoints } from "./coords.js";
import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const C = 40; // one grid cell in SVG units
let instances = 0;

function svg(tag, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** Normalise a position: rows of '.', 'X' (black), 'O' (white) or a 2-D array of null/"B"/"W". */
export function parsePosition(rows, size) {
  const grid = [];
  for (let y = 0; y < size; y++) {
    const row = [];
    for (let x = 0; x < size; x++) {
      const c = rows && rows[y] ? rows[y][x] : ".";
      row.push(c === "X" || c === "B" ? "B" : c === "O" || c === "W" ? "W" : null);
    }
    grid.push(row);
  }
  return grid;
}

export class Board {
  /**
   * options: size, coordinates (default true), onPlay(p), onPending(p|null), isLegal(p) -> bool,
   * ghostColor() -> "B"|"W"|null, onCursor(p), label (accessible name)
   */
  constructor(container, options) {
    this.size = options.size;
    this.opts = options;
    this.id = `b${++instances}`;
    this.grid = parsePosition(null, this.size);
    this.lastMove = null;
    this.interactive = false;
    this.confirmMode = false;
    this.pending = null;
    this.cursor = [Math.floor(this.size / 2), Math.floor(this.size / 2)];
    this.dead = new Set();
    this.uncertain = new Set(); // stones of the chains KataGo was unsure of at counting: marked "?"
    this.ownership = null;
    this.stoneEls = new Map();
    this.build(container);
  }

  build(container) {
    const n = this.size;
    const m = this.opts.coordinates === false ? C * 0.6 : C * 1.05;
    this.margin = m;
    const full = (n - 1) * C + 2 * m;
    const id = this.id;
    const root = svg("svg", {
      viewBox: `0 0 ${full} ${full}`,
      class: "board",
      role: "application",
      tabindex: "0",
      "aria-roledescription": t("board.roledescription"),
      "aria-label": this.opts.label || t("board.label", { size: n }),
      "data-size": n,
    });
    root.innerHTML = `
      <defs>
        <linearGradient id="${id}-wood" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="#e8c27a"/><stop offset="0.5" stop-color="#ddb063"/>
          <stop offset="1" stop-color="#d2a052"/>
        </linearGradient>
        <filter id="${id}-grain" x="0" y="0" width="100%" height="100%">
          <feTurbulence type="fractalNoise" baseFrequency="0.004 0.09" numOctaves="3" seed="7"/>
          <feColorMatrix type="matrix" values="0 0 0 0 0.45  0 0 0 0 0.28  0 0 0 0 0.08  0 0 0 0.55 -0.12"/>
          <feComposite in2="SourceGraphic" operator="in"/>
        </filter>
        <radialGradient id="${id}-black" cx="0.36" cy="0.32" r="0.72">
          <stop offset="0" stop-color="#6b6b6b"/><stop offset="0.28" stop-color="#2e2e2e"/>
          <stop offset="1" stop-color="#050505"/>
        </radialGradient>
        <radialGradient id="${id}-white" cx="0.36" cy="0.32" r="0.75">
          <stop offset="0" stop-color="#ffffff"/><stop offset="0.55" stop-color="#f1efe9"/>
          <stop offset="1" stop-color="#bdb8ad"/>
        </radialGradient>
        <radialGradient id="${id}-shadow" cx="0.5" cy="0.5" r="0.5">
          <stop offset="0.6" stop-color="#000" stop-opacity="0.34"/><stop offset="1" stop-color="#000" stop-opacity="0"/>
        </radialGradient>
      </defs>`;
    root.append(
      svg("rect", { x: 0, y: 0, width: full, height: full, fill: `url(#${id}-wood)`, rx: C * 0.12 }),
      svg("rect", { x: 0, y: 0, width: full, height: full, filter: `url(#${id}-grain)`, fill: "#fff", rx: C * 0.12 }),
    );
    const grid = svg("g", { class: "grid", stroke: "#2b1d0e", "stroke-linecap": "square" });
    const end = m + (n - 1) * C;
    for (let i = 0; i < n; i++) {
      const at = m + i * C;
      const w = i === 0 || i === n - 1 ? 2 : 1.05;
      grid.append(svg("line", { x1: m, y1: at, x2: end, y2: at, "stroke-width": w }));
      grid.append(svg("line", { x1: at, y1: m, x2: at, y2: end, "stroke-width": w }));
    }
    root.append(grid);
    const stars = svg("g", { class: "stars", fill: "#2b1d0e" });
    for (const [x, y] of starPoints(n)) stars.append(svg("circle", { cx: this.px(x), cy: this.px(y), r: C * 0.115 }));
    root.append(stars);
    if (this.opts.coordinates !== false) {
      const coords = svg("g", {
        class: "coords",
        fill: "#4a3416",
        "font-size": C * 0.36,
        "font-family": "system-ui, sans-serif",
        "font-weight": "600",
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "aria-hidden": "true",
      });
      const near = m * 0.45;
      const far = m + (n - 1) * C + m * 0.55;
      for (let i = 0; i < n; i++) {
        for (const yy of [near, far]) {
          const tx = svg("text", { x: this.px(i), y: yy });
          tx.textContent = columnLabel(i);
          coords.append(tx);
        }
        for (const xx of [near, far]) {
          const tx = svg("text", { x: xx, y: this.px(i) });
          tx.textContent = rowLabel(i, n);
          coords.append(tx);
        }
      }
      root.append(coords);
    }
    this.territoryLayer = svg("g", { class: "territory", "aria-hidden": "true" });
    this.stoneLayer = svg("g", { class: "stones", "aria-hidden": "true" });
    this.markLayer = svg("g", { class: "marks", "aria-hidden": "true" });
    this.annoLayer = svg("g", { class: "annotations", "aria-hidden": "true" });
    this.ghost = svg("circle", { class: "ghost", r: C * 0.47, visibility: "hidden", "pointer-events": "none" });
    this.pendingRing = svg("circle", {
      class: "pending-ring",
      r: C * 0.3,
      fill: "none",
      "stroke-width": 3,
      visibility: "hidden",
      "pointer-events": "none",
    });
    this.cursorEl = svg("rect", {
      class: "cursor",
      width: C * 0.92,
      height: C * 0.92,
      rx: C * 0.12,
      fill: "none",
      "pointer-events": "none",
    });
    this.hitLayer = svg("g", { class: "hits" });
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const r = svg("rect", {
          class: "pt",
          id: `${id}-p-${x}-${y}`,
          x: this.px(x) - C / 2,
          y: this.px(y) - C / 2,
          width: C,
          height: C,
          fill: "transparent",
          "data-x": x,
          "data-y": y,
          role: "button",
        });
        this.hitLayer.append(r);
      }
    }
    root.append(this.territoryLayer, this.stoneLayer, this.markLayer, this.annoLayer, this.ghost, this.pendingRing, this.cursorEl, this.hitLayer);
    this.live = h("div", { class: "sr-only", "aria-live": "polite" });
    this.svg = root;
    this.el = h("div", { class: "board-wrap" }, root, this.live);
    container.append(this.el);
    this.placeCursor();
    this.labelAll();
    this.bindEvents();
  }

  px(i) {
    return this.margin + i * C;
  }

  pointFromEvent(ev) {
    const target = ev.target.closest && ev.target.closest(".pt");
    if (!target) return null;
    return [Number(target.dataset.x), Number(target.dataset.y)];
  }

  bindEvents() {
    const root = this.svg;
    root.addEventListener("pointermove", (ev) => {
      if (ev.pointerType === "touch") return;
      const p = this.pointFromEvent(ev);
      this.hover = p;
      this.updateGhost();
    });
    root.addEventListener("pointerleave", () => {
      this.hover = null;
      this.updateGhost();
    });
    root.addEventListener("click", (ev) => {
      const p = this.pointFromEvent(ev);
      if (p) this.activate(p);
    });
    root.addEventListener("keydown", (ev) => this.onKey(ev));
    root.addEventListener("focus", () => this.announce());
  }

  onKey(ev) {
    const n = this.size;
    const [x, y] = this.cursor;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[ev.key]) {
      ev.preventDefault();
      const [dx, dy] = moves[ev.key];
      const step = ev.shiftKey ? 3 : 1;
      this.cursor = [Math.max(0, Math.min(n - 1, x + dx * step)), Math.max(0, Math.min(n - 1, y + dy * step))];
      this.placeCursor();
      this.hover = this.cursor;
      this.updateGhost();
      this.announce();
      if (this.opts.onCursor) this.opts.onCursor(this.cursor);
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      this.activate(this.cursor);
    } else if (ev.key === "Escape" && this.pending) {
      this.setPending(null);
    }
  }

  activate(p) {
    this.cursor = p;
    this.placeCursor();
    if (!this.interactive) {
      if (this.opts.onInactive) this.opts.onInactive(p);
      return;
    }
    if (this.opts.mode === "dead") {
      if (this.grid[p[1]][p[0]] && this.opts.onPlay) this.opts.onPlay(p);
      return;
    }
    if (!this.legal(p)) {
      this.announce(t("board.illegal"));
      if (this.opts.onIllegal) this.opts.onIllegal(p);
      return;
    }
    if (this.confirmMode) {
      if (this.pending && this.pending[0] === p[0] && this.pending[1] === p[1]) {
        this.setPending(null);
        if (this.opts.onPlay) this.opts.onPlay(p);
      } else {
        this.setPending(p);
      }
      return;
    }
    if (this.opts.onPlay) this.opts.onPlay(p);
  }

  setPending(p) {
    this.pending = p;
    if (this.opts.onPending) this.opts.onPending(p);
    this.updateGhost();
  }

  legal(p) {
    if (!p) return false;
    if (this.grid[p[1]][p[0]]) return false;
    return this.opts.isLegal ? this.opts.isLegal(p) : true;
  }

  updateGhost() {
    const color = this.interactive && this.opts.mode !== "dead" && this.opts.ghostColor ? this.opts.ghostColor() : null;
    const p = this.pending || this.hover;
    if (!color || !p || !this.legal(p)) {
      this.ghost.setAttribute("visibility", "hidden");
      this.pendingRing.setAttribute("visibility", "hidden");
      this.svg.classList.remove("can-play");
      return;
    }
    this.svg.classList.add("can-play");
    this.ghost.setAttribute("cx", this.px(p[0]));
    this.ghost.setAttribute("cy", this.px(p[1]));
    this.ghost.setAttribute("fill", `url(#${this.id}-${color === "B" ? "black" : "white"})`);
    this.ghost.setAttribute("opacity", this.pending ? 0.75 : 0.5);
    this.ghost.setAttribute("visibility", "visible");
    if (this.pending) {
      this.pendingRing.setAttribute("cx", this.px(p[0]));
      this.pendingRing.setAttribute("cy", this.px(p[1]));
      this.pendingRing.setAttribute("stroke", color === "B" ? "#fff" : "#000");
      this.pendingRing.setAttribute("visibility", "visible");
    } else {
      this.pendingRing.setAttribute("visibility", "hidden");
    }
  }

  placeCursor() {
    const [x, y] = this.cursor;
    this.cursorEl.setAttribute("x", this.px(x) - C * 0.46);
    this.cursorEl.setAttribute("y", this.px(y) - C * 0.46);
    this.svg.setAttribute("aria-activedescendant", `${this.id}-p-${x}-${y}`);
  }

  pointLabel(x, y) {
    const c = this.grid[y][x];
    let what = c === "B" ? t("board.black_stone") : c === "W" ? t("board.white_stone") : t("board.empty");
    if (c && this.dead.has(`${x},${y}`)) what += ", " + t("board.dead");
    if (c && this.uncertain.has(`${x},${y}`)) what += ", " + t("board.uncertain");
    if (this.lastMove && this.lastMove[0] === x && this.lastMove[1] === y) what += ", " + t("board.last_move");
    return `${gtp([x, y], this.size)}, ${what}`;
  }

  labelAll() {
    for (const r of this.hitLayer.children) {
      r.setAttribute("aria-label", this.pointLabel(Number(r.dataset.x), Number(r.dataset.y)));
    }
  }

  announce(extra) {
    const [x, y] = this.cursor;
    this.live.textContent = extra ? `${extra}: ${this.pointLabel(x, y)}` : this.pointLabel(x, y);
  }

  /** Draw a position (rows of '.XO' or a grid of null/"B"/"W"). */
  setPosition(rows) {
    this.grid = Array.isArray(rows[0]) ? rows.map((r) => r.slice()) : parsePosition(rows, this.size);
    if (this.pending && this.grid[this.pending[1]][this.pending[0]]) this.setPending(null);
    this.drawStones();
    this.updateGhost();
  }

  setLastMove(p) {
    const before = this.lastMove;
    this.lastMove = p || null;
    this.drawMarks();
    for (const q of [before, this.lastMove]) {
      if (q) document.getElementById(`${this.id}-p-${q[0]}-${q[1]}`)?.setAttribute("aria-label", this.pointLabel(q[0], q[1]));
    }
  }

  setInteractive(on) {
    this.interactive = Boolean(on);
    this.svg.classList.toggle("interactive", this.interactive);
    if (!on && this.pending) this.setPending(null);
    this.updateGhost();
  }

  setConfirmMode(on) {
    this.confirmMode = Boolean(on);
    if (!on && this.pending) this.setPending(null);
  }

  /** Scoring overlay: dead stones (list of [x,y]), ownership rows ('X'/'B' black, 'O'/'W' white) and the stones
   *  the engine was unsure of (list of [x,y], marked "?"). */
  setScoring(dead, ownership, uncertain = []) {
    this.dead = new Set((dead || []).map(([x, y]) => `${x},${y}`));
    this.uncertain = new Set((uncertain || []).map(([x, y]) => `${x},${y}`));
    this.ownership = ownership ? parsePosition(ownership, this.size) : null;
    this.drawStones();
    this.drawTerritory();
  }

  drawStones() {
    const seen = new Set();
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        const c = this.grid[y][x];
        if (!c) continue;
        const key = `${x},${y}`;
        seen.add(key);
        const dead = this.dead.has(key);
        let el = this.stoneEls.get(key);
        if (el && el.dataset.color !== c) {
          el.remove();
          el = null;
        }
        if (!el) {
          el = svg("g", { class: `stone ${c === "B" ? "black" : "white"}`, "data-color": c, "data-x": x, "data-y": y });
          el.dataset.color = c;
          el.append(
            svg("circle", { cx: this.px(x) + C * 0.05, cy: this.px(y) + C * 0.08, r: C * 0.5, fill: `url(#${this.id}-shadow)` }),
            svg("circle", {
              cx: this.px(x),
              cy: this.px(y),
              r: C * 0.475,
              fill: `url(#${this.id}-${c === "B" ? "black" : "white"})`,
              stroke: c === "B" ? "#000" : "#8d877c",
              "stroke-width": 0.6,
            }),
          );
          this.stoneLayer.append(el);
          this.stoneEls.set(key, el);
        }
        el.classList.toggle("dead", dead);
      }
    }
    for (const [key, el] of this.stoneEls) {
      if (!seen.has(key)) {
        el.remove();
        this.stoneEls.delete(key);
      }
    }
    this.drawMarks();
    this.drawAnnotations();
    this.labelAll();
  }

  drawMarks() {
    this.markLayer.replaceChildren();
    // Dead stones get a cross, not only a faded look: unmistakable on both colours and in dark mode.
    const r = C * 0.26;
    for (const key of this.dead) {
      const [x, y] = key.split(",").map(Number);
      if (!this.grid[y] || !this.grid[y][x]) continue;
      const cx = this.px(x);
      const cy = this.px(y);
      this.markLayer.append(
        svg("path", {
          class: "dead-mark",
          "data-x": x,
          "data-y": y,
          d: `M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx + r} ${cy - r}L${cx - r} ${cy + r}`,
          stroke: "#e0321f",
          "stroke-width": C * 0.09,
          "stroke-linecap": "round",
        }),
      );
    }
    for (const key of this.uncertain) {
      const [x, y] = key.split(",").map(Number);
      if (!this.grid[y] || !this.grid[y][x] || this.dead.has(key)) continue;
      const mark = svg("text", {
        class: "uncertain-mark",
        "data-x": x,
        "data-y": y,
        x: this.px(x),
        y: this.px(y),
        "text-anchor": "middle",
        "dominant-baseline": "central",
        "font-size": C * 0.6,
        "font-weight": "bold",
        fill: "#e0a31f",
      });
      mark.textContent = "?";
      this.markLayer.append(mark);
    }
    const p = this.lastMove;
    if (p && this.grid[p[1]] && this.grid[p[1]][p[0]]) {
      const c = this.grid[p[1]][p[0]];
      this.markLayer.append(
        svg("circle", {
          class: "last-move",
          cx: this.px(p[0]),
          cy: this.px(p[1]),
          r: C * 0.2,
          fill: "none",
          stroke: c === "B" ? "#f4f1ea" : "#111",
          "stroke-width": 2.6,
        }),
      );
    }
  }

  drawTerritory() {
    this.territoryLayer.replaceChildren();
    if (!this.ownership) return;
    const s = C * 0.34;
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        const owner = this.ownership[y][x];
        const stone = this.grid[y][x];
        if (!owner || (stone && !this.dead.has(`${x},${y}`))) continue;
        this.territoryLayer.append(
          svg("rect", {
            class: `terr ${owner === "B" ? "black" : "white"}`,
            x: this.px(x) - s / 2,
            y: this.px(y) - s / 2,
            width: s,
            height: s,
            fill: owner === "B" ? "#111" : "#f7f5ef",
            stroke: owner === "B" ? "#000" : "#6b655a",
            "stroke-width": 0.8,
          }),
        );
      }
    }
    // Territory marks sit above dead stones so the new owner is visible.
    this.stoneLayer.after(this.territoryLayer);
  }

  /**
   * Marks of an analysis board: [{point, kind, label}] with kind triangle, square, circle, label (its text)
   * or hint (an engine's choice, its rank as the label).
   */
  setAnnotations(marks) {
    this.annotations = marks || [];
    this.drawAnnotations();
  }

  drawAnnotations() {
    this.annoLayer.replaceChildren();
    for (const m of this.annotations || []) {
      const [x, y] = m.point;
      const cx = this.px(x);
      const cy = this.px(y);
      const stone = this.grid[y] && this.grid[y][x];
      const ink = stone === "B" ? "#f4f1ea" : m.kind === "hint" ? "#0b5cad" : "#111";
      const attrs = { class: `anno ${m.kind}`, "data-x": x, "data-y": y, fill: "none", stroke: ink, "stroke-width": 2.6 };
      const r = C * 0.24;
      if (m.kind === "triangle") {
        this.annoLayer.append(svg("path", { ...attrs, d: `M${cx} ${cy - r * 1.15}L${cx + r} ${cy + r * 0.65}L${cx - r} ${cy + r * 0.65}Z` }));
      } else if (m.kind === "square") {
        this.annoLayer.append(svg("rect", { ...attrs, x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7 }));
      } else if (m.kind === "circle") {
        this.annoLayer.append(svg("circle", { ...attrs, cx, cy, r }));
      } else {
        if (!stone) {
          this.annoLayer.append(svg("circle", { class: "anno-bg", cx, cy, r: C * 0.34, fill: m.kind === "hint" ? "#e6f0fb" : "#ddb063" }));
        }
        const text = svg("text", {
          ...attrs,
          x: cx,
          y: cy,
          fill: ink,
          stroke: "none",
          "font-size": C * (String(m.label).length > 2 ? 0.3 : 0.44),
          "font-family": "system-ui, sans-serif",
          "font-weight": "700",
          "text-anchor": "middle",
          "dominant-baseline": "central",
        });
        text.textContent = m.label;
        this.annoLayer.append(text);
      }
    }
  }

  destroy() {
    this.el.remove();
  }
}
