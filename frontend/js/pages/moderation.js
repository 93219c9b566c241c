// Moderator page (#/moderation, docs/moderation.md): the report queue with the reported chat lines and the game
// in context, a player's record and the actions on them (warn, mute, suspend, ban, lift), removing chat lines,
// annulling a game, closing a report, and the audit log. The server checks the role on every request.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { errorToast, toast } from "../ui.js";
import { gameSummary, playerLink, playersOf } from "./common.js";
import { isModerator } from "../session.js";
import { limitChars } from "../textlimit.js";

const STATUSES = ["received", "closed", "all"];

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

/** A reason field; every action sends its value (the server refuses an empty one). */
function reasonField() {
  return limitChars(h("input", { type: "text", class: "mod-reason", i18nPlaceholder: "moderation.reason", i18nAria: "moderation.reason" }), 500);
}

/** Run one action with the reason given; on success say so and reload what it changed. */
function act(reason, run, after) {
  return async () => {
    const text = reason.value.trim();
    if (!text) {
      toast("moderation.reason_needed", {}, "error");
      reason.focus();
      return;
    }
    try {
      await run(text);
      toast("moderation.done");
      reason.value = "";
      after();
    } catch (err) {
      errorToast(err);
    }
  };
}

/** Warn, mute (minutes), suspend (hours), ban and lift for one player. */
function userActions(name, reason, reportId, after) {
  const minutes = h("input", { type: "number", class: "mod-minutes", min: 1, max: 43200, value: 60, i18nAria: "moderation.minutes" });
  const hours = h("input", { type: "number", class: "mod-hours", min: 1, max: 8760, value: 24, i18nAria: "moderation.hours" });
  const body = (extra) => (text) => ({ reason: text, report_id: reportId ?? null, ...extra });
  const button = (action, key, make, cls = "btn small") =>
    h("button", { type: "button", class: cls, dataset: { action }, i18n: key, onclick: act(reason, (text) => api.modAct(name, action, make(text)), after) });
  return h(
    "div",
    { class: "row wrap mod-user-actions", dataset: { user: name } },
    button("warn", "moderation.warn", body({})),
    h("span", { class: "row" }, button("mute", "moderation.mute", (text) => body({ minutes: Number(minutes.value) })(text)), minutes, h("span", { class: "muted", i18n: "moderation.minutes" })),
    h("span", { class: "row" }, button("suspend", "moderation.suspend", (text) => body({ hours: Number(hours.value) })(text)), hours, h("span", { class: "muted", i18n: "moderation.hours" })),
    button("ban", "moderation.ban", body({}), "btn small danger"),
    button("lift", "moderation.lift", body({})),
  );
}

function chatContext(report, selected) {
  if (!report.chat.length) return null;
  return h(
    "ol",
    { class: "list mod-chat" },
    report.chat.map((line) => {
      const box = line.removed ? null : h("input", { type: "checkbox", value: line.v, i18nAria: "moderation.select_line" });
      if (box) box.addEventListener("change", () => (box.checked ? selected.add(line.v) : selected.delete(line.v)));
      return h(
        "li",
        { class: `mod-chat-line${line.reported ? " reported" : ""}${line.removed ? " removed" : ""}`, dataset: { v: line.v } },
        box,
        h("strong", {}, (line.from && line.from.name) || "?"),
        " ",
        h("span", { class: "chat-text" }, line.text || ""),
        line.removed ? h("span", { class: "tag", i18n: "moderation.removed" }) : null,
      );
    }),
  );
}

function reportCard(report, after) {
  const reason = reasonField();
  const selected = new Set();
  const game = report.game;
  const removeLines = game && act(reason, (text) => api.modRemoveChat(game.id, [...selected], text, report.id), after);
  const gameActions = game
    ? [
        report.chat.length
          ? h("button", { type: "button", class: "btn small", dataset: { action: "remove-chat" }, i18n: "moderation.remove_lines",
              onclick: () => (selected.size ? removeLines() : toast("moderation.select_lines", {}, "error")) })
          : null,
        game.rated && game.status === "finished"
          ? h("button", { type: "button", class: "btn small", dataset: { action: "annul" }, i18n: "moderation.annul", onclick: act(reason, (text) => api.modAnnul(game.id, text, report.id), after) })
          : null,
      ]
    : [];
  const players = game ? playersOf(game) : null;
  return h(
    "li",
    { class: "card stack mod-report", dataset: { report: report.id, status: report.status } },
    h(
      "div",
      { class: "row spread" },
      h("strong", {}, t("moderation.report_head", { id: report.id, kind: t(`moderation.kind_${report.kind}`) })),
      h("span", { class: "muted" }, when(report.created_at)),
    ),
    h("p", {}, h("span", { class: "muted", i18n: "moderation.by" }), " ", playerLink(report.reporter), report.user ? [" → ", playerLink(report.user)] : null),
    h("p", { class: "mod-report-reason" }, report.reason),
    game
      ? h("p", {}, h("a", { href: `#/game/${game.id}`, class: "mod-game-link" }, `${(players.B || {}).name || "?"} – ${(players.W || {}).name || "?"}`), " ", h("span", { class: "muted" }, gameSummary(game)), game.result ? ` · ${game.result}` : "")
      : null,
    chatContext(report, selected),
    report.status === "closed"
      ? h("p", { class: "muted" }, t("moderation.closed_by", { name: report.closed_by || "?", resolution: report.resolution || "" }))
      : [
          reason,
          report.user ? userActions(report.user.name, reason, report.id, after) : null,
          h(
            "div",
            { class: "row wrap" },
            gameActions,
            h("button", { type: "button", class: "btn small primary", dataset: { action: "close" }, i18n: "moderation.close", onclick: act(reason, (text) => api.modClose(report.id, text), after) }),
          ),
        ],
  );
}

