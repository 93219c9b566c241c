// One tournament (#/tournaments/<id>), read from GET /api/tournaments/<id> and read again on each
// tournament_changed the lobby socket says (docs/tournaments.md): the rules, the entrants, the player's buttons
// (each disabled with the reason the server would give), each round's boards with the why of each pairing and
// bye in words, the standings with their tie-breaks and definitions, the crosstable, the games to watch, and for
// its directors their controls and the audit log. Over 400 lines: one page whose sections share one model.
import { h, replace } from "../dom.js";
import { onLanguageChange, t } from "../i18n.js";
import { api } from "../api.js";
import { LobbySocket } from "../protocol.js";
import { describeTimeControl } from "../clock.js";
import { currentUser, isGuest, onUserChange } from "../session.js";
import { confirmDialog, toast } from "../ui.js";
import { playerLink } from "./common.js";
import { formatLabel, showError } from "./tournaments.js";

const RANKS = [...Array.from({ length: 30 }, (_, i) => `${30 - i}k`), ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`)];
const rankValue = (r) => (r ? RANKS.indexOf(r) : -1);

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "—";
}

function tr(key, params) {
  const words = t(key, params);
  return words === key ? null : words;
}

/** A pairing's or bye's why, in words: its rule and each note ("tournament.why.<note>"), unknown ones by name. */
export function whyText(why) {
  if (!why) return "";
  const parts = [];
  if (why.rule) parts.push(tr(`tournament.rule.${why.rule}`) || why.rule);
  for (const note of why.notes || []) parts.push(tr(`tournament.why.${note}`) || note);
  if (why.not_started) parts.push(tr(`tournament.why.not_started`, { reason: tr(`error.${why.not_started}`) || why.not_started }));
  if (why.komi_note && why.komi_note !== "even") parts.push(tr(`tournament.komi.${why.komi_note}`) || why.komi_note);
  return parts.join(" · ");
}

function person(p) {
  return p && p.name ? playerLink({ name: p.name }) : h("span", { class: "muted", i18n: "tournament.empty_seat" });
}

function resultCell(b) {
  if (b.outcome) return h("span", { class: "outcome" }, tr(`tournament.outcome.${b.outcome}`) || b.outcome, b.by_forfeit && (b.outcome === "B" || b.outcome === "W") ? ` (${t("tournament.by_forfeit")})` : "");
  return b.game_result || h("span", { class: "muted", i18n: "tournament.playing" });
}

/** Why a player's button is refused now, as the server would refuse it (null: allowed). */
function registerRefusal(ev, user) {
  if (!user || isGuest(user)) return "account_required";
  if (ev.you.registered) return "already_registered";
  const entrant = ev.entrants.find((e) => e.name === user.name);
  if (entrant && entrant.status === "disqualified") return "disqualified";
  if (ev.status === "finished") return "registration_closed";
  const closing = ev.rounds.find((r) => r.number === ev.settings.late_until_round);
  if (closing && closing.status !== "pending") return "registration_closed";
  if (ev.players >= ev.max_players) return "tournament_full";
  const rank = rankValue(user.rank);
  const lo = rankValue(ev.settings.min_rank);
  const hi = rankValue(ev.settings.max_rank);
  if (rank >= 0 && ((lo >= 0 && rank < lo) || (hi >= 0 && rank > hi))) return "rank_out_of_limits";
  return null;
}

function checkinRefusal(ev, now = Date.now()) {
  if (!ev.you.registered) return "not_registered";
  if (!ev.settings.schedule.checkin_seconds) return "checkin_not_required";
  if (ev.you.checked_in) return "already_checked_in";
  const next = ev.rounds.find((r) => r.status === "pending");
  if (!next || !next.checkin) return "checkin_closed";
  if (now < Date.parse(next.checkin.opens)) return "checkin_not_open";
  if (now >= Date.parse(next.checkin.closes)) return "checkin_closed";
  return null;
}

function actionButton(id, label, refusal, run) {
  const reason = refusal ? tr(`tournament.refusal.${refusal}`) || tr(`error.${refusal}`) || refusal : null;
  return h(
    "span",
    { class: "tournament-action" },
    h("button", { type: "button", class: "btn", id, disabled: Boolean(refusal), title: reason, dataset: { refusal: refusal || "" }, i18n: label, onclick: run }),
    reason ? h("small", { class: "muted refusal" }, reason) : null,
  );
}

/** How many rounds the event has (the page's ``rounds`` is the list of them; the crosstable has a cell for each). */
function roundCount(ev) {
  return Math.max(ev.rounds.length, ...ev.crosstable.map((line) => line.rounds.length));
}

function rulesSummary(ev) {
  const s = ev.settings;
  const items = [
    [t("tournament.format_label"), formatLabel(ev.format)],
    [t("tournament.rounds"), String(roundCount(ev))],
    [t("tc.title"), describeTimeControl(s.game.time_control)],
    [t("tournament.board_size"), `${s.game.board_size}×${s.game.board_size}`],
    [t("tournament.first_round_at"), when(s.schedule.first_round_at)],
    [t("tournament.max_players"), t("tournament.players_of", { n: ev.players, max: ev.max_players })],
  ];
  if (ev.format === "mcmahon") items.push([t("tournament.bars"), `${s.top_bar || "—"} / ${s.bottom_bar || "—"}`], [t("tournament.handicap"), s.handicap ? t("tournament.yes") : t("tournament.no")]);
  if (s.min_rank || s.max_rank) items.push([t("tournament.rank_limits"), `${s.min_rank || "30k"} – ${s.max_rank || "9d"}`]);
  if (s.tiebreaks.length) items.push([t("tournament.tiebreaks"), s.tiebreaks.map((tb) => t(`tournament.tiebreak.${tb}`)).join(", ")]);
  items.push([t("tournament.director"), [s.director, ...s.co_directors].filter(Boolean).join(", ")], [t("tournament.seed"), String(s.seed)]);
  return h("dl", { class: "tournament-rules" }, items.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

function roundSection(ev, rnd, director, act) {
  const boards = rnd.boards.map((b) =>
    h(
      "tr",
      { class: "tournament-board", dataset: { pairing: b.id } },
      h("td", {}, b.board),
      h("td", {}, person(b.black)),
      h("td", {}, person(b.white)),
      h("td", {}, b.handicap ? t("tournament.handicap_n", { n: b.handicap }) : ""),
      h("td", {}, b.game_id ? h("a", { href: `#/game/${b.game_id}`, class: "board-game", i18n: "tournament.watch" }) : ""),
      h("td", {}, resultCell(b)),
      h("td", { class: "why" }, whyText(b.why)),
      director ? h("td", {}, resultControl(b, act)) : null,
    ),
  );
  const byes = rnd.byes.map((y) => h("li", { class: "tournament-bye" }, person(y.player), " — ", t(`tournament.seat.${y.kind}`), ": ", whyText(y.why)));
  return h(
    "section",
    { class: "card tournament-round", dataset: { round: rnd.number } },
    h("h3", {}, t("tournament.round_n", { n: rnd.number }), h("span", { class: "muted" }, ` · ${t(`tournament.round_status.${rnd.status}`)} · ${when(rnd.starts_at)}`)),
    rnd.repaired_reason ? h("p", { class: "muted" }, t("tournament.repaired", { reason: rnd.repaired_reason })) : null,
    rnd.pairing_error ? h("p", { class: "error" }, tr(`error.${rnd.pairing_error}`) || rnd.pairing_error) : null,
    boards.length
      ? h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "tournament-pairings" },
            h("thead", {}, h("tr", {}, ["tournament.board", "color.black", "color.white", "tournament.handicap", "tournament.game", "tournament.result", "tournament.why_title"].map((k) => h("th", { i18n: k })), director ? h("th", { i18n: "tournament.director_result" }) : null)),
            h("tbody", {}, boards),
          ),
        )
      : null,
    byes.length ? h("ul", { class: "tournament-byes" }, byes) : null,
    director && rnd.status === "paired" ? h("button", { type: "button", class: "btn small repair", i18n: "tournament.repair", onclick: () => act(`rounds/${rnd.number}/repair`, {}, true) }) : null,
    h("p", { class: "muted small" }, t("tournament.digest", { digest: (rnd.digest || "").slice(0, 12) || "—" })),
  );
}

