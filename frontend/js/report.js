// Reporting a player, a game or a chat line to the moderators, and blocking a player (docs/moderation.md).
import { h, setText } from "./dom.js";
import { api } from "./api.js";
import { errorToast, openDialog, toast } from "./ui.js";
import { limitChars } from "./textlimit.js";

/** Ask for a reason, then send the report; the receipt (its number, "received") is shown. */
export function reportDialog(target) {
  const reason = limitChars(h("textarea", { name: "reason", required: true, rows: 3, class: "report-reason", i18nAria: "report.reason" }), 500);
  const form = h(
    "form",
    { class: "stack" },
    h("p", { class: "muted", i18n: `report.about_${target.kind}`, i18nParams: { name: target.name || "" } }),
    h("label", { class: "stack" }, h("span", { i18n: "report.reason" }), reason),
    h(
      "div",
      { class: "dialog-buttons" },
      h("button", { type: "button", class: "btn", i18n: "common.cancel", onclick: () => dlg.close() }),
      h("button", { type: "submit", class: "btn primary", i18n: "report.send" }),
    ),
  );
  const dlg = openDialog("report.title", form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { kind: target.kind, reason: reason.value.trim() };
    if (target.user) body.user = target.user;
    if (target.gameId) body.game_id = target.gameId;
    if (target.chatV) body.chat_v = target.chatV;
    try {
      const receipt = await api.report(body);
      dlg.close();
      toast("report.received", { id: receipt.id });
    } catch (err) {
      errorToast(err);
    }
  });
  reason.focus();
  return dlg;
}

/** A button that blocks (or unblocks) a player; ``blocked`` is the state it starts in. */
export function blockButton(name, blocked) {
  let state = blocked;
  const button = h("button", { type: "button", class: "btn small", dataset: { action: "block" } });
  const show = () => setText(button, state ? "report.unblock" : "report.block");
  button.addEventListener("click", async () => {
    try {
      if (state) await api.unblock(name);
      else await api.block(name);
      state = !state;
      toast(state ? "report.blocked" : "report.unblocked", { name });
      show();
    } catch (err) {
      errorToast(err);
    }
  });
  show();
  return button;
}
