"""The KataGo house bots' steps, and how a weakened step chooses its move from the network's policy.

A person of a given rank mostly plays one of the moves a strong player would consider, and the weaker they are
the further down that list their move tends to be. So a weakened step never plays a random point: it asks the
network for its policy (one evaluation, no search) and plays a move from the top of it, the place in the list
drawn so that on average it is ``mean_place(kyu, size)``:

- it draws ``picks`` distinct moves, each equally likely, from the moves the network finds at all plausible
  (a policy of at least ``pool_floor(kyu)`` of the top move's: ``PLAUSIBLE``, and far less for the weakest
  steps), and plays the one the network likes best. The best of
  ``n`` draws among ``L`` moves sits on average at place ``(L + 1) / (n + 1)``; ``picks`` solves that for the
  wanted place, so the rule holds whether 300 moves are legal or 30;
- the wanted place grows geometrically with the kyu rank (``PLACE_GROWTH`` a rank) and with the board's area,
  less than in proportion on small boards: a 1 dan's move is the network's first or second, a 25 kyu's on
  19x19 about the 75th, on 9x9 about the 25th;
- an obvious move (its policy beyond ``obvious(fill)``, lower as the board fills) is always played, as a
  player of any rank captures what is in atari or answers a clear threat;
- never a move that leaves its own chain in atari where the opponent may capture it, nor one that fills its
  own eye, unless it is the network's first choice (a throw-in, a snapback);
- a pass when the network's first choice is to pass, and the network's first choice when the drawn move is
  less likely than passing (the end of the game is not a place for a weak move instead of a pass).

KaTrain's calibrated rank strategy (``katrain/core/ai.py``, ``RankStrategy``) is the reference for the idea of
picking the best of a few drawn moves; the place function, its constants and the safety rules here are ours and
are checked by ``bench/bot_calibration.py``. The step's starting rank is only a first guess: the rating system
corrects it from its games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.rules import Game, IllegalMove
from app.rules.game import opponent

Point = tuple[int, int]

PLACE_GROWTH = 1.18  # the wanted place in the policy's order grows by this factor a kyu rank
PLACE_SCALE = 1.2  # ... from 1 + PLACE_SCALE at 1 dan on 19x19
SMALL_BOARD = 0.5  # the place scales with the board's area times (19 / side) to this power: see mean_place
PLAUSIBLE = 0.002  # moves with less than this share of the top move's policy are never drawn...
WIDE_FROM = 10.0  # ... by a step of this kyu rank or stronger; a weaker one's pool is wider:
WIDEN = 2.0  # the share divided by this for each kyu rank beyond WIDE_FROM
OBVIOUS_EMPTY = 0.85  # the top move's policy beyond which it is played, on an empty board...
OBVIOUS_FULL = 0.5  # ... and on a full one


@dataclass(frozen=True)
class Step:
    name: str
    strength: str  # the starting rank (the rating system corrects it)
    kyu: float | None  # the rank the policy rule aims at (negative: dan); None: the network's own choice
    search: bool = False  # the strongest step: a search with the visits its clock allows
    max_games: int = 10
    max_think: float = 3.0  # seconds: the step's pace
    adaptive: bool = False  # the sparring partner: its rank chosen for each opponent (app/bots/sparring.py)

    @property
    def evaluations(self) -> int:
        """The visits a move of a policy step asks for (a search step's come from its clock)."""
        return 1


# Eight policy steps from beginner to the raw network, then the search. Names are account names.
STEPS = (
    Step("Kata-25k", "25k", 25),
    Step("Kata-20k", "20k", 20),
    Step("Kata-15k", "15k", 15),
    Step("Kata-11k", "11k", 11),
    Step("Kata-7k", "7k", 7),
    Step("Kata-4k", "4k", 4),
    Step("Kata-1k", "1k", 1),
    Step("Kata-Policy", "3d", None),
    Step("Kata-Search", "5d", None, search=True, max_games=4, max_think=8.0),
)


# Not a step of its own: at each game's start it aims at its opponent (app/bots/sparring.py).
SPARRING = Step("Kata-Sparring", "10k", None, adaptive=True, max_games=10, max_think=8.0)


def step_named(name: str) -> Step:
    for step in (*STEPS, SPARRING):
        if step.name.lower() == name.lower() or step.strength == name.lower():
            return step
    raise ValueError(f"no step {name!r}; steps: {', '.join(step.name for step in STEPS)}")


def mean_place(kyu: float, size: int) -> float:
    """The place (1: the network's first choice) a move of this rank has on average in the policy's order.

    It scales with the board's area (fewer moves to choose from), but less than in proportion on a small board:
    by ``(size² / 361) · (19 / size)^SMALL_BOARD``. On 9x9 even a move far down the policy is rarely a blunder
    (the board is small and every move is near the action), so in proportion to its area alone the 25 kyu step
    played like a 12 kyu there and beat GNU Go at level 1 three games in four (bench/bot_calibration.py)."""
    return 1.0 + (size * size / 361.0) * (19.0 / size) ** SMALL_BOARD * PLACE_SCALE * PLACE_GROWTH**kyu


def pool_floor(kyu: float) -> float:
    """The share of the top move's policy below which a move is never drawn at this rank: ``PLAUSIBLE`` down to
    ``WIDE_FROM`` kyu, then ever smaller, so that the weakest steps also draw the moves the network would never
    consider (KaTrain's rank strategy draws among all legal moves) but still never a self-atari or an own eye."""
    return PLAUSIBLE / WIDEN ** max(0.0, kyu - WIDE_FROM)


def picks(kyu: float, size: int, plausible: int) -> int:
    """How many moves to draw among ``plausible`` so that the best of them sits at ``mean_place`` on average."""
    return max(1, round((plausible + 1) / mean_place(kyu, size) - 1))


def obvious(fill: float) -> float:
    """The policy of the top move beyond which it is always played, ``fill`` the share of the board taken."""
    return OBVIOUS_EMPTY - (OBVIOUS_EMPTY - OBVIOUS_FULL) * fill


def loses_a_chain(game: Game, colour: str, point: Point) -> bool:
    """Whether ``colour`` at ``point`` leaves its own chain in atari where the opponent may take it, or fills an
    eye of its own (every neighbour its stone): the moves a weak player is kept from (KaTrain #74)."""
    size = game.size
    neighbours = [(point[0] + dx, point[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    inside = [n for n in neighbours if 0 <= n[0] < size and 0 <= n[1] < size]
    if all(game.stone_at(n) == colour for n in inside):
        return True
    after = game.copy()
    if after.to_move != colour:
        after.set_to_move(colour)
    try:
        captured = after.play(colour, point)
    except IllegalMove:
        return True  # not ours to play at all
    if captured and after.stone_at(point) == colour:
        return False  # it captures: the chain has the liberties it took
    chain = after.chain(point)
    if not chain:
        return True  # a suicide the rules allowed
    liberties = {
        n
        for x, y in chain
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
        if 0 <= n[0] < size and 0 <= n[1] < size and after.stone_at(n) is None
    }
    if len(liberties) != 1:
        return False
    (liberty,) = liberties
    return after.is_legal(opponent(colour), liberty)


def choose(policy: list[float], game: Game, kyu: float | None, rng: random.Random) -> Point | None:
    """The move of a policy step (None: pass) from the network's ``policy`` (``size * size + 1`` values, rows from
    the top, the pass last, -1 where illegal) at ``game``'s position, the side to move being ``game.to_move``."""
    size = game.size
    colour = game.to_move
    pass_policy = policy[-1]
    moves = sorted(
        ((p, (i % size, i // size)) for i, p in enumerate(policy[:-1]) if p > 0),
        key=lambda item: -item[0],
    )
    if not moves or pass_policy >= moves[0][0]:
        return None
    top_policy, top = moves[0]
    if kyu is None:
        return top
    taken = sum(1 for y in range(size) for x in range(size) if game.stone_at((x, y)) is not None)
    if top_policy >= obvious(taken / (size * size)):
        return top
    plausible = [item for item in moves if item[0] >= top_policy * pool_floor(kyu)]
    drawn = rng.sample(plausible, min(len(plausible), picks(kyu, size, len(plausible))))
    for p, point in sorted(drawn, key=lambda item: -item[0]):
        if point == top or not loses_a_chain(game, colour, point):
            return top if p < pass_policy else point
    return top
