// The correspondence part of #/settings: weekend pause and time zone (kept by each new correspondence game),
// and vacation (registered players: their correspondence clocks stop until they come back or the days run out).
import { h, replace } from "../dom.js";
import { api } from "../api.js";
import { currentUser, isAnonymous, isGuest } from "../session.js";
import { toast } from "../ui.js";
import { settingsCard } from "./settings_card.js";

const DAY = 86400;

function timeZones(current) {
  let zones = [];
  try {
    zones = Intl.supportedValuesOf("timeZone");
  } catch {
    zones = [];
  }
  if (!zones.includes("UTC")) zones = ["UTC", ...zones];
  if (current && !zones.includes(current)) zones = [current, ...zones];
  return zones;
}

export function correspondenceSection() {
  const { section, state, attempt, failed } = settingsCard("correspondence-settings", "corr.title");

  function vacationPart(view) {
    const v = view.vacation;
    if (!v) return h("p", { class: "muted", i18n: "corr.register_for_vacation" });
    const days = (v.seconds_left / DAY).toFixed(1);
    const status = v.on
      ? h("p", { id: "vacation-state", i18n: "corr.on_vacation_until", i18nParams: { date: new Date(v.ends_at * 1000).toLocaleString() } })
      : h("p", { id: "vacation-state", i18n: "corr.vacation_left", i18nParams: { days } });
    const toggle = h("button", {
      type: "button",
      class: "btn start" + (v.on ? "" : " primary"),
      id: "vacation-toggle",
      i18n: v.on ? "corr.vacation_off" : "corr.vacation_on",
      onclick: () =>
        attempt(async () => {
          render(await api.setVacation(!v.on));
          toast(v.on ? "corr.vacation_ended" : "corr.vacation_started");
        }),
    });
    return h("div", { class: "stack" }, h("h3", { i18n: "corr.vacation" }), h("p", { class: "muted", i18n: "corr.vacation_help" }), status, toggle);
  }

  function render(view) {
    const weekend = h("input", { type: "checkbox", name: "weekend_pause", id: "weekend-pause", checked: view.weekend_pause });
    const zone = h("select", { name: "time_zone", id: "time-zone" }, timeZones(view.time_zone).map((z) => h("option", { value: z, selected: z === view.time_zone }, z)));
    const save = () =>
      attempt(async () => {
        render(await api.setCorrespondence(weekend.checked, zone.value));
        toast("corr.saved");
      });
    weekend.addEventListener("change", save);
    zone.addEventListener("change", save);
    replace(
      state,
      h("p", { class: "muted", i18n: "corr.intro" }),
      h("label", { class: "check" }, weekend, h("span", { i18n: "corr.weekend_pause" })),
      h("label", { class: "stack" }, h("span", { i18n: "corr.time_zone" }), zone, h("span", { class: "muted", i18n: "corr.weekend_help" })),
      vacationPart(view),
    );
  }

  function load(user) {
    if (!user) return;
    if (isAnonymous(user)) {
      // Nothing is stored for a visitor without a session: the choices belong to a guest or an account.
      replace(state, h("p", { class: "muted", i18n: "corr.intro" }), h("p", { i18n: "corr.no_session" }));
      return;
    }
    api.correspondence().then(
      (view) => {
        // A first visit: the browser's own time zone is offered (saved only when the player changes something).
        if (!view.weekend_pause && view.time_zone === "UTC" && !isGuest(user)) {
          const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
          if (local) view = { ...view, time_zone: local };
        }
        render(view);
      },
      failed,
    );
  }

  load(currentUser());
  return { section, load };
}
