"""A tournament through a real server, on SQLite and on PostgreSQL: registration, the scheduler pairing and
starting a round with ordinary games, results recorded as the games end (a resignation) and by the director (a
jigo, recorded as a jigo), the standings, crosstable, the why of each board, the round paired again from its
recorded input, the SGF archive, the standings and the h9 export checked against the core (a Swiss and a
McMahon), and ``tournament_changed`` on the lobby socket."""

from __future__ import annotations

import io
import zipfile

import pytest

from app.tournaments.model import Bye, Entrant, Result, TournamentRules
from app.tournaments.service import rank_of
from app.tournaments.standings import TIEBREAK_DEFINITIONS, StandingRow, standings
from tests.conftest import MakeLiveServer
from tests.support.players import Player
from tests.tournaments.runtime import create, registered, round_status, view, wait_for

pytestmark = pytest.mark.timeout(180)


async def test_a_round_starts_its_games_once_and_records_each_result(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(tournament_tick_seconds=0.2)
    director = await registered(server.url, prefix="td")
    players = [await registered(server.url, strength=s) for s in ("2d", "5k", "club", "casual")]
    watcher = await registered(server.url, prefix="w")
    try:
        lobby = await watcher.lobby()
        await lobby.of_type("snapshot")
        event = await create(director)
        tid = event["id"]
        changed = await lobby.until(lambda m: m.get("t") == "tournament_changed" and m["tournament_id"] == tid)
        assert changed["what"] == "created"
        for p in players:
            joined = await p.http.post(f"/api/tournaments/{tid}/register")
            assert joined.status_code == 200, joined.text
            assert joined.json() == {"registered": True, "from_round": 1}

        page = await wait_for(director, tid, round_status(1, "started"))
        first = page["rounds"][0]
        assert page["status"] == "running" and len(first["boards"]) == 2 and first["byes"] == []
        assert first["digest"] and len(first["digest"]) == 64
        ids = {p.user["id"] for p in players}
        seated = [b[c]["id"] for b in first["boards"] for c in ("black", "white")]
        assert sorted(seated) == sorted(ids)  # each player on exactly one board
        for board in first["boards"]:
            assert board["why"]["rule"] and board["game_id"] and board["outcome"] is None
            game = (await director.http.get(f"/api/games/{board['game_id']}")).json()
            assert game["board_size"] == 9 and game["time_control"]["kind"] == "absolute" and game["rated"] is False
            assert (game["players"]["B"]["id"], game["players"]["W"]["id"]) == (board["black"]["id"], board["white"]["id"])
        assert {w["game_id"] for w in page["to_watch"]} == {b["game_id"] for b in first["boards"]}

        # No round has finished: nothing to export yet.
        early = await watcher.http.get(f"/api/tournaments/{tid}/h9")
        assert early.status_code == 409 and early.json()["error"]["code"] == "no_round_finished"

        # Board 1: Black resigns in the game itself; the result reaches the event as the game ends.
        one, two = first["boards"]
        black = next(p for p in players if p.user["id"] == one["black"]["id"])
        sock = await black.socket(one["game_id"])
        await sock.of_type("snapshot")
        assert (await sock.act({"t": "resign"}))["t"] == "ack"
        await sock.close()
        page = await wait_for(director, tid, lambda pg: pg["rounds"][0]["boards"][0]["outcome"] == "W")
        assert page["rounds"][0]["boards"][0]["decided_by"] == "game"

        # Board 2: a player may not set a result; the director records a jigo, with a reason.
        path = f"/api/tournaments/{tid}/pairings/{two['id']}/result"
        refused = await black.http.post(path, json={"outcome": "jigo", "reason": "agreed"})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_director"
        done = await director.http.post(path, json={"outcome": "jigo", "by_forfeit": False, "reason": "agreed at the board"})
        assert done.status_code == 200, done.text
        page = await wait_for(director, tid, round_status(1, "finished"))
        points = {row["id"]: row["points"] for row in page["standings"]}
        assert points[one["white"]["id"]] == 1.0 and points[one["black"]["id"]] == 0.0
        assert points[two["black"]["id"]] == 0.5 and points[two["white"]["id"]] == 0.5
        cross = {line["id"]: line["rounds"][0] for line in page["crosstable"]}
        assert cross[two["black"]["id"]] == {"kind": "game", "colour": "B", "opponent": two["white"]["id"], "result": "jigo"}
        assert cross[one["black"]["id"]]["result"] == "loss"
        assert [a["action"] for a in page["audit"]] == ["create", "set_result"]
        sos = {p: f["sos"] for p, f in standings_are_the_cores(page).items()}
        # SOS after one round: the winner met a player on 0, the loser one on 1, the jigo players each other (1/2).
        assert sos.pop(one["white"]["id"]) == 0.0 and sos.pop(one["black"]["id"]) == 1.0 and list(sos.values()) == [0.5, 0.5]
        assert page["standings"][0]["id"] == one["white"]["id"] and page["standings"][-1]["id"] == one["black"]["id"]
        await h9_holds_the_round(watcher, tid, page, winner=one["white"], loser=one["black"], drawn=two)
        assert "audit" not in await view(black, tid)  # the log is the directors'

        # The recorded input pairs the same round again; the archive holds both games.
        replay = (await watcher.http.get(f"/api/tournaments/{tid}/rounds/1/replay")).json()
        assert replay == {"recorded_digest": first["digest"], "digest": first["digest"], "same": True}
        archive = await watcher.http.get(f"/api/tournaments/{tid}/sgf")
        assert archive.status_code == 200
        names = zipfile.ZipFile(io.BytesIO(archive.content)).namelist()
        assert sorted(names) == sorted(f"round-01/board-{b['board']:03d}-{b['game_id']}.sgf" for b in (one, two))

        await lobby.until(lambda m: m.get("t") == "tournament_changed" and m["what"] == "round_finished")
        seen = [m["what"] for m in lobby.received if m.get("t") == "tournament_changed" and m["tournament_id"] == tid]
        assert {"created", "registered", "paired", "started", "result", "round_finished"} <= set(seen)
        await lobby.close()
    finally:
        for p in (director, watcher, *players):
            await p.close()


def the_cores_table(page: dict) -> list[StandingRow]:
    """The core's standings for the results, byes and settings the page shows."""
    settings = page["settings"]
    top, bottom = (rank_of(settings[k]) if settings[k] else None for k in ("top_bar", "bottom_bar"))
    rules = TournamentRules(page["format"], len(page["rounds"]), top, bottom, tiebreaks=tuple(settings["tiebreaks"]))
    field = [Entrant(str(e["id"]), e["name"], e["rating"], rank_of(e["rank"])) for e in page["entrants"]]
    results = [
        Result(r["number"], str(b["black"]["id"]), str(b["white"]["id"]), b["outcome"], b["by_forfeit"])
        for r in page["rounds"]
        for b in r["boards"]
        if b["outcome"] is not None
    ]
    byes = [Bye(r["number"], str(y["player"]["id"]), y["kind"]) for r in page["rounds"] for y in r["byes"]]
    return standings(rules, field, results, byes)


def standings_are_the_cores(page: dict) -> dict[int, dict[str, float]]:
    """The page's table is the core's for the same results: its order, places, scores and each tie-break's
    figure, with the definitions of the event's tie-breaks. Returns each player's figures."""
    chosen = page["settings"]["tiebreaks"]
    assert chosen and page["tiebreak_definitions"] == {tb: TIEBREAK_DEFINITIONS[tb] for tb in chosen}
    score = "mms" if page["format"] == "mcmahon" else "points"
    shown = [(row["id"], row["place"], row[score], row["figures"]) for row in page["standings"]]
    core = the_cores_table(page)
    assert shown == [(int(r.player_id), r.place, r.score, [[tb, v] for tb, v in r.figures]) for r in core]
    return {row["id"]: dict(row["figures"]) for row in page["standings"]}


async def h9_holds_the_round(watcher: Player, tid: str, page: dict, winner: dict, loser: dict, drawn: dict) -> None:
    """The EGD export: a line per player in the table's order, each with round 1 against the opponent's line."""
    wrong = await watcher.http.get(f"/api/tournaments/{tid}/h9", params={"country": "Germany"})
    assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "invalid_request"
    missing = await watcher.http.get("/api/tournaments/nosuchthing/h9")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "tournament_not_found"
    export = await watcher.http.get(f"/api/tournaments/{tid}/h9", params={"country": "de", "city": "Berlin"})
    assert export.status_code == 200 and export.headers["content-type"].startswith("text/plain")
    assert export.headers["content-disposition"] == f'attachment; filename="tengen-tournament-{tid}.h9"'
    lines = export.text.splitlines()
    assert "; EV[Club night]" in lines and "; PC[DE,Berlin]" in lines
    players = [line.split() for line in lines if not line.startswith(";")]
    assert [p[1] for p in players] == [row["name"] for row in page["standings"]]  # one-word names: the surname
    line = {p[1]: p for p in players}
    place = {p[1]: p[0] for p in players}
    assert line[winner["name"]][-1] == f"{place[loser['name']]}+/w" and line[loser["name"]][-1] == f"{place[winner['name']]}-/b"
    b, w = drawn["black"]["name"], drawn["white"]["name"]
    assert line[b][-1] == f"{place[w]}=/b" and line[w][-1] == f"{place[b]}=/w"


async def test_a_mcmahon_events_standings_and_export_are_the_cores(make_live_server: MakeLiveServer) -> None:
    """McMahon: the score is the McMahon score from each player's rank and the bars; a missing opponent (the bye)
    counts the player's own starting score in SOS; the finished event's h9 has the MMS and SOS of each line."""
    server = make_live_server(tournament_tick_seconds=0.2)
    director = await registered(server.url, prefix="td")
    players = [await registered(server.url, strength=s) for s in ("2d", "5k", "casual")]
    try:
        event = await create(director, format="mcmahon", rounds=1, top_bar="1d", bottom_bar="10k", tiebreaks=["sos", "sodos"])
        tid = event["id"]
        for p in players:
            assert (await p.http.post(f"/api/tournaments/{tid}/register")).status_code == 200
        page = await wait_for(director, tid, round_status(1, "started"))
        [board], [bye] = page["rounds"][0]["boards"], page["rounds"][0]["byes"]
        done = await director.http.post(
            f"/api/tournaments/{tid}/pairings/{board['id']}/result",
            json={"outcome": "B", "by_forfeit": False, "reason": "agreed at the board"},
        )
        assert done.status_code == 200, done.text
        page = await wait_for(director, tid, lambda pg: pg["status"] == "finished")
        figures = standings_are_the_cores(page)
        row = {r["id"]: r for r in page["standings"]}
        black, white, rested = board["black"]["id"], board["white"]["id"], bye["player"]["id"]
        assert row[black]["mms"] == row[black]["starting_mms"] + 1 and row[white]["mms"] == row[white]["starting_mms"]
        assert figures[black]["sos"] == row[white]["mms"] and figures[white]["sos"] == row[black]["mms"]
        assert figures[black]["sodos"] == row[white]["mms"] and figures[white]["sodos"] == 0
        assert figures[rested]["sos"] == row[rested]["starting_mms"] and row[rested]["mms"] == row[rested]["starting_mms"] + 1

        export = await director.http.get(f"/api/tournaments/{tid}/h9")
        assert export.status_code == 200
        lines = export.text.splitlines()
        assert "; PC[XX,Online]" in lines and lines[lines.index(";") + 1].endswith("MMS SOS SODOS")
        cells = {line.split()[1]: line.split() for line in lines if not line.startswith(";")}
        for r in page["standings"]:
            mms, sos, sodos = (float(x) for x in cells[r["name"]][6:9])
            assert (mms, sos, sodos) == (r["mms"], figures[r["id"]]["sos"], figures[r["id"]]["sodos"])
        assert cells[row[rested]["name"]][-1] == "0+"
    finally:
        for p in (director, *players):
            await p.close()


async def test_every_refusal_has_its_code(make_live_server: MakeLiveServer) -> None:
    server = make_live_server(tournament_tick_seconds=0.2, tournaments_per_director=2, tournament_max_rounds=5)
    director = await registered(server.url, prefix="td")
    strong, weak, other = [await registered(server.url, strength=s) for s in ("2d", "new", "club")]
    guest = await Player(server.url).visit()
    try:

        async def refused(player: Player, path: str, body: dict | None, status: int, code: str) -> None:
            response = await player.http.post(path, json=body) if body is not None else await player.http.post(path)
            assert response.status_code == status, response.text
            assert response.json()["error"]["code"] == code

        from tests.tournaments.runtime import event_body

        make = "/api/tournaments"
        await refused(guest, make, event_body(), 403, "account_required")
        await refused(director, make, event_body(rounds=6), 422, "too_many_rounds")
        await refused(director, make, event_body(name="x" * 81), 422, "name_too_long")
        await refused(director, make, event_body(format="arena"), 422, "format_not_available")
        await refused(director, make, event_body(game={"time_control": {"kind": "none"}}), 422, "clock_required")
        await refused(director, make, event_body(starts_in=-60), 422, "start_in_past")
        await refused(director, make, event_body(top_bar="3d"), 422, "bars_mcmahon_only")

        event = await create(director, max_players=2, min_rank="10k", max_rank="1d", starts_in=600)
        tid = event["id"]
        await create(director, starts_in=600)
        await refused(director, make, event_body(starts_in=600), 429, "too_many_tournaments")

        base = f"/api/tournaments/{tid}"
        await refused(guest, base + "/register", None, 403, "account_required")
        await refused(strong, base + "/register", None, 403, "rank_out_of_limits")
        await refused(weak, base + "/register", None, 403, "rank_out_of_limits")
        assert (await other.http.post(base + "/register")).status_code == 200
        await refused(other, base + "/register", None, 409, "already_registered")
        assert (await director.http.post(base + "/register")).status_code == 200  # 6k: within limits
        third = await registered(server.url, strength="club")
        await refused(third, base + "/register", None, 409, "tournament_full")
        await refused(other, base + "/check-in", None, 409, "checkin_not_required")
        await refused(other, base + "/pause", {"reason": "tea"}, 403, "not_director")
        await refused(director, base + "/pause", {"reason": "tea"}, 409, "not_running")
        await refused(director, base + "/pause", {"reason": "x" * 501}, 422, "reason_too_long")
        await refused(director, base + "/rounds/1/repair", {"reason": "a mistake"}, 409, "round_not_repairable")
        await refused(director, base + "/players/nobody/disqualify", {"reason": "r"}, 404, "not_an_entrant")
        await refused(third, base + "/withdraw", {}, 409, "not_registered")
        missing = await other.http.get("/api/tournaments/nosuchthing")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "tournament_not_found"
        await third.close()
    finally:
        for p in (director, strong, weak, other, guest):
            await p.close()


async def test_check_in_absence_withdrawal_and_repair(make_live_server: MakeLiveServer) -> None:
    """With a check-in window, a player who does not check in is absent (an absence, no forfeit); the director
    pairs the round again with a reason before it starts; a player who withdraws keeps the game they chose and
    has the other resigned for them."""
    server = make_live_server(tournament_tick_seconds=0.2)
    director = await registered(server.url, prefix="td")
    players = [await registered(server.url) for _ in range(5)]
    try:
        event = await create(
            director,
            starts_in=6,
            schedule={"pairing_lead_seconds": 4, "checkin_seconds": 60},
        )
        tid = event["id"]
        for p in players:
            assert (await p.http.post(f"/api/tournaments/{tid}/register")).status_code == 200
        for p in players[:4]:
            done = await p.http.post(f"/api/tournaments/{tid}/check-in")
            assert done.status_code == 200, done.text
        page = await wait_for(director, tid, round_status(1, "paired"))
        first = page["rounds"][0]
        absent = players[4].user["id"]
        assert first["byes"] == [
            {"player": {"id": absent, "name": players[4].user["name"]}, "kind": "absent", "why": first["byes"][0]["why"]}
        ]
        assert len(first["boards"]) == 2
        late = await players[4].http.post(f"/api/tournaments/{tid}/check-in")
        # Round 1 is paired: the next check-in is round 2's, whose window opens an hour from now.
        assert late.status_code == 409 and late.json()["error"]["code"] == "checkin_not_open"
        newcomer = await registered(server.url)
        closed = await newcomer.http.post(f"/api/tournaments/{tid}/register")
        assert closed.status_code == 409 and closed.json()["error"]["code"] == "registration_closed"
        await newcomer.close()
        # Paired, not started: the director pairs it again with another seed and says why.
        again = await director.http.post(f"/api/tournaments/{tid}/rounds/1/repair", json={"reason": "a wrong seed", "seed": 7})
        assert again.status_code == 200, again.text
        page = await wait_for(director, tid, round_status(1, "started"))
        assert page["rounds"][0]["repaired_reason"] == "a wrong seed" and page["rounds"][0]["seed"] == 7
        assert [a["action"] for a in page["audit"]] == ["create", "repair"]
        assert page["rounds"][0]["digest"] == again.json()["digest"] != first["digest"]
        late = await director.http.post(f"/api/tournaments/{tid}/rounds/1/repair", json={"reason": "too late"})
        assert late.status_code == 409 and late.json()["error"]["code"] == "round_not_repairable"
        points = {row["id"]: row["points"] for row in page["standings"]}
        assert points[absent] == 0.0  # an absence scores nothing and is no forfeit: no game was made

        # A player withdraws, finishing nothing: their game is resigned for them (the opponent wins by forfeit).
        board = page["rounds"][0]["boards"][0]
        leaver = next(p for p in players if p.user["id"] == board["black"]["id"])
        gone = await leaver.http.post(f"/api/tournaments/{tid}/withdraw", json={"finish": []})
        assert gone.status_code == 200 and gone.json()["resigned"] == [board["game_id"]]
        page = await wait_for(director, tid, lambda pg: pg["rounds"][0]["boards"][0]["outcome"] == "W")
        assert next(e for e in page["entrants"] if e["id"] == leaver.user["id"])["status"] == "withdrawn"
        # The other board's black keeps their game by naming it, and cannot name one that is not theirs.
        other = page["rounds"][0]["boards"][1]
        stayer = next(p for p in players if p.user["id"] == other["black"]["id"])
        wrong = await stayer.http.post(f"/api/tournaments/{tid}/withdraw", json={"finish": [board["game_id"]]})
        assert wrong.status_code == 422 and wrong.json()["error"]["code"] == "not_your_game"
        kept = await stayer.http.post(f"/api/tournaments/{tid}/withdraw", json={"finish": [other["game_id"]]})
        assert kept.status_code == 200 and kept.json() == {"withdrawn": True, "resigned": [], "finishing": [other["game_id"]]}
        game = (await stayer.http.get(f"/api/games/{other['game_id']}")).json()
        assert game["status"] != "finished"
    finally:
        for p in (director, *players):
            await p.close()


async def test_a_correspondence_event_starts_correspondence_games(make_live_server: MakeLiveServer) -> None:
    """Every clock the lobby offers, correspondence included: the round's game has the event's clock."""
    server = make_live_server(tournament_tick_seconds=0.2)
    director = await registered(server.url, prefix="td")
    players = [await registered(server.url) for _ in range(2)]
    clock = {"kind": "simple", "per_move": 3 * 86400, "correspondence": True}
    try:
        event = await create(director, rounds=1, game={"board_size": 13, "time_control": clock, "rated": True})
        tid = event["id"]
        for p in players:
            assert (await p.http.post(f"/api/tournaments/{tid}/register")).status_code == 200
        page = await wait_for(director, tid, round_status(1, "started"))
        [board] = page["rounds"][0]["boards"]
        game = (await director.http.get(f"/api/games/{board['game_id']}")).json()
        assert game["time_control"] == clock and game["board_size"] == 13 and game["status"] == "playing"
    finally:
        for p in (director, *players):
            await p.close()


async def test_directors_pause_resume_and_disqualify_each_in_the_audit_log(make_live_server: MakeLiveServer) -> None:
    """A co-director acts as the director does (but adds no one); a pause holds the schedule and the resume moves
    the rounds not started later by as long; a disqualified player's game is lost and they play no more."""
    server = make_live_server(tournament_tick_seconds=0.2)
    director = await registered(server.url, prefix="td")
    co = await registered(server.url, prefix="co")
    players = [await registered(server.url) for _ in range(4)]
    try:
        event = await create(director, late_until_round=2, schedule={"round_seconds": 120, "deadline_seconds": 100})
        tid = event["id"]
        base = f"/api/tournaments/{tid}"
        assert (await director.http.post(base + "/directors", json={"name": co.user["name"]})).status_code == 200
        nope = await co.http.post(base + "/directors", json={"name": players[0].user["name"]})
        assert nope.status_code == 403 and nope.json()["error"]["code"] == "not_director"
        for p in players:
            assert (await p.http.post(base + "/register")).status_code == 200
        page = await wait_for(co, tid, round_status(1, "started"))
        planned = page["rounds"][1]["starts_at"]
        late = await registered(server.url)  # late registration: from the first round not paired yet
        joined = await late.http.post(base + "/register")
        assert joined.status_code == 200 and joined.json() == {"registered": True, "from_round": 2}
        await late.close()

        assert (await co.http.post(base + "/pause", json={"reason": "power cut"})).status_code == 200
        page = await view(co, tid)
        assert page["status"] == "paused" and page["settings"]["paused_at"]
        again = await co.http.post(base + "/pause", json={"reason": "twice"})
        assert again.status_code == 409 and again.json()["error"]["code"] == "not_running"
        resumed = await director.http.post(base + "/resume", json={"reason": "power back"})
        assert resumed.status_code == 200 and resumed.json()["shifted_seconds"] > 0
        page = await view(director, tid)
        assert page["status"] == "running" and page["rounds"][1]["starts_at"] > planned

        board = page["rounds"][0]["boards"][0]
        cheat = next(p for p in players if p.user["id"] == board["white"]["id"])
        out = await co.http.post(base + f"/players/{cheat.user['name']}/disqualify", json={"reason": "outside help"})
        assert out.status_code == 200 and out.json()["games_ended"] == [board["game_id"]]
        page = await wait_for(director, tid, lambda pg: pg["rounds"][0]["boards"][0]["outcome"] == "B")
        assert next(e for e in page["entrants"] if e["id"] == cheat.user["id"])["status"] == "disqualified"
        back = await cheat.http.post(base + "/register")
        assert back.status_code == 403 and back.json()["error"]["code"] == "disqualified"
        log = [(a["actor"], a["action"], a["reason"]) for a in page["audit"]]
        assert log == [
            (director.user["name"], "create", "created"),
            (director.user["name"], "add_co_director", f"co-director {co.user['name']}"),
            (co.user["name"], "pause", "power cut"),
            (director.user["name"], "resume", "power back"),
            (co.user["name"], "disqualify", "outside help"),
        ]
    finally:
        for p in (director, co, *players):
            await p.close()
