// The client's copy of a game, rebuilt from the server's snapshot and versioned events.
// The server is authoritative; this only mirrors it. Where the side to move may not play is the server's list
// (`illegal` in GAME and in move, pass and undo events, docs/protocol.md §4.4): nothing here judges legality.
import { parsePosition } from "./board.js";
import { colorsForRole, normalizeClocks } from "./protocol.js";

/**
 * A copy of grid after a move as the server reported it: the stone at p, and the stones the server says it
 * captured (`captured` in a move event and in GAME's moves, docs/protocol.md §4.3) removed. Nothing is worked out.
 */
function afterMove(grid, p, color, captured) {
  const g = grid.map((r) => r.slice());
  g[p[1]][p[0]] = color;
  for (const [x, y] of captured) g[y][x] = null;
  return g;
}

/** A copy of grid with a stone of color at p and nothing else changed: the sent move until the server's event. */
export function withStone(grid, p, color) {
  const g = grid.map((r) => r.slice());
  g[p[1]][p[0]] = color;
  return g;
}

function sameGrid(a, b) {
  for (let y = 0; y < a.length; y++) for (let x = 0; x < a.length; x++) if (a[y][x] !== b[y][x]) return false;
  return true;
}

function emptyGrid(n) {
  return Array.from({ length: n }, () => Array(n).fill(null));
}

/** Positions after 0..k moves from a starting grid, replaying the server's moves and captures; null if a move's
 * point is taken (the server's history does not start from this grid). */
function replay(start, moves) {
  const positions = [start];
  let g = start;
  for (const m of moves) {
    if (m.p) {
      if (g[m.p[1]][m.p[0]]) return null;
      g = afterMove(g, m.p, m.color, m.captured);
    }
    positions.push(g);
  }
  return positions;
}

/** The pending offers as the server sends them ({undo, draw, adjourn, resume, rematch: "B" | "W" | null}), open ones only. */
function normalizeOffers(offers) {
  const out = {};
  for (const [kind, by] of Object.entries(offers || {})) if (by) out[kind] = by;
  return out;
}

export function roleOf(snapshot) {
  return (snapshot.you && snapshot.you.role) || "spectator";
}

export function fromSnapshot(snap, receivedAt = performance.now()) {
  const g = snap.game;
  const n = g.size;
  const board = parsePosition(g.board, n);
  const moves = (g.moves || []).map((m) => ({ color: m.color, p: m.p || null, captured: m.captured }));
  // Rebuild earlier positions for the move list from the handicap stones where the server placed them, with
  // each move's captures as the server lists them. Nothing is guessed: a start that does not reproduce the
  // server's board (a game set up from a record) leaves the history unavailable, not wrong.
  const start = emptyGrid(n);
  for (const [x, y] of g.handicap_points || []) start[y][x] = "B";
  let positions = replay(start, moves);
  if (positions && !sameGrid(positions[positions.length - 1], board)) positions = null;
  const state = {
    v: snap.v,
    id: g.id,
    role: roleOf(snap),
    me: (snap.you && snap.you.user) || null,
    size: n,
    rules: g.rules || {},
    handicap: g.handicap || 0,
    players: g.players || {},
    board,
    moves,
    positions: positions || [board],
    historyOk: Boolean(positions),
    prisoners: { B: 0, W: 0, ...(g.prisoners || {}) },
    toMove: g.to_move || "B",
    phase: g.phase || "playing",
    presence: { B: false, W: false, ...(g.presence || {}) },
    spectators: g.spectators || 0,
    offers: normalizeOffers(g.offers),
    clocks: normalizeClocks(g.clocks),
    clocksAt: receivedAt,
    timeControl: g.time_control || { kind: "none" },
    result: g.result || null,
    chat: (g.chat || []).slice(),
    dead: (g.scoring && g.scoring.dead) || [],
    uncertain: (g.scoring && g.scoring.uncertain) || [],
    judge: (g.scoring && g.scoring.judge) || "rules",
    accepted: (g.scoring && g.scoring.accepted) || { B: false, W: false },
    score: (g.scoring && g.scoring.score) || null,
    scoringDeadline: deadlineFrom(g.scoring && g.scoring.deadline, g.server_time, receivedAt),
    hiddenEvents: 0,
    conditional: Array.isArray(g.conditional) ? g.conditional : null, // the viewer's own tree (§3.5); null: none sent
    rematch: g.rematch || null, // the id of the rematch game, once both players agreed to one
    illegal: pointSet(g.illegal),
    ko: g.ko || null,
    sealed: g.sealed || null,
    rated: Boolean(g.rated), // whether the game counts (docs/ratings.md): as asked until it ends, then as decided
    unratedReason: g.unrated_reason || null,
    practice: Boolean(g.practice) || roleOf(snap) === "both" || roleOf(snap) === "practice",
  };
  return state;
}

