// One card of #/settings: its title, the part the card draws (`state`), and an error line under it.
import { h } from "../dom.js";
import { errorMessageInto } from "../account.js";

/** `attempt(action)` runs a change, its failure shown in the card's error line; `failed(err)` shows one. */
export function settingsCard(id, titleKey) {
  const state = h("div", { class: "stack" });
  const error = h("p", { class: "form-error", role: "alert" });
  const section = h("section", { class: "card stack", id }, h("h2", { i18n: titleKey }), state, error);
  const failed = (err) => errorMessageInto(error, err);

  async function attempt(action) {
    error.textContent = "";
    try {
      await action();
    } catch (err) {
      failed(err);
    }
  }

  return { section, state, attempt, failed };
}
