// Clock display: formatting (pure) and local countdown between server updates.
// A normalised clock is {main, periods, period_time, period_left, stones, stones_left, running}.
import { t } from "./i18n.js";

const OVERTIME_PERIODS = new Set(["byoyomi", "chinese_countdown"]);

/** 754 -> "12:34"; 3725 -> "1:02:05"; with tenths below ten seconds: 9.43 -> "0:09.4"; a day or more: "2d 03:04". */
export function formatSeconds(seconds, { tenths = false } = {}) {
  let s = Math.max(0, Number(seconds) || 0);
  if (s >= 86400) {
    const days = Math.floor(s / 86400);
    const rest = Math.floor((s % 86400) / 60);
    return `${t("tc.days_short", { n: days })} ${String(Math.floor(rest / 60)).padStart(2, "0")}:${String(rest % 60).padStart(2, "0")}`;
  }
  if (tenths && s < 10) {
    const d = Math.floor(s * 10) / 10;
    return `0:0${d.toFixed(1)}`;
  }
  s = Math.ceil(s - 1e-9);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = s % 60;
  const mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
  return `${hours ? hours + ":" : ""}${mm}:${String(secs).padStart(2, "0")}`;
}

/** Short period length in the reader's language: 30 -> "30s" / "30秒", 300 -> "5m" / "5分", 90 -> "90s". */
export function formatPeriod(seconds) {
  const s = Math.round(Number(seconds) || 0);
  if (s >= 86400 && s % 3600 === 0) return t("tc.days", { n: Number((s / 86400).toFixed(2)) });
  return s >= 60 && s % 60 === 0 ? t("tc.minutes", { n: s / 60 }) : t("tc.seconds", { n: s });
}

/** Whether the clock has left its main time (so the overtime part is what counts). */
export function inOvertime(clock, kind) {
  return (OVERTIME_PERIODS.has(kind) || kind === "canadian") && clock.main <= 0;
}

/** The text of one clock, e.g. "4:32 + 3×30s", "0:12 · 3×30s", "3:10 · 7 stones", "0:09.4". */
export function formatClock(clock, kind) {
  if (!clock || kind === "none" || !kind) return "—";
  if (kind === "absolute" || kind === "fischer" || kind === "simple") return formatSeconds(clock.main, { tenths: true });
  if (OVERTIME_PERIODS.has(kind)) {
    const spec = `${clock.periods}×${formatSeconds0(clock.period_time)}`;
    if (clock.main > 0) return `${formatSeconds(clock.main)} + ${spec}`;
    return `${formatSeconds(clock.period_left)} · ${spec}`;
  }
  if (kind === "canadian") {
    if (clock.main > 0) return `${formatSeconds(clock.main)} + ${clock.stones}/${formatPeriod(clock.period_time)}`;
    return `${formatSeconds(clock.period_left)} · ${t("clock.stones_left", { n: clock.stones_left })}`;
  }
  return formatSeconds(clock.main);
}

function formatSeconds0(s) {
  return t("tc.seconds", { n: Math.round(Number(s) || 0) });
}

/** Seconds left before the player loses a period or the game: what the countdown speaks. */
export function urgentSeconds(clock, kind) {
  if (!clock || !kind || kind === "none") return Infinity;
  if (clock.main > 0) {
    return kind === "absolute" || kind === "fischer" || kind === "simple" ? clock.main : Infinity;
  }
  if (OVERTIME_PERIODS.has(kind) || kind === "canadian") return clock.period_left;
  return clock.main;
}

/** Advance a running clock by elapsed seconds, moving from main time into periods as the server would. */
export function tick(clock, kind, elapsed) {
  const c = { ...clock };
  if (elapsed <= 0) return c;
  if (c.main > 0) {
    if (c.main >= elapsed || !(OVERTIME_PERIODS.has(kind) || kind === "canadian")) {
      c.main = Math.max(0, c.main - elapsed);
      return c;
    }
    elapsed -= c.main;
    c.main = 0;
    c.period_left = c.period_time;
    if (kind === "canadian") c.stones_left = c.stones;
  }
  if (OVERTIME_PERIODS.has(kind)) {
    let left = c.period_left ?? c.period_time;
    while (elapsed >= left && c.periods > 1) {
      elapsed -= left;
      c.periods -= 1;
      left = c.period_time;
    }
    c.period_left = Math.max(0, left - elapsed);
  } else if (kind === "canadian") {
    c.period_left = Math.max(0, (c.period_left ?? c.period_time) - elapsed);
  }
  return c;
}

/** A one-line description of a time control for lists, in the reader's language: "10m + 5×30s", "10分 + 5×30秒". */
export function describeTimeControl(tc) {
  if (!tc || !tc.kind || tc.kind === "none") return t("tc.none");
  const text = describeClock(tc);
  return tc.correspondence ? `${text} · ${t("tc.correspondence")}` : text;
}

function describeClock(tc) {
  const main = formatPeriod(tc.main || 0);
  switch (tc.kind) {
    case "simple":
      return t("tc.per_move", { time: formatPeriod(tc.per_move || 0) });
    case "absolute":
      return main;
    case "fischer":
      return `${main} + ${formatPeriod(tc.increment || 0)}`;
    case "byoyomi":
      return `${main} + ${tc.periods}×${formatSeconds0(tc.period_time)}`;
    case "chinese_countdown":
      return `${main} + ${t("tc.countdown_short")} ${tc.periods}×${formatSeconds0(tc.period_time)}`;
    case "canadian":
      return `${main} + ${tc.stones}/${formatPeriod(tc.period_time)}`;
    default:
      return main;
  }
}

/** Presets offered when creating a challenge. */
export const TIME_PRESETS = {
  blitz: { kind: "byoyomi", main: 180, periods: 3, period_time: 10 },
  rapid: { kind: "byoyomi", main: 600, periods: 5, period_time: 30 },
  classical: { kind: "byoyomi", main: 2400, periods: 5, period_time: 60 },
  countdown: { kind: "chinese_countdown", main: 1200, periods: 3 },
  fischer: { kind: "fischer", main: 300, increment: 10, cap: 600 },
  correspondence: { kind: "simple", per_move: 259200, correspondence: true },
  none: { kind: "none" },
};
