// Archive (#/games?player=...): finished games, searched by player, board size, result and date, paged.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { errorToast } from "../ui.js";
import { gameLine } from "./player.js";

export function mount(container, query) {
  let alive = true;
  const initial = new URLSearchParams(query || "");
  const player = h("input", { name: "player", value: initial.get("player") || "", maxlength: 40, autocomplete: "off" });
  const size = h("select", { name: "size" }, h("option", { value: "", i18n: "archive.any_size" }), [9, 13, 19].map((s) => h("option", { value: s }, `${s}×${s}`)));
  const result = h(
    "select",
    { name: "result" },
    [["", "archive.any_result"], ["win", "archive.result_win"], ["loss", "archive.result_loss"], ["B", "archive.result_black"], ["W", "archive.result_white"], ["draw", "archive.result_draw"]].map(([v, k]) => h("option", { value: v, i18n: k })),
  );
  const since = h("input", { type: "date", name: "since" });
  const until = h("input", { type: "date", name: "until" });
  const list = h("div", { class: "archive-list" });
  const pager = h("div", { class: "row pager" });
  let page = 1;

  const label = (key, control) => h("label", { class: "field" }, h("span", { class: "field-label", i18n: key }), control);
  const form = h(
    "form",
    { class: "archive-form grid3" },
    label("archive.player", player),
    label("game.size", size),
    label("archive.result", result),
    label("archive.since", since),
    label("archive.until", until),
    h("button", { type: "submit", class: "btn primary", i18n: "archive.search" }),
  );

  async function load() {
    const params = { page, per_page: 20 };
    if (player.value.trim()) params.player = player.value.trim();
    if (size.value) params.size = size.value;
    if (result.value) params.result = result.value;
    if (since.value) params.since = since.value;
    if (until.value) params.until = until.value;
    try {
      const data = await api.archive(params);
      if (!alive) return;
      replace(list, data.games.length ? h("ul", { class: "list" }, data.games.map(gameLine)) : h("p", { class: "muted", i18n: "archive.none" }));
      const pages = Math.max(1, Math.ceil(data.total / data.per_page));
      replace(
        pager,
        h("button", { type: "button", class: "btn small", disabled: page <= 1, i18n: "archive.previous", onclick: () => { page -= 1; load(); } }),
        h("span", { class: "muted" }, t("archive.page_of", { page, pages }), " · ", t("archive.total", { n: data.total })),
        h("button", { type: "button", class: "btn small", disabled: page >= pages, i18n: "archive.next", onclick: () => { page += 1; load(); } }),
      );
    } catch (err) {
      errorToast(err);
    }
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    page = 1;
    load();
  });
  const analysis = h("a", { class: "btn small", href: "#/analysis", dataset: { action: "analysis" }, i18n: "archive.analysis" });
  container.append(h("section", { class: "card archive-page" }, h("div", { class: "row spread" }, h("h1", { i18n: "archive.title" }), analysis), form, list, pager));
  load();
  return () => {
    alive = false;
  };
}
