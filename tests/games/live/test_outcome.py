"""What a room's outcome puts on the wire: the typed models' own form, however it is written."""

from __future__ import annotations

import pytest

from app.games.live.outcome import Outcome
from app.protocol import (
    CHAT_RATE_LIMITED_MESSAGE,
    NOT_A_PLAYER_MESSAGE,
    RATE_LIMITED_MESSAGE,
    Ack,
    ErrorMessage,
    encode,
)


@pytest.mark.parametrize(("client_id", "v"), [("m1", 7), (None, 0), ("x" * 64, 123456), ('"quoted" \\ ü', 1)])
def test_an_ack_is_written_as_the_ack_model_writes_it(client_id: str | None, v: int) -> None:
    assert Outcome.ack(client_id, v).encode() == encode(Ack(id=client_id or "", v=v))


def test_a_refusal_is_the_error_model() -> None:
    outcome = Outcome.refused("m2", "illegal_move", "that point is already occupied", "occupied")
    assert outcome.encode() == encode(
        ErrorMessage(id="m2", code="illegal_move", message="that point is already occupied", reason="occupied")
    )


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("not_a_player", NOT_A_PLAYER_MESSAGE),
        ("chat_rate_limited", CHAT_RATE_LIMITED_MESSAGE),
        ("rate_limited", RATE_LIMITED_MESSAGE),
        ("not_a_player", "another text"),  # not the prebuilt one: the model writes it
    ],
)
@pytest.mark.parametrize("client_id", ["m3", None, "x" * 64, '"quoted" \\ ü \x00'])
def test_the_refusals_a_flood_repeats_are_the_error_model(code: str, message: str, client_id: str | None) -> None:
    outcome = Outcome.refused(client_id, code, message)
    assert outcome.encode() == encode(ErrorMessage(id=client_id, code=code, message=message))
