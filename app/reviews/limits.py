"""What one review, and one user making reviews, may spend: every cap in one place (docs/operations.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.settings import FromSettings

# Fixed, and known where a message is read as well as where the review acts on it: the review socket's comment
# message is refused over it at the edge (app/protocol.py), and the review's tree refuses it too.
COMMENT_CHARS = 2000  # one node's comment (comment_too_long beyond)
TITLE_CHARS = 100  # a review's title (title_too_long beyond; a title made from the record is shortened to it)


@dataclass(frozen=True)
class ReviewLimits(FromSettings):
    participants: int = 50  # distinct people in one review room at once (across instances)
    nodes: int = 2000  # nodes in a review's tree
    chat_kept: int = 100  # chat lines a review keeps (the snapshot carries them)
    per_day: int = 30  # reviews one user may make in 24 hours

    SETTINGS: ClassVar = {"participants": "review_max_participants", "nodes": "review_max_nodes", "per_day": "review_max_per_day"}
