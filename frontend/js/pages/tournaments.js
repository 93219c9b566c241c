// Tournaments (#/tournaments): the events by status (registration, running, finished), and the form that makes
// one (docs/tournaments.md "Making an event"). The event's own page is tournament.js.
import { h, replace } from "../dom.js";
import { onLanguageChange, t } from "../i18n.js";
import { api } from "../api.js";
import { TIME_PRESETS, describeTimeControl } from "../clock.js";
import { currentUser, isGuest, onUserChange } from "../session.js";
import { errorToast } from "../ui.js";

export const FORMATS = ["mcmahon", "swiss", "round_robin", "single_elimination", "double_elimination"];
export const TIEBREAKS = ["sos", "sos_minus_1", "sosos", "sodos", "cuss", "direct"];
const GROUPS = [
  ["registration", ["registration"]],
  ["running", ["running", "paused"]],
  ["finished", ["finished"]],
];
const PRESETS = ["blitz", "rapid", "classical", "countdown", "fischer", "correspondence"];
const RANKS = [...Array.from({ length: 30 }, (_, i) => `${30 - i}k`), ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`)];

/** The words for an error code the tournament API answers (every one has its key); a generic line otherwise. */
export function tournamentError(err) {
  const key = `error.${err && err.code}`;
  if (err && t(key) !== key) return t(key);
  return null;
}

/** A refusal in words in ``where`` (the page's error line); a code without tournament words as a toast. */
export function showError(err, where) {
  const words = tournamentError(err);
  if (!words) {
    errorToast(err);
    return;
  }
  replace(where, words);
  where.dataset.code = err.code;
  where.hidden = false;
}

export function formatLabel(format) {
  return t(`tournament.format.${format}`);
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "—";
}

function listCard(group, items) {
  return h(
    "section",
    { class: "card tournament-group", dataset: { group } },
    h("h2", { i18n: `tournament.group.${group}` }),
    items.length
      ? h(
          "ul",
          { class: "tournament-list" },
          items.map((e) =>
            h(
              "li",
              { class: "tournament-item" },
              h("a", { href: `#/tournaments/${encodeURIComponent(e.id)}`, class: "tournament-link" }, e.name),
              h("span", { class: "muted" }, ` · ${formatLabel(e.format)} · `),
              h("span", { class: "muted" }, t("tournament.players_of", { n: e.players, max: e.max_players })),
              h("span", { class: "muted" }, ` · ${when(e.first_round_at)}`),
            ),
          ),
        )
      : h("p", { class: "muted", i18n: "tournament.none" }),
  );
}

export function mount(container) {
  let alive = true;
  const body = h("div", { class: "tournament-groups" });
  const formBox = h("div", {});
  const makeButton = h("button", { type: "button", class: "btn primary", id: "tournament-new", i18n: "tournament.create" });
  const guestNote = h("p", { class: "muted", i18n: "tournament.create_needs_account" });
  const syncUser = (user) => {
    const guest = !user || isGuest();
    makeButton.hidden = guest;
    guestNote.hidden = !guest;
  };
  syncUser(currentUser());
  const off = onUserChange(syncUser);
  makeButton.addEventListener("click", () => {
    replace(formBox, createForm());
    makeButton.hidden = true;
  });

  let items = [];
  const render = () => replace(body, ...GROUPS.map(([group, statuses]) => listCard(group, items.filter((e) => statuses.includes(e.status)))));
  const offLanguage = onLanguageChange(render);
  async function load() {
    try {
      const data = await api.tournaments();
      if (!alive) return;
      items = data.tournaments || [];
      render();
    } catch (err) {
      errorToast(err);
    }
  }
  container.append(
    h("section", { class: "card tournaments-page" }, h("h1", { i18n: "tournament.title" }), h("div", { class: "row" }, makeButton, guestNote), formBox),
    body,
  );
  load();
  return () => {
    alive = false;
    off();
    offLanguage();
  };
}

function field(label, input, note) {
  return h("label", { class: "field" }, h("span", { i18n: label }), input, note ? h("small", { class: "muted", i18n: note }) : null);
}

function rankSelect(name, value, blank) {
  return h(
    "select",
    { name },
    blank ? h("option", { value: "", i18n: "tournament.rank_any" }) : null,
    RANKS.map((r) => h("option", { value: r, selected: r === value }, r)),
  );
}

