"""The text of every message the server mails (plain text, English), and the links in them.

Links lead to the frontend's pages (``#/email/verify/<token>``, ``#/reset/<token>``,
``#/email/unsubscribe/<token>``), which make the request and show the outcome in the reader's language;
the ``List-Unsubscribe`` header names the API itself, which a mail program POSTs to (RFC 8058).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote


@dataclass(frozen=True)
class Message:
    subject: str
    body: str


class Links:
    def __init__(self, site_url: str) -> None:
        self.site = site_url.rstrip("/")

    def verify(self, token: str) -> str:
        return f"{self.site}/#/email/verify/{token}"

    def reset(self, token: str) -> str:
        return f"{self.site}/#/reset/{token}"

    def unsubscribe_page(self, token: str) -> str:
        return f"{self.site}/#/email/unsubscribe/{token}"

    def unsubscribe_post(self, token: str) -> str:
        return f"{self.site}/api/email/unsubscribe?token={quote(token)}"

    def game(self, game_id: str) -> str:
        return f"{self.site}/#/game/{quote(game_id)}"

    def challenge(self, challenge_id: str) -> str:
        return f"{self.site}/#/challenge/{quote(challenge_id)}"

    def settings(self) -> str:
        return f"{self.site}/#/settings"


def verification(name: str, link: str, hours: float) -> Message:
    return Message(
        "Confirm your email address for Tengen",
        f"Hello {name},\n\nTo confirm that this address is yours, open this link within {hours:g} hours:\n\n"
        f"{link}\n\nIf you did not ask for this, ignore this message: nothing changes.\n",
    )


def password_reset(name: str, link: str, minutes: float) -> Message:
    return Message(
        "Reset your Tengen password",
        f"Hello {name},\n\nTo choose a new password, open this link within {minutes:g} minutes:\n\n{link}\n\n"
        "Using it logs you out everywhere else. If you did not ask for this, ignore this message.\n",
    )


def notice_line(kind: str, payload: dict[str, Any], links: Links) -> str:
    """One notice as one line (and its link), the same in an immediate message and in a digest."""
    if kind == "move":
        return (f"{payload.get('opponent', '?')} played move {payload.get('move_number', '?')}: your turn. "
                f"{links.game(payload['game'])}")
    if kind == "end":
        return f"Your game against {payload.get('opponent', '?')} ended: {payload.get('result') or 'over'}. " \
               f"{links.game(payload['game'])}"
    return f"{payload.get('from', '?')} challenges you to a correspondence game. {links.challenge(payload['challenge'])}"


def _subject(kind: str, payload: dict[str, Any]) -> str:
    if kind == "move":
        return f"Your turn against {payload.get('opponent', '?')}"
    if kind == "end":
        return f"Your game against {payload.get('opponent', '?')} ended"
    return f"{payload.get('from', '?')} challenges you"


def _footer(unsubscribe: str, links: Links) -> str:
    return (f"\n--\nChange what Tengen mails you: {links.settings()}\n"
            f"Stop all notices from Tengen with one click: {unsubscribe}\n")


def immediate(name: str, kind: str, payload: dict[str, Any], links: Links, unsubscribe: str) -> Message:
    return Message(_subject(kind, payload),
                   f"Hello {name},\n\n{notice_line(kind, payload, links)}\n" + _footer(unsubscribe, links))


def digest(name: str, notices: list[tuple[str, dict[str, Any]]], links: Links, unsubscribe: str) -> Message:
    lines = "\n".join(f"- {notice_line(kind, payload, links)}" for kind, payload in notices)
    count = len(notices)
    return Message(f"Tengen: {count} notice{'s' if count != 1 else ''} since yesterday",
                   f"Hello {name},\n\nWhat happened in your games:\n\n{lines}\n" + _footer(unsubscribe, links))
