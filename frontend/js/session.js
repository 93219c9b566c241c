// The signed-in user (a guest by default: the server sets the session cookie on the first visit).
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

export function isGuest(u = user) {
  return !u || u.guest === true || u.is_guest === true || u.kind === "guest";
}
