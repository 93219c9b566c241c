// "Your move" notifications (the browser's Notification API), only when the player asked for them and only
// while the tab is hidden: a visible page already shows whose turn it is.
import { t } from "./i18n.js";

const supported = () => typeof window !== "undefined" && "Notification" in window;

export function notificationsAllowed() {
  return supported() && Notification.permission === "granted";
}

/** Ask the browser for permission (it must follow a click); resolves whether notifications may be shown. */
export async function requestNotifications() {
  if (!supported()) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}

/** Tell a player whose tab is hidden that it is their move; point is what the opponent played. */
export function notifyMove(gameId, point) {
  if (document.visibilityState !== "hidden" || !notificationsAllowed()) return null;
  const note = new Notification(t("notify.your_move_title"), { body: t("notify.your_move_body", { point }), tag: `tengen-${gameId}` });
  note.addEventListener("click", () => {
    window.focus();
    note.close();
  });
  return note;
}

/** Tell a player whose tab is hidden that another of their games waits for them (the lobby's "your turn"). */
export function notifyTurn(gameId, opponent) {
  if (document.visibilityState !== "hidden" || !notificationsAllowed()) return null;
  const note = new Notification(t("notify.your_move_title"), { body: t("notify.your_turn_body", { name: opponent }), tag: `tengen-${gameId}` });
  note.addEventListener("click", () => {
    window.focus();
    location.hash = `#/game/${gameId}`;
    note.close();
  });
  return note;
}
