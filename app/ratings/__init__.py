"""Ratings and ranks: the Glicko-2 arithmetic, the rank mapping and handicap (pure), and the service that
rates finished games exactly once."""
