"""Results in the European Go Database's tournament format (the ".h9" table the EGD imports): a header of
``; KEY[value]`` lines, then one line per player in final order:

    place  surname  first-name  rank  country  club  score  tie-breaks...  round1 round2 ...

and each round's entry ``<opponent's place><+|-|=>/<w|b><handicap>``, e.g. ``12+/w2`` (beat the player in place
12, as white, giving 2 stones) or ``7=/b`` (a jigo as black); a round without a game is ``0+`` (a bye, a win),
``0-`` (absent or lost without play) or ``0=``. A game decided without play keeps the opponent's place with a
``!`` (``12+!``) so the EGD does not rate it. Lines and header values are ASCII only: other letters are written
as ``?`` (the EGD's names are Latin-script)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .handicap import handicap_stones
from .mcmahon_score import mcmahon_scores
from .model import Bye, Entrant, Result, TournamentRules, rank_label
from .standings import StandingRow


@dataclass(frozen=True)
class H9Event:
    name: str
    city: str
    country: str  # two letters, e.g. "DE"
    date_start: str  # YYYY-MM-DD
    date_end: str
    tournament_class: str = "D"  # A, B, C (rated weight by the EGF) or D (not for the EGF's ratings)
    komi: float = 6.5
    basic_time_minutes: int = 0
    comment: str = "Tengen"


def _ascii(text: str) -> str:
    return "".join(ch if 32 <= ord(ch) < 127 and ch not in "[]" else "?" for ch in text)


def _token(text: str) -> str:
    cleaned = "_".join(_ascii(text).split())
    return cleaned or "-"


def _names(name: str) -> tuple[str, str]:
    parts = name.split()
    if len(parts) >= 2:
        return _token(parts[-1]), _token(" ".join(parts[:-1]))
    return _token(name), "-"


def export_h9(
    event: H9Event,
    rules: TournamentRules,
    everyone: Sequence[Entrant],
    table: Sequence[StandingRow],
    results: Sequence[Result],
    byes: Sequence[Bye],
    rounds: int,
    countries: Mapping[str, str] | None = None,
    clubs: Mapping[str, str] | None = None,
) -> str:
    """The .h9 text of an event: ``table`` from ``standings`` (its order and tie-breaks), ``rounds`` played."""
    handicap_text = f"h{rules.handicap_ceiling}" if rules.handicap else "h0"
    tiebreak_heads = [tb.upper().replace("_MINUS_1", "-1") for tb, _ in (table[0].figures if table else ())]
    lines = [
        f"; CL[{_ascii(event.tournament_class)}]",
        f"; EV[{_ascii(event.name)}]",
        f"; PC[{_ascii(event.country)},{_ascii(event.city)}]",
        f"; DT[{_ascii(event.date_start)},{_ascii(event.date_end)}]",
        f"; HA[{handicap_text}]",
        f"; KM[{event.komi:g}]",
        f"; TM[{event.basic_time_minutes}]",
        f"; CM[{_ascii(event.comment)}]",
        ";",
        "; Pl Name Rk Co Club " + ("MMS" if rules.format == "mcmahon" else "Score") + " " + " ".join(tiebreak_heads),
    ]
    place = {row.player_id: i + 1 for i, row in enumerate(table)}  # the EGD wants a line number per player
    entrant = {e.player_id: e for e in everyone}
    games: dict[tuple[int, str], Result] = {}
    for r in results:
        games[(r.round, r.black)] = r
        games[(r.round, r.white)] = r
    bye_of = {(b.round, b.player): b for b in byes}
    mms_before = {rnd: mcmahon_scores(rules, everyone, results, byes, rnd) for rnd in range(1, rounds + 1)}
    for row in table:
        p = row.player_id
        e = entrant[p]
        surname, first = _names(e.name)
        cells = []
        for rnd in range(1, rounds + 1):
            g = games.get((rnd, p))
            if g is None:
                b = bye_of.get((rnd, p))
                cells.append("0+" if b is not None and b.kind == "bye" else "0-" if b is not None else "0=")
                continue
            me_black = g.black == p
            o = g.white if me_black else g.black
            if g.outcome == "jigo":
                sym = "="
            elif (g.outcome == "B") == me_black and g.outcome in ("B", "W"):
                sym = "+"
            else:
                sym = "-"
            if g.outcome == "unplayed" or g.by_forfeit:
                cells.append(f"{place.get(o, 0)}{sym}!")
                continue
            scores = mms_before[rnd]
            stones = handicap_stones(rules, scores.get(g.black, 0.0), scores.get(g.white, 0.0))
            cells.append(f"{place.get(o, 0)}{sym}/{'b' if me_black else 'w'}{stones if stones else ''}")
        figures = " ".join(f"{v:g}" for _, v in row.figures)
        country = _token((countries or {}).get(p, event.country))
        club = _token((clubs or {}).get(p, "Tengen"))
        lines.append(
            f"{place[p]:>4} {surname} {first} {rank_label(e.rank)} {country} {club} {row.score:g} {figures} " + " ".join(cells)
        )
    return "\n".join(lines) + "\n"
