// What the two pages that follow a live socket (a game, #/game/<id>, and a shared review, #/reviews/<id>) share:
// the socket's callbacks into the view's own methods, and what the view holds while it is shown (a redraw on a
// change of language, its keys) and lets go of with its socket, its board and its element.
import { onLanguageChange } from "../i18n.js";
import { errorToast } from "../ui.js";

/** The socket's callbacks: the view's onSnapshot, onEvent, onEphemeral and onStatus; errors as toasts. */
export function socketHandlers(view) {
  return {
    onSnapshot: (msg) => view.onSnapshot(msg),
    onEvent: (msg) => view.onEvent(msg),
    onEphemeral: (msg) => view.onEphemeral(msg),
    onStatus: (status, detail) => view.onStatus(status, detail),
    onError: (msg) => errorToast(msg),
  };
}

/** While the view is shown: redrawn (view.render) on a change of language, keys to view.keyboard. */
export function hold(view) {
  view.offLang = onLanguageChange(() => view.render());
  view.onKeyDown = (ev) => view.keyboard(ev);
  document.addEventListener("keydown", view.onKeyDown);
}

/** The view is gone: what `hold` took is given back, the socket stopped, the board and view.root removed. */
export function release(view) {
  view.destroyed = true;
  document.removeEventListener("keydown", view.onKeyDown);
  view.socket.stop();
  view.offLang();
  if (view.board) view.board.destroy();
  view.root.remove();
}
