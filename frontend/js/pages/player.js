// Player page (#/players/<name>): rank and figures per category, the rating graph (SVG drawn here from the
// server's history), record by board size and speed, recent games, head-to-head against the viewer.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { errorToast } from "../ui.js";
import { gameSummary, playerLink, shortResult } from "./common.js";
import { currentUser, isAnonymous } from "../session.js";
import { blockButton, reportDialog } from "../report.js";

const CATEGORIES = ["overall", "9", "13", "19"];
const SVG = (tag, attrs, ...children) => h(`svg:${tag}`, attrs, ...children);

export function categoryLabel(category) {
  return category === "overall" ? t("player.overall") : `${category}×${category}`;
}

function figuresTable(ratings) {
  return h(
    "table",
    { class: "figures" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}), ["player.rank", "player.rating", "player.deviation", "player.volatility", "player.games"].map((k) => h("th", { i18n: k }))),
    ),
    h(
      "tbody",
      {},
      CATEGORIES.map((c) => {
        const f = ratings[c];
        return h(
          "tr",
          { dataset: { category: c } },
          h("th", {}, categoryLabel(c)),
          h("td", { class: "rank-cell" }, f.display),
          h("td", {}, Math.round(f.rating)),
          h("td", {}, `± ${Math.round(f.deviation)}`),
          h("td", {}, f.volatility.toFixed(4)),
          h("td", {}, f.games),
        );
      }),
    ),
  );
}

/** The rating after each game as a line, with the deviation as a band around it. */
export function ratingGraph(history) {
  const points = [{ rating: history.start.rating, deviation: history.start.deviation, at: null }, ...history.points];
  const width = 640;
  const height = 220;
  const pad = { left: 48, right: 12, top: 12, bottom: 24 };
  // The scale follows the ratings; the deviation band is cut at its edges.
  const ratings = points.map((p) => p.rating);
  const min = Math.min(...ratings) - 100;
  const max = Math.max(...ratings) + 100;
  const x = (i) => pad.left + (points.length === 1 ? 0 : (i * (width - pad.left - pad.right)) / (points.length - 1));
  const y = (r) => pad.top + ((max - Math.min(max, Math.max(min, r))) * (height - pad.top - pad.bottom)) / (max - min);
  const band = [...points.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`), ...points.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse()].join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ");
  const ticks = [min, (min + max) / 2, max].map((r) => Math.round(r));
  return SVG(
    "svg",
    { class: "rating-graph", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("player.graph_label", { n: history.points.length }) },
    ticks.map((r) => [
      SVG("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r) }),
      SVG("text", { class: "axis", x: pad.left - 6, y: y(r) + 4, "text-anchor": "end" }, String(r)),
    ]),
    SVG("polygon", { class: "band", points: band }),
    SVG("polyline", { class: "line", points: line }),
    points.map((p, i) =>
      SVG(
        "circle",
        { class: "dot", cx: x(i), cy: y(p.rating), r: points.length > 60 ? 1.5 : 3 },
        SVG("title", {}, `${Math.round(p.rating)} ± ${Math.round(p.deviation)}${p.rank ? ` (${p.rank})` : ""}${p.opponent ? ` · ${p.opponent.name}` : ""}`),
      ),
    ),
    SVG("text", { class: "axis", x: pad.left, y: height - 6 }, t("player.graph_start")),
    SVG("text", { class: "axis", x: width - pad.right, y: height - 6, "text-anchor": "end" }, t("player.graph_games", { n: history.points.length })),
  );
}

function recordTable(titleKey, record, label) {
  const keys = Object.keys(record);
  if (!keys.length) return null;
  return h(
    "div",
    { class: "record" },
    h("h3", { i18n: titleKey }),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", {}), h("th", { i18n: "player.wins" }), h("th", { i18n: "player.losses" }), h("th", { i18n: "player.draws" }))),
      h("tbody", {}, keys.map((k) => h("tr", {}, h("th", {}, label(k)), h("td", {}, record[k].wins), h("td", {}, record[k].losses), h("td", {}, record[k].draws)))),
    ),
  );
}

export function gameLine(g) {
  const change = g.rating_change;
  const delta = change ? Math.round(change.after - change.before) : null;
  return h(
    "li",
    { class: "item" },
    h(
      "div",
      { class: "item-main" },
      h("span", { class: "players" }, h("span", { class: "stone-icon black", "aria-hidden": "true" }), playerLink(g.players.B), " – ", h("span", { class: "stone-icon white", "aria-hidden": "true" }), playerLink(g.players.W)),
      h("span", { class: "muted" }, gameSummary(g)),
    ),
    h("span", { class: "result-tag" }, shortResult(g.result)),
    delta === null ? null : h("span", { class: `rating-change ${delta >= 0 ? "up" : "down"}` }, `${delta >= 0 ? "+" : ""}${delta}`),
    h("a", { class: "btn small", href: `#/game/${g.id}`, i18n: "lobby.review" }),
  );
}

