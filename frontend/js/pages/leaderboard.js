// Leaderboard (#/leaderboard): registered players by rating, overall or per board size, paged.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { errorToast } from "../ui.js";
import { playerLink } from "./common.js";
import { categoryLabel } from "./player.js";

const CATEGORIES = ["overall", "9", "13", "19"];

export function mount(container) {
  let alive = true;
  let category = "19";
  let page = 1;
  const tabs = h("div", { class: "segmented", role: "tablist" });
  const body = h("div", { class: "leaderboard-body" });
  const pager = h("div", { class: "row pager" });

  async function load() {
    tabs.querySelectorAll("button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.category === category)));
    try {
      const data = await api.leaderboard(category, page);
      if (!alive) return;
      replace(
        body,
        data.players.length
          ? h(
              "table",
              { class: "leaderboard" },
              h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { i18n: "player.name" }), h("th", { i18n: "player.rating" }), h("th", { i18n: "player.deviation" }), h("th", { i18n: "player.games" }))),
              h(
                "tbody",
                {},
                data.players.map((p) =>
                  h("tr", {}, h("td", {}, p.position), h("td", {}, playerLink({ name: p.name, rank: p.display, bot: p.bot })), h("td", {}, Math.round(p.rating)), h("td", {}, `± ${Math.round(p.deviation)}`), h("td", {}, p.games)),
                ),
              ),
            )
          : h("p", { class: "muted", i18n: "leaderboard.empty" }),
      );
      const pages = Math.max(1, Math.ceil(data.total / data.per_page));
      replace(
        pager,
        h("button", { type: "button", class: "btn small", disabled: page <= 1, i18n: "archive.previous", onclick: () => { page -= 1; load(); } }),
        h("span", { class: "muted" }, t("archive.page_of", { page, pages })),
        h("button", { type: "button", class: "btn small", disabled: page >= pages, i18n: "archive.next", onclick: () => { page += 1; load(); } }),
      );
    } catch (err) {
      errorToast(err);
    }
  }

  CATEGORIES.forEach((c) =>
    tabs.append(h("button", { type: "button", role: "tab", dataset: { category: c }, onclick: () => { category = c; page = 1; load(); } }, categoryLabel(c))),
  );
  container.append(h("section", { class: "card leaderboard-page" }, h("h1", { i18n: "leaderboard.title" }), tabs, body, pager));
  load();
  return () => {
    alive = false;
  };
}
