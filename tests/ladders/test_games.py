"""A ladder challenge's game, through a real server on both stacks: accepted, it starts as an ordinary game with
the challenger's colour, and its end settles the ladder, whichever colour the challenger had and however the
game ended (resignation, time, score; an aborted game is void). The settlement here is the one the room's end
of the game starts at once: the keeper's periodic round is left at its default of 30 seconds."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.conftest import LiveServer
from tests.ladders.people import LADDER, names, on_ladder, set_ladder, view
from tests.support.room_fixtures import STACKS, server, servers, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import finished
from tests.support.players import GameSocket, Player

pytestmark = [STACKS, pytest.mark.timeout(120)]

FAST = {"kind": "absolute", "main": 4}  # a flag falls four seconds after the game starts


async def _settled(person: Player, challenge_id: str, timeout: float = 20.0) -> dict[str, Any]:
    """The history's event for the challenge once it has been settled."""
    for _ in range(int(timeout / 0.05)):
        events = (await person.http.get(f"/api/ladders/{LADDER}/history")).json()["events"]
        found = [e for e in events if e["challenge_id"] == challenge_id]
        if found:
            assert len(found) == 1
            return found[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"challenge {challenge_id} was not settled")


async def _play_out(ending: str, sockets: dict[str, GameSocket], winner: str) -> None:
    """End the game so that ``winner`` (``B`` or ``W``) wins by ``ending``, or aborted (no winner)."""
    loser = "W" if winner == "B" else "B"
    if ending == "resign":
        assert (await sockets[loser].act({"t": "resign"}))["t"] == "ack"
    elif ending == "abort":
        assert (await sockets["B"].act({"t": "abort"}))["t"] == "ack"
    elif ending == "timeout":  # the loser never moves: Black flags at once, White after Black's move
        if loser == "W":
            assert (await sockets["B"].act({"t": "play", "p": [4, 4]}))["t"] == "ack"
    else:  # score: the winner's one stone stands alone (alive) on an otherwise empty board
        if winner == "W":
            assert (await sockets["B"].act({"t": "pass"}))["t"] == "ack"
        assert (await sockets[winner].act({"t": "play", "p": [4, 4]}))["t"] == "ack"
        assert (await sockets[loser].act({"t": "pass"}))["t"] == "ack"
        assert (await sockets[winner].act({"t": "pass"}))["t"] == "ack"
        await sockets["B"].until(lambda m: m.get("t") == "phase" and m.get("phase") == "scoring", timeout=20)
        for color in ("B", "W"):
            assert (await sockets[color].act({"t": "accept_score"}))["t"] == "ack"


@pytest.mark.parametrize(
    ("color", "ending", "challenger_wins", "result"),
    [
        ("black", "resign", True, "B+R"),
        ("white", "resign", True, "W+R"),
        ("black", "resign", False, "W+R"),
        ("white", "resign", False, "B+R"),
        ("black", "timeout", True, "B+T"),
        ("white", "timeout", True, "W+T"),
        ("black", "score", True, "B+73.5"),
        ("white", "score", True, "W+86.5"),
        ("white", "score", False, "B+73.5"),
        ("black", "abort", False, "Void"),
    ],
)
async def test_the_game_settles_the_ladder_whichever_colour_the_challenger_had(
    server: LiveServer, database_url: str, color: str, ending: str, challenger_wins: bool, result: str
) -> None:
    if ending == "timeout":
        await set_ladder(database_url, time_control=FAST)
    top, middle, bottom = await on_ladder(server.url, 3)
    made = await bottom.http.post(f"/api/ladders/{LADDER}/challenges", json={"defender_id": top.user["id"], "color": color})
    assert made.status_code == 201, made.text
    challenge_id = made.json()["id"]
    accepted = await top.http.post(f"/api/ladders/challenges/{challenge_id}/accept")
    assert accepted.status_code == 201, accepted.text
    game = accepted.json()["game"]
    challenger_color = "B" if color == "black" else "W"
    assert game["players"][challenger_color]["id"] == bottom.user["id"]
    assert (game["board_size"], game["rated"]) == (9, True)
    mine = (await view(top))["me"]["challenges"]
    assert [(c["id"], c["status"], c["game_id"]) for c in mine] == [(challenge_id, "playing", game["id"])]
    by_color = {challenger_color: bottom, ("W" if challenger_color == "B" else "B"): top}
    sockets = {c: await p.socket(game["id"]) for c, p in by_color.items()}
    for s in sockets.values():
        await s.of_type("snapshot")
    defender_color = "W" if challenger_color == "B" else "B"
    await _play_out(ending, sockets, challenger_color if challenger_wins else defender_color)
    stored = await finished(top, game["id"], timeout=30)
    assert stored["result"] == result
    event = await _settled(top, challenge_id)
    expected = "challenger_won" if challenger_wins else ("void" if ending == "abort" else "defender_won")
    assert (event["kind"], event["game_id"], event["position"]) == (expected, game["id"], 1)
    order = names(await view(top))
    if challenger_wins:
        assert order == [bottom.user["name"], top.user["name"], middle.user["name"]]
    else:
        assert order == [top.user["name"], middle.user["name"], bottom.user["name"]]
    for s in sockets.values():
        await s.close()
    for person in (top, middle, bottom):
        await person.close()
