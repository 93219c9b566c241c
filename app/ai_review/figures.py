"""The AI review's derived figures, from KataGo's raw figures of each position (docs/review.md).

Pure: standard library and app.rules only, so the same raw figures always give the same derived figures, and the
backend (app/ai_review's jobs and API) derives them wherever it serves them. The client shows these facts and
never recomputes them.

Position ``i`` is the board after ``i`` moves (0 is the start, handicap or setup stones down); move ``i`` (from
1) is ``moves[i - 1]`` and leads from position ``i - 1`` to position ``i``. Scores and ownership are Black's
(a positive lead is Black ahead; ownership +1 Black, -1 White).

- Points lost by move ``i``: the score lead before it minus after it, from the mover's side (KataGo's lead of
  position ``i - 1`` with the mover to play, against its lead of position ``i``). It can be negative (the search
  found more after the move than before it); the categories, the mistakes and the accuracy count a negative
  loss as none.
- The changed hands of a mistake: the ownership after the played move (the root ownership of position ``i``)
  against after the better move (the first candidate's ownership at position ``i - 1``); the connected regions
  whose owner flips, said as translation keys with parameters (the client words them in its six languages).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rules import Game, IllegalMove, RuleSet, to_gtp

Point = tuple[int, int]

# Categories of points lost, upper bounds exclusive (OGS and KaTrain use thresholds of this kind).
CATEGORIES: tuple[tuple[str, float], ...] = (
    ("excellent", 0.5),
    ("good", 2.0),
    ("inaccuracy", 5.0),
    ("mistake", 10.0),
    ("blunder", float("inf")),
)
LISTED_FROM = 2.0  # a move is listed among its player's mistakes from an inaccuracy up
MAX_LISTED = 10  # at most this many mistakes a player, the biggest first
ACCURACY_BASE = 0.75  # accuracy = 100 * ACCURACY_BASE ** (mean points lost): KaTrain's form, unweighted
OWNED = 0.5  # an ownership from which a point counts as that side's
MIN_AREA = 3  # a region without stones is said from this many points
MAX_REGIONS = 3  # at most this many regions said for one move, the largest first

# Replays only need where the stones are: simple ko and multi-stone suicide allow every move any rule set allows.
_REPLAY_RULES = RuleSet(name="replay", ko="simple", multi_stone_suicide=True)


def category(lost: float) -> str:
    """The category of a move's points lost (a negative loss is excellent)."""
    for name, upper in CATEGORIES:
        if lost < upper:
            return name
    return CATEGORIES[-1][0]


def accuracy(losses: Sequence[float]) -> float | None:
    """100 * 0.75 ** (the mean of the losses, a negative one as 0), rounded to 0.1; None without a move."""
    if not losses:
        return None
    mean = sum(max(0.0, v) for v in losses) / len(losses)
    return round(100.0 * float(ACCURACY_BASE**mean), 1)


def _point(value: Any) -> Point | None:
    return None if value is None else (int(value[0]), int(value[1]))


def _as_list(p: Point | None) -> list[int] | None:
    return None if p is None else [p[0], p[1]]


def points_lost(moves: Sequence[tuple[str, Any]], raw: Sequence[Mapping[str, Any] | None]) -> list[float | None]:
    """Indexed by position: ``[None, lost by move 1, ...]``; None where either position has no figures."""
    lost: list[float | None] = [None]
    for i, (colour, _) in enumerate(moves, start=1):
        before = raw[i - 1] if i - 1 < len(raw) else None
        after = raw[i] if i < len(raw) else None
        if before is None or after is None:
            lost.append(None)
            continue
        black_loss = float(before["score_lead"]) - float(after["score_lead"])
        lost.append(round(black_loss if colour == "B" else -black_loss, 2))
    return lost


def boards(
    size: int, moves: Sequence[tuple[str, Any]], setup: Mapping[str, Sequence[Any]] | None = None
) -> list[list[str] | None]:
    """The stones of each position as rows of '.XO' (None from a move the replay cannot play on)."""
    game = Game(size, rules=_REPLAY_RULES)
    if setup and (setup.get("B") or setup.get("W")):
        game.add_setup([(p[0], p[1]) for p in setup.get("B", ())], [(p[0], p[1]) for p in setup.get("W", ())])
    rows: list[list[str] | None] = [game.board_rows()]
    for colour, value in moves:
        point = _point(value)
        try:
            game.set_to_move(colour)
            if point is None:
                game.pass_turn(colour)
            else:
                game.play(colour, point)
        except (IllegalMove, ValueError):
            rows.extend([None] * (len(moves) + 1 - len(rows)))
            break
        rows.append(game.board_rows())
    return rows


def _owner(value: float) -> str | None:
    return "B" if value >= OWNED else "W" if value <= -OWNED else None


def _regions(
    size: int, played: Sequence[Sequence[float]], better: Sequence[Sequence[float]]
) -> list[tuple[str, str, list[Point]]]:
    """(owner under the better move, owner after the played one, points) of each connected flipped region."""
    flip: dict[Point, tuple[str, str]] = {}
    for y in range(size):
        for x in range(size):
            was, now = _owner(better[y][x]), _owner(played[y][x])
            if was and now and was != now:
                flip[(x, y)] = (was, now)
    seen: set[Point] = set()
    found: list[tuple[str, str, list[Point]]] = []
    for start in sorted(flip, key=lambda p: (p[1], p[0])):
        if start in seen:
            continue
        kind = flip[start]
        seen.add(start)
        stack, region = [start], []
        while stack:
            p = stack.pop()
            region.append(p)
            x, y = p
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if q not in seen and flip.get(q) == kind:
                    seen.add(q)
                    stack.append(q)
        found.append((kind[0], kind[1], sorted(region, key=lambda p: (p[1], p[0]))))
    return found


