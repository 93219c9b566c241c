"""The sparring partner's offer through the real interface (a uvicorn server, SQLite and PostgreSQL):
``GET /api/players/Kata-Sparring/handicap`` answers each player with the handicap the partner's reach leaves,
from their rank and the partner's recent results against them; any other player's answer is the ranks' own."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bots.house import KATAGO_BOTS, prepare
from app.settings import Settings
from tests.ratings.finished_games import finished_game
from tests.ratings.rated_play import registered

SPARRING = next(bot for bot in KATAGO_BOTS if bot.name == "Kata-Sparring")


async def offered(player: Any, size: int) -> dict[str, Any]:
    response = await player.http.get(f"/api/players/{SPARRING.name}/handicap", params={"size": size})
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_the_partner_offers_stones_once_its_weakest_is_too_strong_for_the_player(
    live_server: str, settings: Settings, db_sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    ((_, _token),) = await prepare(settings, (SPARRING,))
    partner = (await (await registered(live_server)).http.get(f"/api/players/{SPARRING.name}")).json()["player"]
    weakest = await registered(live_server, "30k")
    try:
        # No games yet: it can play at 30 kyu, so an even game.
        even = await offered(weakest, 19)
        sparring = {"aim": 30.0, "search": False, "results": 0}
        assert even == {"handicap": 0, "komi": None, "you_play_black": None, "sparring": sparring}
        # It won six games in a row against them: they want a weaker game than its weakest, so stones, more on a
        # bigger board (a stone is worth fewer ranks there), and on 9x9 no komi instead.
        for _ in range(6):
            await finished_game(db_sessionmaker, weakest.user["id"], partner["id"], "W+R", size=19, rated=False)
        big, middle, small = await offered(weakest, 19), await offered(weakest, 13), await offered(weakest, 9)
        # Six stones are worth a little more than the gap: it plays that much stronger than its weakest.
        assert big["sparring"]["results"] == 6 and 29.5 < big["sparring"]["aim"] < 30
        assert (big["handicap"], big["komi"], big["you_play_black"]) == (6, 0.5, True)
        assert (middle["handicap"], middle["komi"], middle["you_play_black"]) == (3, 0.5, True)
        assert (small["handicap"], small["komi"], small["you_play_black"]) == (0, 0.5, True)
        # A player it has lost to is given a stronger partner instead, within its reach: no handicap.
        middling = await registered(live_server, "12k")
        for _ in range(2):
            await finished_game(db_sessionmaker, middling.user["id"], partner["id"], "B+R", size=19, rated=False)
        closer = await offered(middling, 19)
        assert closer["handicap"] == 0 and closer["komi"] is None and closer["sparring"]["aim"] < 12
    finally:
        await weakest.close()


async def test_a_player_stronger_than_its_search_gives_stones_and_a_guest_gets_none(live_server: str, settings: Settings) -> None:
    await prepare(settings, (SPARRING,))
    strongest = await registered(live_server, "9d")
    try:
        offer = await offered(strongest, 19)  # 9 dan against its search (5 dan): four stones to the partner
        assert (offer["handicap"], offer["komi"], offer["you_play_black"]) == (4, 0.5, False)
        assert offer["sparring"] == {"aim": None, "search": True, "results": 0}
    finally:
        await strongest.close()
    guest = await registered(live_server)
    try:
        await guest.http.post("/api/auth/logout")
        refused = await guest.http.get(f"/api/players/{SPARRING.name}/handicap", params={"size": 9})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_required"
    finally:
        await guest.close()
