"""Every message the server mails (plain text, in the player's language: ``app/mail/texts.py``), and the links
in them.

Links lead to the frontend's pages (``#/email/verify/<token>``, ``#/reset/<token>``,
``#/email/unsubscribe/<token>``), which make the request and show the outcome in the reader's language;
the ``List-Unsubscribe`` header names the API itself, which a mail program POSTs to (RFC 8058).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from app.mail.texts import text


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


def verification(name: str, link: str, hours: float, language: str | None = None) -> Message:
    def t(key: str, **params: object) -> str:
        return text(language, key, **params)

    return Message(
        t("verify_subject"),
        f"{t('greeting', name=name)}\n\n{t('verify_body', hours=f'{hours:g}')}\n\n{link}\n\n{t('verify_ignore')}\n",
    )


def password_reset(name: str, link: str, minutes: float, language: str | None = None) -> Message:
    def t(key: str, **params: object) -> str:
        return text(language, key, **params)

    return Message(
        t("reset_subject"),
        f"{t('greeting', name=name)}\n\n{t('reset_body', minutes=f'{minutes:g}')}\n\n{link}\n\n{t('reset_after')}\n",
    )


def notice_line(kind: str, payload: dict[str, Any], links: Links, language: str | None = None) -> str:
    """One notice as one line (and its link), the same in an immediate message and in a digest."""
    if kind == "move":
        return (
            text(language, "line_move", opponent=payload.get("opponent", "?"), move_number=payload.get("move_number", "?"))
            + f" {links.game(payload['game'])}"
        )
    if kind == "end":
        return (
            text(language, "line_end", opponent=payload.get("opponent", "?"), result=payload.get("result") or "-")
            + f" {links.game(payload['game'])}"
        )
    return text(language, "line_challenge", opponent=payload.get("from", "?")) + f" {links.challenge(payload['challenge'])}"


def _subject(kind: str, payload: dict[str, Any], language: str | None) -> str:
    if kind == "move":
        return text(language, "subject_move", opponent=payload.get("opponent", "?"))
    if kind == "end":
        return text(language, "subject_end", opponent=payload.get("opponent", "?"))
    return text(language, "subject_challenge", opponent=payload.get("from", "?"))


def _footer(unsubscribe: str, links: Links, language: str | None) -> str:
    return (
        f"\n--\n{text(language, 'footer_settings', link=links.settings())}\n"
        f"{text(language, 'footer_unsubscribe', link=unsubscribe)}\n"
    )


def immediate(
    name: str, kind: str, payload: dict[str, Any], links: Links, unsubscribe: str, language: str | None = None
) -> Message:
    return Message(
        _subject(kind, payload, language),
        f"{text(language, 'greeting', name=name)}\n\n{notice_line(kind, payload, links, language)}\n"
        + _footer(unsubscribe, links, language),
    )


def digest(
    name: str, notices: list[tuple[str, dict[str, Any]]], links: Links, unsubscribe: str, language: str | None = None
) -> Message:
    lines = "\n".join(f"- {notice_line(kind, payload, links, language)}" for kind, payload in notices)
    count = len(notices)
    subject = text(language, "digest_subject_one") if count == 1 else text(language, "digest_subject", count=count)
    return Message(
        subject,
        f"{text(language, 'greeting', name=name)}\n\n{text(language, 'digest_intro')}\n\n"
        f"{lines}\n" + _footer(unsubscribe, links, language),
    )
