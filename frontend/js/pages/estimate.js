// A score estimate as the boards show it (the analysis board, a shared review, the game page): the answer of
// /api/study/estimate or /api/games/{id}/estimate turned into the board's overlay (dead stones, each point's
// owner) and one line of text (the count; with KataGo its score lead, and Black's win rate where given).
import { setText } from "../dom.js";

const OWNED = 0.3; // an estimate's ownership from which a point is shown as someone's

export function estimateOf(answer) {
  const rows = answer.ownership.map((row) => row.map((v) => (v >= OWNED ? "X" : v <= -OWNED ? "O" : ".")).join(""));
  return { dead: answer.dead, rows, result: answer.score.result, lead: answer.score_lead, winrate: answer.winrate };
}

const leadText = (lead) => `${lead >= 0 ? "B" : "W"}+${Math.abs(lead).toFixed(1)}`;

/** The estimate's line in ``el`` (kept in the page's language as it changes), or ``el`` hidden without one. */
export function showEstimate(el, e) {
  el.hidden = !e;
  if (!e) return;
  if (typeof e.lead !== "number") setText(el, "analysis.estimate_result", { result: e.result });
  // KataGo's: the count with its dead stones, its own score lead, and Black's win rate where the answer has it
  else if (typeof e.winrate !== "number") setText(el, "analysis.estimate_lead", { result: e.result, lead: leadText(e.lead) });
  else setText(el, "analysis.estimate_katago", { result: e.result, lead: leadText(e.lead), winrate: Math.round(e.winrate * 100) });
}
