// Application shell: header, language switch, hash routes (#/, #/game/<id>, #/challenge/<id>, #/rules,
// #/analysis[/game/<id>[/<move>]], #/ladders[/<id>], #/tournaments[/<id>]).
import { h, replace, translateTree } from "./dom.js";
import { LANGUAGES, getLanguage, onLanguageChange, setLanguage } from "./i18n.js";
import { mountAccount } from "./account.js";
import { isModerator, loadMe, onUserChange } from "./session.js";
import { onAccountSanctioned } from "./protocol.js";
import { showSanction, watchSanction } from "./sanction.js";
import { unlockAudio } from "./sound.js";
import { clearToasts } from "./ui.js";
import { applyTheme, themeSwitch } from "./theme.js";
import * as lobby from "./pages/lobby.js";
import * as game from "./pages/game.js";
import * as rules from "./pages/rules.js";
import * as challenge from "./pages/challenge.js";
import * as player from "./pages/player.js";
import * as leaderboard from "./pages/leaderboard.js";
import * as ladder from "./pages/ladder.js";
import * as tournaments from "./pages/tournaments.js";
import * as tournament from "./pages/tournament.js";
import * as archive from "./pages/archive.js";
import * as settings from "./pages/settings.js";
import * as maillinks from "./pages/maillinks.js";
import * as analysis from "./pages/analysis.js";
import * as review from "./pages/review.js";
import * as reviews from "./pages/reviews.js";
import * as moderation from "./pages/moderation.js";
import { onTurns, waitingGames, watchTurns } from "./turns.js";

