"""Password hashing with argon2id, and the rules a new password must meet."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.errors import ServiceError

# argon2id with the library's memory and time costs (64 MiB, 3 passes) in one lane (parallelism 1): a hash
# then runs on one thread, on one core, instead of four threads over every core of a small host; an attacker's
# cost (memory times time) is the same. Hashes made with other parameters still verify, and are made again at
# the next successful log-in (``needs_rehash``).
_hasher = PasswordHasher(parallelism=1)

MIN_LENGTH = 8
MAX_LENGTH = 1024
_COMMON = frozenset(
    {
        "password",
        "password1",
        "12345678",
        "123456789",
        "1234567890",
        "87654321",
        "qwertyui",
        "qwerty123",
        "11111111",
        "iloveyou",
        "abcdefgh",
        "abcd1234",
        "baduk123",
        "weiqi123",
        "letmein1",
    }
)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


# Verified against when the user does not exist, so a wrong name costs the same time as a wrong password.
_DUMMY_HASH = _hasher.hash("tengen-no-such-user")


def burn_time(password: str) -> None:
    verify_password(_DUMMY_HASH, password)


def check_strength(password: str, username: str) -> None:
    """Raise ``weak_password`` with a reason when the password is too easy to guess."""

    def weak(reason: str) -> ServiceError:
        return ServiceError("weak_password", reason)

    if len(password) < MIN_LENGTH:
        raise weak(f"Password must be at least {MIN_LENGTH} characters long.")
    if len(password) > MAX_LENGTH:
        raise weak(f"Password must be at most {MAX_LENGTH} characters long.")
    if len(set(password)) < 4:
        raise weak("Password must use at least 4 different characters.")
    if password.casefold() in _COMMON:
        raise weak("Password is too common.")
    if username.casefold() in password.casefold():
        raise weak("Password must not contain the username.")
