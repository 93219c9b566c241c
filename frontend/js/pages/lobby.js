// Lobby: create a challenge, open challenges (live), live games, my unfinished and finished games.
// Over 400 lines because the page owns the one lobby socket and every list it keeps live; the other cards
// are modules of their own (playnow.js, computer.js, your_turn.js).
import { h, replace } from "../dom.js";
import { onLanguageChange, t } from "../i18n.js";
import { api, listOf } from "../api.js";
import { LobbySocket } from "../protocol.js";
import { TIME_PRESETS, describeTimeControl } from "../clock.js";
import { currentUser, ensureUser, isGuest, onUserChange } from "../session.js";
import { errorToast, toast } from "../ui.js";
import { playNowCard } from "./playnow.js";
import { computerCard } from "./computer.js";
import { yourTurnCard } from "./your_turn.js";
import { claimFeed, feedTurns } from "../turns.js";
import { challengeColorText, creatorOf, gameSummary, playerLink, playersOf, shortResult } from "./common.js";

const DEFAULT_KOMI = { chinese: 7.5, japanese: 6.5, korean: 6.5, aga: 7.5 };
const RULES = ["chinese", "japanese", "korean", "aga"];

function sameUser(a, b) {
  return Boolean(a && b && ((a.id !== undefined && a.id === b.id) || (a.name && a.name === b.name)));
}

function field(labelKey, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label", i18n: labelKey }), control, hint || null);
}

function segmented(name, options, value, onChange) {
  const wrap = h("div", { class: "segmented", role: "radiogroup" });
  for (const [val, key, text] of options) {
    const id = `${name}-${val}`;
    const input = h("input", { type: "radio", name, id, value: val, checked: String(val) === String(value) });
    input.addEventListener("change", () => onChange && onChange(val));
    wrap.append(input, h("label", { for: id }, key ? h("span", { i18n: key }) : text));
  }
  return wrap;
}