function resultControl(b, act) {
  const select = h("select", { class: "result-pick" }, ["B", "W", "jigo", "both_lose", "unplayed"].map((o) => h("option", { value: o }, tr(`tournament.outcome.${o}`) || o)));
  return h("span", { class: "row" }, select, h("button", { type: "button", class: "btn small", i18n: "tournament.set_result", onclick: () => act(`pairings/${b.id}/result`, { outcome: select.value, by_forfeit: false }, true) }));
}

function standingsSection(ev) {
  const tiebreaks = ev.settings.tiebreaks || [];
  const mcmahon = ev.format === "mcmahon";
  const head = ["#", t("player.name"), t("player.rank"), mcmahon ? t("tournament.mms") : null, t("tournament.points"), ...tiebreaks.map((tb) => t(`tournament.tiebreak.${tb}`))].filter((x) => x !== null);
  const figure = (row, tb) => {
    const found = (row.figures || []).find((f) => (Array.isArray(f) ? f[0] : f.tiebreak) === tb);
    return found ? String(Array.isArray(found) ? found[1] : found.value) : "—";
  };
  return h(
    "section",
    { class: "card tournament-standings" },
    h("h2", { i18n: "tournament.standings" }),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "standings" },
        h("thead", {}, h("tr", {}, head.map((x) => h("th", {}, x)))),
        h(
          "tbody",
          {},
          ev.standings.map((row) =>
            h(
              "tr",
              { dataset: { player: row.name }, class: row.status !== "active" ? "muted" : null },
              h("td", {}, row.place),
              h("td", {}, playerLink({ name: row.name })),
              h("td", {}, row.rank),
              mcmahon ? h("td", {}, row.mms) : null,
              h("td", { class: "points" }, row.points),
              tiebreaks.map((tb) => h("td", {}, figure(row, tb))),
            ),
          ),
        ),
      ),
    ),
    tiebreaks.length ? h("dl", { class: "tiebreak-definitions" }, tiebreaks.flatMap((tb) => [h("dt", {}, t(`tournament.tiebreak.${tb}`)), h("dd", {}, t(`tournament.tiebreak_def.${tb}`))])) : null,
  );
}

