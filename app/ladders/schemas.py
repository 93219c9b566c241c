"""What the ladder routes read (app/api/routers/ladders.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class LadderChallengeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    defender_id: int
    color: str = Field(default="nigiri", max_length=8)  # the challenger's: black | white | nigiri (bad_color)