/** The colours the viewer may play now ([] for spectators). */
export function myColors(state) {
  return colorsForRole(state.role);
}

export function isPlayer(state) {
  return myColors(state).length > 0;
}

export function myTurn(state) {
  return state.phase === "playing" && myColors(state).includes(state.toMove);
}

/** The server's `illegal` points as a set of "x,y" keys; null when the message has none (nothing is refused). */
function pointSet(points) {
  return Array.isArray(points) ? new Set(points.map(([x, y]) => `${x},${y}`)) : null;
}

/**
 * Why the side to move may not play at p ("occupied", "ko", or "illegal_move" for the server's other illegal
 * points: suicide, superko), or null. Taken from the server's board, ko point and `illegal` list alone.
 */
export function illegalReason(state, p) {
  const [x, y] = p;
  if (state.board[y][x]) return "occupied";
  if (!state.illegal || !state.illegal.has(`${x},${y}`)) return null;
  if (state.ko && state.ko[0] === x && state.ko[1] === y) return "ko";
  return "illegal_move";
}

export function isLegal(state, p) {
  return illegalReason(state, p) === null;
}

/** A server deadline (server seconds) as a local performance.now() time, or null. */
export function deadlineFrom(deadline, serverTime, receivedAt) {
  if (typeof deadline !== "number" || typeof serverTime !== "number") return null;
  return receivedAt + (deadline - serverTime) * 1000;
}

function setDeadline(state, ev, receivedAt) {
  if ("deadline" in ev) state.scoringDeadline = deadlineFrom(ev.deadline, ev.server_time, receivedAt);
}

function setClocks(state, ev, receivedAt) {
  if ("clocks" in ev) {
    state.clocks = normalizeClocks(ev.clocks);
    state.clocksAt = receivedAt;
  }
}

/**
 * Apply one versioned event (already checked to be the next version). Returns "ok", or "resync" when the
 * event cannot be applied to the local copy and a fresh snapshot is needed.
 */
