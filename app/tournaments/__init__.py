"""Tournaments: the pure core (model, pairing, standings, tie-breaks, exports) is standard library only, with
no I/O and no clock: whatever time it needs is passed in. docs/tournaments.md."""
