"""What opened a socket, held by the socket for as long as it is open, and how an open socket is ended.

A socket is let in once (app/api/socket_admission.py) and then acts many times; what it may do is asked at each
of its client's messages from the credential it holds, not copied from the handshake:

- ``Credential``: the session cookie's user and session version, or the API token's id and scopes (or nobody).
  ``allows(scope)``: a session may do all its user may; a token only what its scopes say.
- ``Ending``: why an open socket ends while its client is still there (its user logged out, its token was
  revoked, its user was suspended or banned): the close code and reason, the refusal its messages get from then
  on, and the message the client reads just before the close, so that it learns why.

Who ends sockets: the hub's news, on every instance at once (app/transport/sockets.py for log-outs and revoked tokens,
app/moderation/notices.py for sanctions), and each instance's own re-reading of its sockets' credentials
(app/transport/credential_sweep.py), for the news the hub lost.
"""

from __future__ import annotations

from dataclasses import dataclass

CLOSE_CREDENTIAL_ENDED = 4401  # logged out, or the token revoked: the credential is gone
CLOSE_SANCTIONED = 4403  # suspended or banned: reconnecting, the user may watch, never sit


@dataclass(frozen=True, slots=True)
class Credential:
    """The credential a socket's handshake presented."""

    user_id: int | None = None  # None: a visitor without a session
    session_version: int | None = None  # a session cookie's (app/accounts/cookies.py)
    token_id: int | None = None  # an API token's
    scopes: frozenset[str] | None = None  # a token's; None: not a token, so whatever its user may do

    @property
    def is_token(self) -> bool:
        return self.token_id is not None

    def allows(self, scope: str) -> bool:
        return self.scopes is None or scope in self.scopes


ANONYMOUS = Credential()


@dataclass(frozen=True, slots=True)
class Ending:
    """Why an open socket ends: its close, the refusal of whatever it sends meanwhile, and its last words."""

    close_code: int
    close_reason: str
    code: str  # the error code a message of this socket is refused with once it is ending
    message: str
    last: str | None = None  # the text the client reads just before the close (None: the close says it all)
