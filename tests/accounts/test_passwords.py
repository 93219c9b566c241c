from __future__ import annotations

import pytest

from app.accounts.passwords import check_strength, hash_password, verify_password
from app.errors import ServiceError


def test_argon2id_hash_and_verify() -> None:
    hashed = hash_password("Correct horse 9")
    assert hashed.startswith("$argon2id$") and "Correct horse 9" not in hashed
    assert verify_password(hashed, "Correct horse 9")
    assert not verify_password(hashed, "correct horse 9")
    assert not verify_password("not a hash", "x")


@pytest.mark.parametrize("password", ["short1", "aaaabbbb", "Password", "my-name-Sai-123"])
def test_weak_passwords(password: str) -> None:
    with pytest.raises(ServiceError) as raised:
        check_strength(password, "sai")
    assert raised.value.code == "weak_password"
