// "Play now": automatch over the lobby socket. The server pairs; this card only asks, shows the search and
// follows the pairing to the game. Messages: docs/protocol.md §7; pairing rules: docs/lobby.md.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { TIME_PRESETS, describeTimeControl } from "../clock.js";
import { errorToast, toast } from "../ui.js";
import { getSettings, setSetting } from "../settings.js";
import { api } from "../api.js";

const SIZES = [9, 13, 19];
const SPEEDS = ["blitz", "rapid", "classical", "correspondence"];
const RULES = ["any", "chinese", "japanese", "korean", "aga"];

function checkbox(name, value, labelNode, checked) {
  const input = h("input", { type: "checkbox", name, value: String(value), checked });
  return { input, label: h("label", { class: "check" }, input, labelNode) };
}

function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The card. ``send(obj)`` sends on the lobby socket: a promise of false when it is not open (a seek may first
 * start a guest session). Feed every lobby message to
 * ``onMessage``; ``destroy`` stops the timer.
 */
export function playNowCard(send) {
  let state = "idle"; // idle | asking | seeking | interrupted
  let prefs = null;
  let since = 0;
  let pendingId = null;
  let counter = 0;
  let timer = null;
  let offer = null; // a house bot offered after a long wait: { bot, challenge, sent }

  // The choices of the last search in this browser, or 19x19 rapid under any rules.
  const last = getSettings().playNow || {};
  const lastSizes = Array.isArray(last.sizes) && last.sizes.length ? last.sizes : [19];
  const lastSpeeds = Array.isArray(last.speeds) && last.speeds.length ? last.speeds : ["rapid"];
  const sizes = SIZES.map((n) => checkbox("pn-size", n, h("span", {}, `${n}×${n}`), lastSizes.includes(n)));
  const speeds = SPEEDS.map((s) => checkbox("pn-speed", s, h("span", { i18n: `tc.${s}`, title: describeTimeControl(TIME_PRESETS[s]) }), lastSpeeds.includes(s)));
  const rules = h("select", { name: "pn-rules" }, RULES.map((r) => h("option", { value: r, i18n: r === "any" ? "playnow.any_rules" : `ruleset.${r}`, selected: r === (last.rules || "any") })));
  const rated = h("input", { type: "checkbox", name: "pn-rated", checked: Boolean(last.rated) });
  const handicap = h("input", { type: "checkbox", name: "pn-handicap", checked: Boolean(last.handicap) });
  const speedHint = h("p", { class: "muted small" });
  const start = h("button", { type: "submit", class: "btn primary big play-now", i18n: "playnow.start" });

  const form = h(
    "form",
    { class: "stack playnow-form" },
    h("div", { class: "field" }, h("span", { class: "field-label", i18n: "playnow.sizes" }), h("div", { class: "row wrap" }, sizes.map((c) => c.label))),
    h("div", { class: "field" }, h("span", { class: "field-label", i18n: "playnow.speeds" }), h("div", { class: "row wrap" }, speeds.map((c) => c.label)), speedHint),
    h("label", { class: "field" }, h("span", { class: "field-label", i18n: "game.rules" }), rules),
    h(
      "div",
      { class: "row wrap" },
      h("label", { class: "check" }, rated, h("span", { i18n: "lobby.rated" })),
      h("label", { class: "check" }, handicap, h("span", { i18n: "playnow.handicap" })),
    ),
    start,
  );
  const status = h("div", { class: "playnow-status", role: "status", "aria-live": "polite" });
  const card = h(
    "section",
    { class: "card playnow", "aria-labelledby": "playnow-title" },
    h("h2", { id: "playnow-title", i18n: "playnow.title" }),
    h("p", { class: "muted small", i18n: "playnow.hint" }),
    form,
    status,
  );

  const describeSpeeds = () => {
    speedHint.textContent = speeds
      .filter((c) => c.input.checked)
      .map((c) => `${t(`tc.${c.input.value}`)}: ${describeTimeControl(TIME_PRESETS[c.input.value])}`)
      .join(" · ");
  };
  for (const c of speeds) c.input.addEventListener("change", describeSpeeds);
  describeSpeeds();

  function render() {
    clearInterval(timer);
    timer = null;
    form.hidden = state === "seeking" || state === "asking";
    card.dataset.state = state;
    if (state === "seeking" || state === "asking") {
      const line = h("p", { class: "searching" });
      const tick = () => {
        line.textContent = t("playnow.searching", { time: clockText(Date.now() / 1000 - since) });
      };
      tick();
      timer = setInterval(tick, 1000);
      replace(
        status,
        h("div", { class: "spinner", "aria-hidden": "true" }),
        line,
        offer ? botOffer() : null,
        h("button", { type: "button", class: "btn cancel-search", i18n: "playnow.cancel", onclick: cancel }),
      );
    } else if (state === "interrupted") {
      replace(status, h("p", { class: "banner warn", i18n: "playnow.interrupted" }), h("button", { type: "button", class: "btn primary search-again", i18n: "playnow.again", onclick: () => seek(prefs) }));
    } else {
      replace(status);
    }
  }

  function botOffer() {
    const params = { name: offer.bot.name, rank: offer.bot.rank };
    if (offer.sent) return h("p", { class: "bot-offer muted", i18n: "playnow.bot_sent", i18nParams: params });
    return h(
      "div",
      { class: "bot-offer" },
      h("p", { i18n: "playnow.bot_offer", i18nParams: params }),
      h("button", { type: "button", class: "btn primary play-bot", i18n: "playnow.bot_play", i18nParams: params, onclick: playBot }),
    );
  }

  async function playBot() {
    const current = offer;
    if (!current || current.sent) return;
    current.sent = true;
    render();
    try {
      // The bot's bridge accepts it; the game then starts like any accepted challenge, and the search ends.
      await api.createChallenge(current.challenge);
    } catch (err) {
      current.sent = false;
      render();
      errorToast(err);
    }
  }

  async function seek(wanted) {
    if (!wanted) return;
    pendingId = `seek-${++counter}`;
    let sent = false;
    try {
      sent = await send({ t: "seek", id: pendingId, ...wanted });
    } catch (err) {
      errorToast(err);
      return;
    }
    if (!sent) {
      toast("error.offline", {}, "error");
      return;
    }
    prefs = wanted;
    offer = null;
    if (state !== "seeking") since = Date.now() / 1000;
    state = "asking";
    render();
  }

  function cancel() {
    state = "idle";
    prefs = null;
    send({ t: "seek_cancel", id: `cancel-${++counter}` });
    render();
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const wanted = {
      sizes: sizes.filter((c) => c.input.checked).map((c) => Number(c.input.value)),
      speeds: speeds.filter((c) => c.input.checked).map((c) => c.input.value),
      rules: rules.value,
      rated: rated.checked,
      handicap: handicap.checked,
    };
    if (!wanted.sizes.length) return toast("playnow.pick_size", {}, "error");
    if (!wanted.speeds.length) return toast("playnow.pick_speed", {}, "error");
    setSetting("playNow", wanted);
    seek(wanted);
  });

  function onMessage(msg) {
    if (msg.t === "snapshot") {
      if (msg.seek) {
        // Searching already (another tab, or this socket came back in time).
        prefs = { sizes: msg.seek.sizes, speeds: msg.seek.speeds, rules: msg.seek.rules, rated: msg.seek.rated, handicap: msg.seek.handicap };
        since = msg.seek.since;
        state = "seeking";
        render();
      } else if ((state === "seeking" || state === "asking") && msg.playing) {
        // The search became a game while this socket was away (its `paired` was lost): go there.
        state = "idle";
        render();
        location.hash = `#/game/${msg.playing}`;
      } else if (state === "seeking" || state === "asking") {
        seek(prefs); // the socket was gone long enough for the server to drop the search: place it again
      }
    } else if (msg.t === "seeking" && msg.seek) {
      since = msg.seek.since || since;
      prefs = prefs || { sizes: msg.seek.sizes, speeds: msg.seek.speeds, rules: msg.seek.rules, rated: msg.seek.rated, handicap: msg.seek.handicap };
      state = "seeking";
      render();
    } else if (msg.t === "seek_cancelled") {
      state = msg.reason === "cancelled" ? "idle" : "interrupted";
      render();
    } else if (msg.t === "error" && msg.id && msg.id === pendingId) {
      pendingId = null;
      state = "idle";
      render();
      errorToast(msg);
    } else if (msg.t === "bot_offer" && msg.bot && msg.challenge && state === "seeking") {
      offer = { bot: msg.bot, challenge: msg.challenge, sent: false };
      render();
    } else if (msg.t === "paired" && msg.game_id) {
      state = "idle";
      render();
      location.hash = `#/game/${msg.game_id}`;
    }
  }

  render();
  return {
    element: card,
    onMessage,
    retranslate: () => {
      describeSpeeds();
      render();
    },
    destroy: () => clearInterval(timer),
  };
}
