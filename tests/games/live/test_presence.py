import pytest

from app.games.live.presence import ROLES, Presence, role_of, tally
from app.transport.hub import check_role


def test_tally_counts_players_and_distinct_spectators():
    entries: list[tuple[str, int | str | None]] = [
        ("B", 1),
        ("B", 1),
        ("spectator", 5),
        ("spectator", "5"),
        ("spectator", None),
        ("spectator", None),
    ]
    assert tally(entries) == Presence({"B": True, "W": False}, 3)
    assert tally([]) == Presence()


def test_every_role_a_game_gives_is_one_the_hub_keeps():
    assert [role_of(seat) for seat in ("B", "W", None)] == list(ROLES)
    for role in ROLES:
        check_role(role)
    with pytest.raises(ValueError):
        check_role("")