function challengeForm(onCreated, withSession) {
  const state = { preset: "rapid" };
  const komi = h("input", { type: "number", name: "komi", step: "0.5", min: "-50", max: "50", value: "7.5", inputmode: "decimal" });
  const rules = h("select", { name: "rules" }, RULES.map((r) => h("option", { value: r, i18n: `ruleset.${r}` })));
  const handicap = h("select", { name: "handicap" }, [0, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => h("option", { value: n }, n === 0 ? "0" : String(n))));
  const syncKomi = () => {
    komi.value = Number(handicap.value) > 0 ? "0.5" : String(DEFAULT_KOMI[rules.value] ?? 7.5);
  };
  rules.addEventListener("change", syncKomi);
  handicap.addEventListener("change", syncKomi);

  const custom = {
    kind: h("select", { name: "tc_kind" }, ["absolute", "fischer", "byoyomi", "canadian", "chinese_countdown", "none"].map((k) => h("option", { value: k, i18n: `tc.${k}` }))),
    main: h("input", { type: "number", name: "tc_main", min: "0", value: "10", inputmode: "numeric" }),
    increment: h("input", { type: "number", name: "tc_increment", min: "0", value: "10", inputmode: "numeric" }),
    periods: h("input", { type: "number", name: "tc_periods", min: "1", value: "5", inputmode: "numeric" }),
    period_time: h("input", { type: "number", name: "tc_period_time", min: "1", value: "30", inputmode: "numeric" }),
    stones: h("input", { type: "number", name: "tc_stones", min: "1", value: "25", inputmode: "numeric" }),
  };
  const customBox = h(
    "div",
    { class: "custom-tc grid2", hidden: true },
    field("tc.kind", custom.kind),
    field("tc.main_minutes", custom.main),
    field("tc.increment_seconds", custom.increment),
    field("tc.periods", custom.periods),
    field("tc.period_seconds", custom.period_time),
    field("tc.stones", custom.stones),
  );
  const presetLabel = h("p", { class: "muted tc-desc" });
  const updatePreset = (name) => {
    state.preset = name;
    customBox.hidden = name !== "custom";
    presetLabel.textContent = name === "custom" ? "" : describeTimeControl(TIME_PRESETS[name]);
  };
  const presets = segmented(
    "preset",
    [
      ["blitz", "tc.blitz"],
      ["rapid", "tc.rapid"],
      ["classical", "tc.classical"],
      ["countdown", "tc.countdown"],
      ["fischer", "tc.fischer"],
      ["correspondence", "tc.correspondence"],
      ["none", "tc.none"],
      ["custom", "tc.custom"],
    ],
    state.preset,
    updatePreset,
  );
  updatePreset(state.preset);

  const timeControl = () => {
    if (state.preset !== "custom") return { ...TIME_PRESETS[state.preset] };
    const kind = custom.kind.value;
    const tc = { kind, main: Math.round(Number(custom.main.value) * 60) };
    if (kind === "fischer") Object.assign(tc, { increment: Number(custom.increment.value), cap: tc.main * 2 });
    if (kind === "byoyomi") Object.assign(tc, { periods: Number(custom.periods.value), period_time: Number(custom.period_time.value) });
    if (kind === "chinese_countdown") Object.assign(tc, { periods: Number(custom.periods.value) });
    if (kind === "none") return { kind };
    if (kind === "canadian") Object.assign(tc, { stones: Number(custom.stones.value), period_time: Number(custom.period_time.value) });
    return tc;
  };

  const RANKS = [...Array.from({ length: 30 }, (_, i) => `${30 - i}k`), ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`)];
  const rankSelect = (name, anyKey) =>
    h("select", { name }, h("option", { value: "", i18n: anyKey }), RANKS.map((r) => h("option", { value: r }, r)));
  const minRank = rankSelect("min_rank", "lobby.rank_any_weakest");
  const maxRank = rankSelect("max_rank", "lobby.rank_any_strongest");
  const submit = h("button", { type: "submit", class: "btn primary big", i18n: "lobby.create" });
  const form = h(
    "form",
    { class: "stack challenge-form", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title", i18n: "lobby.new_game" }),
    h("div", { class: "field" }, h("span", { class: "field-label", i18n: "game.size" }), segmented("size", [[9, null, "9×9"], [13, null, "13×13"], [19, null, "19×19"]], 19)),
    h("div", { class: "grid3" }, field("game.rules", rules), field("game.komi", komi), field("game.handicap", handicap)),
    h("div", { class: "field" }, h("span", { class: "field-label", i18n: "game.your_color" }), segmented("color", [["nigiri", "color.nigiri"], ["black", "color.black"], ["white", "color.white"]], "nigiri")),
    h("div", { class: "field" }, h("span", { class: "field-label", i18n: "tc.title" }), presets, presetLabel),
    customBox,
    h(
      "div",
      { class: "row wrap" },
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "rated" }), h("span", { i18n: "lobby.rated" })),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "private" }), h("span", { i18n: "lobby.by_link" })),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "auto_handicap" }), h("span", { i18n: "lobby.auto_handicap" })),
    ),
    h("div", { class: "grid3 rank-range-fields" }, field("lobby.min_rank", minRank), field("lobby.max_rank", maxRank)),
    submit,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const spec = {
      board_size: Number(data.get("size")),
      rules: rules.value,
      komi: Number(komi.value),
      handicap: Number(handicap.value),
      color: data.get("color"),
      time_control: timeControl(),
      rated: data.get("rated") === "on",
      private: data.get("private") === "on",
    };
    if (data.get("auto_handicap") === "on") spec.auto_handicap = true;
    if (minRank.value) spec.min_rank = minRank.value;
    if (maxRank.value) spec.max_rank = maxRank.value;
    submit.disabled = true;
    try {
      await withSession();
      const created = await api.createChallenge(spec);
      onCreated(created, spec);
    } catch (err) {
      errorToast(err);
    } finally {
      submit.disabled = false;
    }
  });
  form.retranslate = () => updatePreset(state.preset);
  return form;
}

export function mount(container) {
  const model = { challenges: [], live: [], unfinished: [], finished: [] };
  const lists = {
    challenges: h("ul", { class: "list", id: "challenges" }),
    live: h("ul", { class: "list", id: "live-games" }),
    unfinished: h("ul", { class: "list", id: "my-unfinished" }),
    finished: h("ul", { class: "list", id: "my-finished" }),
  };
  const shareBox = h("div", { class: "share", hidden: true });
  let form = null; // the challenge form, made once onCreated exists

  const onCreated = (created, spec) => {
    const ch = created && (created.challenge || created);
    if (ch && ch.id && !model.challenges.some((c) => c.id === ch.id)) {
      model.challenges.unshift({ ...spec, ...ch, creator: creatorOf(ch) || currentUser() });
    }
    renderLists();
    if (spec.private && ch && ch.id) {
      const path = ch.invite_url || `/#/challenge/${ch.id}/${ch.token || ""}`;
      const link = `${location.origin}${path}`;
      const input = h("input", { type: "text", readonly: true, value: link, i18nAria: "lobby.share_link", onfocus: (e) => e.target.select() });
      replace(
        shareBox,
        h("p", { i18n: "lobby.share_hint" }),
        h("div", { class: "row" }, input, h("button", {
          type: "button",
          class: "btn",
          i18n: "common.copy",
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(link);
              toast("common.copied");
            } catch {
              input.select();
            }
          },
        })),
      );
      shareBox.hidden = false;
    } else {
      toast("lobby.challenge_created");
    }
  };

  let socket = null;
  // An anonymous visitor's first action starts its guest session; the lobby socket then reconnects with it,
  // so that what is meant for this user alone (a search's answers, challenges addressed to it) reaches it.
  const withSession = async () => {
    if ((await ensureUser()) && socket) await socket.reconnected();
  };
  form = challengeForm(onCreated, withSession);
  const playNow = playNowCard(async (message) => {
    if (!socket) return false;
    if (message.t === "seek") await withSession();
    return socket.sendRaw(message);
  });
  const computer = computerCard(withSession);
  const yourTurn = yourTurnCard();
  const releaseFeed = claimFeed(); // this page's socket feeds the "your turn" store while it is shown

  const empty = (key) => h("li", { class: "empty muted", i18n: key });

  function challengeItem(ch) {
    const mine = sameUser(creatorOf(ch), currentUser());
    const action = mine
      ? h("button", {
          type: "button",
          class: "btn small",
          i18n: "common.cancel",
          onclick: async () => {
            try {
              await api.cancelChallenge(ch.id);
              model.challenges = model.challenges.filter((c) => c.id !== ch.id);
              renderLists();
            } catch (err) {
              errorToast(err);
            }
          },
        })
      : h("button", { type: "button", class: "btn small primary", i18n: "lobby.accept", onclick: (ev) => accept(ch, ev.currentTarget) });
    const colour = h("span", { class: "muted small challenge-colour", dataset: { colour: ch.color } }, challengeColorText(ch.color, mine));
    if (ch.auto_handicap && !mine && !isGuest()) suggestInto(ch, colour);
    return h(
      "li",
      { class: "item", dataset: { id: ch.id } },
      h("div", { class: "item-main" }, h("strong", {}, playerLink(creatorOf(ch))), rankRange(ch), ch.private ? h("span", { class: "tag", i18n: "lobby.private" }) : null, h("span", { class: "muted" }, gameSummary(ch))),
      colour,
      action,
    );
  }

  /** For an automatic-handicap challenge, what the two ranks give the reader: stones or komi, and colour. */
  async function suggestInto(ch, el) {
    try {
      const s = await api.suggestedHandicap(creatorOf(ch).name, ch.board_size);
      const terms = s.handicap ? t("game.handicap_value", { n: s.handicap }) : s.komi !== null ? t("game.komi_value", { komi: s.komi }) : t("lobby.even_game");
      const side = s.you_play_black === null ? challengeColorText(ch.color, false) : t("lobby.you_play", { color: t(s.you_play_black ? "color.black" : "color.white") });
      replace(el, `${terms} · ${side}`);
    } catch {
      // the server decides when the challenge is accepted; the suggestion is only a preview
    }
  }

  async function accept(ch, btn) {
    btn.disabled = true;
    try {
      await withSession();
      const res = await api.acceptChallenge(ch.id);
      location.hash = `#/game/${res.game_id || (res.game && res.game.id)}`;
    } catch (err) {
      errorToast(err);
      btn.disabled = false;
    }
  }

  function rankRange(ch) {
    const parts = [];
    if (ch.min_rank || ch.max_rank) parts.push(t("lobby.rank_range_value", { min: ch.min_rank || "30k", max: ch.max_rank || "9d" }));
    if (ch.auto_handicap) parts.push(t("lobby.auto_handicap"));
    return parts.length ? h("span", { class: "tag rank-range" }, parts.join(" · ")) : null;
  }

  function gameItem(g, kind) {
    const p = playersOf(g);
    const players = h("span", { class: "players" }, h("span", { class: "stone-icon black", "aria-hidden": "true" }), playerLink(p.B), " – ", h("span", { class: "stone-icon white", "aria-hidden": "true" }), playerLink(p.W));
    const extra =
      kind === "live"
        ? h("span", { class: "muted small", i18n: "game.spectators_n", i18nParams: { n: g.spectators ?? 0 } })
        : kind === "finished"
          ? h("span", { class: "result-tag" }, shortResult(g.result))
          : h("span", { class: "muted small", i18n: "game.move_n", i18nParams: { n: g.move_count ?? g.move_number ?? 0 } });
    return h(
      "li",
      { class: "item" },
      h("div", { class: "item-main" }, players, h("span", { class: "muted" }, gameSummary(g))),
      extra,
      h("a", { class: "btn small" + (kind === "unfinished" ? " primary" : ""), href: `#/game/${g.id}`, i18n: kind === "live" ? "lobby.watch" : kind === "unfinished" ? "lobby.rejoin" : "lobby.review" }),
    );
  }

  function renderLists() {
    replace(lists.challenges, model.challenges.length ? model.challenges.map(challengeItem) : empty("lobby.no_challenges"));
    replace(lists.live, model.live.length ? model.live.map((g) => gameItem(g, "live")) : empty("lobby.no_live"));
    replace(lists.unfinished, model.unfinished.length ? model.unfinished.map((g) => gameItem(g, "unfinished")) : empty("lobby.no_unfinished"));
    replace(lists.finished, model.finished.length ? model.finished.map((g) => gameItem(g, "finished")) : empty("lobby.no_finished"));
  }

  async function refresh() {
    const [ch, live, unf, fin] = await Promise.allSettled([api.challenges(), api.liveGames(), api.myActiveGames(), api.myHistory()]);
    if (ch.status === "fulfilled") model.challenges = listOf(ch.value, "challenges");
    if (live.status === "fulfilled") model.live = listOf(live.value, "games");
    if (unf.status === "fulfilled") model.unfinished = listOf(unf.value, "games");
    if (fin.status === "fulfilled") model.finished = listOf(fin.value, "games");
    const failed = [ch, live, unf, fin].find((r) => r.status === "rejected");
    offline.hidden = !failed;
    renderLists();
  }

  const offline = h("div", { class: "banner warn", role: "status", hidden: true, i18n: "lobby.unreachable" });
  const tabs = { unfinished: null, finished: null };
  const myTabs = h("div", { class: "tabs", role: "tablist" });
  const showTab = (name) => {
    lists.unfinished.hidden = name !== "unfinished";
    lists.finished.hidden = name !== "finished";
    for (const [k, b] of Object.entries(tabs)) {
      b.classList.toggle("active", k === name);
      b.setAttribute("aria-selected", String(k === name));
    }
  };
  for (const name of ["unfinished", "finished"]) {
    tabs[name] = h("button", { type: "button", role: "tab", class: "tab", i18n: `lobby.my_${name}`, onclick: () => showTab(name) });
    myTabs.append(tabs[name]);
  }

  container.append(
    h(
      "div",
      { class: "lobby" },
      offline,
      h("div", { class: "lobby-side" }, playNow.element, computer.element, h("section", { class: "card create" }, form, shareBox)),
      h(
        "div",
        { class: "lobby-lists" },
        yourTurn.element,
        h("section", { class: "card open-challenges", "aria-labelledby": "open-title" }, h("h2", { id: "open-title", i18n: "lobby.open_challenges" }), lists.challenges),
        h("section", { class: "card", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title", i18n: "lobby.my_games" }), myTabs, lists.unfinished, lists.finished),
        h("section", { class: "card", "aria-labelledby": "live-title" }, h("h2", { id: "live-title", i18n: "lobby.live_games" }), lists.live),
      ),
    ),
  );
  showTab("unfinished");
  renderLists();
  refresh();

  socket = new LobbySocket({
    onReconnected: refresh,
    onMessage: (msg) => {
      playNow.onMessage(msg);
      feedTurns(msg);
      if (msg.t === "snapshot") {
        model.challenges = listOf(msg, "challenges");
        model.live = listOf(msg, "games");
      } else if (msg.t === "resync") {
        return; // the socket opens again by itself (protocol.js): its snapshot and onReconnected reload all
      } else if (msg.t === "challenge_created" && msg.challenge) {
        if (!model.challenges.some((c) => c.id === msg.challenge.id)) model.challenges.unshift(msg.challenge);
      } else if (msg.t === "challenge_removed") {
        const id = msg.id ?? msg.challenge_id ?? (msg.challenge && msg.challenge.id);
        model.challenges = model.challenges.filter((c) => c.id !== id);
      } else if (msg.t === "game_started" && msg.game) {
        const g = msg.game;
        model.live = [g, ...model.live.filter((x) => x.id !== g.id)];
        const p = playersOf(g);
        if (msg.challenge_id !== undefined) model.challenges = model.challenges.filter((c) => c.id !== msg.challenge_id);
        if (sameUser(p.B, currentUser()) || sameUser(p.W, currentUser())) {
          // Our challenge was accepted: go to the board.
          location.hash = `#/game/${g.id}`;
          return;
        }
      } else if (msg.t === "game_finished") {
        const id = msg.game_id ?? (msg.game && msg.game.id);
        model.live = model.live.filter((x) => x.id !== id);
        const mine = model.unfinished.find((x) => x.id === id);
        if (mine) {
          model.unfinished = model.unfinished.filter((x) => x.id !== id);
          model.finished.unshift({ ...mine, ...(msg.game || {}), status: "finished", result: msg.result || (msg.game && msg.game.result) });
        }
      } else if (msg.t === "moderator_warning") {
        toast("moderation.warned", { reason: msg.reason || "" }, "error", 15000);
        return;
      } else if (msg.t === "account_sanctioned") {
        return; // told on every page (sanction.js)
      } else if (msg.t === "spectators" || msg.t === "game_updated") {
        const id = msg.game_id ?? (msg.game && msg.game.id);
        model.live = model.live.map((x) => (x.id === id ? { ...x, ...(msg.game || {}), spectators: msg.spectators ?? x.spectators } : x));
      }
      renderLists();
    },
  });
  socket.start();
  const offUser = onUserChange(() => refresh());
  const offLang = onLanguageChange(() => {
    form.retranslate();
    playNow.retranslate();
    computer.retranslate();
    yourTurn.render();
    renderLists();
  });
  return () => {
    playNow.destroy();
    computer.destroy();
    yourTurn.destroy();
    socket.stop();
    releaseFeed();
    offUser();
    offLang();
  };
}
