// A challenge opened by link (#/challenge/<id>/<token>): show its terms and let the visitor accept it.
import { h, replace } from "../dom.js";
import { api } from "../api.js";
import { ensureUser } from "../session.js";
import { errorToast } from "../ui.js";
import { challengeColorText, creatorOf, gameSummary, nameWithRank } from "./common.js";

export function mount(container, id, token) {
  const card = h("section", { class: "card narrow" }, h("p", { class: "muted", i18n: "common.loading" }));
  container.append(card);
  api.challenge(id, token).then(
    (data) => {
      const ch = data.challenge || data;
      const accept = h("button", {
        type: "button",
        class: "btn primary big",
        i18n: "lobby.accept",
        onclick: async () => {
          accept.disabled = true;
          try {
            await ensureUser();
            const res = await api.acceptChallenge(ch.id ?? id, token);
            location.hash = `#/game/${res.game_id || (res.game && res.game.id)}`;
          } catch (err) {
            errorToast(err);
            accept.disabled = false;
          }
        },
      });
      replace(
        card,
        h("h2", { i18n: "challenge.title", i18nParams: { name: nameWithRank(creatorOf(ch)) } }),
        h("p", {}, gameSummary(ch)),
        h("p", { class: "muted challenge-colour" }, challengeColorText(ch.color, false)),
        accept,
      );
    },
    (err) => {
      replace(card, h("p", { i18n: err.status === 404 ? "challenge.gone" : "lobby.unreachable" }));
    },
  );
}
