import pytest

from app.transport.presence import Presence, check_role, tally


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


def test_roles():
    for role in ("B", "W", "spectator"):
        check_role(role)
    with pytest.raises(ValueError):
        check_role("white")