const ROUTES = [
  [/^#?\/?$/, lobby],
  [/^#\/game\/([\w-]+)$/, game],
  [/^#\/challenge\/([\w-]+)(?:\/([\w-]+))?$/, challenge],
  [/^#\/rules$/, rules],
  [/^#\/players\/([^/?#]+)$/, player],
  [/^#\/leaderboard$/, leaderboard],
  [/^#\/ladders(?:\/([\w.-]+))?$/, ladder],
  [/^#\/tournaments$/, tournaments],
  [/^#\/tournaments\/([\w-]+)$/, tournament],
  [/^#\/games(?:\?(.*))?$/, archive],
  [/^#\/settings$/, settings],
  [/^#\/email\/verify\/([\w.-]+)$/, maillinks.verify],
  [/^#\/email\/unsubscribe\/([\w.-]+)$/, maillinks.unsubscribe],
  [/^#\/reset\/([\w.-]+)$/, maillinks.reset],
  [/^#\/analysis(?:\/game\/([\w-]+)(?:\/(\d+))?)?$/, analysis],
  [/^#\/reviews\/([\w-]+)$/, review],
  [/^#\/reviews$/, reviews],
  [/^#\/moderation$/, moderation],
];

let cleanup = null;

function languageSelect() {
  const select = h(
    "select",
    { id: "lang", class: "lang-select", i18nAria: "nav.language" },
    LANGUAGES.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === getLanguage() }, l.name)),
  );
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguageChange((code) => {
    select.value = code;
  });
  return select;
}

/** The moderator page's link, shown only to those /api/me says may moderate (docs/moderation.md). */
function modLink() {
  const link = h("a", { href: "#/moderation", id: "nav-moderation", i18n: "nav.moderation", hidden: true });
  onUserChange((user) => {
    link.hidden = !isModerator(user);
  });
  return link;
}

/** The count of games waiting for the player's move, on every page (hidden at zero); a link to the lobby's list. */
function turnBadge() {
  const badge = h("a", { href: "#/", id: "turn-badge", class: "badge turn-badge", hidden: true });
  const render = () => {
    const n = waitingGames().length;
    badge.textContent = String(n);
    badge.dataset.i18nAria = "nav.your_turn_n";
    badge.dataset.i18nTitle = "nav.your_turn_n";
    badge.dataset.i18nParams = JSON.stringify({ n });
    translateTree(badge);
    badge.hidden = n === 0;
  };
  onTurns(render);
  onLanguageChange(render);
  render();
  return badge;
}

/**
 * The header: one row. On a wide screen everything is in it; on a narrow one (css/app.css) the row keeps the
 * brand, "Play" with the turn count, the account's name (or "Log in") and a menu button, and the menu holds the
 * other links, dark mode, the language and the account's other buttons. The menu closes on a new page and on
 * Escape.
 */
function header() {
  const account = h("div", { class: "account" }); // the name, or "Log in": always in the row
  const accountMore = h("div", { class: "account-more" }); // the account's other buttons
  const toggle = h(
    "button",
    { type: "button", class: "btn icon menu-toggle", "aria-expanded": "false", "aria-controls": "topbar-menu", i18nAria: "nav.menu", i18nTitle: "nav.menu" },
    h("span", { class: "menu-icon", "aria-hidden": "true" }),
  );
  const menu = h(
    "div",
    { class: "topbar-menu", id: "topbar-menu" },
    h(
      "nav",
      { class: "nav nav-more", i18nAria: "nav.more" },
      h("a", { href: "#/tournaments", i18n: "nav.tournaments" }),
      h("a", { href: "#/leaderboard", i18n: "nav.leaderboard" }),
      h("a", { href: "#/ladders", i18n: "nav.ladders" }),
      h("a", { href: "#/games", i18n: "nav.archive" }),
      h("a", { href: "#/rules", i18n: "nav.rules" }),
      modLink(),
    ),
    h("div", { class: "spacer" }),
    themeSwitch(),
    languageSelect(),
    accountMore,
  );
  const el = h(
    "header",
    { class: "topbar" },
    h("a", { href: "#/", class: "brand", i18nAria: "nav.home" }, h("span", { class: "brand-mark", "aria-hidden": "true" }), h("span", { class: "brand-name" }, "Tengen")),
    h("nav", { class: "nav", i18nAria: "nav.main" }, h("a", { href: "#/", i18n: "nav.lobby" }), turnBadge()),
    menu,
    account,
    toggle,
  );
  const setOpen = (open) => {
    el.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => setOpen(!el.classList.contains("open")));
  window.addEventListener("hashchange", () => setOpen(false));
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && el.classList.contains("open")) {
      setOpen(false);
      toggle.focus();
    }
  });
  mountAccount(account, accountMore);
  return el;
}

function route() {
  const hash = location.hash || "#/";
  const main = document.getElementById("main");
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  replace(main);
  clearToasts();
  for (const [pattern, page] of ROUTES) {
    const m = hash.match(pattern);
    if (m) {
      cleanup = page.mount(main, ...m.slice(1)) || null;
      document.querySelectorAll(".nav a").forEach((a) => a.classList.toggle("active", a.getAttribute("href") === (hash === "#" ? "#/" : hash)));
      main.focus({ preventScroll: true });
      return;
    }
  }
  main.append(h("p", { class: "card", i18n: "common.not_found" }));
}

export function start() {
  applyTheme();
  document.documentElement.lang = getLanguage() === "zh" ? "zh-Hans" : getLanguage();
  const app = document.getElementById("app");
  replace(app, header(), h("main", { id: "main", tabindex: "-1" }));
  onLanguageChange(() => translateTree(document.body));
  document.addEventListener("pointerdown", unlockAudio, { once: true });
  document.addEventListener("keydown", unlockAudio, { once: true });
  window.addEventListener("hashchange", route);
  // A suspension or ban is told on every page, in the player's language (sanction.js): as a socket hears it,
  // and from /api/me when a socket closed without saying why.
  onAccountSanctioned((msg) => (msg ? showSanction(msg) : loadMe()));
  // Who we are (a visitor without a session is anonymous: a guest is started only by an action that needs
  // one, see session.js ensureUser) is known before the first page mounts.
  loadMe().finally(() => {
    route();
    watchTurns();
    watchSanction();
  });
}