function crosstableSection(ev) {
  const number = new Map(ev.standings.map((row) => [row.id, row.place]));
  const cell = (c) => {
    if (!c) return "";
    if (c.kind !== "game") return t(`tournament.seat.${c.kind}`);
    const mark = { win: "+", loss: "−", jigo: "=", unplayed: "×", pending: "?" }[c.result] || "";
    return `${number.get(c.opponent) || "?"}${mark}${c.colour === "B" ? t("tournament.b_short") : t("tournament.w_short")}`;
  };
  return h(
    "section",
    { class: "card tournament-crosstable" },
    h("h2", { i18n: "tournament.crosstable" }),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "crosstable" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { i18n: "player.name" }), Array.from({ length: roundCount(ev) }, (_, i) => h("th", {}, t("tournament.round_short", { n: i + 1 }))))),
        h("tbody", {}, [...ev.crosstable].sort((a, b) => (number.get(a.id) || 0) - (number.get(b.id) || 0)).map((line) => h("tr", {}, h("td", {}, number.get(line.id) || ""), h("td", {}, line.name), line.rounds.map((c) => h("td", {}, cell(c)))))),
      ),
    ),
    h("p", { class: "muted small", i18n: "tournament.crosstable_key" }),
  );
}

function directorSection(ev, act) {
  const reason = h("input", { class: "director-reason", maxlength: 500, i18nPlaceholder: "tournament.reason" });
  const target = h("select", { class: "dq-player" }, ev.entrants.filter((e) => e.status === "active").map((e) => h("option", { value: e.name }, e.name)));
  const audit = (ev.audit || []).map((a) => h("li", {}, `${when(a.at)} · ${a.actor || "—"} · ${tr(`tournament.action.${a.action}`) || a.action}${a.round ? ` · ${t("tournament.round_n", { n: a.round })}` : ""}${a.reason ? ` · ${a.reason}` : ""}`));
  const overdue = (ev.overdue || []).map((o) => h("li", {}, t("tournament.overdue_game", { round: o.round, board: o.board }), " ", h("a", { href: `#/game/${o.game_id}`, i18n: "tournament.watch" })));
  return h(
    "section",
    { class: "card tournament-director", id: "director-controls" },
    h("h2", { i18n: "tournament.director_title" }),
    h("label", { class: "field" }, h("span", { i18n: "tournament.reason" }), reason),
    h(
      "div",
      { class: "row" },
      ev.status === "paused"
        ? h("button", { type: "button", class: "btn", id: "tournament-resume", i18n: "tournament.resume", onclick: () => act("resume", {}, true) })
        : h("button", { type: "button", class: "btn", id: "tournament-pause", i18n: "tournament.pause", disabled: ev.status !== "running", onclick: () => act("pause", {}, true) }),
      target,
      h("button", { type: "button", class: "btn danger", i18n: "tournament.disqualify", disabled: !target.options.length, onclick: async () => {
          if (await confirmDialog({ title: "tournament.disqualify_title", body: "tournament.disqualify_body", confirm: "tournament.disqualify", danger: true, params: { name: target.value } })) act(`players/${encodeURIComponent(target.value)}/disqualify`, {}, true);
        } }),
    ),
    overdue.length ? h("div", {}, h("h3", { i18n: "tournament.overdue" }), h("ul", {}, overdue)) : null,
    h("h3", { i18n: "tournament.audit" }),
    audit.length ? h("ul", { class: "tournament-audit" }, audit) : h("p", { class: "muted", i18n: "tournament.audit_empty" }),
  );
}

