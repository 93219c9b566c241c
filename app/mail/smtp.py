"""Sending one message through the operator's SMTP server (``smtplib``, blocking: the mail worker calls it on
a thread, with the connection's timeout as its limit)."""

from __future__ import annotations

import hashlib
import smtplib
from email.message import EmailMessage
from email.utils import formatdate, parseaddr

from app.settings import Settings
from app.store.models import MailOutbox


def build(settings: Settings, message: MailOutbox, now: float) -> EmailMessage:
    """The message as sent. Its Message-ID comes from the outbox key, so should a message ever go out a second
    time (a worker dying between the server's answer and recording it), mail programs see the same message."""
    email = EmailMessage()
    email["From"] = settings.mail_from
    email["To"] = message.to_addr
    email["Subject"] = message.subject
    email["Date"] = formatdate(now)
    domain = parseaddr(settings.mail_from)[1].rpartition("@")[2] or "localhost"
    email["Message-ID"] = f"<{hashlib.sha256(message.key.encode()).hexdigest()[:32]}@{domain}>"
    if message.unsubscribe_url:
        email["List-Unsubscribe"] = f"<{message.unsubscribe_url}>"
        email["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    email.set_content(message.body)
    return email


def send(settings: Settings, email: EmailMessage) -> None:
    """Deliver to the SMTP server; raises ``OSError`` or ``smtplib.SMTPException`` when it cannot."""
    host, port, timeout = settings.mail_smtp_host, settings.mail_smtp_port, settings.mail_smtp_timeout
    client: smtplib.SMTP = (
        smtplib.SMTP_SSL(host, port, timeout=timeout)
        if settings.mail_smtp_security == "tls"
        else smtplib.SMTP(host, port, timeout=timeout)
    )
    with client:
        if settings.mail_smtp_security == "starttls":
            client.starttls()
        if settings.mail_smtp_user:
            client.login(settings.mail_smtp_user, settings.mail_smtp_password)
        client.send_message(email)


def permanent(exc: BaseException) -> bool:
    """Whether the SMTP server refused for good (a 5xx answer: no such mailbox, refused sender): trying again
    would be refused again. Anything else (down, timeout, 4xx "try later") is worth another try."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return bool(exc.recipients) and all(500 <= code < 600 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return 500 <= exc.smtp_code < 600
    return False
