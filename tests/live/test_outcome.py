"""What a room's outcome puts on the wire: the typed models' own form, however it is written."""

from __future__ import annotations

import pytest

from app.live.outcome import Outcome
from app.protocol import Ack, ErrorMessage, encode


@pytest.mark.parametrize(("client_id", "v"), [("m1", 7), (None, 0), ("x" * 64, 123456), ('"quoted" \\ ü', 1)])
def test_an_ack_is_written_as_the_ack_model_writes_it(client_id: str | None, v: int) -> None:
    assert Outcome.ack(client_id, v).encode() == encode(Ack(id=client_id or "", v=v))


def test_a_refusal_is_the_error_model() -> None:
    outcome = Outcome.refused("m2", "illegal_move", "that point is already occupied", "occupied")
    assert outcome.encode() == encode(
        ErrorMessage(id="m2", code="illegal_move", message="that point is already occupied", reason="occupied")
    )
