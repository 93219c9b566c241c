// Rules page: a short guide, and a 9x9 practice board (one person plays both colours, server-side rules).
import { h, replace } from "../dom.js";
import { api } from "../api.js";
import { ensureUser } from "../session.js";
import { Board } from "../board.js";
import { errorToast } from "../ui.js";
import { GameView } from "./game.js";

const SECTIONS = ["board", "turns", "liberties", "capture", "suicide", "ko", "life", "end", "scoring", "komi", "clocks"];

function diagram(rows, last) {
  const host = h("div", { class: "diagram" });
  const board = new Board(host, { size: rows.length, coordinates: false, label: "" });
  board.setPosition(rows);
  if (last) board.setLastMove(last);
  board.svg.removeAttribute("tabindex");
  return host;
}

export function mount(container) {
  const practiceHost = h("div", { class: "practice-host" });
  let view = null;
  const start = h("button", {
    type: "button",
    class: "btn primary big",
    i18n: "rules.practice_start",
    onclick: async () => {
      start.disabled = true;
      try {
        await ensureUser();
        const res = await api.createPractice(9);
        const id = res.game_id || (res.game && res.game.id);
        if (view) view.destroy();
        replace(practiceHost);
        view = new GameView(practiceHost, id, { practice: true });
      } catch (err) {
        errorToast(err);
      } finally {
        start.disabled = false;
      }
    },
  });
  const guide = h(
    "article",
    { class: "card guide" },
    h("h1", { i18n: "rules.title" }),
    h("p", { class: "lead", i18n: "rules.intro" }),
    SECTIONS.map((s) => [h("h2", { i18n: `rules.${s}_title` }), h("p", { i18n: `rules.${s}_text` })]),
    h("div", { class: "diagrams" },
      h("figure", {}, diagram([".....", "..O..", ".OXO.", ".....", "....."], null), h("figcaption", { i18n: "rules.fig_atari" })),
      h("figure", {}, diagram([".....", "..O..", ".O.O.", "..O..", "....."], null), h("figcaption", { i18n: "rules.fig_captured" })),
      h("figure", {}, diagram([".....", ".XO..", "XO.O.", ".XO..", "....."], [1, 2]), h("figcaption", { i18n: "rules.fig_ko" })),
    ),
  );
  container.append(
    h("div", { class: "rules-page" }, guide, h("section", { class: "card practice" }, h("h2", { i18n: "rules.practice_title" }), h("p", { i18n: "rules.practice_text" }), start, practiceHost)),
  );
  return () => {
    if (view) view.destroy();
  };
}
