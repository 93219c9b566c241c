"""What one review, and one user making reviews, may spend: every cap in one place (docs/operations.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.settings import FromSettings


@dataclass(frozen=True)
class ReviewLimits(FromSettings):
    participants: int = 50  # distinct people in one review room at once (across instances)
    nodes: int = 2000  # nodes in a review's tree
    comment_chars: int = 2000  # one node's comment
    chat_kept: int = 100  # chat lines a review keeps (the snapshot carries them)
    per_day: int = 30  # reviews one user may make in 24 hours

    SETTINGS: ClassVar = {"participants": "review_max_participants", "nodes": "review_max_nodes", "per_day": "review_max_per_day"}