function auditLine(entry) {
  return h(
    "li",
    { class: "mod-audit-line", dataset: { action: entry.action } },
    h("span", { class: "muted" }, when(entry.at)),
    " ",
    h("strong", {}, entry.actor),
    " ",
    h("span", { class: "tag" }, entry.action),
    entry.target ? [" ", entry.target] : null,
    entry.game_id ? [" ", h("a", { href: `#/game/${entry.game_id}` }, entry.game_id)] : null,
    entry.report_id ? ` #${entry.report_id}` : "",
    " — ",
    h("span", {}, entry.reason),
  );
}

function playerPanel(record, after) {
  const reason = reasonField();
  const state = [];
  if (record.banned) state.push(t("moderation.state_banned"));
  if (record.suspended_until) state.push(t("moderation.state_suspended", { until: when(record.suspended_until) }));
  if (record.muted_until) state.push(t("moderation.state_muted", { until: when(record.muted_until) }));
  const e = record.escapes;
  return h(
    "div",
    { class: "stack mod-player", dataset: { user: record.name } },
    h("p", {}, playerLink({ name: record.name }), record.roles.length ? h("span", { class: "tag" }, record.roles.join(", ")) : null),
    h("p", {}, state.length ? state.join(" · ") : t("moderation.state_clear")),
    h("p", { class: "muted" }, t("player.escapes", { escapes: e.escapes, games: e.games, share: Math.round(e.share * 100) })),
    reason,
    userActions(record.name, reason, null, after),
    record.audit.length ? h("ol", { class: "list mod-audit" }, record.audit.map(auditLine)) : null,
  );
}

export function mount(container) {
  let alive = true;
  const status = h("select", { id: "mod-status", i18nAria: "moderation.status" }, STATUSES.map((s) => h("option", { value: s, i18n: `moderation.status_${s}` })));
  const queue = h("ol", { class: "list stack mod-queue" });
  const audit = h("ol", { class: "list mod-audit" });
  const lookupName = h("input", { type: "text", id: "mod-lookup", maxlength: 40, i18nPlaceholder: "moderation.player_name", i18nAria: "moderation.player_name" });
  const panel = h("div", { class: "mod-player-host" });
  const page = h("div", { class: "moderation-page stack" });
  container.append(page);

  async function load() {
    try {
      const [reports, log] = await Promise.all([api.modReports(status.value), api.modAudit()]);
      if (!alive) return;
      const list = reports.reports || [];
      replace(queue, list.length ? list.map((r) => reportCard(r, reload)) : h("li", { class: "muted", i18n: "moderation.queue_empty" }));
      replace(audit, (log.entries || []).map(auditLine));
    } catch (err) {
      errorToast(err);
    }
  }

  async function lookup(name) {
    if (!name) return;
    try {
      const record = await api.modUser(name);
      if (alive) replace(panel, playerPanel(record, () => lookup(record.name).then(load)));
    } catch (err) {
      errorToast(err);
    }
  }

  function reload() {
    load();
    const shown = panel.querySelector(".mod-player");
    if (shown) lookup(shown.dataset.user);
  }

  status.addEventListener("change", load);
  const form = h("form", { class: "row wrap", onsubmit: (ev) => { ev.preventDefault(); lookup(lookupName.value.trim()); } }, lookupName, h("button", { type: "submit", class: "btn small", i18n: "moderation.look_up" }));

  // Only those /api/me says may moderate are shown the page (and its requests, which check the role again).
  if (isModerator()) {
    replace(
      page,
      h("h1", { i18n: "moderation.title" }),
      h("section", { class: "card stack", "aria-labelledby": "mod-queue-title" }, h("div", { class: "row spread" }, h("h2", { id: "mod-queue-title", i18n: "moderation.queue" }), status), queue),
      h("section", { class: "card stack", "aria-labelledby": "mod-player-title" }, h("h2", { id: "mod-player-title", i18n: "moderation.player_title" }), form, panel),
      h("section", { class: "card stack", "aria-labelledby": "mod-audit-title" }, h("h2", { id: "mod-audit-title", i18n: "moderation.audit" }), audit),
    );
    load();
  } else {
    replace(page, h("h1", { i18n: "moderation.title" }), h("p", { class: "card", i18n: "error.not_a_moderator" }));
  }
  return () => {
    alive = false;
  };
}
