"""KataGo's review of finished games: a quick pass over every position, a deep pass on request (docs/review.md)."""
