"""Mailed links' tokens: signed per purpose, with an expiry in server time."""

from __future__ import annotations

import pytest

from app.errors import ServiceError
from app.mail.tokens import MailTokens


def test_a_token_reads_back_until_it_expires_and_only_for_its_purpose() -> None:
    tokens = MailTokens("k" * 12 + "secret-for-tests-0123456789")
    token = tokens.make("reset", {"u": 7, "s": 3}, expires_at=1000.0)
    assert tokens.read("reset", token, now=1000.0) == {"u": 7, "s": 3, "x": 1000}
    with pytest.raises(ServiceError) as late:
        tokens.read("reset", token, now=1000.5)
    assert late.value.code == "expired_token"
    for purpose in ("verify", "unsubscribe"):  # a reset link is no verification or unsubscribe link
        with pytest.raises(ServiceError) as wrong:
            tokens.read(purpose, token, now=0.0)
        assert wrong.value.code == "invalid_token"
    other = MailTokens("another-secret-for-tests-0123456789")
    with pytest.raises(ServiceError) as forged:
        other.read("reset", token, now=0.0)
    assert forged.value.code == "invalid_token"
    assert "x" not in tokens.read("unsubscribe", tokens.make("unsubscribe", {"u": 1}, None), now=1e12)
