// Dialogs, confirmations and toasts shared by the pages.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** A modal confirmation. Resolves true only when the confirm button is pressed. */
export function confirmDialog({ title, body, confirm, danger = false, params = {} }) {
  return new Promise((resolve) => {
    const dlg = h(
      "dialog",
      { class: "dialog", "aria-labelledby": "dlg-title" },
      h(
        "form",
        { method: "dialog" },
        h("h2", { id: "dlg-title", i18n: title, i18nParams: params }),
        body ? h("p", { i18n: body, i18nParams: params }) : null,
        h(
          "div",
          { class: "dialog-buttons" },
          h("button", { value: "cancel", class: "btn", i18n: "common.cancel", autofocus: true }),
          h("button", { value: "ok", class: danger ? "btn danger" : "btn primary", i18n: confirm || "common.confirm" }),
        ),
      ),
    );
    dlg.addEventListener("close", () => {
      resolve(dlg.returnValue === "ok");
      dlg.remove();
    });
    document.body.append(dlg);
    dlg.showModal();
  });
}

/** A dialog holding arbitrary content; returns the dialog element (closed with .close()). */
export function openDialog(titleKey, ...content) {
  const dlg = h(
    "dialog",
    { class: "dialog", "aria-labelledby": "dlg-title" },
    h("h2", { id: "dlg-title", i18n: titleKey }),
    ...content,
  );
  dlg.addEventListener("close", () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  return dlg;
}

let toastBox = null;

/** A short message at the bottom of the screen. key is an i18n key; text is shown as is when no key. */
export function toast(key, params = {}, kind = "info", ms = 4500) {
  if (!toastBox) {
    toastBox = h("div", { class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
  }
  // The same message twice in a row is shown once (a player clicking a few times out of turn).
  const last = toastBox.lastElementChild;
  if (last && last.dataset.i18n === key && last.dataset.i18nParams === JSON.stringify(params)) return;
  const el = h("div", { class: `toast ${kind}`, i18n: key, i18nParams: params });
  toastBox.append(el);
  setTimeout(() => el.remove(), ms);
}

/** Remove every toast (they speak of the page being left). */
export function clearToasts() {
  if (toastBox) toastBox.replaceChildren();
}

/** Show an API/WebSocket error: a known code gets its translation, else the server's message. */
export function errorToast(err) {
  const code = (err && err.code) || "error";
  // The reason is the more precise explanation (illegal_move + "ko" -> "Ko: you cannot retake...").
  if (err && err.reason && t(`error.${err.reason}`) !== `error.${err.reason}`) {
    toast(`error.${err.reason}`, {}, "error");
    return;
  }
  const key = `error.${code}`;
  if (t(key) !== key) {
    toast(key, {}, "error");
    return;
  }
  toast("error.generic", { message: (err && err.message) || code }, "error");
}