/** The escape share (docs/moderation.md, "Escaping") and whether it limits the player to unrated games. */
function escapeLine(e) {
  const share = Math.round(e.share * 100);
  return h(
    "p",
    { class: `escapes${e.limited ? " limited" : ""}`, dataset: { escapes: e.escapes } },
    h("span", { i18n: "player.escapes", i18nParams: { escapes: e.escapes, games: e.games, share } }),
    e.limited ? h("strong", { class: "escape-limit", i18n: "player.escape_limited" }) : null,
  );
}

export function mount(container, encodedName) {
  const name = decodeURIComponent(encodedName);
  const page = h("div", { class: "player-page" }, h("p", { class: "muted", i18n: "common.loading" }));
  container.append(page);
  let alive = true;
  const graphHost = h("div", { class: "graph-host" });
  const tabs = h("div", { class: "segmented graph-tabs", role: "tablist" });

  async function showGraph(category) {
    tabs.querySelectorAll("button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.category === category)));
    try {
      const history = await api.playerHistory(name, category);
      if (alive) replace(graphHost, ratingGraph(history));
    } catch (err) {
      errorToast(err);
    }
  }

  let blocked = new Set();
  // Blocks and reports are a guest's or an account's: an anonymous visitor has none and is offered neither.
  const mine = isAnonymous() ? Promise.resolve({ blocked: [] }) : api.blocks().catch(() => ({ blocked: [] }));
  Promise.all([api.player(name), mine])
    .then(([data, myBlocks]) => {
      blocked = new Set((myBlocks.blocked || []).map((b) => b.id));
      if (!alive) return;
      const p = data.player;
      const me = currentUser();
      const other = !isAnonymous(me) && me.id !== p.id;
      const sections = [
        h(
          "header",
          { class: "card player-head" },
          h("h1", {}, p.name, p.rank ? h("span", { class: "rank big-rank" }, p.rank) : null, p.bot ? h("span", { class: "tag bot-tag", i18n: "player.bot" }) : null),
          p.guest ? h("p", { class: "muted", i18n: "player.guest" }) : null,
          other
            ? h(
                "div",
                { class: "row wrap player-actions" },
                blockButton(p.name, blocked.has(p.id)),
                h("button", { type: "button", class: "btn small", dataset: { action: "report" }, i18n: "report.player", onclick: () => reportDialog({ kind: "user", user: p.name, name: p.name }) }),
              )
            : null,
        ),
      ];
      if (data.ratings) {
        CATEGORIES.forEach((c) =>
          tabs.append(h("button", { type: "button", role: "tab", dataset: { category: c }, onclick: () => showGraph(c) }, categoryLabel(c))),
        );
        sections.push(h("section", { class: "card" }, h("h2", { i18n: "player.rating_title" }), tabs, graphHost, figuresTable(data.ratings)));
        showGraph("overall");
      }
      sections.push(
        h(
          "section",
          { class: "card records" },
          h("h2", { i18n: "player.record" }),
          h("p", {}, t("player.record_total", data.record.total)),
          data.escapes ? escapeLine(data.escapes) : null,
          h("div", { class: "row wrap" }, recordTable("player.by_size", data.record.by_size, (k) => (k === "other" ? t("player.other_sizes") : `${k}×${k}`)), recordTable("player.by_speed", data.record.by_speed, (k) => t(`speed.${k}`))),
        ),
      );
      if (data.head_to_head) {
        const hh = data.head_to_head;
        sections.push(
          h(
            "section",
            { class: "card head-to-head" },
            h("h2", { i18n: "player.head_to_head" }),
            h("p", {}, t("player.head_to_head_text", { wins: hh.wins, losses: hh.losses, draws: hh.draws })),
            hh.games.length ? h("ul", { class: "list" }, hh.games.map(gameLine)) : null,
          ),
        );
      }
      sections.push(
        h(
          "section",
          { class: "card" },
          h("h2", { i18n: "player.recent" }),
          data.recent.length ? h("ul", { class: "list recent-games" }, data.recent.map(gameLine)) : h("p", { class: "muted", i18n: "player.no_games" }),
          h("a", { class: "btn small", href: `#/games?player=${encodeURIComponent(p.name)}`, i18n: "player.all_games" }),
        ),
      );
      replace(page, ...sections);
      document.title = `${p.name}${p.rank ? ` [${p.rank}]` : ""} · Tengen`;
    })
    .catch((err) => {
      if (!alive) return;
      replace(page, h("p", { class: "card", i18n: err.code === "player_not_found" ? "error.player_not_found" : "common.not_found" }));
    });
  return () => {
    alive = false;
  };
}
