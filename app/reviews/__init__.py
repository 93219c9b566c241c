"""Shared reviews: a game tree (app/study) led live by one user and followed by others (docs/study.md)."""
