// "Play the computer": pick a board size and a strength; the game starts as soon as the bot accepts (at
// once when its bridge is running). It is an ordinary challenge addressed to the bot (docs/bots.md). The
// sparring partner's own offer to a signed-in player (its handicap and the strength it will play at, from the
// player's rank and its results against them) is shown under the strength and the challenge made with it.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api, listOf } from "../api.js";
import { errorToast } from "../ui.js";
import { isGuest } from "../session.js";

const SIZES = [9, 13, 19];
// A comfortable clock against the computer: 10 minutes, then 5 periods of 30 seconds.
const TIME_CONTROL = { kind: "byoyomi", main: 600, periods: 5, period_time: 30 };
const POLL_MS = 500;
const GIVE_UP_MS = 20000;

/** ``withSession`` runs before the challenge to a bot is made (the lobby starts a guest session with it). */
export function computerCard(withSession = async () => {}) {
  let size = 9;
  let bots = [];
  let waiting = null; // the challenge id while waiting for the bot
  let timer = null;
  let offer = null; // the sparring partner's offer for the chosen size, when it is the one chosen
  let asked = 0; // the latest offer asked for: an older answer is dropped

  const sizeBox = h("div", { class: "segmented", role: "radiogroup" });
  for (const n of SIZES) {
    const id = `pc-size-${n}`;
    const input = h("input", { type: "radio", name: "pc-size", id, value: String(n), checked: n === size });
    input.addEventListener("change", () => {
      size = n;
    });
    sizeBox.append(input, h("label", { for: id }, `${n}×${n}`));
  }
  const strength = h("select", { name: "pc-strength", id: "pc-strength" });
  const status = h("p", { class: "muted small computer-status", role: "status" });
  const offerLine = h("p", { class: "muted small computer-offer", hidden: true });
  const start = h("button", { type: "button", class: "btn primary", id: "play-computer", i18n: "computer.start" });
  const card = h(
    "section",
    { class: "card computer", "aria-labelledby": "computer-title" },
    h("h2", { id: "computer-title", i18n: "computer.title" }),
    h(
      "div",
      { class: "stack" }, // the stylesheet's gap between the fields and the button, as in the other cards
      h("div", { class: "field" }, h("span", { class: "field-label", i18n: "game.size" }), sizeBox),
      h("label", { class: "field" }, h("span", { class: "field-label", i18n: "computer.strength" }), strength),
      offerLine,
      start,
    ),
    status,
  );
  card.hidden = true; // shown once the server lists its computer opponents

  function renderBots() {
    const chosen = strength.value;
    const fitting = bots.filter((b) => !b.accepts || !b.accepts.board_sizes || b.accepts.board_sizes.includes(size));
    replace(strength, (fitting.length ? fitting : bots).map((b) => h("option", { value: b.name, selected: b.name === chosen }, b.name)));
    card.hidden = bots.length === 0;
    loadOffer();
  }

  /** A rank from the policy rule's kyu number (negative: dan), as ranks are shown: ``12k``, ``3d``. */
  function rankOf(kyu) {
    return kyu > 0 ? `${Math.round(kyu)}k` : `${Math.round(1 - kyu)}d`;
  }

  function renderOffer() {
    offerLine.hidden = !offer;
    if (!offer) return;
    const terms = offer.handicap ? t("game.handicap_value", { n: offer.handicap }) : offer.komi !== null ? t("game.komi_value", { komi: offer.komi }) : t("lobby.even_game");
    const side = offer.you_play_black === null ? "" : t("lobby.you_play", { color: t(offer.you_play_black ? "color.black" : "color.white") });
    const aim = offer.sparring.aim === null ? t("computer.aim_full") : t("computer.aim", { rank: rankOf(offer.sparring.aim) });
    offerLine.textContent = `${side ? t("computer.offer", { terms, side }) : terms}. ${aim}`;
  }

  /** The sparring partner's offer for the chosen size, for a player with an account (a guest has no rank). */
  async function loadOffer() {
    const bot = bots.find((b) => b.name === strength.value);
    const n = ++asked;
    offer = null;
    if (bot && bot.sparring && !isGuest()) {
      try {
        const answer = await api.suggestedHandicap(bot.name, size);
        if (n === asked && answer.sparring) offer = answer;
      } catch {
        // no offer: an even game by nigiri, as with any other strength
      }
    }
    if (n === asked) renderOffer();
  }

  async function load() {
    try {
      bots = listOf(await api.bots(), "bots").filter((b) => b.house);
    } catch {
      bots = [];
    }
    renderBots();
  }

  function stopWaiting(messageKey, params) {
    waiting = null;
    clearTimeout(timer);
    start.disabled = false;
    status.textContent = messageKey ? t(messageKey, params) : "";
  }

  async function poll(id, since) {
    if (waiting !== id) return;
    try {
      const ch = await api.challenge(id);
      if (ch.status === "accepted" && ch.game_id) {
        stopWaiting();
        location.hash = `#/game/${ch.game_id}`;
        return;
      }
      if (ch.status === "declined") {
        stopWaiting("computer.declined", { reason: ch.decline_reason || "" });
        return;
      }
    } catch {
      // a network hiccup: keep trying until the deadline
    }
    if (Date.now() - since > GIVE_UP_MS) {
      try {
        await api.cancelChallenge(id);
      } catch {
        // accepted meanwhile: the lobby follows the game_started message
      }
      stopWaiting("computer.unavailable");
      return;
    }
    timer = setTimeout(() => poll(id, since), POLL_MS);
  }

  start.addEventListener("click", async () => {
    if (!strength.value) return;
    start.disabled = true;
    status.textContent = t("computer.waiting");
    try {
      await withSession();
      const spec = { board_size: size, opponent: strength.value, color: "nigiri", rated: false, time_control: TIME_CONTROL };
      if (offer) {
        // The partner's offer: its stones and komi, and the colour that goes with them.
        if (offer.handicap) spec.handicap = offer.handicap;
        if (offer.komi !== null) spec.komi = offer.komi;
        if (offer.you_play_black !== null) spec.color = offer.you_play_black ? "black" : "white";
      }
      const ch = await api.createChallenge(spec);
      waiting = ch.id;
      poll(ch.id, Date.now());
    } catch (err) {
      stopWaiting();
      errorToast(err);
    }
  });
  sizeBox.addEventListener("change", renderBots);
  strength.addEventListener("change", loadOffer);

  load();
  return {
    element: card,
    retranslate: () => {
      if (waiting) status.textContent = t("computer.waiting");
      renderOffer();
    },
    destroy: () => {
      waiting = null;
      clearTimeout(timer);
    },
  };
}
