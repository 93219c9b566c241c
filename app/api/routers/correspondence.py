"""``/api/me/correspondence`` and ``/api/me/vacation``: a player's correspondence choices and vacation."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import DB, RequiredUser
from app.games.live import vacations
from app.store.repositories import correspondence as repo

router = APIRouter(prefix="/api/me", tags=["correspondence"])


class CorrespondenceChoices(BaseModel):
    model_config = ConfigDict(extra="forbid")

    weekend_pause: bool = False  # weekends (Saturday and Sunday in time_zone) do not count on my clock
    time_zone: str = Field(default="UTC", min_length=1, max_length=64)  # an IANA name, e.g. Europe/Paris


class VacationSwitch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    on: bool


@router.get("/correspondence", summary="My weekend pause, time zone and vacation balance")
async def read(request: Request, user: RequiredUser, db: DB) -> dict:
    return vacations.settings_view(user, await repo.get(db, user.id), request.app.state.rooms.clock())


@router.put("/correspondence", summary="Choose whether weekends count on my clock, and my time zone")
async def update(request: Request, user: RequiredUser, db: DB, body: CorrespondenceChoices) -> dict:
    row = await vacations.update_settings(db, user, body.weekend_pause, body.time_zone)
    return vacations.settings_view(user, row, request.app.state.rooms.clock())


@router.post("/vacation", summary="Start or end my vacation: my correspondence clocks stop or run again")
async def vacation(request: Request, user: RequiredUser, body: VacationSwitch) -> dict:
    state = request.app.state
    return await vacations.set_vacation(state.sessionmaker, state.rooms, user, body.on)
