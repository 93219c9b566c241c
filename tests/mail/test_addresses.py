"""What an email address may look like, and the key that makes it unique."""

from __future__ import annotations

import pytest

from app.errors import ServiceError
from app.mail.addresses import address_key, check_address


@pytest.mark.parametrize("address", ["a@example.org", "first.last+go@mail.example.co.jp", " x_y@b-c.io "])
def test_addresses_a_form_should_accept(address: str) -> None:
    assert check_address(address) == address.strip()


@pytest.mark.parametrize(
    "address",
    [
        "",
        "plain",
        "a@b",
        "a b@example.org",
        "a@@example.org",
        "<a@example.org>",
        "a@-example.org",
        "a@example..org",
        "x" * 65 + "@example.org",
    ],
)
def test_addresses_refused(address: str) -> None:
    with pytest.raises(ServiceError) as refused:
        check_address(address)
    assert refused.value.code == "invalid_email"


def test_the_key_ignores_case_and_spaces() -> None:
    assert address_key(" Go@Example.ORG ") == address_key("go@example.org") == "go@example.org"