export function mount(container, id) {
  let alive = true;
  let version = -1;
  let ev = null;
  const root = h("div", { class: "tournament-page" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  let reasonInput = null;

  /** A POST to the event; a director's action (``needsReason``) carries the reason typed in their section. */
  async function act(path, body, needsReason = false) {
    const field = needsReason ? reasonInput : null;
    const reason = field ? field.value.trim() : "";
    if (needsReason && !reason) {
      toast("tournament.reason_needed", {}, "error");
      if (field) field.focus();
      return;
    }
    try {
      await api.tournamentAction(id, path, needsReason ? { ...body, reason } : body);
      error.hidden = true;
      load();
    } catch (err) {
      showError(err, error);
    }
  }

  function render() {
    const user = currentUser();
    const director = ev.you.director;
    const playerActs = h(
      "div",
      { class: "row tournament-actions" },
      ev.you.registered
        ? actionButton("tournament-withdraw", "tournament.withdraw", ev.status === "finished" ? "registration_closed" : null, async () => {
            if (await confirmDialog({ title: "tournament.withdraw_title", body: "tournament.withdraw_body", confirm: "tournament.withdraw", danger: true })) act("withdraw", { finish: [] });
          })
        : actionButton("tournament-register", "tournament.register", registerRefusal(ev, user), () => act("register", undefined)),
      actionButton("tournament-checkin", "tournament.checkin", checkinRefusal(ev), () => act("check-in", undefined)),
    );
    const dirSection = director ? directorSection(ev, act) : null;
    reasonInput = dirSection ? dirSection.querySelector(".director-reason") : null;
    const watch = ev.to_watch.map((g) => h("li", {}, h("a", { href: `#/game/${g.game_id}` }, t("tournament.board_in_round", { round: g.round, board: g.board }))));
    replace(
      root,
      h(
        "section",
        { class: "card tournament-head" },
        h("h1", {}, ev.name),
        h("p", { class: "muted tournament-status", dataset: { status: ev.status } }, t(`tournament.status.${ev.status}`)),
        rulesSummary(ev),
        playerActs,
        error,
        h("p", {}, h("a", { href: `/api/tournaments/${encodeURIComponent(ev.id)}/sgf`, i18n: "tournament.sgf" })),
      ),
      h(
        "section",
        { class: "card tournament-entrants" },
        h("h2", {}, t("tournament.entrants_n", { n: ev.entrants.length })),
        ev.entrants.length
          ? h("ul", { class: "entrant-list" }, ev.entrants.map((e) => h("li", { dataset: { status: e.status } }, playerLink({ name: e.name, rank: e.rank }), e.status !== "active" ? h("span", { class: "tag" }, t(`tournament.entrant.${e.status}`)) : null, e.registered_round > 1 ? h("span", { class: "muted" }, ` ${t("tournament.from_round", { n: e.registered_round })}`) : null)))
          : h("p", { class: "muted", i18n: "tournament.no_entrants" }),
      ),
      watch.length ? h("section", { class: "card tournament-watch" }, h("h2", { i18n: "tournament.to_watch" }), h("ul", {}, watch)) : null,
      ev.standings.length ? standingsSection(ev) : null,
      ev.rounds.some((r) => r.boards.length || r.byes.length) ? crosstableSection(ev) : null,
      ...[...ev.rounds].reverse().filter((r) => r.boards.length || r.byes.length || r.pairing_error).map((r) => roundSection(ev, r, director, act)),
      dirSection,
    );
  }

  async function load() {
    try {
      const data = await api.tournament(id);
      if (!alive) return;
      ev = data;
      version = data.version;
      render();
    } catch (err) {
      if (!alive) return;
      replace(root, h("p", { class: "card" }, tr(`error.${err.code}`) || t("common.not_found")));
    }
  }

  const socket = new LobbySocket({
    onReconnected: load,
    onMessage: (msg) => {
      if (msg.t === "tournament_changed" && msg.tournament_id === id && msg.version > version) load();
    },
  });
  socket.start();
  const off = onUserChange(() => ev && render());
  const offLanguage = onLanguageChange(() => ev && render()); // the page writes most of its words with t()
  container.append(root);
  replace(root, h("p", { class: "card muted", i18n: "common.loading" }));
  load();
  return () => {
    alive = false;
    off();
    offLanguage();
    socket.stop();
  };
}
