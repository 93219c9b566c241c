// The scoring panel of the game page: the score table as the server counted it (prisoners left out under
// area scoring, with a line that says so), each side's acceptance on its own line, the server's
// auto-acceptance deadline counted down, and the players' accept / resume buttons.
import { h, replace } from "../dom.js";
import { t } from "../i18n.js";
import { formatSeconds } from "../clock.js";
import { isPlayer, myColors } from "../gamestate.js";

const colorName = (c) => t(c === "B" ? "color.black" : "color.white");

export class ScoringPanel {
  /** act(type, confirm) sends a player action (after the confirmation dialog, if given). */
  constructor({ act }) {
    this.act = act;
    this.el = h("div", { class: "scoring", hidden: true });
    this.countdown = null;
  }

  render(s) {
    const show = (s.phase === "scoring" || s.phase === "finished") && s.score && s.score.B;
    this.el.hidden = !show;
    if (!show) return;
    const area = s.score.scoring === "area";
    const rowsOf = ["stones", "territory", ...(area ? [] : ["prisoners"]), "komi", "compensation"];
    const cell = (v) => h("td", {}, v === undefined || v === null ? "–" : String(v));
    const table = h(
      "table",
      { class: "score-table" },
      h("caption", { i18n: "score.title" }),
      h("thead", {}, h("tr", {}, h("th", {}), h("th", { scope: "col", i18n: "color.black" }), h("th", { scope: "col", i18n: "color.white" }))),
      h(
        "tbody",
        {},
        rowsOf.map((r) => h("tr", { dataset: { row: r } }, h("th", { scope: "row", i18n: `score.${r}` }), cell(s.score.B[r]), cell(s.score.W[r]))),
        h("tr", { class: "total" }, h("th", { scope: "row", i18n: "score.total" }), cell(s.score.B.total), cell(s.score.W.total)),
      ),
    );
    const parts = [table];
    if (area) parts.push(h("p", { class: "muted small area-note", i18n: "score.area_note" }));
    this.countdown = null;
    if (s.phase === "scoring") {
      parts.push(h("p", { class: "small judge", dataset: { judge: s.judge }, i18n: s.judge === "katago" ? "score.judge_katago" : "score.judge_rules" }));
      if (s.uncertain && s.uncertain.length) parts.push(h("p", { class: "small uncertain-note", i18n: "score.uncertain" }));
      parts.push(
        h(
          "ul",
          { class: "accept-list" },
          ["B", "W"].map((c) =>
            h(
              "li",
              { class: `accept-state${s.accepted[c] ? " done" : ""}`, dataset: { color: c } },
              h("span", { class: `stone-icon ${c === "B" ? "black" : "white"}`, "aria-hidden": "true" }),
              t(s.accepted[c] ? "score.color_accepted" : "score.color_not_accepted", { color: colorName(c) }),
            ),
          ),
        ),
      );
      this.countdown = h("p", { class: "scoring-countdown small", role: "timer" });
      parts.push(this.countdown);
      if (isPlayer(s)) {
        const done = myColors(s).every((c) => s.accepted[c]);
        const accept = h("button", {
          type: "button",
          class: "btn primary",
          i18n: "score.accept",
          dataset: { action: "accept_score" },
          onclick: () => this.act("accept_score", { title: "confirm.accept_score_title", body: "confirm.accept_score_body", confirm: "score.accept" }),
        });
        accept.disabled = done;
        const buttons = [accept, h("button", { type: "button", class: "btn", i18n: "score.resume", onclick: () => this.act("resume_play") })];
        if (s.judge !== "katago") {
          buttons.push(h("button", { type: "button", class: "btn", i18n: "score.ask_engine", dataset: { action: "ask_engine" }, onclick: () => this.act("ask_engine") }));
        }
        parts.push(h("div", { class: "actions" }, ...buttons));
      }
    }
    replace(this.el, parts);
    this.tick(s);
  }

  /** "Accepted automatically in 4:32": the server's scoring deadline, counted down here. */
  tick(s) {
    const el = this.countdown;
    if (!el) return;
    if (!s || s.phase !== "scoring" || s.scoringDeadline === null) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const left = Math.max(0, (s.scoringDeadline - performance.now()) / 1000);
    el.textContent = t("score.auto_accept_in", { time: formatSeconds(left) });
  }
}
