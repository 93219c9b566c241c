"""The digest moment: the latest TENGEN_MAIL_DIGEST_HOUR (UTC) at or before the mail clock."""

from __future__ import annotations

from datetime import UTC, datetime

from app.mail.digest import last_digest_moment


def _at(stamp: str) -> float:
    return datetime.fromisoformat(stamp).replace(tzinfo=UTC).timestamp()


def test_the_moment_is_today_after_the_hour_and_yesterday_before_it() -> None:
    assert last_digest_moment(_at("2026-12-01T09:30:00"), 8) == _at("2026-12-01T08:00:00")
    assert last_digest_moment(_at("2026-12-01T08:00:00"), 8) == _at("2026-12-01T08:00:00")
    assert last_digest_moment(_at("2026-12-01T07:59:59"), 8) == _at("2026-11-30T08:00:00")
    assert last_digest_moment(_at("2026-12-01T00:00:00"), 0) == _at("2026-12-01T00:00:00")