export function applyEvent(state, ev, receivedAt = performance.now()) {
  state.v = ev.v;
  switch (ev.t) {
    case "move": {
      const [x, y] = ev.p;
      if (state.board[y][x]) return "resync";
      const g = afterMove(state.board, ev.p, ev.color, ev.captured);
      state.board = g;
      state.moves.push({ color: ev.color, p: ev.p, captured: ev.captured });
      state.ko = ev.ko || null;
      if (state.historyOk) state.positions.push(g);
      else state.positions = [g];
      state.prisoners = { ...ev.prisoners };
      state.toMove = ev.to_move;
      state.illegal = pointSet(ev.illegal);
      delete state.offers.undo;
      setClocks(state, ev, receivedAt);
      return "ok";
    }
    case "pass": {
      state.moves.push({ color: ev.color, p: null, captured: [] });
      state.ko = null;
      if (state.historyOk) state.positions.push(state.board);
      else state.positions = [state.board];
      state.toMove = ev.to_move;
      state.illegal = pointSet(ev.illegal);
      setClocks(state, ev, receivedAt);
      return "ok";
    }
    case "chat":
      state.chat.push({ channel: ev.channel, from: ev.from, text: ev.text, at: ev.at, v: ev.v });
      return "ok";
    case "chat_removed": {
      // A moderator removed these lines (docs/moderation.md): they disappear for everyone.
      const removed = new Set(ev.lines || []);
      state.chat = state.chat.filter((line) => !removed.has(line.v));
      return "ok";
    }
    case "hidden":
      // Something this viewer may not see yet (the spectators' chat, for a player): shown after the game.
      state.hiddenEvents += 1;
      return "ok";
    case "phase":
      state.phase = ev.phase;
      if (ev.phase === "scoring") {
        state.dead = ev.dead || [];
        state.uncertain = ev.uncertain || [];
        state.judge = ev.judge || "rules";
        state.accepted = ev.accepted || { B: false, W: false };
        state.score = ev.score || null;
        setDeadline(state, ev, receivedAt);
      } else {
        state.dead = [];
        state.uncertain = [];
        state.judge = "rules";
        state.accepted = { B: false, W: false };
        state.score = null;
        state.scoringDeadline = null;
      }
      if (ev.phase === "playing") state.sealed = null;
      if (ev.offers) state.offers = normalizeOffers(ev.offers);
      if (ev.to_move) state.toMove = ev.to_move;
      setClocks(state, ev, receivedAt);
      return "ok";
    case "dead_stones":
    case "engine_opinion": // a player asked KataGo: the marks are its proposal
      state.dead = ev.dead;
      state.uncertain = ev.uncertain || [];
      if (ev.judge) state.judge = ev.judge;
      state.accepted = ev.accepted;
      state.score = ev.score;
      setDeadline(state, ev, receivedAt);
      return "ok";
    case "score_accepted":
      state.accepted = ev.accepted;
      setDeadline(state, ev, receivedAt);
      return "ok";
    case "sealed":
      state.sealed = { color: ev.color, p: ev.p };
      setClocks(state, ev, receivedAt);
      return "ok";
    case "period_used":
    case "clock_restart":
    case "vacation": // a player's vacation stopped or restarted their clock (docs/clocks.md)
      setClocks(state, ev, receivedAt);
      return "ok";
    case "conditional": // this player's own conditional moves (docs/protocol.md §3.5)
      state.conditional = ev.tree || [];
      return "ok";
    case "rematch":
      state.rematch = ev.game_id;
      state.offers = normalizeOffers(ev.offers);
      return "ok";
    case "game_over":
      state.phase = "finished";
      state.result = ev.result;
      state.offers = {};
      state.scoringDeadline = null;
      if (ev.result.score) state.score = ev.result.score;
      if (state.clocks) {
        for (const c of ["B", "W"]) if (state.clocks[c]) state.clocks[c].running = false;
      }
      setClocks(state, ev, receivedAt);
      return "ok";
    default:
      return applyOfferEvent(state, ev, receivedAt);
  }
}

function applyOfferEvent(state, ev, receivedAt) {
  const t = ev.t;
  if (t === "offer" || t === "offer_declined") {
    state.offers = normalizeOffers(ev.offers);
    setClocks(state, ev, receivedAt);
    return "ok";
  }
  if (t === "undo") {
    // The authority sends the position after the undo, so the local copy never guesses.
    const keep = ev.move_number;
    if (!ev.board || keep === undefined || keep > state.moves.length) return "resync";
    state.moves = state.moves.slice(0, keep);
    state.board = parsePosition(ev.board, state.size);
    state.positions = state.historyOk ? state.positions.slice(0, keep + 1) : [state.board];
    state.prisoners = { ...ev.prisoners };
    state.toMove = ev.to_move;
    state.offers = normalizeOffers(ev.offers);
    state.ko = ev.ko || null;
    state.illegal = pointSet(ev.illegal);
    setClocks(state, ev, receivedAt);
    return "ok";
  }
  return "resync";
}
