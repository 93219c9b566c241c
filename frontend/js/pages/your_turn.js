// The lobby's "your turn" card: the player's games waiting for them, the nearest deadline first, and a badge
// with their count (shown only above zero). The card is shown only to a player with unfinished games: an
// anonymous visitor or a player without games has nothing to wait for. Drawn from the store of ../turns.js, which the lobby socket's snapshot (all the player's
// games in one message) fills and its my_game messages keep live; a game that becomes the player's turn while
// the tab is hidden is announced with a browser notification when the player asked for them (the game page's
// setting).
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { formatSeconds, describeTimeControl } from "../clock.js";
import { notifyTurn } from "../notify.js";
import { getSettings } from "../settings.js";
import { currentUser } from "../session.js";
import { isYourTurn, onTurns, unfinishedCount, waitingGames } from "../turns.js";
import { playerLink } from "./common.js";

export function yourTurnCard() {
  const list = h("ul", { class: "list", id: "your-turn" });
  const badge = h("span", { class: "badge", id: "your-turn-badge", "aria-live": "polite", hidden: true }, "0");
  const element = h(
    "section",
    { class: "card your-turn", "aria-labelledby": "your-turn-title", hidden: true },
    h("h2", { id: "your-turn-title" }, h("span", { i18n: "lobby.your_turn" }), " ", badge),
    list,
  );

  function timeLeft(game) {
    if (game.deadline === null || game.deadline === undefined) return t("lobby.paused");
    return t("lobby.time_left", { time: formatSeconds(game.deadline - Date.now() / 1000) });
  }

  function item(game, user) {
    const opponent = game.players.B.id === user.id ? game.players.W : game.players.B;
    return h(
      "li",
      { class: "item", dataset: { id: game.id } },
      h("div", { class: "item-main" }, h("strong", {}, playerLink(opponent)), h("span", { class: "muted" }, `${game.board_size}×${game.board_size} · ${describeTimeControl(game.time_control)}`)),
      h("span", { class: "muted small time-left" }, timeLeft(game)),
      h("a", { class: "btn small primary", href: `#/game/${game.id}`, i18n: "lobby.play_move" }),
    );
  }

  function render() {
    const user = currentUser();
    const waiting = waitingGames();
    badge.textContent = String(waiting.length);
    badge.hidden = waiting.length === 0;
    element.hidden = unfinishedCount() === 0;
    replace(list, waiting.length ? waiting.map((g) => item(g, user)) : h("li", { class: "empty muted", i18n: "lobby.no_your_turn" }));
  }

  const offTurns = onTurns((g, before) => {
    if (g && isYourTurn(g) && !(before && isYourTurn(before)) && getSettings().notify) {
      const user = currentUser();
      const opponent = g.players.B.id === user.id ? g.players.W : g.players.B;
      notifyTurn(g.id, opponent.name);
    }
    render();
  });

  const timer = setInterval(render, 30000);
  render();
  return {
    element,
    render,
    destroy: () => {
      clearInterval(timer);
      offTurns();
    },
  };
}
