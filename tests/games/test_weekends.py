from datetime import datetime

import pytest

from app.games.weekends import UnknownTimeZone, counted_until, in_weekend, weekend_seconds, zone

DAY = 86400.0


def ts(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


FRIDAY_NOON_UTC = ts("2026-12-04T12:00:00+00:00")


def test_a_weekend_is_saturday_and_sunday_in_the_players_zone():
    assert not in_weekend("UTC", FRIDAY_NOON_UTC)
    assert in_weekend("UTC", ts("2026-12-05T00:00:00+00:00"))
    assert in_weekend("UTC", ts("2026-12-06T23:59:59+00:00"))
    assert not in_weekend("UTC", ts("2026-12-07T00:00:00+00:00"))
    # Saturday has begun in Tokyo (UTC+9) at 15:00 UTC on Friday, not yet in New York.
    assert in_weekend("Asia/Tokyo", ts("2026-12-04T15:00:00+00:00"))
    assert not in_weekend("America/New_York", ts("2026-12-05T04:59:00+00:00"))
    assert in_weekend("America/New_York", ts("2026-12-05T05:00:00+00:00"))


def test_weekend_seconds_between_two_instants():
    assert weekend_seconds("UTC", FRIDAY_NOON_UTC, FRIDAY_NOON_UTC + 4 * DAY) == 2 * DAY
    assert weekend_seconds("UTC", FRIDAY_NOON_UTC, FRIDAY_NOON_UTC + DAY) == 12 * 3600
    assert weekend_seconds("UTC", FRIDAY_NOON_UTC, FRIDAY_NOON_UTC + 17 * DAY) == 6 * DAY  # three weekends
    assert weekend_seconds("UTC", FRIDAY_NOON_UTC + DAY, FRIDAY_NOON_UTC) == 0
    monday = ts("2026-12-07T00:00:00+00:00")
    assert weekend_seconds("UTC", monday, monday + 5 * DAY) == 0


def test_counted_until_skips_weekends():
    # A day of counted time from Friday noon ends on Monday noon.
    assert counted_until("UTC", FRIDAY_NOON_UTC, DAY) == FRIDAY_NOON_UTC + 3 * DAY
    assert counted_until("UTC", FRIDAY_NOON_UTC, 3600) == FRIDAY_NOON_UTC + 3600
    # From inside a weekend, counting starts on Monday.
    saturday = ts("2026-12-05T10:00:00+00:00")
    assert counted_until("UTC", saturday, 60) == ts("2026-12-07T00:01:00+00:00")


def test_a_daylight_saving_weekend_is_as_long_as_it_really_is():
    # Europe/Paris leaves summer time on Sunday 2026-10-25: that weekend lasts 49 hours.
    friday = ts("2026-10-23T12:00:00+02:00")
    assert weekend_seconds("Europe/Paris", friday, friday + 5 * DAY) == 49 * 3600


@pytest.mark.parametrize("name", ["Mars/Olympus", "", "../etc/passwd", "/etc/localtime", 7])
def test_unknown_time_zones_are_refused(name):
    with pytest.raises(UnknownTimeZone):
        zone(name)
