"""What one review, and one user making reviews, may spend: every cap in one place (docs/operations.md)."""

from __future__ import annotations

from dataclasses import dataclass

from app.settings import Settings


@dataclass(frozen=True)
class ReviewLimits:
    participants: int = 50  # distinct people in one review room at once (across instances)
    nodes: int = 2000  # nodes in a review's tree
    comment_chars: int = 2000  # one node's comment
    chat_kept: int = 100  # chat lines a review keeps (the snapshot carries them)
    per_day: int = 30  # reviews one user may make in 24 hours

    @classmethod
    def from_settings(cls, settings: Settings) -> "ReviewLimits":
        return cls(
            participants=settings.review_max_participants,
            nodes=settings.review_max_nodes,
            per_day=settings.review_max_per_day,
        )
