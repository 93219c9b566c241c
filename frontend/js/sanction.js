// A suspension or ban in force, told to the player in their language and kept on screen (across pages) until it
// ends or they dismiss it. The server says it on every socket of theirs, `account_sanctioned` just before the
// socket closes with 4403, and again in `/api/me` (`sanction`) for a player who was not connected then or whose
// socket closed before they read it (docs/moderation.md, docs/protocol.md §4.2).
import { h, replace } from "./dom.js";
import { getLanguage, onLanguageChange } from "./i18n.js";
import { currentUser, onUserChange } from "./session.js";

let box = null;
let shown = null; // {action, reason, until} on screen, or null
let dismissed = null; // the one the player closed: not shown again on this page load
let timer = null;

const sameSanction = (a, b) => Boolean(a && b && a.action === b.action && a.until === b.until && a.reason === b.reason);

/** The notice's words: the kind of sanction, its end in the player's language and the moderator's reason. */
function words(s) {
  const until = s.until ? new Date(s.until).toLocaleString(getLanguage()) : "";
  const withReason = Boolean(s.reason);
  if (s.action === "ban") return withReason ? ["moderation.banned_notice", { reason: s.reason }] : ["moderation.banned_plain", {}];
  return withReason ? ["moderation.suspended_notice", { reason: s.reason, until }] : ["moderation.suspended_plain", { until }];
}

function render() {
  if (!shown) {
    if (box) box.remove();
    box = null;
    return;
  }
  if (!box) {
    box = h("div", { class: "sanction-notice toast error", role: "alert" });
    document.body.append(box);
  }
  const [key, params] = words(shown);
  const close = h("button", { type: "button", class: "btn small", i18n: "common.dismiss", onclick: () => {
    dismissed = shown;
    showSanction(null);
  } });
  replace(box, h("p", { i18n: key, i18nParams: params }), h("p", { i18n: "moderation.sanction_watch" }), close);
}

/** Show this sanction ({action, reason, until}: account_sanctioned's fields), or none (null). */
export function showSanction(s) {
  const ended = s && s.until && new Date(s.until).getTime() <= Date.now();
  const next = s && !ended && !sameSanction(s, dismissed) ? { action: s.action, reason: s.reason || "", until: s.until || null } : null;
  clearTimeout(timer);
  shown = next;
  render();
  if (next && next.until) {
    // A suspension lifts by itself: the notice goes at its end (setTimeout's longest wait is about 24 days).
    timer = setTimeout(() => showSanction(null), Math.min(new Date(next.until).getTime() - Date.now(), 2 ** 31 - 1));
  }
}

/** Started once by the shell: the signed-in user's sanction (from /api/me) is shown, and follows the user. */
export function watchSanction() {
  onUserChange((user) => showSanction(user && user.sanction));
  onLanguageChange(render);
  showSanction(currentUser() && currentUser().sanction);
}
