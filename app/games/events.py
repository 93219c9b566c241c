"""Every versioned event of a game, as the typed models the authority builds its events with.

The game layer owns these models so that it builds its events with them without reaching upward; app/protocol.py,
the registry of every socket's messages, re-exports them, and the schema in docs/protocol.schema.json is made
from them. The game socket's other messages are in app/games/messages.py.

``build`` checks an event's fields against its model (a field the model does not declare is an error, so every
field the server sends is in the schema) and returns the event as the wire carries it: the fields given, in the
order the model declares them, then ``server_time``; the commit adds ``v`` last (app/games/visibility.py). A
field with nothing to say is left out rather than sent as null, as the authority always did: which fields an
event of a type carries can depend on how it came about (a ``game_over`` by resignation names who resigned).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.games.shapes import ClocksView, Color, OffersView, ResultView, ScoreView, WirePoint
from app.transport.messages import version_required

Clocks = ClocksView | None  # docs/clocks.md, "CLOCKS"; null for an untimed game
OfferKind = Literal["undo", "draw", "adjourn", "resume", "rematch"]


class GameEventBody(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra=version_required)
    v: int | None = None  # set by the commit, never by the authority
    server_time: float | None = None
    # (field, its name on the wire) in the order the wire carries them; every field's value is plain data
    # (no nested model), so the validated values are the wire's as they are.
    _wire_order: ClassVar[tuple[tuple[str, str], ...]] = ()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        names = [name for name in cls.model_fields if name not in ("server_time", "v")] + ["server_time", "v"]
        cls._wire_order = tuple((name, cls.model_fields[name].alias or name) for name in names)

    def wire(self) -> dict[str, Any]:
        """The event as the wire carries it: the fields given, in declared order, then server_time and v."""
        given, values = self.model_fields_set, self.__dict__
        return {key: values[name] for name, key in self._wire_order if name in given}


class MoveEvent(GameEventBody):
    t: Literal["move"]
    color: Color
    p: WirePoint
    captured: list[WirePoint]
    move_number: int
    prisoners: dict[str, int]
    to_move: Color
    ko: WirePoint | None  # the point the side to move may not retake now
    illegal: list[WirePoint]  # the empty points where the side to move may not play now (ko among them)
    clocks: Clocks
    periods_used: int | None = None  # byo-yomi periods this move used up, when any
    sealed: bool | None = None  # true: the sealed move, played as the game resumed
    conditional: bool | None = None  # true: a conditional answer, played at once (docs/protocol.md §3.5)


class PassEvent(GameEventBody):
    t: Literal["pass"]
    color: Color
    move_number: int
    to_move: Color
    illegal: list[WirePoint]
    clocks: Clocks
    periods_used: int | None = None
    sealed: bool | None = None


class PhaseEvent(GameEventBody):
    t: Literal["phase"]
    phase: Literal["playing", "scoring", "adjourned", "finished"]
    sealer: Color | None = None
    by: Color | None = None
    to_move: Color | None = None
    clocks: Clocks
    offers: OffersView | None = None
    dead: list[WirePoint] | None = None
    uncertain: list[WirePoint] | None = None  # scoring: the stones of the chains KataGo's proposal is unsure of
    judge: Literal["katago", "rules"] | None = None  # scoring: whose proposal the marks start from
    accepted: dict[str, bool] | None = None
    score: ScoreView | None = None
    deadline: float | None = None
    sealed: bool | None = None


class DeadStonesEvent(GameEventBody):
    t: Literal["dead_stones"]
    by: Color
    p: WirePoint
    chain: list[WirePoint]
    marked_dead: bool
    dead: list[WirePoint]
    uncertain: list[WirePoint] | None = None
    judge: Literal["katago", "rules"] | None = None
    accepted: dict[str, bool]
    score: ScoreView
    deadline: float | None


class EngineOpinionEvent(GameEventBody):
    """A player asked KataGo (``ask_engine``): the marks are now its proposal, both acceptances cleared."""

    t: Literal["engine_opinion"]
    by: Color
    dead: list[WirePoint]
    uncertain: list[WirePoint]
    judge: Literal["katago", "rules"]
    accepted: dict[str, bool]
    score: ScoreView
    deadline: float | None


class ScoreAcceptedEvent(GameEventBody):
    t: Literal["score_accepted"]
    color: Color
    accepted: dict[str, bool]
    deadline: float | None


class GameOverEvent(GameEventBody):
    t: Literal["game_over"]
    result: ResultView
    clocks: Clocks
    by: Color | None = None  # who resigned, aborted, agreed the draw or claimed the win
    absent: Color | None = None  # who left the game
    abandoned: bool | None = None
    auto_accepted: bool | None = None  # the score, accepted when the scoring phase timed out
    sealed: bool | None = None


class _OfferChange(GameEventBody):
    """An offer made or declined: its kind, by whom, and the offers standing after it. ``t`` is declared here
    so that it stays the first field on the wire."""

    t: str
    kind: OfferKind
    by: Color
    offers: OffersView


class OfferEvent(_OfferChange):
    t: Literal["offer"]


class OfferDeclinedEvent(_OfferChange):
    t: Literal["offer_declined"]


class UndoEvent(GameEventBody):
    t: Literal["undo"]
    color: Color
    p: WirePoint | None
    by: Color
    move_number: int
    board: list[str]
    prisoners: dict[str, int]
    to_move: Color
    ko: WirePoint | None
    illegal: list[WirePoint]
    clocks: Clocks
    offers: OffersView


class SealedEvent(GameEventBody):
    """To the sealer with the point; to everybody else without it."""

    t: Literal["sealed"]
    color: Color
    p: WirePoint | None = None
    clocks: Clocks


class RematchEvent(GameEventBody):
    t: Literal["rematch"]
    game_id: str
    by: Color
    offers: OffersView


class PeriodUsedEvent(GameEventBody):
    t: Literal["period_used"]
    color: Color
    periods_left: int
    clocks: Clocks


class ClockRestartEvent(GameEventBody):
    t: Literal["clock_restart"]
    down_from: float
    clocks: Clocks
    deadline: float | None = None


class VacationEvent(GameEventBody):
    t: Literal["vacation"]
    color: Color
    on: bool
    clocks: Clocks


class ConditionalEvent(GameEventBody):
    """To its owner only (everybody else gets ``hidden``)."""

    t: Literal["conditional"]
    color: Color
    tree: Any


class ChatEvent(GameEventBody):
    t: Literal["chat"]
    channel: Literal["players", "spectators"]
    from_: dict[str, Any] = Field(alias="from")  # {id, name, rank}
    text: str
    at: float


class ChatRemovedEvent(GameEventBody):
    t: Literal["chat_removed"]
    lines: list[int]


class HiddenEvent(GameEventBody):
    """In place of an event this viewer may not see (app/games/visibility.py)."""

    t: Literal["hidden"]


GAME_EVENT_MODELS = (
    MoveEvent,
    PassEvent,
    PhaseEvent,
    DeadStonesEvent,
    EngineOpinionEvent,
    ScoreAcceptedEvent,
    GameOverEvent,
    OfferEvent,
    OfferDeclinedEvent,
    UndoEvent,
    SealedEvent,
    RematchEvent,
    PeriodUsedEvent,
    ClockRestartEvent,
    VacationEvent,
    ConditionalEvent,
    ChatEvent,
    ChatRemovedEvent,
    HiddenEvent,
)
_BY_TYPE: dict[str, type[GameEventBody]] = {get_args(model.model_fields["t"].annotation)[0]: model for model in GAME_EVENT_MODELS}
# each model's validator, called as ``model_validate`` calls it (without its wrapper)
_VALIDATORS = {t: model.__pydantic_validator__.validate_python for t, model in _BY_TYPE.items()}
GameEventMessage = Annotated[Union[GAME_EVENT_MODELS], Field(discriminator="t")]  # type: ignore[valid-type]  # a Union of a tuple of models made at run time
game_event_adapter: TypeAdapter[Any] = TypeAdapter(GameEventMessage)


def build(t: str, fields: dict[str, Any]) -> dict[str, Any]:
    """Event ``t`` with ``fields`` (``from`` for a chat line's author), checked by its model, as the wire
    carries it before its version. A field the model does not declare raises ``pydantic.ValidationError``."""
    return build_from(t, {**fields})


def build_from(t: str, fields: dict[str, Any]) -> dict[str, Any]:
    """:func:`build` for a caller that gives up ``fields`` (the dict is used as the model's input)."""
    fields["t"] = t
    model: GameEventBody = _VALIDATORS[t](fields)
    return model.wire()
