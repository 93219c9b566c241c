// Header account area: the visible name, register, log in (and a forgotten password), settings, log out.
import { h, replace } from "./dom.js";
import { api } from "./api.js";
import { currentUser, isAnonymous, isGuest, loadMe, onUserChange, setUser } from "./session.js";
import { openDialog, errorToast, toast } from "./ui.js";
import { t } from "./i18n.js";

function credentialsForm(kind) {
  const user = h("input", { name: "username", required: true, autocomplete: "username", minlength: 2, maxlength: 32 });
  const pass = h("input", {
    name: "password",
    type: "password",
    required: true,
    minlength: kind === "register" ? 8 : 1,
    autocomplete: kind === "register" ? "new-password" : "current-password",
  });
  const strength =
    kind === "register"
      ? h(
          "select",
          { name: "strength" },
          [["", "account.strength_unsaid"], ["new", "account.strength_new"], ["casual", "account.strength_casual"], ["club", "account.strength_club"], ["strong", "account.strength_strong"]].map(
            ([value, key]) => h("option", { value, i18n: key }),
          ),
          h("option", { value: "", disabled: true, i18n: "account.strength_rank" }),
          [...Array.from({ length: 30 }, (_, i) => `${30 - i}k`), ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`)].map((r) => h("option", { value: r }, r)),
        )
      : null;
  const closeDialog = (ev) => ev.currentTarget.closest("dialog").close();
  return dialogForm(
    kind === "register" ? "account.register" : "account.login",
    [
      h("label", {}, h("span", { i18n: "account.username" }), user),
      h("label", {}, h("span", { i18n: "account.password" }), pass),
      strength ? h("label", {}, h("span", { i18n: "account.strength" }), strength) : null,
      kind === "login"
        ? h("button", {
            type: "button",
            class: "link-button",
            id: "forgot-password",
            i18n: "account.forgot",
            onclick: (ev) => {
              closeDialog(ev);
              openDialog("reset.title", resetRequestForm());
            },
          })
        : null,
    ],
    async () => {
      const me = kind === "register" ? await api.register(user.value.trim(), pass.value, strength.value) : await api.login(user.value.trim(), pass.value);
      if (me && (me.user || me.name || me.username)) setUser(me);
      else await loadMe();
      return () => toast(kind === "register" ? "account.registered" : "account.logged_in", { name: displayName(currentUser()) });
    },
  );
}

/** "Forgot password?": ask for a reset link to the account's confirmed address (the answer never says
 * whether the address belongs to an account). */
function resetRequestForm() {
  const email = h("input", { name: "email", type: "email", required: true, autocomplete: "email", maxlength: 254 });
  return dialogForm("reset.request_send", [h("p", { class: "muted", i18n: "reset.request_text" }), h("label", {}, h("span", { i18n: "email.address" }), email)], async () => {
    await api.resetRequest(email.value.trim());
    return () => toast("reset.requested");
  });
}

/** A dialog's form: the fields, an error line, Cancel and the submit button. Submitting runs `action` with the
 * button disabled; when it succeeds the dialog closes and what `action` returned is called; when it fails the
 * error is shown in the form. */
function dialogForm(submitKey, fields, action) {
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit", class: "btn primary", i18n: submitKey });
  const form = h(
    "form",
    { class: "stack" },
    ...fields,
    error,
    h(
      "div",
      { class: "dialog-buttons" },
      h("button", { type: "button", class: "btn", i18n: "common.cancel", onclick: () => form.closest("dialog").close() }),
      submit,
    ),
  );
  onSubmit(form, submit, error, async () => {
    const done = await action();
    form.closest("dialog").close();
    done();
  });
  return form;
}

/** Submitting `form` runs `action` with `submit` disabled and the `error` line cleared; a failure is shown in
 * the error line. */
export function onSubmit(form, submit, error, action) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      await action();
    } catch (err) {
      errorMessageInto(error, err);
    } finally {
      submit.disabled = false;
    }
  });
}

export function errorMessageInto(el, err) {
  const key = `error.${err.code}`;
  const text = t(key);
  el.textContent = text !== key ? text : err.message || t("error.generic", { message: err.code });
}

export function displayName(u) {
  return (u && (u.name || u.username || u.display_name)) || "…";
}

/**
 * The header's account: `container` (in the header's row) holds the name, or "Log in" for an anonymous visitor;
 * `more` (in the header's menu on a narrow screen) the other buttons. An anonymous visitor (no session yet) is
 * shown no name: it becomes a guest with its first action (session.js ensureUser). Nothing is shown until
 * /api/me has said who is visiting.
 */
export function mountAccount(container, more) {
  const loginButton = () => h("button", { type: "button", class: "btn small", i18n: "account.login", onclick: () => openDialog("account.login_title", credentialsForm("login")) });
  const registerButton = () => h("button", { type: "button", class: "btn small primary", i18n: "account.register", onclick: () => openDialog("account.register_title", credentialsForm("register")) });
  const render = (u) => {
    if (u === null) {
      replace(container);
      replace(more);
    } else if (isAnonymous(u)) {
      replace(container, loginButton());
      replace(more, registerButton());
    } else if (isGuest(u)) {
      replace(container, h("span", { class: "guest-tag", i18n: "account.guest" }), h("span", { class: "user-name", title: displayName(u) }, displayName(u)));
      replace(more, loginButton(), registerButton());
    } else {
      // A registered player's name leads to their own page (rank, rating graph, games).
      replace(
        container,
        h("a", { class: "user-name", href: `#/players/${encodeURIComponent(displayName(u))}`, title: u.rank ? `${displayName(u)} [${u.rank}]` : displayName(u) }, displayName(u)),
      );
      replace(
        more,
        h("a", { class: "btn small", href: "#/settings", i18n: "nav.settings" }),
        h("button", {
          type: "button",
          class: "btn small",
          i18n: "account.logout",
          onclick: async () => {
            try {
              await api.logout();
            } catch (err) {
              errorToast(err);
            }
            await loadMe();
          },
        }),
      );
    }
  };
  onUserChange(render);
  render(currentUser());
}
