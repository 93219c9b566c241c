// All WebSocket protocol handling: URLs, message shapes, acks, versions, reconnection.
// Game socket: /ws/games/{id}[?v=N]; lobby socket: /ws/lobby. See docs/protocol.md on the server side.

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 15000;
const PING_EVERY_MS = 10000;
/** Close codes after which reconnecting cannot help (no such game, not allowed). 4403 (suspended or banned) is
 * not one: reconnected, the player may still watch (docs/protocol.md §4.2). */
const FATAL_CLOSE_CODES = new Set([4400, 4401, 4404, 4409, 1008]);
const CLOSE_SANCTIONED = 4403;

let sanctionListener = null;

/**
 * fn(msg) with every `account_sanctioned` a socket reads (the player was suspended or banned; the socket closes
 * with 4403 next), and fn(null) when a socket closed with 4403 before its client read why: ask the server.
 */
export function onAccountSanctioned(fn) {
  sanctionListener = fn;
}
const FATAL_ERROR_CODES = new Set(["not_found", "game_not_found", "no_such_game", "forbidden", "no_such_review", "review_full"]);

export function wsUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

let counter = 0;
function nextId(prefix = "c") {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36)}`;
}

/** Client -> server message types the game page may send (besides ping). */
export const CLIENT_ACTIONS = new Set([
  "play", "pass", "resign", "chat", "abort",
  "undo_request", "undo_accept", "undo_decline",
  "draw_offer", "draw_accept", "draw_decline",
  "toggle_dead", "accept_score", "resume_play", "ask_engine",
  "adjourn_offer", "adjourn_accept", "adjourn_decline", "seal",
  "resume_offer", "resume_accept", "resume_decline", "claim_victory",
  "rematch_offer", "rematch_accept", "rematch_decline",
]);

/** "black" | "white" | "spectator" (and "both" for practice games) -> the colours this client may play. */
export function colorsForRole(role) {
  if (role === "black") return ["B"];
  if (role === "white") return ["W"];
  if (role === "both" || role === "practice") return ["B", "W"];
  return [];
}

/**
 * Normalise one side of CLOCKS (docs/clocks.md: main, periods, period_time, period_left, stones, running) to
 * {main, periods, period_time, period_left, stones, stones_left, running}; stones_left is the server's stones.
 */
export function normalizeClock(c) {
  if (!c) return null;
  const main = Number(c.main ?? 0);
  const periodTime = Number(c.period_time ?? 0);
  const periodLeft = c.period_left ?? (main <= 0 ? periodTime : null);
  return {
    main,
    periods: Number(c.periods ?? 0),
    period_time: periodTime,
    period_left: periodLeft === null ? null : Number(periodLeft),
    stones: c.stones ?? null,
    stones_left: c.stones ?? null,
    running: Boolean(c.running),
  };
}

export function normalizeClocks(clocks) {
  if (!clocks) return null;
  return { B: normalizeClock(clocks.B), W: normalizeClock(clocks.W) };
}

/** Reconnecting socket with exponential backoff (shared by the game and lobby sockets). */
class ReconnectingSocket {
  constructor(handlers) {
    this.handlers = handlers;
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.timer = null;
    this.status = "idle";
    this.openWaiters = [];
  }

  path() {
    throw new Error("not implemented");
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.onClosed();
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close(1000);
    }
    this.ws = null;
  }

  setStatus(status, detail) {
    this.status = status;
    if (this.handlers.onStatus) this.handlers.onStatus(status, detail);
  }

  open() {
    clearTimeout(this.timer);
    this.setStatus(this.attempt === 0 && this.status === "idle" ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(wsUrl(this.path()));
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.onOpen();
      for (const resolve of this.openWaiters.splice(0)) resolve();
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      if (msg.t === "account_sanctioned") {
        ws.heardSanction = true;
        if (sanctionListener) sanctionListener(msg);
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.onClosed();
      if (ev.code === CLOSE_SANCTIONED && !ws.heardSanction && sanctionListener) sanctionListener(null);
      if (this.stopped) return;
      if (FATAL_CLOSE_CODES.has(ev.code)) {
        this.stopped = true;
        this.setStatus("failed", { code: ev.code, reason: ev.reason });
        return;
      }
      this.schedule();
    };
  }

  schedule() {
    if (this.stopped) return;
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.setStatus("reconnecting", { delay });
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Drop the connection and reconnect at once (e.g. after a gap in event versions). */
  reconnectNow() {
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close(4000);
      this.onClosed();
    }
    this.attempt = 0;
    this.open();
  }

  /** Reconnect at once (e.g. to carry a session cookie started just now); resolves when the new one is open. */
  reconnected() {
    const opened = new Promise((resolve) => this.openWaiters.push(resolve));
    this.reconnectNow();
    return opened;
  }

  onOpen() {}
  onMessage() {}
  onClosed() {}

  sendRaw(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}

/**
 * Game socket. handlers: onSnapshot(msg), onEvent(msg) for versioned events in order,
 * onEphemeral(msg) for presence/clock/unknown, onStatus(status, detail), onLag(ms).
 */
export class GameSocket extends ReconnectingSocket {
  constructor(gameId, handlers) {
    super(handlers);
    this.gameId = gameId;
    this.lastV = null;
    this.pending = new Map();
    this.pingTimer = null;
    this.fullResync = false;
  }

  path() {
    const base = `/ws/games/${encodeURIComponent(this.gameId)}`;
    if (this.lastV === null || this.fullResync) return base;
    return `${base}?v=${this.lastV}`;
  }

  onOpen() {
    this.fullResync = false;
    if (this.lastV !== null) {
      this.attempt = 0;
      this.setStatus("open");
    }
    this.pingTimer = setInterval(() => this.ping(), PING_EVERY_MS);
  }

  onClosed() {
    clearInterval(this.pingTimer);
    for (const { reject } of this.pending.values()) reject({ code: "disconnected" });
    this.pending.clear();
  }

  ping() {
    const started = performance.now();
    this.send("ping").then(
      () => this.handlers.onLag && this.handlers.onLag(performance.now() - started),
      () => {},
    );
  }

  /** Ask for a fresh snapshot (used when an event cannot be applied locally). */
  resync() {
    this.fullResync = true;
    this.reconnectNow();
  }

  /** Send an action; resolves with the ack ({v}) or rejects with {code, reason, message}. */
  send(t, fields = {}) {
    const id = nextId(t === "ping" ? "p" : "a");
    return new Promise((resolve, reject) => {
      if (!this.sendRaw({ t, id, ...fields })) {
        reject({ code: "offline" });
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }

  onMessage(msg) {
    const { t } = msg;
    if (t === "ping") {
      // The server measures our lag (credited to our clock): answer at once with the same id.
      this.sendRaw({ t: "pong", id: msg.id });
      return;
    }
    if (t === "ack" || t === "pong") {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        p.resolve(msg);
      }
      return;
    }
    if (t === "error") {
      const p = msg.id ? this.pending.get(msg.id) : null;
      if (p) {
        this.pending.delete(msg.id);
        p.reject(msg);
      } else if (FATAL_ERROR_CODES.has(msg.code)) {
        this.stopped = true;
        this.setStatus("failed", msg);
        if (this.ws) this.ws.close(1000);
      } else if (this.handlers.onError) {
        this.handlers.onError(msg);
      }
      return;
    }
    if (t === "snapshot") {
      this.lastV = msg.v;
      this.attempt = 0;
      this.setStatus("open");
      this.handlers.onSnapshot(msg);
      return;
    }
    if (typeof msg.v === "number") {
      if (this.lastV === null) return; // events before the first snapshot cannot be placed
      if (msg.v <= this.lastV) return; // already seen (replayed after a reconnect)
      if (msg.v > this.lastV + 1) {
        this.reconnectNow(); // a hole: ask again from the last version we hold
        return;
      }
      this.lastV = msg.v;
      if (this.status !== "open") {
        this.attempt = 0;
        this.setStatus("open");
      }
      this.handlers.onEvent(msg);
      return;
    }
    if (this.handlers.onEphemeral) this.handlers.onEphemeral(msg);
  }

  // ---- actions ---------------------------------------------------------------------------------------
  play(p) {
    return this.send("play", { p: [p[0], p[1]] });
  }

  chat(channel, text) {
    return this.send("chat", { channel, text });
  }

  toggleDead(p) {
    return this.send("toggle_dead", { p: [p[0], p[1]] });
  }

  seal(p) {
    return this.send("seal", { p: p ? [p[0], p[1]] : null });
  }

  /** Conditional moves for this game (docs/protocol.md §3.5): a tree of [their move, answer, next]; [] clears. */
  conditional(tree) {
    return this.send("conditional", { tree });
  }

  action(t) {
    if (!CLIENT_ACTIONS.has(t)) return Promise.reject({ code: "unknown_action" });
    return this.send(t);
  }
}

/**
 * Review socket (/ws/reviews/{id}[?v=N], docs/protocol.md §9): the same versions, acks and reconnection as a
 * game socket; the actions are the leader's (goto, play, comment, mark, remove_branch), control and chat.
 */
export class ReviewSocket extends GameSocket {
  path() {
    const base = `/ws/reviews/${encodeURIComponent(this.gameId)}`;
    if (this.lastV === null || this.fullResync) return base;
    return `${base}?v=${this.lastV}`;
  }
}

/** Lobby socket: {"t": "challenge_created" | "challenge_removed" | "game_started" | "game_finished", ...}.
 * handlers.feed "mine": only what is addressed to the user (docs/protocol.md §7), for a page that shows no more.
 * On `resync` (the server may have lost news for this socket) it opens again at once: the new snapshot holds
 * everything missed (the seek, or the game it became, the challenges, the games, a sanction). */
export class LobbySocket extends ReconnectingSocket {
  path() {
    return this.handlers.feed === "mine" ? "/ws/lobby?feed=mine" : "/ws/lobby";
  }

  onOpen() {
    const again = this.attempt > 0 || this.everOpened;
    this.everOpened = true;
    this.attempt = 0;
    this.setStatus("open");
    if (again && this.handlers.onReconnected) this.handlers.onReconnected();
  }

  onMessage(msg) {
    if (this.handlers.onMessage) this.handlers.onMessage(msg);
    if (msg.t === "resync") this.reconnectNow();
  }
}
