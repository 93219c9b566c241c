"""Moderation's news on the hub's ``moderation`` channel, which every instance acts on at once
(app/moderation/notices.py says what each does):

- ``Sanction`` — the user was suspended or banned, with what their sockets tell them before closing;
- ``BlocksChanged`` — one of the users blocked or unblocked the other.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, StrictInt

from app.transport.hub_messages import HubChannel, HubMessage


class Sanction(HubMessage):
    t: Literal["sanction"] = "sanction"
    user_id: StrictInt
    action: Literal["suspend", "ban"]
    reason: str
    until: str | None  # ISO time with zone (a suspension), None (a ban)


class BlocksChanged(HubMessage):
    t: Literal["blocks"] = "blocks"
    user_ids: list[StrictInt]  # the one who blocked (or unblocked) and the one blocked


ModerationNews = Annotated[Union[Sanction, BlocksChanged], Field(discriminator="t")]
MODERATION: HubChannel[Sanction | BlocksChanged] = HubChannel("moderation", ModerationNews)
