"""Simultaneous (one against many): the host (``rules.host``) plays every other present entrant at once, in one
round; the host takes white, each guest black. Handicaps, if any, are the runtime's to set per board."""

from __future__ import annotations

from ..model import Bye, Pairing, PairingError, RoundInput, Why


def pair_simultaneous(inp: RoundInput) -> tuple[list[Pairing], list[Bye]]:
    host = inp.rules.host
    if host is None:
        raise PairingError("host_missing", "a simultaneous event needs a host")
    gone = set(inp.absent) | set(inp.withdrawn)
    present = [e for e in inp.entrants if e.player_id not in gone]
    if host not in {e.player_id for e in present}:
        raise PairingError("host_absent", "the host is not present")
    guests = sorted((e for e in present if e.player_id != host), key=lambda e: (-e.rating, e.player_id))
    why = Why("simultaneous", ("host_plays_everyone",))
    pairings = [Pairing(i + 1, g.player_id, host, 0, "even", why) for i, g in enumerate(guests)]
    byes = [Bye(inp.round, p, "absent", Why("absent", ("not_checked_in",))) for p in sorted(set(inp.absent))]
    return pairings, byes
