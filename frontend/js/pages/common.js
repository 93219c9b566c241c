// Small pieces shared by the lobby, challenge and game pages.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { describeTimeControl } from "../clock.js";

export function nameOf(u) {
  return (u && (u.name || u.username || u.display_name)) || "?";
}

/** A player's name as a link to their page, with the rank beside it ("6k", "6k?" while provisional). */
export function playerLink(u) {
  if (!u) return "?";
  const name = nameOf(u);
  return h(
    "span",
    { class: "player-ref" },
    h("a", { href: `#/players/${encodeURIComponent(name)}`, class: "player-link" }, name),
    u.rank ? h("span", { class: "rank", title: u.rank.endsWith("?") ? t("player.provisional") : null }, u.rank) : null,
    u.bot ? h("span", { class: "tag bot-tag", i18n: "player.bot" }) : null,
  );
}

/** "akira [3k]": a name with its rank, as plain text (titles, labels). */
export function nameWithRank(u) {
  return u && u.rank ? `${nameOf(u)} [${u.rank}]` : nameOf(u);
}

export function creatorOf(ch) {
  return ch.creator || ch.owner || ch.user || ch.challenger || null;
}

export function playersOf(game) {
  const p = game.players || {};
  return { B: p.B || game.black || null, W: p.W || game.white || null };
}

/** "19×19 · Chinese · komi 7.5 · 10m + 5×30s · rated" */
export function gameSummary(spec) {
  const size = spec.board_size ?? spec.size;
  const parts = [`${size}×${size}`];
  const rules = typeof spec.rules === "object" && spec.rules ? spec.rules.name : spec.rules;
  if (rules) parts.push(t(`ruleset.${rules}`) !== `ruleset.${rules}` ? t(`ruleset.${rules}`) : rules);
  const komi = spec.komi ?? (spec.rules && spec.rules.komi);
  if (komi !== undefined && komi !== null) parts.push(t("game.komi_value", { komi }));
  if (spec.handicap) parts.push(t("game.handicap_value", { n: spec.handicap }));
  if (spec.time_control) parts.push(describeTimeControl(spec.time_control));
  parts.push(spec.rated ? t("lobby.rated") : unratedText(spec.unrated_reason));
  return parts.join(" · ");
}

/** Why a game the server says is not rated did not count ("Not rated: annulled by a moderator"); "Casual" when
 * it was not asked to be rated (docs/ratings.md, "Which games are rated"). */
export function unratedText(reason) {
  const key = `unrated.${reason}`;
  return reason && t(key) !== key ? t("game.not_rated", { reason: t(key) }) : t("lobby.casual");
}

export function colorLabel(color) {
  return t(color === "black" || color === "B" ? "color.black" : color === "white" || color === "W" ? "color.white" : "color.nigiri");
}

/**
 * A challenge's colour said from the reader's side: a challenge's colour is its creator's, so the creator reads
 * "You play Black" and everyone else "You play White". Nigiri is the same for both.
 */
export function challengeColorText(color, mine) {
  if (color !== "black" && color !== "white") return t("lobby.colour_nigiri");
  const yours = mine ? color : color === "black" ? "white" : "black";
  return t("lobby.you_play", { color: colorLabel(yours) });
}

export function stoneIcon(color) {
  return h("span", { class: `stone-icon ${color === "B" ? "black" : "white"}`, "aria-hidden": "true" });
}

/** "B+R", "W+3.5", draw... as a translated sentence. */
export function resultText(result) {
  if (!result) return "";
  const reason = result.reason || "score";
  if (!result.winner) return t(`result.${reason}`) !== `result.${reason}` ? t(`result.${reason}`) : t("result.no_result");
  const who = t(result.winner === "B" ? "color.black" : "color.white");
  if (reason === "score") return t("result.wins_by_points", { who, margin: result.margin ?? "" });
  return t("result.wins_by", { who, how: t(`reason.${reason}`) });
}

export function shortResult(result) {
  if (!result) return "";
  if (typeof result === "string") return result; // lists carry the record's text, e.g. "B+R", "W+3.5"
  return result.text || (result.winner ? `${result.winner}+${result.reason === "score" ? result.margin : "R"}` : "—");
}
