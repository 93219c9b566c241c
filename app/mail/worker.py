"""The mail worker, ``tengen mailer``: a process of its own beside the web servers.

Why a process and not a task in the web server: talking to an SMTP server can take up to its timeout per
message, reading events for notices and building digests are batch work, and none of it should share the
event loop or the database pool that live games run on. A separate process can be restarted, scaled or left
out (no mail) without touching the game servers, and several may run at once:

- every pass records notices (each event and recipient once), queues the digests now due (each once), and
  sends what is due in the outbox; once an hour it deletes what is done and a week old;
- a worker claims outbox rows before sending them (``mail.claim``: one UPDATE, ``FOR UPDATE SKIP LOCKED`` on
  PostgreSQL), so two workers never send the same row; a claim lasts longer than an SMTP conversation may;
- a message the SMTP server cannot take (down, timeout, a 4xx answer) is tried again later, waiting twice as
  long each time (1 minute up to 1 hour), until ``TENGEN_MAIL_MAX_ATTEMPTS``; one it refuses for good (5xx,
  e.g. no such mailbox) is given up at once (``failed``, the answer in ``last_error``).

The SMTP conversation runs on a thread (``smtplib`` blocks); the clock is injected so tests move it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.mail import messages, smtp
from app.mail.digest import send_digests
from app.mail.notices import collect_challenges, collect_game_events
from app.mail.service import unsubscribe_token
from app.mail.tokens import MailTokens
from app.settings import Settings
from app.store.models import User
from app.store.repositories import mail as mail_repo

log = logging.getLogger("tengen.mail")
HOUR = 3600.0
FIRST_RETRY = 60.0
LAST_RETRY = 3600.0
CLAIM_BATCH = 20
KEEP = 7 * 86400.0  # sent and failed messages, and notices no longer waiting, are kept this long
PRUNE_EVERY = HOUR


def retry_delay(attempts: int) -> float:
    """Seconds before the next try of a message that failed ``attempts`` times."""
    return min(LAST_RETRY, FIRST_RETRY * 2 ** max(0, attempts - 1))


@dataclass
class PassReport:
    notices: int = 0
    digests: int = 0
    pruned: int = 0
    sent: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


class Mailer:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        settings: Settings,
        clock: Callable[[], float] = time.time,
        send: Callable[[Settings, EmailMessage], None] = smtp.send,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.settings = settings
        self.clock = clock
        self._send = send
        self.tokens = MailTokens(settings.effective_secret_key())
        self.links = messages.Links(settings.mail_site_url)
        self.name = f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease = 2 * settings.mail_smtp_timeout + 60
        self._pruned_at: float | None = None

    def _unsubscribe(self, user: User) -> str:
        return unsubscribe_token(self.tokens, user)

    async def _immediate(self, session: AsyncSession, user: User, notice_id: int, kind: str, payload: dict[str, Any]) -> bool:
        """Queue one notice at once, unless the player's hourly cap is reached (then the digest takes it)."""
        now = self.clock()
        if user.email is None or user.email_key is None:
            return False
        if await mail_repo.count_to_user(session, user.id, now - HOUR) >= self.settings.mail_per_user_hour:
            return False
        link = self._unsubscribe(user)
        text = messages.immediate(user.name, kind, payload, self.links, self.links.unsubscribe_page(link), user.mail_language)
        return await mail_repo.queue(
            session,
            key=f"notice:{notice_id}",
            user_id=user.id,
            to_addr=user.email,
            to_key=user.email_key,
            kind="notice",
            subject=text.subject,
            body=text.body,
            now=now,
            unsubscribe_url=self.links.unsubscribe_post(link),
        )

    async def run_once(self) -> PassReport:
        """One pass: notices, digests, then the outbox."""
        report = PassReport()
        async with self.sessionmaker() as session:
            now = self.clock()
            report.notices += await collect_game_events(session, now, self._immediate)
            report.notices += await collect_challenges(session, now, self._immediate)
            report.digests = await send_digests(session, now, self.settings.mail_digest_hour, self.links, self._unsubscribe)
            if self._pruned_at is None or now - self._pruned_at >= PRUNE_EVERY:
                report.pruned = await mail_repo.prune(session, now - KEEP)
                self._pruned_at = now
        await self.deliver(report)
        return report

    async def deliver(self, report: PassReport) -> None:
        """Send every message due now, in claimed batches."""
        while True:
            async with self.sessionmaker() as session:
                batch = await mail_repo.claim(session, self.name, self.clock(), self.lease, CLAIM_BATCH)
                for message in batch:
                    now = self.clock()
                    try:
                        await asyncio.to_thread(self._send, self.settings, smtp.build(self.settings, message, now))
                    except Exception as exc:  # any failure of the SMTP server means "try later"
                        attempts = message.attempts + 1
                        give_up = attempts >= self.settings.mail_max_attempts or smtp.permanent(exc)
                        error = f"{type(exc).__name__}: {exc}"
                        log.warning("mail %s to %s not sent (attempt %d): %s", message.kind, message.to_addr, attempts, error)
                        await mail_repo.mark_failed(session, message.id, self.name, error, now + retry_delay(attempts), give_up)
                        report.failed += 1
                        report.errors.append(error)
                    else:
                        await mail_repo.mark_sent(session, message.id, self.name, self.clock())
                        report.sent += 1
            if len(batch) < CLAIM_BATCH:
                return

    async def run(self, stop: asyncio.Event) -> None:
        """Passes every ``TENGEN_MAIL_POLL_SECONDS`` until ``stop`` is set; a failed pass is logged and retried."""
        while not stop.is_set():
            try:
                await self.run_once()
            except Exception:  # the database may be away for a while; the next pass tries again
                log.exception("mail pass failed")
            try:
                await asyncio.wait_for(stop.wait(), timeout=self.settings.mail_poll_seconds)
            except TimeoutError:
                pass


def run_mailer(settings: Settings) -> int:
    """``tengen mailer``: run passes until SIGINT or SIGTERM."""
    import signal

    from app.store.db import create_engine, create_sessionmaker

    if not settings.mail_enabled:
        log.error("TENGEN_MAIL_SMTP_HOST is not set: there is nothing to send mail through")
        return 2

    async def main() -> None:
        engine = create_engine(settings.effective_database_url)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        try:
            log.info("mailer started, sending through %s:%d", settings.mail_smtp_host, settings.mail_smtp_port)
            await Mailer(create_sessionmaker(engine), settings).run(stop)
        finally:
            await engine.dispose()

    asyncio.run(main())
    return 0
