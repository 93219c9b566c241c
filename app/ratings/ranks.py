"""Ranks from ratings: a published, monotonic mapping (the one OGS uses), and starting strengths.

A rating ``r`` has the rank number ``n = ln(r / 525) * 23.15``: 30 kyu at n < 1, then one rank per
whole number, 1 dan at n = 30 (rating 1918), 9 dan at n >= 38 (rating 2710) and above. 1500 is 6 kyu.
A rank is provisional (shown with ``?``) while the deviation is above ``PROVISIONAL_DEVIATION``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

BASE = 525.0
SPREAD = 23.15
DAN_START = 30  # rank number of 1 dan
TOP = 38  # rank number of 9 dan, the highest shown
PROVISIONAL_DEVIATION = 160.0
STARTING_DEVIATION = 350.0
STARTING_VOLATILITY = 0.06

# What a player may say about their strength when registering, as the rank it starts them at.
STRENGTHS = {"new": "25k", "casual": "15k", "club": "5k", "strong": "2d"}
DEFAULT_STRENGTH = "6k"  # players who said nothing start at 1500, Glicko's stranger

_LABEL = re.compile(r"^\s*(\d{1,2})\s*([kd])\s*$", re.IGNORECASE)


def rank_number(rating: float) -> float:
    return math.log(max(rating, 1.0) / BASE) * SPREAD


def rating_for_rank_number(n: float) -> float:
    return BASE * math.exp(n / SPREAD)


def label_for_number(n: float) -> str:
    whole = math.floor(n)
    if whole >= DAN_START:
        return f"{min(whole, TOP) - DAN_START + 1}d"
    return f"{min(30, DAN_START - max(whole, 0))}k"


def rank_label(rating: float) -> str:
    """``6k``, ``1d``, ...: kyu from 30 down to 1, then dan from 1 up to 9."""
    return label_for_number(rank_number(rating))


def is_provisional(deviation: float) -> bool:
    return deviation > PROVISIONAL_DEVIATION


def display(rating: float, deviation: float) -> str:
    """The rank as shown next to a name: ``6k``, or ``6k?`` while provisional."""
    return rank_label(rating) + ("?" if is_provisional(deviation) else "")


def parse_rank(text: str) -> float:
    """The rank number in the middle of a rank written like ``12k`` or ``3d`` (ValueError otherwise)."""
    m = _LABEL.match(text)
    if not m:
        raise ValueError("a rank looks like 12k or 3d")
    count, kind = int(m.group(1)), m.group(2).lower()
    if kind == "k" and 1 <= count <= 30:
        return DAN_START - count + 0.5
    if kind == "d" and 1 <= count <= TOP - DAN_START + 1:
        return DAN_START + count - 1 + 0.5
    raise ValueError("ranks run from 30k to 1k and from 1d to 9d")


@dataclass(frozen=True)
class Start:
    rating: float
    deviation: float = STARTING_DEVIATION
    volatility: float = STARTING_VOLATILITY


def starting_rating(strength: str | None) -> Start:
    """The starting figures for a declared strength (a word of ``STRENGTHS`` or a rank such as ``12k``)."""
    if not strength:
        return Start(1500.0)
    label = STRENGTHS.get(strength.strip().lower(), strength)
    return Start(round(rating_for_rank_number(parse_rank(label)), 2))


def check_strength(strength: str) -> str:
    """The strength normalised (``club``, ``12k``), or ValueError."""
    word = strength.strip().lower()
    if word in STRENGTHS:
        return word
    n = parse_rank(word)
    return label_for_number(n)
