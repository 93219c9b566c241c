// Game page: board, player cards and clocks, move list, actions and offers, chat (the scoring panel is in
// ./scoring.js). Players and spectators share this page; the server decides the role and stays
// authoritative for everything. Over 400 lines because it is the one view that ties these together: each
// render* method draws one part from the same state, and splitting them would only pass that state around.
import { h, replace, setText } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { currentUser, ensureUser, isAnonymous } from "../session.js";
import { Board } from "../board.js";
import { gtp } from "../coords.js";
import { GameSocket, normalizeClocks } from "../protocol.js";
import { fromSnapshot, applyEvent, illegalReason, isLegal, isPlayer, myColors, myTurn, withStone } from "../gamestate.js";
import { formatClock, tick, urgentSeconds, describeTimeControl } from "../clock.js";
import { ScoringPanel } from "./scoring.js";
import { Countdown, playStoneSound } from "../sound.js";
import { getSettings, setSetting } from "../settings.js";
import { Chat } from "../chat.js";
import { confirmDialog, errorToast, toast } from "../ui.js";
import { notifyMove, notificationsAllowed, requestNotifications } from "../notify.js";
import { gameSummary, nameWithRank, playerLink, resultText, unratedText } from "./common.js";
import { ReviewsCard } from "./reviews.js";
import { AiReviewCard } from "./ai_review.js";
import { ConditionalEditor } from "./conditional.js";
import { reportDialog } from "../report.js";
import { hold, release, socketHandlers } from "./live_view.js";
import { estimateOf, showEstimate } from "./estimate.js";

export function mount(container, gameId) {
  const view = new GameView(container, gameId);
  return () => view.destroy();
}

const OFFER_KINDS = ["undo", "draw", "adjourn", "resume", "rematch"];
const colorName = (c) => t(c === "B" ? "color.black" : "color.white");

export class GameView {
  constructor(container, gameId, options = {}) {
    this.gameId = gameId;
    this.options = options;
    this.state = null;
    this.viewIndex = null; // null: the live position; else an index into state.positions
    this.estimate = null; // the score estimate asked for a position: { move, dead, rows, result, lead }
    this.pendingPoint = null;
    this.optimistic = null;
    this.settings = getSettings();
    this.countdown = new Countdown();
    this.build(container);
    this.socket = new GameSocket(gameId, {
      ...socketHandlers(this),
      onLag: (ms) => {
        this.lag = ms;
      },
    });
    this.socket.start();
    this.timer = setInterval(() => this.renderClocks(), 100);
    hold(this);
  }

  destroy() {
    clearInterval(this.timer);
    this.aiReview.destroy();
    release(this);
  }

