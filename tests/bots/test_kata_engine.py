"""A KataGo house bot's in-process engine (app/bots/kata_engine.py) and the bridge's copy of a game: the game's
own rules (its preset and every parameter that differs from it) go with each question to the server, and the
board the step checks its moves on follows them. The server's side, with the real KataGo, is in
test_katago_bots.py (``test_a_games_own_rules_reach_katago``)."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx

from app.bots.kata_engine import KataEngine
from app.bots.position import Position, preset_and_params
from app.bots.rank_pick import step_named
from app.rules import PRESETS, rules_for


def snapshot(rules: dict[str, Any]) -> dict[str, Any]:
    players = {"B": {"id": 1, "name": "me"}, "W": {"id": 2, "name": "them"}}
    game = {"size": 9, "rules": rules, "players": players, "moves": [], "phase": "playing", "to_move": "B"}
    return {"v": 1, "game": game}


def test_the_snapshots_rules_become_a_preset_and_what_differs_from_it() -> None:
    assert preset_and_params(PRESETS["japanese"].to_dict()) == ("japanese", {})
    custom = rules_for("chinese", ko="simple", multi_stone_suicide=True, komi=5.5).to_dict()
    assert preset_and_params(custom) == ("chinese", {"ko": "simple", "multi_stone_suicide": True})
    # Rules under a name of their own start from Chinese; komi is the game's, apart.
    named = {**PRESETS["japanese"].to_dict(), "name": "club rules", "komi": 0.5}
    preset, params = preset_and_params(named)
    assert preset == "chinese"
    assert rules_for(preset, **params, komi=0.5).to_dict() == {**PRESETS["japanese"].to_dict(), "name": "chinese", "komi": 0.5}


async def test_each_question_carries_the_games_own_rules() -> None:
    asked: list[dict[str, Any]] = []

    def server(request: httpx.Request) -> httpx.Response:
        asked.append(json.loads(request.content))
        policy = [0.0] * 82
        policy[1] = 0.9  # B9: legal for Black only where multi-stone suicide is
        policy[40] = 0.1
        return httpx.Response(200, json={"to_move": "B", "visits": 1, "policy": policy, "candidates": []})

    position = Position("g1")
    position.snapshot(snapshot(rules_for("chinese", multi_stone_suicide=True, ko="situational", komi=6.5).to_dict()), 1)
    assert (position.rules, position.komi) == ("chinese", 6.5)
    async with httpx.AsyncClient(transport=httpx.MockTransport(server), base_url="http://tengen") as http:
        engine = KataEngine(http, step_named("Kata-Policy"), position, random.Random(1))
        for command in ("boardsize 9", "clear_board", "komi 6.5"):
            await engine.send(command)
        for command in ("play b A9", "play w A8", "play b J1", "play w B8", "play b J2", "play w C9"):
            await engine.send(command)
        move = await engine.send("genmove b", timeout=5)
    (body,) = asked
    assert body["setup"]["rules"] == "chinese" and body["setup"]["komi"] == 6.5
    assert body["setup"]["rules_params"] == {"multi_stone_suicide": True, "ko": "situational"}
    assert move == "B9"  # the network's choice, a legal suicide under the game's own rules
