import pytest

from app.transport.recent_log import RecentLog


def test_contiguous_bounded_log():
    log = RecentLog(3)
    assert log.replay(0) is None
    assert [log.append(v, bytes([v])) for v in (1, 2, 3, 4)] == [True] * 4
    assert log.replay(1) == [b"\x02", b"\x03", b"\x04"]
    assert log.replay(0) is None
    assert log.append(4, b"dup") is False
    assert log.append(9, b"\x09") is True
    assert log.replay(8) == [b"\x09"] and log.replay(4) is None


def test_size_must_be_positive():
    with pytest.raises(ValueError):
        RecentLog(0)