function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The form that makes an event; its refusals are shown in words beside it. */
function createForm() {
  const error = h("p", { class: "error form-error", role: "alert", hidden: true });
  const name = h("input", { name: "name", maxlength: 80, required: true });
  const format = h("select", { name: "format" }, FORMATS.map((f) => h("option", { value: f, i18n: `tournament.format.${f}` })));
  const rounds = h("input", { name: "rounds", type: "number", min: 1, max: 30, value: 5 });
  const topBar = rankSelect("top_bar", "3d", true);
  const bottomBar = rankSelect("bottom_bar", "20k", true);
  const handicap = h("input", { name: "handicap", type: "checkbox" });
  const bars = h("fieldset", { class: "mcmahon-only" }, h("legend", { i18n: "tournament.bars" }), field("tournament.top_bar", topBar), field("tournament.bottom_bar", bottomBar), h("label", { class: "check" }, handicap, h("span", { i18n: "tournament.handicap" })));
  const syncFormat = () => {
    bars.hidden = format.value !== "mcmahon";
  };
  format.addEventListener("change", syncFormat);
  const size = h("select", { name: "board_size" }, [19, 13, 9].map((n) => h("option", { value: n }, `${n}×${n}`)));
  const preset = h("select", { name: "time" }, PRESETS.map((p) => h("option", { value: p, selected: p === "rapid" }, `${t(`tc.${p}`)} — ${describeTimeControl(TIME_PRESETS[p])}`)));
  const rated = h("input", { name: "rated", type: "checkbox", checked: true });
  const tiebreaks = h(
    "div",
    { class: "tiebreak-choices" },
    TIEBREAKS.map((tb) => h("label", { class: "check" }, h("input", { type: "checkbox", value: tb, checked: tb === "sos" || tb === "sosos" }), h("span", { i18n: `tournament.tiebreak.${tb}` }))),
  );
  const minRank = rankSelect("min_rank", "", true);
  const maxRank = rankSelect("max_rank", "", true);
  const cap = h("input", { name: "max_players", type: "number", min: 2, value: 64 });
  const late = h("input", { name: "late_until_round", type: "number", min: 1, value: 1 });
  const start = h("input", { name: "first_round_at", type: "datetime-local", value: localInput(new Date(Date.now() + 3600_000)) });
  const roundMinutes = h("input", { name: "round_minutes", type: "number", min: 1, value: 90 });
  const leadMinutes = h("input", { name: "lead_minutes", type: "number", min: 0, value: 5 });
  const checkinMinutes = h("input", { name: "checkin_minutes", type: "number", min: 0, value: 0 });
  const deadlineMinutes = h("input", { name: "deadline_minutes", type: "number", min: 1, value: 80 });
  const submit = h("button", { type: "submit", class: "btn primary", i18n: "tournament.create_submit" });
  const form = h(
    "form",
    { class: "tournament-form", id: "tournament-form", novalidate: true },
    h("h2", { i18n: "tournament.create" }),
    field("tournament.name", name),
    field("tournament.format_label", format),
    field("tournament.rounds", rounds),
    bars,
    h("fieldset", {}, h("legend", { i18n: "tournament.games" }), field("tournament.board_size", size), field("tc.title", preset), h("label", { class: "check" }, rated, h("span", { i18n: "lobby.rated" }))),
    h("fieldset", {}, h("legend", { i18n: "tournament.tiebreaks" }), tiebreaks),
    h("fieldset", {}, h("legend", { i18n: "tournament.entry" }), field("tournament.min_rank", minRank), field("tournament.max_rank", maxRank), field("tournament.max_players", cap), field("tournament.late_until_round", late, "tournament.late_note")),
    h(
      "fieldset",
      {},
      h("legend", { i18n: "tournament.schedule" }),
      field("tournament.first_round_at", start),
      field("tournament.round_minutes", roundMinutes),
      field("tournament.lead_minutes", leadMinutes),
      field("tournament.checkin_minutes", checkinMinutes, "tournament.checkin_note"),
      field("tournament.deadline_minutes", deadlineMinutes),
    ),
    error,
    submit,
  );
  syncFormat();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.hidden = true;
    const minutes = (input) => Number(input.value) * 60;
    const body = {
      name: name.value.trim(),
      format: format.value,
      rounds: Number(rounds.value),
      tiebreaks: [...tiebreaks.querySelectorAll("input:checked")].map((i) => i.value),
      max_players: Number(cap.value),
      late_until_round: Number(late.value),
      game: { board_size: Number(size.value), rules: "japanese", time_control: TIME_PRESETS[preset.value], rated: rated.checked },
      schedule: {
        first_round_at: new Date(start.value).toISOString(),
        round_seconds: minutes(roundMinutes),
        pairing_lead_seconds: minutes(leadMinutes),
        checkin_seconds: minutes(checkinMinutes),
        deadline_seconds: minutes(deadlineMinutes),
      },
    };
    if (format.value === "mcmahon") Object.assign(body, { top_bar: topBar.value || null, bottom_bar: bottomBar.value || null, handicap: handicap.checked });
    if (minRank.value) body.min_rank = minRank.value;
    if (maxRank.value) body.max_rank = maxRank.value;
    submit.disabled = true;
    try {
      const made = await api.createTournament(body);
      location.hash = `#/tournaments/${encodeURIComponent(made.id)}`;
    } catch (err) {
      const words = tournamentError(err);
      replace(error, words || t("error.generic", { message: err.message || err.code }));
      error.dataset.code = err.code || "";
      error.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
