from __future__ import annotations

from app.accounts.cookies import SessionClaim, SessionSigner


def test_signed_claims_round_trip_and_forgeries_fail() -> None:
    signer = SessionSigner("k1")
    value = signer.sign(SessionClaim(7, 2))
    assert signer.read(value) == SessionClaim(7, 2)
    assert SessionSigner("k2").read(value) is None
    assert signer.read(value[:-1]) is None and signer.read("") is None and signer.read(None) is None
    assert signer.read(SessionSigner("k1")._serializer.dumps({"user": 7})) is None
