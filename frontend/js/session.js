// The signed-in user: an account, a guest, or (before doing anything that needs one) an anonymous visitor
// with no id. The server stores a guest only when it is needed: docs/operations.md, "Limits".
import { api } from "./api.js";

let user = null;
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
    setUser(null);
  }
  return user;
}

/**
 * Make sure this browser has a session before an action that needs one (a challenge, a seek, a chat line).
 * Returns true when a guest was started just now: sockets opened before carry no cookie and must reconnect.
 */
export async function ensureUser() {
  if (user && user.id !== null && user.id !== undefined) return false;
  setUser(await api.startGuest());
  return true;
}

export function isGuest(u = user) {
  return !u || u.guest === true || u.is_guest === true || u.kind === "guest";
}
