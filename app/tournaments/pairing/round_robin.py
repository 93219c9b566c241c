"""Round robin by the circle method (Berger tables): everyone registered meets everyone else once, seeded by
rating; with an odd field, the player drawn against the empty seat has the bye. A scheduled opponent who is
absent or withdrawn leaves the other with a bye (an absence, not a forfeit)."""

from __future__ import annotations

from ..model import Bye, Entrant, Pairing, PairingError, RoundInput, Why


def schedule(players: list[str], round_number: int) -> list[tuple[str | None, str | None]]:
    """Round ``round_number``'s (black, white) pairs of a field seeded in ``players`` order; None is the empty
    seat. Every pair meets exactly once in ``len(players) - 1`` rounds (one more with an odd field)."""
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    n = len(seats)
    if not 1 <= round_number <= n - 1:
        raise PairingError("rounds_exhausted", f"a round robin of {len(players)} players has {n - 1} rounds")
    r = round_number - 1
    fixed, rest = seats[-1], seats[:-1]
    turn = rest[r:] + rest[:r]
    pairs: list[tuple[str | None, str | None]] = [(turn[0], fixed) if r % 2 == 0 else (fixed, turn[0])]
    for k in range(1, n // 2):
        a, b = turn[k], turn[n - 1 - k]
        pairs.append((a, b) if (k + r) % 2 else (b, a))
    return pairs


def seeded(entrants: tuple[Entrant, ...]) -> list[str]:
    return [e.player_id for e in sorted(entrants, key=lambda e: (-e.rating, e.player_id))]


def pair_round_robin(inp: RoundInput) -> tuple[list[Pairing], list[Bye]]:
    field = inp.everyone or inp.entrants
    present = {e.player_id for e in inp.entrants} - set(inp.withdrawn) - set(inp.absent)
    pairings: list[Pairing] = []
    byes: list[Bye] = []
    for black, white in schedule(seeded(field), inp.round):
        here = [p for p in (black, white) if p is not None and p in present]
        if black is not None and white is not None and len(here) == 2:
            why = Why("round_robin_schedule", ("berger_table",), (("round", float(inp.round)),))
            pairings.append(Pairing(len(pairings) + 1, black, white, 0, "even", why))
            continue
        for p in (black, white):
            if p is None:
                continue
            if p in present:
                note = "empty_seat" if None in (black, white) else "opponent_absent"
                byes.append(Bye(inp.round, p, "bye", Why("round_robin_schedule", (note,))))
            elif p in inp.absent:
                byes.append(Bye(inp.round, p, "absent", Why("absent", ("not_checked_in",))))
    return pairings, byes