def _centre(points: Sequence[Point]) -> Point:
    """The point of ``points`` nearest their centroid (the first in reading order on a tie)."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    return min(points, key=lambda p: ((p[0] - cx) ** 2 + (p[1] - cy) ** 2, p[1], p[0]))


def _place(size: int, p: Point) -> str:
    """corner, side or centre: where a point lies, by the lines from each edge (4 on 19x19, 3 on 13x13, 2 on 9x9)."""
    band = max(2, size // 4)
    near_x = min(p[0], size - 1 - p[0]) < band
    near_y = min(p[1], size - 1 - p[1]) < band
    return "corner" if near_x and near_y else "side" if near_x or near_y else "centre"


def changed_hands(
    size: int, board: Sequence[str] | None, played: Sequence[Sequence[float]], better: Sequence[Sequence[float]]
) -> list[dict[str, Any]]:
    """The regions that changed hands, largest first, each as ``{"key", "params", "at", "points"}``.

    ``board`` is the position after the played move (rows of '.XO'), to tell a group from an area.
    """
    said: list[tuple[int, int, dict[str, Any]]] = []  # (points, 1 for an area, the words): groups first on a tie
    for was, now, region in _regions(size, played, better):
        stones: dict[str, list[Point]] = {"B": [], "W": []}
        if board is not None:
            for x, y in region:
                c = board[y][x]
                if c == "X" or c == "O":
                    stones["B" if c == "X" else "W"].append((x, y))
        if stones[was]:
            key, colour, group = "ai_review.hands.group_died", was, stones[was]
        elif stones[now]:
            key, colour, group = "ai_review.hands.group_lived", now, stones[now]
        elif len(region) >= MIN_AREA:
            at = _centre(region)
            key = f"ai_review.hands.{_place(size, at)}_taken"
            params = {"colour": now, "point": to_gtp(at, size), "points": len(region)}
            said.append((len(region), 1, {"key": key, "params": params, "at": list(at), "points": [list(p) for p in region]}))
            continue
        else:
            continue
        at = _centre(group)
        params = {"colour": colour, "point": to_gtp(at, size), "stones": len(group), "points": len(region)}
        said.append((len(region), 0, {"key": key, "params": params, "at": list(at), "points": [list(p) for p in region]}))
    said.sort(key=lambda item: (-item[0], item[1]))
    return [entry for _, _, entry in said[:MAX_REGIONS]]


def derive(
    size: int,
    moves: Sequence[tuple[str, Any]],
    raw: Sequence[Mapping[str, Any] | None],
    setup: Mapping[str, Sequence[Any]] | None = None,
) -> dict[str, Any]:
    """Everything derived from the raw figures (the JSON in docs/review.md).

    ``moves`` are (colour, point or None for a pass); ``raw[i]`` is position ``i``'s raw figures or None;
    ``setup`` the stones down before move 1 (``{"B": [...], "W": [...]}``: handicap or a record's setup).
    """
    lost = points_lost(moves, raw)
    rows = boards(size, moves, setup)
    per_player: dict[str, list[float]] = {"B": [], "W": []}
    candidates: dict[str, list[int]] = {"B": [], "W": []}
    for i, (colour, _) in enumerate(moves, start=1):
        value = lost[i]
        if value is None:
            continue
        per_player[colour].append(value)
        if value >= LISTED_FROM:
            candidates[colour].append(i)
    mistakes: dict[str, list[dict[str, Any]]] = {}
    hands: dict[str, list[dict[str, Any]]] = {}
    for colour, indices in candidates.items():
        indices.sort(key=lambda i: (-(lost[i] or 0.0), i))
        listed = []
        for i in indices[:MAX_LISTED]:
            before = raw[i - 1] or {}
            best = (before.get("best") or [None])[0]
            played = _point(moves[i - 1][1])
            better = _point(best["point"]) if best else None
            loss = lost[i] or 0.0
            listed.append(
                {
                    "i": i,
                    "point": _as_list(played),
                    "points_lost": loss,
                    "category": category(loss),
                    "best": _as_list(better) if best else None,
                    "best_is_pass": bool(best) and better is None,
                    "pv": [_as_list(_point(p)) for p in best.get("pv", [])] if best else [],
                }
            )
            after = raw[i] or {}
            if best and best.get("ownership") and after.get("ownership") and better != played:
                words = changed_hands(size, rows[i], after["ownership"], best["ownership"])
                if words:
                    hands[str(i)] = words
        mistakes[colour] = listed
    summary = {}
    for colour, losses in per_player.items():
        counts = {name: 0 for name, _ in CATEGORIES}
        for value in losses:
            counts[category(value)] += 1
        mean = round(sum(max(0.0, v) for v in losses) / len(losses), 2) if losses else None
        summary[colour] = {"moves": len(losses), "categories": counts, "mean_points_lost": mean, "accuracy": accuracy(losses)}
    categories = [None if value is None else category(value) for value in lost]
    return {"points_lost": lost, "categories": categories, "mistakes": mistakes, "summary": summary, "changed_hands": hands}
