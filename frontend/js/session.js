// The signed-in user: an account, a guest, or (before doing anything that needs one) an anonymous visitor
// with no id. The server stores a guest only when it is needed: docs/operations.md, "Limits".
// Who it is decides what the page asks the server: an anonymous visitor has no guest's name, games or blocks,
// only an account has settings of its own, only a moderator (`moderator` in /api/me) the moderator page; a page
// does not ask for what the server must refuse.
import { api } from "./api.js";

let user = null; // null until /api/me has answered
const listeners = new Set();

export function currentUser() {
  return user;
}

export function setUser(u) {
  user = u && u.user ? u.user : u;
  for (const fn of listeners) fn(user);
}

export function onUserChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export async function loadMe() {
  try {
    setUser(await api.me());
  } catch {
    setUser({ id: null, name: null, guest: true }); // unreachable: shown as the anonymous visitor it may be
  }
  return user;
}

/**
 * Make sure this browser has a session before an action that needs one (a challenge, a seek, a chat line).
 * Returns true when a guest was started just now: sockets opened before carry no cookie and must reconnect.
 */
export async function ensureUser() {
  if (!isAnonymous()) return false;
  setUser(await api.startGuest());
  return true;
}

/** No account: a guest, or an anonymous visitor (or not known yet). */
export function isGuest(u = user) {
  return !u || u.guest === true || u.is_guest === true || u.kind === "guest";
}

/** A visitor the server has stored nothing for (no session): no name, no games, nothing of its own. */
export function isAnonymous(u = user) {
  return !u || u.id === null || u.id === undefined;
}

/** Whether the server says this user may moderate (the moderator API checks it again on each request). */
export function isModerator(u = user) {
  return Boolean(u && u.moderator === true);
}
