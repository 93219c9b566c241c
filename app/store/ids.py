"""Short random public identifiers."""

from __future__ import annotations

import secrets

ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: easy to read aloud and type


def short_id(length: int = 10) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def secret_token() -> str:
    return secrets.token_urlsafe(24)
