// Settings (#/settings): the account's email address (confirmed by a mailed link), and what is mailed to it.
import { h, replace } from "../dom.js";
import { api } from "../api.js";
import { currentUser, isGuest, onUserChange } from "../session.js";
import { toast } from "../ui.js";
import { settingsCard } from "./settings_card.js";
import { correspondenceSection } from "./correspondence_settings.js";

const MODES = ["digest", "immediate", "off"];

function emailSection() {
  const { section, state, attempt, failed } = settingsCard("email-settings", "email.title");

  function render(view) {
    const address = h("input", { name: "email", type: "email", required: true, autocomplete: "email", maxlength: 254 });
    const send = h("button", { type: "submit", class: "btn primary", i18n: "email.send" });
    const form = h("form", { class: "settings-form" }, h("label", {}, h("span", { i18n: "email.address" }), address), send);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      send.disabled = true;
      attempt(async () => {
        const email = address.value.trim();
        render(await api.setEmail(email));
        toast("email.sent", { email });
      }).finally(() => {
        send.disabled = false;
      });
    });
    const mode = h(
      "select",
      { name: "mode", id: "mail-mode" },
      MODES.map((m) => h("option", { value: m, selected: view.mode === m, i18n: `email.mode_${m}` })),
    );
    mode.addEventListener("change", () =>
      attempt(async () => {
        render(await api.setMailMode(mode.value));
        toast("email.saved");
      }),
    );
    replace(
      state,
      h("p", { class: "muted", i18n: "email.intro" }),
      view.email
        ? h("p", { class: "email-state", id: "email-verified", i18n: "email.verified", i18nParams: { email: view.email } })
        : h("p", { class: "email-state", i18n: "email.none" }),
      view.pending ? h("p", { class: "email-state muted", id: "email-pending", i18n: "email.pending", i18nParams: { email: view.pending } }) : null,
      form,
      view.email || view.pending
        ? h("button", {
            type: "button",
            class: "btn small start",
            id: "email-remove",
            i18n: "email.remove",
            onclick: () =>
              attempt(async () => {
                render(await api.removeEmail());
                toast("email.removed");
              }),
          })
        : null,
      h("label", { class: "stack" }, h("span", { i18n: "email.mode" }), mode, h("span", { class: "muted", i18n: "email.mode_help" })),
    );
  }

  function load(user) {
    if (isGuest(user)) {
      replace(state, h("p", { i18n: "email.guest" }));
      return;
    }
    api.email().then(render, failed);
  }

  load(currentUser());
  return { section, load };
}

export function mount(container) {
  const email = emailSection();
  const correspondence = correspondenceSection();
  container.append(h("div", { class: "settings-page" }, h("h1", { i18n: "settings.title" }), email.section, correspondence.section));
  return onUserChange((user) => {
    email.load(user);
    correspondence.load(user);
  });
}
