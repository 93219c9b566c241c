// Ladders (#/ladders, #/ladders/<id>): one ladder's rungs, the challenges the player may make (a rung the server
// would refuse is greyed out with the server's own reason code, docs/ladders.md), the player's open challenges
// with their answers, and the history. The page reads the ladder again on `ladder_changed` (docs/protocol.md §7).
import { h, replace } from "../dom.js";
import { onLanguageChange, t } from "../i18n.js";
import { api } from "../api.js";
import { LobbySocket } from "../protocol.js";
import { currentUser } from "../session.js";
import { errorToast, toast } from "../ui.js";
import { describeTimeControl } from "../clock.js";
import { playerLink } from "./common.js";

/** A refusal's words: the same `error.<code>` text a refused request shows. */
function reasonText(code) {
  return t(`error.${code}`);
}

function ladderName(ladder) {
  return t("ladder.name", { size: ladder.board_size, speed: t(`speed.${ladder.speed}`) });
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

export function mount(container, wanted) {
  let alive = true;
  let current = wanted ? decodeURIComponent(wanted) : null;
  let shown = null; // the ladder view on screen
  let color = "nigiri";
  const tabs = h("div", { class: "segmented", role: "tablist" });
  const head = h("div", { class: "ladder-head" });
  const mine = h("div", { class: "ladder-mine" });
  const body = h("div", { class: "ladder-body" });
  const history = h("ul", { class: "ladder-history" });

  async function act(promise, okKey) {
    try {
      await promise;
      if (okKey) toast(okKey, {}, "info");
    } catch (err) {
      errorToast(err);
    }
    await load();
  }

  function rungRow(rung, ladder) {
    const me = currentUser();
    const own = me && rung.player.id === me.id;
    let cell;
    if (own) {
      cell = h("span", { class: "tag", i18n: "ladder.you" });
    } else {
      const button = h("button", {
        type: "button",
        class: "btn small",
        i18n: "ladder.challenge",
        disabled: !rung.challengeable,
        dataset: { reason: rung.reason || "" },
        onclick: () => act(api.ladderChallenge(ladder.id, rung.player.id, color), "ladder.challenge_sent"),
      });
      cell = h("span", { class: "ladder-action" }, button, rung.reason ? h("span", { class: "muted ladder-reason" }, reasonText(rung.reason)) : null);
    }
    return h("tr", { class: own ? "ladder-me" : null, dataset: { position: rung.position } }, h("td", {}, rung.position), h("td", {}, playerLink(rung.player)), h("td", {}, cell));
  }

  function challengeItem(c, ladder) {
    const me = currentUser();
    const defending = me && c.defender.id === me.id;
    const other = defending ? c.challenger : c.defender;
    const text = t(defending ? "ladder.challenged_by" : "ladder.challenging", { name: other.name, position: defending ? c.challenger_position : c.defender_position });
    const parts = [h("span", {}, text)];
    if (c.status === "open") {
      parts.push(h("span", { class: "muted" }, t("ladder.answer_by", { when: when(c.answer_by) })));
      if (defending) {
        parts.push(
          h("button", { type: "button", class: "btn small primary", i18n: "common.accept", onclick: () => act(api.ladderAccept(c.id).then((g) => { location.hash = `#/game/${g.game_id}`; })) }),
          h("button", { type: "button", class: "btn small", i18n: "common.decline", title: t("ladder.decline_counts"), onclick: () => act(api.ladderDecline(c.id)) }),
        );
      }
    } else if (c.game_id) {
      parts.push(h("a", { href: `#/game/${c.game_id}`, i18n: "ladder.watch_game" }));
    }
    return h("li", { class: "ladder-challenge", dataset: { id: c.id, status: c.status } }, parts);
  }

  function eventItem(e) {
    const params = { player: e.player ? e.player.name : "?", other: e.other ? e.other.name : "?", position: e.position ?? "" };
    return h("li", { dataset: { kind: e.kind } }, h("span", { class: "muted" }, when(e.at)), " ", t(`ladder.event.${e.kind}`, params));
  }

  let list = [];
  let past = { events: [] };

  async function load() {
    try {
      list = (await api.ladders()).ladders;
      if (!alive) return;
      if (!current && list.length) current = list[0].id;
      if (current) [shown, past] = await Promise.all([api.ladder(current), api.ladderHistory(current)]);
      if (alive) render();
    } catch (err) {
      if (alive) errorToast(err);
    }
  }

  /** Draws what was last read (again in the new words when the language changes). */
  function render() {
    replace(
      tabs,
      list.map((la) =>
        h("button", { type: "button", role: "tab", "aria-selected": String(la.id === current), dataset: { ladder: la.id }, onclick: () => { location.hash = `#/ladders/${encodeURIComponent(la.id)}`; } }, ladderName(la)),
      ),
    );
    if (!current || !shown) {
      replace(body, h("p", { class: "muted", i18n: "ladder.none" }));
      return;
    }
    const ladder = shown;
    const me = ladder.me;
    const membership = me.position
      ? h("button", { type: "button", class: "btn small", i18n: "ladder.leave", onclick: () => act(api.ladderLeave(ladder.id)) })
      : h(
          "span",
          { class: "ladder-action" },
          h("button", { type: "button", class: "btn small primary ladder-join", i18n: "ladder.join", disabled: Boolean(me.join), onclick: () => act(api.ladderJoin(ladder.id), "ladder.joined") }),
          me.join ? h("span", { class: "muted ladder-reason" }, reasonText(me.join)) : null,
        );
    const colorSelect = h(
      "select",
      { class: "ladder-color", i18nAria: "ladder.your_colour", onchange: (ev) => { color = ev.target.value; } },
      ["nigiri", "black", "white"].map((c) => h("option", { value: c, selected: c === color }, t(`color.${c}`))),
    );
    replace(
      head,
      h("h2", {}, ladderName(ladder)),
      h("p", { class: "muted" }, `${t(`ruleset.${ladder.rules}`)} · ${describeTimeControl(ladder.time_control)}`),
      h("p", { class: "muted ladder-rules" }, t("ladder.rules_text", { reach: ladder.reach, hours: ladder.answer_hours, again: ladder.rechallenge_hours, open: ladder.max_outgoing })),
      h("div", { class: "row" }, me.position ? h("span", { class: "ladder-position" }, t("ladder.your_position", { position: me.position })) : null, membership, me.position ? h("label", { class: "row" }, h("span", { i18n: "ladder.your_colour" }), colorSelect) : null),
    );
    replace(mine, me.challenges.length ? h("ul", { class: "ladder-challenges" }, me.challenges.map((c) => challengeItem(c, ladder))) : null);
    replace(
      body,
      ladder.rungs.length
        ? h(
            "table",
            { class: "leaderboard ladder" },
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { i18n: "player.name" }), h("th", { i18n: "ladder.challenge" }))),
            h("tbody", {}, ladder.rungs.map((r) => rungRow(r, ladder))),
          )
        : h("p", { class: "muted", i18n: "ladder.empty" }),
    );
    replace(history, past.events.map(eventItem));
  }

  const socket = new LobbySocket({
    onMessage: (msg) => {
      if (msg.t === "ladder_changed" && msg.ladder === current && (!shown || msg.version > shown.version)) load();
    },
    onReconnected: () => load(),
  });
  socket.start();
  const offLang = onLanguageChange(() => render());
  container.append(
    h(
      "section",
      { class: "card leaderboard-page ladder-page" },
      h("h1", { i18n: "ladder.title" }),
      tabs,
      head,
      mine,
      body,
      h("h3", { i18n: "ladder.history" }),
      history,
    ),
  );
  load();
  return () => {
    alive = false;
    socket.stop();
    offLang();
  };
}
