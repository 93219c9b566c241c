// The pages the links in Tengen's messages open: confirm an address (#/email/verify/<token>), stop notices
// (#/email/unsubscribe/<token>) and choose a new password (#/reset/<token>).
import { h, replace } from "../dom.js";
import { api } from "../api.js";
import { errorMessageInto, onSubmit } from "../account.js";
import { setUser } from "../session.js";

function card(titleKey) {
  const body = h("div", { class: "stack" }, h("p", { class: "muted", i18n: "common.loading" }));
  return { el: h("section", { class: "card narrow stack", id: "mail-link" }, h("h1", { i18n: titleKey }), body), body };
}

function outcome(body, promise, done) {
  promise.then(
    (data) => replace(body, ...done(data)),
    (err) => {
      const p = h("p", { class: "form-error", role: "alert" });
      errorMessageInto(p, err);
      replace(body, p);
    },
  );
}

const settingsLink = () => h("a", { class: "btn", href: "#/settings", i18n: "email.to_settings" });

export const verify = {
  mount(container, token) {
    const { el, body } = card("email.verify_title");
    container.append(el);
    outcome(body, api.verifyEmail(token), (view) => [
      h("p", { id: "mail-link-done", i18n: "email.verify_done", i18nParams: { email: view.email } }),
      settingsLink(),
    ]);
  },
};

export const unsubscribe = {
  mount(container, token) {
    const { el, body } = card("email.unsubscribe_title");
    container.append(el);
    outcome(body, api.unsubscribe(token), () => [h("p", { id: "mail-link-done", i18n: "email.unsubscribed" }), settingsLink()]);
  },
};

export const reset = {
  mount(container, token) {
    const { el, body } = card("reset.title");
    container.append(el);
    const password = h("input", { name: "password", type: "password", required: true, minlength: 8, autocomplete: "new-password" });
    const error = h("p", { class: "form-error", role: "alert" });
    const submit = h("button", { type: "submit", class: "btn primary", i18n: "reset.submit" });
    const form = h("form", { class: "stack" }, h("label", {}, h("span", { i18n: "reset.new_password" }), password), error, submit);
    onSubmit(form, submit, error, async () => {
      const me = await api.reset(token, password.value);
      setUser(me);
      replace(body, h("p", { id: "mail-link-done", i18n: "reset.done", i18nParams: { name: me.name } }), h("a", { class: "btn", href: "#/", i18n: "nav.lobby" }));
    });
    replace(body, form);
  },
};
