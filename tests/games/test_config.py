import pytest

from app.games.config import GameConfig, parse_config
from app.games.errors import GameError

CORRESPONDENCE = {"kind": "simple", "per_move": 86400, "correspondence": True}


def test_defaults_and_round_trip():
    cfg = parse_config(None)
    assert cfg.size == 19 and cfg.rules.name == "chinese" and not cfg.time_control.timed
    assert cfg.scoring_timeout == 300.0 and cfg.abandon_grace == 60.0
    full = parse_config(
        {
            "size": 13,
            "rules": {"preset": "japanese", "komi": 0.5},
            "handicap": 3,
            "time_control": {"kind": "chinese_countdown", "main": 600, "periods": 3},
            "lag": {"initial": 0.25},
            "scoring_timeout": 90,
            "abandon_grace": 30,
        }
    )
    assert full.rules.name == "japanese" and full.rules.komi == 0.5
    assert len(full.handicap_points) == 3 and full.lag.initial == 0.25
    assert GameConfig.from_dict(full.to_dict()) == full


@pytest.mark.parametrize(
    "data, code, fragment",
    [
        ({"size": 1}, "invalid_config", "'size'"),
        ({"size": "19"}, "invalid_config", "'size'"),
        ({"rules": "klingon"}, "invalid_config", "unknown rules preset"),
        ({"rules": {"komi": 0.3}}, "invalid_config", "multiple of 0.5"),
        ({"handicap": 1}, "invalid_config", "'handicap'"),
        ({"handicap": 2, "handicap_points": [[3, 3]]}, "invalid_config", "does not match"),
        ({"scoring_timeout": 0}, "invalid_config", "'scoring_timeout'"),
        ({"lag": {"speed": 1}}, "invalid_config", "lag"),
        ({"colour": "B"}, "invalid_config", "unknown game setting"),
        ({"time_control": {"kind": "sundial"}}, "invalid_time_control", "unknown time control kind"),
        ({"weekends": {"B": "UTC"}}, "invalid_config", "correspondence games only"),
        ({"away": ["W"]}, "invalid_config", "correspondence games only"),
        ({"time_control": CORRESPONDENCE, "weekends": {"B": "Mars/Olympus"}}, "invalid_config", "time zone"),
        ({"time_control": CORRESPONDENCE, "weekends": {"X": "UTC"}}, "invalid_config", "colour"),
        ({"time_control": CORRESPONDENCE, "away": ["X"]}, "invalid_config", "colours"),
    ],
)
def test_bad_configs_are_refused(data, code, fragment):
    with pytest.raises(GameError) as info:
        parse_config(data)
    assert info.value.code == code and fragment in info.value.message


def test_a_correspondence_game_keeps_each_players_weekends_and_vacation():
    cfg = parse_config({"time_control": CORRESPONDENCE, "weekends": {"W": "Asia/Tokyo", "B": None}, "away": ["B"]})
    assert cfg.weekend_zones() == {"B": None, "W": "Asia/Tokyo"} and cfg.away == ("B",)
    assert cfg.to_dict()["weekends"] == {"W": "Asia/Tokyo"} and cfg.to_dict()["away"] == ["B"]
    assert GameConfig.from_dict(cfg.to_dict()) == cfg
    assert "weekends" not in parse_config({"time_control": CORRESPONDENCE}).to_dict()
