"""``tengen score FILE.sgf``: replay a record through the rules engine and print the count as JSON."""

from __future__ import annotations

import json
import sys

from app.records.sgf import SgfError, import_sgf
from app.rules import Game, IllegalMove, rules_for
from app.rules.coords import from_gtp, to_gtp


def _fail(code: str, message: str, **extra: object) -> int:
    print(json.dumps({"error": {"code": code, "message": message, **extra}}))
    return 1 if code != "usage" else 2


def run(file: str, rules: str | None = None, komi: float | None = None, dead: str | None = None) -> int:
    try:
        with open(file, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        return _fail("unreadable_file", f"cannot read {file}: {exc.strerror or exc}")
    try:
        record = import_sgf(data)
    except SgfError as exc:
        return _fail("bad_sgf", str(exc))
    name = rules or record.rules
    overrides = {"komi": float(komi if komi is not None else record.komi)}
    try:
        ruleset = rules_for(name, **overrides)
    except ValueError as exc:
        if rules is not None:
            return _fail("bad_rules", str(exc))
        return _fail("unknown_rules", f"the record's rules RU[{record.rules}] are unknown; pass --rules ({exc})")
    try:
        game = Game(record.size, ruleset, handicap_points=record.handicap or None)
    except ValueError as exc:
        return _fail("bad_sgf", str(exc))
    if len(record.handicap) == 1:
        return _fail("bad_sgf", "a single AB stone is not a handicap Tengen can replay")
    for number, mv in enumerate(record.moves, start=1):
        try:
            if mv.color != game.to_move and game.moves:
                # records may contain two moves in a row by one colour; Tengen games never do
                raise IllegalMove("not_your_turn")
            if mv.color != game.to_move:
                game.to_move = mv.color  # the first move may be either colour
            if mv.point is None:
                game.pass_turn(mv.color)
            else:
                game.play(mv.color, mv.point)
        except IllegalMove as exc:
            where = "pass" if mv.point is None else to_gtp(mv.point, record.size)
            return _fail(
                "illegal_move",
                f"move {number} ({mv.color} {where}) is illegal: {exc.message}",
                move_number=number,
                reason=exc.reason,
            )
    if dead is not None:
        try:
            dead_points = {from_gtp(label, record.size) for label in dead.split(",") if label.strip()}
        except ValueError as exc:
            return _fail("bad_dead", str(exc))
        for p in dead_points:
            if game.stone_at(p) is None:
                return _fail("bad_dead", f"there is no stone at {to_gtp(p, record.size)} to mark dead")
    else:
        dead_points = game.propose_dead()
    score = game.score(dead_points)
    out = {
        "size": record.size,
        "rules": ruleset.to_dict(),
        "moves": len(record.moves),
        "board": game.board_rows(),
        "prisoners": dict(game.prisoners),
        "dead": sorted((to_gtp(p, record.size) for p in score.dead), key=lambda s: (s[0], int(s[1:]))),
        "dead_source": "given" if dead is not None else "proposed",
        "score": score.to_dict(),
        "result": score.result_text(),
        "record_result": record.result,
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
