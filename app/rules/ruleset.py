"""Rule sets: presets of explicit parameters, and custom combinations of them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

SCORING = ("area", "territory")
KO = ("simple", "positional", "situational")
COMPENSATION = ("none", "n", "n_minus_1")


@dataclass(frozen=True)
class RuleSet:
    """Every parameter the engine reads. Build one with :func:`rules_for`."""

    name: str = "chinese"
    scoring: str = "area"  # "area" | "territory"
    ko: str = "positional"  # "simple" | "positional" | "situational"
    multi_stone_suicide: bool = False  # single-stone suicide is never legal
    komi: float = 7.5
    handicap_compensation: str = "n"  # White's extra points under area scoring: "none" | "n" | "n_minus_1"
    black_wins_ties: bool = False
    triple_ko_no_result: bool = False  # a third repetition of a whole-board situation voids the game
    seki_territory: bool = True  # False: empty points inside seki score no territory (territory scoring)

    def __post_init__(self) -> None:
        if self.scoring not in SCORING:
            raise ValueError(f"scoring must be one of {', '.join(SCORING)}, not {self.scoring!r}")
        if self.ko not in KO:
            raise ValueError(f"ko must be one of {', '.join(KO)}, not {self.ko!r}")
        if self.handicap_compensation not in COMPENSATION:
            raise ValueError(
                f"handicap_compensation must be one of {', '.join(COMPENSATION)}, not {self.handicap_compensation!r}"
            )
        if not isinstance(self.komi, (int, float)) or isinstance(self.komi, bool) or self.komi != self.komi:
            raise ValueError(f"komi must be a number, not {self.komi!r}")
        if abs(self.komi) > 1000:
            raise ValueError("komi must be between -1000 and 1000")
        if (self.komi * 2) != int(self.komi * 2):
            raise ValueError(f"komi must be a multiple of 0.5, not {self.komi!r}")
        for flag in ("multi_stone_suicide", "black_wins_ties", "triple_ko_no_result", "seki_territory"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false")
        if not isinstance(self.name, str) or not self.name:
            raise ValueError("name must be a non-empty string")
        object.__setattr__(self, "komi", float(self.komi))

    def compensation(self, handicap_stones: int) -> float:
        """White's handicap compensation in points for ``handicap_stones`` placed stones."""
        if self.scoring != "area" or handicap_stones < 2:
            return 0.0
        if self.handicap_compensation == "n":
            return float(handicap_stones)
        if self.handicap_compensation == "n_minus_1":
            return float(handicap_stones - 1)
        return 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RuleSet":
        if not isinstance(data, dict):
            raise ValueError("rules must be an object of parameters")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rules parameter(s): {', '.join(unknown)}")
        return cls(**data)


PRESETS: dict[str, RuleSet] = {
    "chinese": RuleSet(
        name="chinese",
        scoring="area",
        ko="positional",
        multi_stone_suicide=False,
        komi=7.5,
        handicap_compensation="n",
    ),
    "japanese": RuleSet(
        name="japanese",
        scoring="territory",
        ko="simple",
        multi_stone_suicide=False,
        komi=6.5,
        handicap_compensation="none",
        triple_ko_no_result=True,
        seki_territory=False,
    ),
    "korean": RuleSet(
        name="korean",
        scoring="territory",
        ko="simple",
        multi_stone_suicide=False,
        komi=6.5,
        handicap_compensation="none",
        triple_ko_no_result=True,
        seki_territory=False,
    ),
    "aga": RuleSet(
        name="aga",
        scoring="area",
        ko="situational",
        multi_stone_suicide=False,
        komi=7.5,
        handicap_compensation="n_minus_1",
    ),
    "new_zealand": RuleSet(
        name="new_zealand",
        scoring="area",
        ko="situational",
        multi_stone_suicide=True,
        komi=7.0,
        handicap_compensation="none",
    ),
    "ing": RuleSet(
        name="ing",
        scoring="area",
        ko="positional",
        multi_stone_suicide=True,
        komi=8.0,
        handicap_compensation="n",
        black_wins_ties=True,
    ),
}


def rules_for(name: str = "chinese", **overrides: Any) -> RuleSet:
    """The preset ``name`` with any parameter overridden; ValueError for unknown names or parameters."""
    key = (name or "chinese").strip().lower().replace("-", "_").replace(" ", "_")
    aliases = {"nz": "new_zealand", "newzealand": "new_zealand", "cn": "chinese", "jp": "japanese", "ko": "korean"}
    key = aliases.get(key, key)
    if key not in PRESETS:
        raise ValueError(f"unknown rules preset {name!r}; known presets: {', '.join(PRESETS)}")
    known = {f.name for f in fields(RuleSet)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise ValueError(f"unknown rules parameter(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    if not overrides:
        return PRESETS[key]
    return replace(PRESETS[key], **overrides)