  // ---- layout -------------------------------------------------------------------------------------------
  build(container) {
    this.banner = h("div", { class: "banner warn", role: "status", hidden: true });
    this.resultBanner = h("div", { class: "result-banner", role: "status", hidden: true });
    this.boardHost = h("div", { class: "board-host" });
    this.historyBar = h("div", { class: "history-bar", hidden: true });
    this.confirmBar = h("div", { class: "confirm-bar", hidden: true });
    this.cards = { top: h("div", { class: "player-card" }), bottom: h("div", { class: "player-card" }) };
    this.status = h("p", { class: "status-line", "aria-live": "polite" });
    this.offersBox = h("div", { class: "offers" });
    this.actions = h("div", { class: "actions" });
    this.scoring = new ScoringPanel({ act: (type, confirm) => this.act(type, confirm) });
    this.moveList = h("ol", { class: "move-list", i18nAria: "game.moves" });
    this.nav = h(
      "div",
      { class: "move-nav" },
      this.navButton("M3 2h2v12H3zM14 2v12L6 8z", "game.first", () => this.viewAt(0)),
      this.navButton("M12 2v12L4 8z", "game.prev", () => this.step(-1)),
      this.navButton("M4 2v12l8-6z", "game.next", () => this.step(1)),
      this.navButton("M2 2v12l8-6zM11 2h2v12h-2z", "game.live", () => this.viewAt(null)),
    );
    this.info = h("p", { class: "muted small game-info" });
    this.spectators = h("span", { class: "spectators muted small" });
    this.sgf = h("a", { class: "btn small", href: api.sgfUrl(this.gameId), download: `tengen-${this.gameId}.sgf`, i18n: "game.download_sgf" });
    this.analyse = h("a", { class: "btn small", href: `#/analysis/game/${this.gameId}`, dataset: { action: "analyse" }, i18n: "game.analyse", hidden: true });
    // the score estimate of the position shown: for spectators, and for anyone once the game has ended
    this.estimateBtn = h("button", { type: "button", class: "btn small", dataset: { action: "estimate" }, i18n: "analysis.estimate", hidden: true, onclick: () => this.askEstimate() });
    this.estimateLine = h("p", { class: "estimate-line", "aria-live": "polite", hidden: true });
    const chatHost = h("div", { class: "chat-host" });
    this.reviews = new ReviewsCard(this.gameId);
    this.aiReview = new AiReviewCard({ gameId: this.gameId, onJump: (i) => this.viewAt(i) });
    this.conditional = new ConditionalEditor({ send: (tree) => this.socket.conditional(tree), changed: () => this.render() });
    this.root = h(
      "div",
      { class: "game", dataset: { game: this.gameId } },
      this.banner,
      h("div", { class: "board-col" }, this.cards.top, this.resultBanner, this.boardHost, this.aiReview.caption, this.confirmBar, this.historyBar, this.cards.bottom),
      h(
        "aside",
        { class: "side" },
        h("div", { class: "card" }, this.status, this.offersBox, this.actions, this.scoring.el),
        this.conditional.el,
        h("div", { class: "card moves-card" }, h("div", { class: "row spread" }, h("h2", { i18n: "game.moves" }), this.nav), this.moveList, h("div", { class: "row" }, this.analyse, this.estimateBtn), this.estimateLine),
        h("div", { class: "card" }, chatHost),
        h("div", { class: "card" }, this.settingsPanel(), h("div", { class: "row spread" }, this.spectators, this.sgf), this.info),
        this.reviews.el,
        this.aiReview.el,
      ),
    );
    container.append(this.root);
    this.chat = new Chat(chatHost, {
      // An anonymous watcher's first line starts its guest session; the socket reconnects to carry it.
      onSend: async (channel, text) => {
        try {
          if (await ensureUser()) await this.socket.reconnected();
          return await this.socket.chat(channel, text);
        } catch (err) {
          errorToast(err);
          throw err;
        }
      },
      // Another person's line can be reported to the moderators (docs/moderation.md), by a guest or an account:
      // an anonymous visitor has no session to report with.
      mayReport: (msg) => Boolean(!isAnonymous() && msg.from && msg.from.id !== currentUser().id),
      onReport: (msg) => reportDialog({ kind: "chat", gameId: this.gameId, chatV: msg.v, name: msg.from.name }),
    });
  }

