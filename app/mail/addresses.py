"""Email addresses: the accepted shape and the case-folded key that makes an address unique."""

from __future__ import annotations

import re

from app.errors import ServiceError

MAX_LENGTH = 254
# One @, a local part without spaces or angle brackets, a domain with a dot: what a form should accept.
# Deliverability is what the verification link checks.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_SHAPE = re.compile(rf"^[^\s@<>()\[\],;:\"]{{1,64}}@{_LABEL}(?:\.{_LABEL})+$")


def check_address(address: str) -> str:
    address = address.strip()
    if len(address) > MAX_LENGTH or not _SHAPE.match(address):
        raise ServiceError("invalid_email", "That is not an email address.")
    return address


def address_key(address: str) -> str:
    return address.strip().casefold()
