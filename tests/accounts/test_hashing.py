"""The password pool: hashes in a worker process (a worker that dies takes only its own checks with it), one
lane per hash, and older hashes still verified and made again."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from app.accounts import passwords
from app.accounts.hashing import PasswordPool
from app.errors import ServiceError
from tests.support.gated_hash import dying_verify


async def test_a_dead_hashing_worker_refuses_its_check_busy_and_a_new_one_serves_the_next() -> None:
    pool = PasswordPool(1, 4, verify=dying_verify)  # in this process, the check would end the test run
    checker = PasswordPool(1, 4)
    try:
        with pytest.raises(ServiceError) as refused:
            await pool.verify("$argon2id$anything", "a password")
        assert refused.value.code == "busy" and refused.value.status == 503
        hashed = await pool.hash("a password")
        assert hashed.startswith("$argon2id$") and ",p=1$" in hashed  # one lane: one thread, one core
        assert await checker.verify(hashed, "a password")
    finally:
        pool.close()
        checker.close()


def test_a_hash_made_with_four_lanes_still_verifies_and_is_made_again() -> None:
    older = PasswordHasher(parallelism=4).hash("Correct horse 9")
    assert passwords.verify_password(older, "Correct horse 9")
    assert passwords.needs_rehash(older)
    assert not passwords.needs_rehash(passwords.hash_password("Correct horse 9"))