  navButton(path, key, onclick) {
    const icon = h("svg:svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", focusable: "false" }, h("svg:path", { d: path, fill: "currentColor" }));
    return h("button", { type: "button", class: "btn icon", i18nAria: key, i18nTitle: key, onclick }, icon);
  }

  settingsPanel() {
    const confirm = h("input", { type: "checkbox", checked: this.settings.confirmMove });
    confirm.addEventListener("change", () => {
      this.settings = setSetting("confirmMove", confirm.checked);
      if (this.board) this.board.setConfirmMode(confirm.checked);
    });
    const sound = h("input", { type: "checkbox", checked: this.settings.stoneSound });
    sound.addEventListener("change", () => {
      this.settings = setSetting("stoneSound", sound.checked);
    });
    const notify = h("input", { type: "checkbox", name: "notify", checked: this.settings.notify && notificationsAllowed() });
    notify.addEventListener("change", async () => {
      const wanted = notify.checked;
      const on = wanted && (await requestNotifications());
      notify.checked = on;
      this.settings = setSetting("notify", on);
      if (wanted && !on) toast("settings.notify_denied");
    });
    const countdown = h("select", {}, ["voice", "beep", "off"].map((m) => h("option", { value: m, selected: this.settings.countdown === m, i18n: `settings.countdown_${m}` })));
    countdown.addEventListener("change", () => {
      this.settings = setSetting("countdown", countdown.value);
    });
    return h(
      "details",
      { class: "settings" },
      h("summary", { i18n: "settings.title" }),
      h("label", { class: "check" }, confirm, h("span", { i18n: "settings.confirm_move" })),
      h("label", { class: "check" }, sound, h("span", { i18n: "settings.stone_sound" })),
      "Notification" in window ? h("label", { class: "check" }, notify, h("span", { i18n: "settings.notify" })) : null,
      h("label", { class: "field inline" }, h("span", { i18n: "settings.countdown" }), countdown),
    );
  }

  ensureBoard() {
    const s = this.state;
    if (this.board && this.board.size === s.size) return;
    if (this.board) this.board.destroy();
    this.board = new Board(this.boardHost, {
      size: s.size,
      onPlay: (p) => this.onBoardPlay(p),
      onPending: (p) => this.onPending(p),
      onIllegal: (p) => this.onIllegal(p),
      onInactive: () => this.onInactive(),
      isLegal: (p) => this.state && (this.conditional.editing || isLegal(this.state, p)),
      ghostColor: () => (this.conditional.editing ? this.conditional.nextColor(this.state) : this.state && myTurn(this.state) ? this.state.toMove : null),
      mode: "play",
    });
    this.board.setConfirmMode(this.settings.confirmMove);
  }

  // ---- socket -------------------------------------------------------------------------------------------
  onSnapshot(msg) {
    const keepView = this.state && this.viewIndex !== null;
    this.state = fromSnapshot(msg);
    if (!keepView || this.viewIndex >= this.state.positions.length) this.viewIndex = null;
    this.optimistic = null;
    this.ensureBoard();
    this.render();
  }

  onEvent(msg) {
    if (!this.state) return;
    const wasOptimistic = this.optimistic;
    const result = applyEvent(this.state, msg);
    if (result === "resync") {
      this.socket.resync();
      return;
    }
    if (msg.t === "move") {
      this.optimistic = null;
      const mine = wasOptimistic && wasOptimistic[0] === msg.p[0] && wasOptimistic[1] === msg.p[1];
      if (!mine && this.settings.stoneSound) playStoneSound();
      this.countdown.reset();
    }
    if ((msg.t === "move" || msg.t === "pass") && myTurn(this.state) && !this.state.practice && this.settings.notify) {
      notifyMove(this.gameId, msg.t === "move" ? gtp(msg.p, this.state.size) : t("game.pass_move"));
    }
    if (msg.t === "game_over") {
      this.countdown.reset();
      // The spectators' chat was hidden from the players during the game: a fresh snapshot now shows it.
      if (isPlayer(this.state) && this.state.hiddenEvents > 0) this.socket.resync();
    }
    if (msg.t === "rematch" && msg.game_id && isPlayer(this.state)) {
      location.hash = `#/game/${msg.game_id}`;
      return;
    }
    this.render();
  }

  onEphemeral(msg) {
    if (!this.state) return;
    if (msg.t === "ai_review") {
      if (this.state.phase === "finished") this.aiReview.onMessage(msg);
    } else if (msg.t === "presence") {
      this.state.presence = { ...this.state.presence, ...(msg.players || {}) };
      if (msg.spectators !== undefined) this.state.spectators = msg.spectators;
      this.render();
    } else if (msg.t === "clock") {
      this.state.clocks = normalizeClocks(msg.clocks);
      this.state.clocksAt = performance.now();
    }
  }

  onStatus(status, detail) {
    if (status === "reconnecting") {
      this.banner.hidden = false;
      setText(this.banner, "game.reconnecting");
    } else if (status === "failed") {
      this.banner.hidden = false;
      setText(this.banner, detail && (detail.code === 4404 || detail.code === "not_found") ? "game.not_found" : "game.unavailable");
    } else if (status === "open") {
      this.banner.hidden = true;
    }
  }

  // ---- input --------------------------------------------------------------------------------------------
  onBoardPlay(p) {
    const s = this.state;
    if (!s || this.viewIndex !== null) return;
    if (this.conditional.editing) {
      this.conditional.click(p);
      return;
    }
    if (s.phase === "scoring") {
      this.socket.toggleDead(p).catch(errorToast);
      return;
    }
    if (!myTurn(s)) return;
    this.sendMove(p);
  }

  /** A click on the board while it does not take one: a player out of turn is told so, briefly. */
  onInactive() {
    const s = this.state;
    if (!s || this.viewIndex !== null || s.phase !== "playing" || !isPlayer(s) || this.optimistic) return;
    if (!myTurn(s)) toast("error.not_your_turn", {}, "info", 1800);
  }

  /** ←/→ step through the moves, Home/End jump to the first and the current; not while typing or on the board. */
  keyboard(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !this.state) return;
    const target = ev.target;
    if (target && (target.closest("input, textarea, select, [contenteditable], svg.board, dialog"))) return;
    const keys = { ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), Home: () => this.viewAt(0), End: () => this.viewAt(null) };
    if (this.state.phase === "finished" && this.aiReview.keyboard(ev)) {
      ev.preventDefault();
      return;
    }
    const fn = keys[ev.key];
    if (!fn || !this.state.historyOk) return;
    ev.preventDefault();
    fn();
  }

  /** A click on a point the server listed as illegal (or occupied): nothing is sent, and the reason is shown. */
  onIllegal(p) {
    if (!this.state) return;
    const reason = illegalReason(this.state, p) || "illegal_move";
    errorToast({ code: "illegal_move", reason });
  }

  sendMove(p) {
    const s = this.state;
    const color = s.toMove;
    this.optimistic = p;
    this.confirmBar.hidden = true;
    const preview = withStone(s.board, p, color); // captures come with the server's move event
    this.board.setPosition(preview);
    this.board.setLastMove(p);
    this.board.setInteractive(false);
    if (this.settings.stoneSound) playStoneSound();
    this.socket.play(p).catch((err) => {
      this.optimistic = null;
      errorToast(err);
      this.render();
    });
  }

  onPending(p) {
    this.pendingPoint = p;
    if (!p) {
      this.confirmBar.hidden = true;
      return;
    }
    replace(
      this.confirmBar,
      h("button", { type: "button", class: "btn primary big", i18n: "game.confirm_move", i18nParams: { point: gtp(p, this.state.size) }, onclick: () => {
        this.board.setPending(null);
        this.sendMove(p);
      } }),
      h("button", { type: "button", class: "btn", i18n: "common.cancel", onclick: () => this.board.setPending(null) }),
    );
    this.confirmBar.hidden = false;
  }

  async act(type, confirm) {
    if (confirm) {
      const ok = await confirmDialog(confirm);
      if (!ok) return;
    }
    try {
      await this.socket.action(type);
    } catch (err) {
      errorToast(err);
    }
  }

  viewAt(index) {
    if (!this.state) return;
    const last = this.state.positions.length - 1;
    this.viewIndex = index === null || index >= last ? null : Math.max(0, index);
    this.render();
  }

  step(delta) {
    if (!this.state) return;
    const last = this.state.positions.length - 1;
    const current = this.viewIndex === null ? last : this.viewIndex;
    this.viewAt(current + delta);
  }

  // ---- rendering ----------------------------------------------------------------------------------------
  render() {
    const s = this.state;
    if (!s) return;
    this.ensureBoard();
    const live = this.viewIndex === null;
    const index = live ? s.positions.length - 1 : this.viewIndex;
    const position = live ? s.board : s.positions[index];
    const lastMove = index > 0 && s.moves[index - 1] ? s.moves[index - 1].p : null;
    this.board.opts.mode = s.phase === "scoring" && live ? "dead" : "play";
    this.board.setPosition(position);
    this.board.setLastMove(lastMove);
    const scoringView = live && (s.phase === "scoring" || (s.phase === "finished" && s.score));
    const estimate = this.estimate && this.estimate.move === this.shownMove() ? this.estimate : null;
    if (estimate) this.board.setScoring(estimate.dead, estimate.rows);
    else {
      this.board.setScoring(
        scoringView ? s.dead : [],
        scoringView && s.score ? s.score.ownership : null,
        live && s.phase === "scoring" ? s.uncertain : [],
      );
    }
    showEstimate(this.estimateLine, estimate);
    const canPlay = live && ((s.phase === "playing" && myTurn(s)) || (s.phase === "scoring" && isPlayer(s)));
    this.board.setInteractive(canPlay);
    if (this.optimistic) {
      this.board.setPosition(withStone(s.board, this.optimistic, s.toMove));
      this.board.setLastMove(this.optimistic);
      this.board.setInteractive(false);
    }
    this.conditional.render(s);
    if (this.conditional.editing && live) this.conditional.drawOn(this.board, s);
    else {
      this.board.setConfirmMode(this.settings.confirmMove);
      this.board.setAnnotations([]);
    }
    this.renderHistoryBar(index);
    this.renderCards();
    this.renderStatus();
    this.renderOffers();
    this.renderActions();
    this.scoring.render(s);
    this.renderMoves(index);
    this.renderResult();
    this.renderChat();
    this.renderAnalyseLink(index);
    this.reviews.update(s.phase === "finished");
    this.renderAiReview(index);
    replace(this.spectators, t("game.spectators_n", { n: s.spectators }));
    // Until the game is over, what was asked; then whether it counted (the snapshot, or GET /api/games/{id}).
    const notCounted = this.notCounted();
    const counted = notCounted ? { rated: false, unrated_reason: notCounted } : { rated: s.rated, unrated_reason: s.unratedReason };
    this.info.textContent = gameSummary({ size: s.size, rules: s.rules, komi: s.rules.komi, handicap: s.handicap, time_control: s.timeControl, ...counted });
    this.renderClocks();
  }

  /** Once the game is over, its AI review (asked for the first time then: nobody sees the engine's view of a game
   *  in progress) draws its overlay and marks on the position shown. */
  renderAiReview(index) {
    if (this.state.phase !== "finished") return;
    if (!this.aiReviewAsked) {
      this.aiReviewAsked = true;
      this.aiReview.load();
    }
    this.aiReview.show(this.board, index);
  }

  /** The viewer's colour sits at the bottom; spectators see Black at the bottom. */
  seats() {
    const mine = myColors(this.state);
    const bottom = mine.length === 1 ? mine[0] : "B";
    return { bottom, top: bottom === "B" ? "W" : "B" };
  }

  renderCards() {
    const s = this.state;
    const seats = this.seats();
    for (const [slot, color] of Object.entries(seats)) {
      const card = this.cards[slot];
      const player = s.players[color];
      // A practice game has one person in both seats: either seat's presence is theirs.
      const online = s.practice ? Boolean(s.presence.B || s.presence.W) : Boolean(s.presence[color]);
      const toMove = s.phase === "playing" && s.toMove === color;
      card.className = `player-card ${color === "B" ? "black" : "white"}${toMove ? " to-move" : ""}`;
      card.dataset.color = color;
      replace(
        card,
        h("span", { class: `stone-icon ${color === "B" ? "black" : "white"}`, role: "img", "aria-label": colorName(color) }),
        h(
          "div",
          { class: "pc-main" },
          h("div", { class: "pc-name" }, h("span", { class: `presence ${online ? "on" : "off"}`, role: "img", "aria-label": t(online ? "game.online" : "game.offline"), title: t(online ? "game.online" : "game.offline") }), h("strong", {}, playerLink(player))),
          h("div", { class: "pc-sub muted small" }, t("game.captures_n", { n: s.prisoners[color] ?? 0 }), toMove ? h("span", { class: "to-move-tag" }, " · ", t("game.to_move")) : null, this.ratingChangeOf(color)),
        ),
        h("div", { class: "clock", role: "timer", "aria-label": t("game.clock_of", { color: colorName(color) }), dataset: { color } }, "—"),
      );
    }
  }

  /** Why a finished game that was to be rated did not count (too_short, annulled...): from the snapshot, or from
   * GET /api/games/{id} when the page saw the game end; null for a game that counted or was never to be rated. */
  notCounted() {
    const s = this.state;
    const reason = this.unratedReason || (s && s.phase === "finished" ? s.unratedReason : null);
    return reason && reason !== "casual" ? reason : null;
  }

  /** "· 1541 +12" on a player's card once a rated game's rating update is made (asked for over HTTP). */
  ratingChangeOf(color) {
    const s = this.state;
    if (s.phase !== "finished" || !s.rated || s.practice) return null;
    if (!this.ratingChanges && !this.ratingPoll) this.pollRatingChanges();
    const c = this.ratingChanges && this.ratingChanges[color];
    if (!c) return null;
    const delta = Math.round(c.after - c.before);
    return h("span", { class: `rating-change ${delta >= 0 ? "up" : "down"}`, title: t("player.rating") }, ` · ${Math.round(c.after)} ${delta >= 0 ? "+" : ""}${delta}`);
  }

  async pollRatingChanges() {
    this.ratingPoll = true;
    for (let attempt = 0; attempt < 20 && !this.destroyed; attempt++) {
      try {
        const detail = await api.game(this.gameId);
        if (detail.rated === false) {
          // It did not count (too short, annulled...): say why under the result instead of waiting for changes.
          this.unratedReason = detail.unrated_reason;
          if (this.state) this.render();
          return;
        }
        if (detail.rating_changes) {
          this.ratingChanges = detail.rating_changes;
          if (this.state) this.renderCards();
          return;
        }
      } catch {
        // the update is made by the server whatever happens here; the page just does not show it
      }
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }

  renderClocks() {
    const s = this.state;
    if (!s) return;
    this.scoring.tick(s);
    const kind = s.timeControl.kind || "none";
    const elapsed = (performance.now() - s.clocksAt) / 1000;
    for (const el of this.root.querySelectorAll(".clock[data-color]")) {
      const color = el.dataset.color;
      const base = s.clocks && s.clocks[color];
      if (!base || kind === "none") {
        el.textContent = "—";
        el.hidden = kind === "none";
        continue;
      }
      el.hidden = false;
      const running = base.running && s.phase === "playing";
      const c = running ? tick(base, kind, elapsed) : base;
      el.textContent = formatClock(c, kind);
      const urgent = urgentSeconds(c, kind);
      el.classList.toggle("running", running);
      el.classList.toggle("low", urgent <= 10);
      if (running && myColors(s).includes(color) && myColors(s).length === 1) this.countdown.update(urgent, this.settings.countdown);
    }
  }

  renderStatus() {
    const s = this.state;
    let key = "";
    let params = {};
    if (s.phase === "playing") {
      if (myTurn(s) && !s.practice) key = "game.your_move";
      else {
        key = "game.color_to_play";
        params = { color: colorName(s.toMove) };
      }
    } else if (s.phase === "scoring") key = isPlayer(s) ? "game.scoring_help" : "game.scoring_spectator";
    else if (s.phase === "adjourned") key = "game.adjourned";
    else if (s.phase === "finished") {
      this.status.textContent = resultText(s.result);
      document.title = `${resultText(s.result)} · Tengen`;
      return;
    }
    setText(this.status, key, params);
    document.title = `${key === "game.your_move" ? t("game.your_move") + " · " : ""}${nameWithRank(s.players.B)} – ${nameWithRank(s.players.W)} · Tengen`;
    if (!isPlayer(s)) this.status.append(" ", h("span", { class: "tag", i18n: "game.spectating" }));
  }

  renderOffers() {
    const s = this.state;
    const mine = myColors(s);
    const rows = [];
    for (const kind of OFFER_KINDS) {
      const by = s.offers[kind];
      if (!by) continue;
      const fromMe = mine.includes(by) && !s.practice;
      if (isPlayer(s) && !fromMe) {
        rows.push(
          h(
            "div",
            { class: "offer", role: "alert" },
            h("span", { i18n: `offer.${kind}_incoming` }),
            h("button", { type: "button", class: "btn small primary", i18n: "common.accept", dataset: { action: `${kind}_accept` }, onclick: () => this.act(`${kind}_accept`, kind === "draw" ? { title: "confirm.draw_accept" } : null) }),
            kind === "resume" ? null : h("button", { type: "button", class: "btn small", i18n: "common.decline", dataset: { action: `${kind}_decline` }, onclick: () => this.act(`${kind}_decline`) }),
          ),
        );
      } else {
        rows.push(h("div", { class: "offer muted" }, h("span", { i18n: fromMe ? `offer.${kind}_waiting` : `offer.${kind}_pending` })));
      }
    }
    replace(this.offersBox, rows);
  }

  renderActions() {
    const s = this.state;
    const buttons = [];
    const btn = (key, type, confirm, cls = "btn") => h("button", { type: "button", class: cls, i18n: key, dataset: { action: type }, onclick: () => this.act(type, confirm) });
    if (isPlayer(s) && this.viewIndex === null) {
      const opponent = myColors(s).length === 1 ? (myColors(s)[0] === "B" ? "W" : "B") : null;
      if (s.phase === "playing") {
        const opponentPassed = s.moves.length > 0 && s.moves[s.moves.length - 1].p === null;
        const pass = btn("game.pass", "pass", { title: "confirm.pass_title", body: opponentPassed ? "confirm.pass_ends" : "confirm.pass_body", confirm: "game.pass" });
        pass.disabled = !myTurn(s);
        buttons.push(pass);
        if (!s.practice) {
          // The server takes back only the asker's own last move or pass: offer Undo only then.
          const last = s.moves[s.moves.length - 1];
          if (last && myColors(s).includes(last.color) && s.offers.undo !== last.color) buttons.push(btn("game.undo", "undo_request"));
          buttons.push(btn("game.draw", "draw_offer", { title: "confirm.draw_title", confirm: "game.draw" }));
          buttons.push(btn("game.adjourn", "adjourn_offer", { title: "confirm.adjourn_title", body: "confirm.adjourn_body", confirm: "game.adjourn" }));
          const myStones = s.moves.filter((m) => myColors(s).includes(m.color)).length;
          if (myStones === 0) buttons.push(btn("game.abort", "abort", { title: "confirm.abort_title", body: "confirm.abort_body", confirm: "game.abort", danger: true }, "btn danger-outline"));
          if (opponent && !s.presence[opponent]) buttons.push(btn("game.claim_victory", "claim_victory", { title: "confirm.claim_title", body: "confirm.claim_body", confirm: "game.claim_victory" }));
        }
        buttons.push(btn("game.resign", "resign", { title: "confirm.resign_title", body: "confirm.resign_body", confirm: "game.resign", danger: true }, "btn danger-outline"));
      } else if (s.phase === "finished" && !s.practice && !s.rematch && !s.offers.rematch) {
        buttons.push(btn("game.rematch", "rematch_offer", null, "btn primary"));
      } else if (s.phase === "adjourned") {
        buttons.push(btn("game.resume", "resume_offer"));
        if (opponent && !s.presence[opponent]) buttons.push(btn("game.claim_victory", "claim_victory", { title: "confirm.claim_title", body: "confirm.claim_body", confirm: "game.claim_victory" }));
      }
    }
    if (s.phase === "finished") {
      if (s.rematch) buttons.push(h("a", { class: "btn primary", href: `#/game/${s.rematch}`, i18n: "game.open_rematch" }));
      if (!this.options.practice) buttons.push(h("a", { class: "btn", href: "#/", i18n: "game.back_to_lobby", dataset: { action: "lobby" } }));
    }
    replace(this.actions, buttons);
  }

  renderMoves(index) {
    const s = this.state;
    const items = s.moves.map((m, i) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: `mv${i + 1 === index ? " current" : ""}`,
            "aria-current": i + 1 === index ? "step" : undefined,
            disabled: !s.historyOk,
            onclick: () => this.viewAt(i + 1),
          },
          h("span", { class: "mv-n" }, String(i + 1)),
          h("span", { class: `stone-icon ${m.color === "B" ? "black" : "white"}`, "aria-hidden": "true" }),
          h("span", { class: "sr-only" }, colorName(m.color) + " "),
          m.p ? gtp(m.p, s.size) : h("span", { class: "mv-pass" }, t("game.pass_move")),
        ),
      ),
    );
    replace(this.moveList, items.length ? items : h("li", { class: "muted small", i18n: "game.no_moves" }));
    // Scroll the list's own box only: scrollIntoView would also scroll the page (on a phone it hid the
    // header and the opponent's clock after every move).
    const list = this.moveList;
    const current = list.querySelector(".current");
    if (current) {
      const box = list.getBoundingClientRect();
      const item = current.getBoundingClientRect();
      if (item.top < box.top) list.scrollTop -= box.top - item.top;
      else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom;
    } else if (this.viewIndex === null) list.scrollTop = list.scrollHeight;
    else list.scrollTop = 0; // the start position, before the first move
  }

  /** An analysis board from the position shown: for anyone once the game has ended; for spectators of a game
   * in progress in a tab of its own (nothing of it reaches the players); never for its players meanwhile. */
  renderAnalyseLink(index) {
    const s = this.state;
    const finished = s.phase === "finished";
    this.analyse.hidden = isPlayer(s) && !finished;
    this.estimateBtn.hidden = isPlayer(s) && !finished;
    this.analyse.href = `#/analysis/game/${this.gameId}/${index}`;
    if (finished) this.analyse.removeAttribute("target");
    else this.analyse.setAttribute("target", "_blank");
  }

  /** How many of the game's moves lead to the position shown. */
  shownMove() {
    return this.viewIndex === null ? this.state.moves.length : this.viewIndex;
  }

  /** The score estimate of the position shown (POST /api/games/{id}/estimate: the game's own rules and komi, the
   * server refuses its players until it ends); asked again, it is put away. */
  async askEstimate() {
    const s = this.state;
    if (!s) return;
    const move = this.shownMove();
    if (this.estimate && this.estimate.move === move) {
      this.estimate = null;
      this.render();
      return;
    }
    try {
      const answer = await api.gameEstimate(this.gameId, move);
      this.estimate = { ...estimateOf(answer), move: answer.move };
      this.render();
    } catch (err) {
      errorToast(err);
    }
  }

  renderHistoryBar(index) {
    const s = this.state;
    if (this.viewIndex === null) {
      this.historyBar.hidden = true;
      return;
    }
    replace(
      this.historyBar,
      h("span", { i18n: "game.viewing_move", i18nParams: { n: index, total: s.moves.length } }),
      h("button", { type: "button", class: "btn small primary", i18n: "game.back_to_live", onclick: () => this.viewAt(null) }),
    );
    this.historyBar.hidden = false;
  }

  renderResult() {
    const s = this.state;
    if (s.phase !== "finished" || !s.result) {
      this.resultBanner.hidden = true;
      return;
    }
    replace(
      this.resultBanner,
      h("strong", {}, resultText(s.result)),
      s.result.text ? h("span", { class: "muted" }, ` (${s.result.text})`) : null,
      this.notCounted() ? h("span", { class: "unrated-reason muted", dataset: { reason: this.notCounted() } }, ` · ${unratedText(this.notCounted())}`) : null,
    );
    this.resultBanner.hidden = false;
  }

  renderChat() {
    const s = this.state;
    const player = isPlayer(s);
    const canRead = player && s.phase !== "finished" ? ["players"] : ["players", "spectators"];
    const canWrite = player ? ["players"] : ["spectators"];
    this.chat.update(s.chat, { canRead: s.practice ? ["players"] : canRead, canWrite });
  }
}

export { describeTimeControl };
