"""How an open socket ends when the credential that opened it does, on every instance (app/transport/sockets.py
ends them; app/accounts/credentials.py finds them again for the news the hub lost): a log-out closes it with
4401 and nothing said first, a revoked API token with 4401 after an ``invalid_token`` error."""

from __future__ import annotations

from app.protocol import ErrorMessage, encode
from app.transport.credentials import CLOSE_CREDENTIAL_ENDED, Ending

LOGGED_OUT = Ending(CLOSE_CREDENTIAL_ENDED, "logged out", "not_authenticated", "You logged out: sign in again.")
REVOKED_MESSAGE = "The API token is unknown or revoked."
TOKEN_REVOKED = Ending(
    CLOSE_CREDENTIAL_ENDED,
    "token revoked",
    "invalid_token",
    REVOKED_MESSAGE,
    encode(ErrorMessage(code="invalid_token", message=REVOKED_MESSAGE)).decode(),
)
