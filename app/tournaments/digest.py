"""The digest of a round's input: sha256 of its canonical JSON, recorded beside the pairing so that anyone can
check that the same input (seed included) gives the same round again."""

from __future__ import annotations

import dataclasses
import hashlib
import json

from .model import RoundInput


def inputs_digest(inp: RoundInput) -> str:
    text = json.dumps(dataclasses.asdict(inp), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()
