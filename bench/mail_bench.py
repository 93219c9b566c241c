"""The cost of sending mail through the outbox: Tengen's mail worker (claim, build, send on a thread, record)
against bare ``smtplib`` sending the same messages to the same local SMTP server in the same run.

A fresh SQLite (or ``--database`` PostgreSQL) database gets ``--messages`` queued messages; one worker sends
them, then again with two workers side by side (every message once); the floor sends as many with smtplib
alone, one connection each like the worker. Prints messages per second for each, then the ratios last:

    .venv/bin/python bench/mail_bench.py [--messages 300] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import smtplib
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.mail.worker import Mailer, PassReport
from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker
from app.store.migrations import upgrade_to_head
from app.store.repositories import mail as mail_repo
from tests.support.smtp_sink import SmtpSink


async def queue(url: str, count: int, tag: str) -> None:
    engine = create_engine(url)
    try:
        async with create_sessionmaker(engine)() as session:
            for i in range(count):
                await mail_repo.queue(
                    session,
                    key=f"bench:{tag}:{i}",
                    user_id=None,
                    to_addr=f"p{i}@example.org",
                    to_key=f"p{i}@example.org",
                    kind="notice",
                    subject=f"bench {i}",
                    body="Your turn.\n" * 10,
                    now=time.time(),
                )
            await session.commit()
    finally:
        await engine.dispose()


async def deliver(url: str, settings: Settings, workers: int) -> tuple[float, int]:
    engines = [create_engine(url) for _ in range(workers)]
    try:
        mailers = [Mailer(create_sessionmaker(engine), settings) for engine in engines]
        reports = [PassReport() for _ in mailers]
        started = time.perf_counter()
        await asyncio.gather(*(m.deliver(r) for m, r in zip(mailers, reports)))
        return time.perf_counter() - started, sum(r.sent for r in reports)
    finally:
        for engine in engines:
            await engine.dispose()


def floor(port: int, count: int) -> float:
    started = time.perf_counter()
    for i in range(count):
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "bench@example.org", f"p{i}@example.org", f"bench {i}"
        message.set_content("Your turn.\n" * 10)
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
            client.send_message(message)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--database", default="", help="a migrated, empty database URL (default: a new SQLite file)")
    args = parser.parse_args()
    sink = SmtpSink().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            url = args.database or f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
            if not args.database:
                upgrade_to_head(url)
            settings = Settings(
                env="test",
                data_dir=Path(tmp),
                database_url=url,
                secret_key="bench-" + "x1y2z3" * 8,
                mail_smtp_host="127.0.0.1",
                mail_smtp_port=sink.port,
                mail_smtp_security="none",
            )
            asyncio.run(queue(url, args.messages, "one"))
            one_time, one_sent = asyncio.run(deliver(url, settings, 1))
            asyncio.run(queue(url, args.messages, "two"))
            two_time, two_sent = asyncio.run(deliver(url, settings, 2))
            floor_time = floor(sink.port, args.messages)
        assert one_sent == two_sent == args.messages, (one_sent, two_sent)
        assert len(sink.messages) == 3 * args.messages  # nothing sent twice
    finally:
        sink.stop()
    one, two, bare = (args.messages / t for t in (one_time, two_time, floor_time))
    print(f"worker_messages_per_s={one:.0f}")
    print(f"two_workers_messages_per_s={two:.0f}")
    print(f"smtplib_messages_per_s={bare:.0f}")
    print(f"ratio worker/smtplib={one / bare:.4f} two_workers/smtplib={two / bare:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
