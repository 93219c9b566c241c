"""The mail worker end to end: a real server on a fake clock, real game sockets, a real SMTP server reading
what arrives. On SQLite with the in-process hub and on PostgreSQL with Redis."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from app.mail.digest import last_digest_moment
from app.mail.worker import PassReport, retry_delay
from app.store.repositories import mail as mail_repo
from tests.support.mail_stack import CORRESPONDENCE, MailStack, mail_stack, smtp_sink, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.endings import begin
from tests.support.smtp_sink import SmtpSink, body_of

DAY = 86400.0


async def test_immediate_notices_of_moves_challenges_and_the_end_then_one_click_unsubscribe(mail_stack: MailStack) -> None:
    mailer = mail_stack.mailer()
    await mailer.run_once()  # the first pass starts reading events from here
    black = await mail_stack.player("Kitani")
    white = await mail_stack.player("Go-Seigen", "white@example.org", mailer)
    assert (await white.http.put("/api/me/email/preferences", json={"mode": "immediate"})).json()["mode"] == "immediate"

    challenged = await black.http.post(
        "/api/challenges", json={"board_size": 9, "time_control": CORRESPONDENCE, "opponent": "Go-Seigen"}
    )
    assert challenged.status_code == 201, challenged.text
    await black.http.post(
        "/api/challenges",
        json={
            "board_size": 9,
            "opponent": "Go-Seigen",
            "time_control": {"kind": "byoyomi", "main": 60, "periods": 3, "period_time": 10},
        },
    )
    await mailer.run_once()
    [_, challenge_mail] = mail_stack.sink.wait_for("white@example.org", 2)
    assert challenge_mail["Subject"] == "Kitani challenges you"  # the blitz challenge is not mailed
    assert challenged.json()["id"] in body_of(challenge_mail)

    game_id, b, w = await begin(black, white, mail_stack.clock, CORRESPONDENCE)
    assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
    report = await mailer.run_once()
    assert report.sent == 1
    move_mail = mail_stack.sink.wait_for("white@example.org", 3)[-1]
    assert move_mail["Subject"] == "Your turn against Kitani"
    assert f"#/game/{game_id}" in body_of(move_mail) and "move 1" in body_of(move_mail)
    assert move_mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert (await mailer.run_once()).sent == 0  # read again, mailed once
    assert len(mail_stack.sink.to("white@example.org")) == 3
    assert mail_stack.sink.to("black@example.org") == []  # black gave no address

    # One click in the mail program: it POSTs to the List-Unsubscribe address.
    url = urlsplit(move_mail["List-Unsubscribe"].strip("<>"))
    assert (await black.http.post(f"{url.path}?{url.query}")).json() == {"ok": True}
    assert (await white.http.get("/api/me/email")).json()["mode"] == "off"
    assert (await w.act({"t": "play", "p": [6, 6]}))["t"] == "ack"
    assert (await b.act({"t": "play", "p": [2, 6]}))["t"] == "ack"
    assert (await b.act({"t": "resign"}))["t"] == "ack"
    await mailer.run_once()
    assert len(mail_stack.sink.to("white@example.org")) == 3  # nothing after unsubscribing
    await b.close()
    await w.close()


async def test_daily_digest_when_the_server_clock_passes_the_digest_hour(mail_stack: MailStack) -> None:
    mailer = mail_stack.mailer()
    await mailer.run_once()
    black = await mail_stack.player("Shusai", "black@example.org", mailer)
    white = await mail_stack.player("Honinbo", "white@example.org", mailer)
    game_id, b, w = await begin(black, white, mail_stack.clock, CORRESPONDENCE)
    assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
    report = await mailer.run_once()
    assert (report.notices, report.digests, report.sent) == (1, 0, 0)  # digest by default: nothing yet

    mail_stack.clock.advance(DAY)
    report = await mailer.run_once()
    assert (report.digests, report.sent) == (1, 1)
    [_, digest] = mail_stack.sink.to("white@example.org")
    assert digest["Subject"] == "Tengen: 1 notice since yesterday"
    assert "Shusai played move 1: your turn." in body_of(digest) and f"#/game/{game_id}" in body_of(digest)
    assert digest["List-Unsubscribe"].startswith("<https://go.example.org/api/email/unsubscribe?token=")

    # Moves answered before the digest, then the end: the digest tells the end, not the turns gone by.
    assert (await w.act({"t": "play", "p": [6, 6]}))["t"] == "ack"
    assert (await mailer.run_once()).notices == 1
    assert (await b.act({"t": "play", "p": [2, 6]}))["t"] == "ack"
    assert (await mailer.run_once()).notices == 1
    assert (await w.act({"t": "resign"}))["t"] == "ack"
    assert (await mailer.run_once()).notices == 2
    next_digest = last_digest_moment(mail_stack.clock(), 8) + DAY
    mail_stack.clock.set(next_digest - 1)
    assert (await mailer.run_once()).digests == 0  # the next digest hour has not come
    mail_stack.clock.set(next_digest)
    assert (await mailer.run_once()).digests == 2
    for address, opponent in (("white@example.org", "Shusai"), ("black@example.org", "Honinbo")):
        last = mail_stack.sink.to(address)[-1]
        assert last["Subject"] == "Tengen: 1 notice since yesterday"
        assert f"Your game against {opponent} ended: B+R." in body_of(last) and "played move" not in body_of(last)
    mail_stack.clock.advance(DAY)
    assert (await mailer.run_once()) == PassReport()  # nothing new, nothing sent twice
    assert (len(mail_stack.sink.to("white@example.org")), len(mail_stack.sink.to("black@example.org"))) == (3, 2)

    mail_stack.clock.advance(8 * DAY)  # a week later what was sent is forgotten, and nothing comes back
    report = await mailer.run_once()
    assert report.pruned == 10 and report.sent == 0  # 5 messages (2 links, 3 digests) and 5 notices
    assert (await mailer.run_once()).sent == 0
    await b.close()
    await w.close()


async def test_a_move_answered_at_once_by_conditional_moves_is_not_news(mail_stack: MailStack) -> None:
    mailer = mail_stack.mailer()
    await mailer.run_once()
    black = await mail_stack.player("Shuwa", "black@example.org", mailer)
    white = await mail_stack.player("Shuho", "white@example.org", mailer)
    for player in (black, white):
        await player.http.put("/api/me/email/preferences", json={"mode": "immediate"})
    game_id, b, w = await begin(black, white, mail_stack.clock, CORRESPONDENCE)
    assert (await w.act({"t": "conditional", "tree": [[[2, 2], [6, 6], []]]}))["t"] == "ack"
    assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"  # white's answer is played at once
    await b.until(lambda m: m.get("t") == "move" and m.get("p") == [6, 6])
    report = await mailer.run_once()
    assert (report.notices, report.sent) == (1, 1)
    [_, mail] = mail_stack.sink.to("black@example.org")
    assert mail["Subject"] == "Your turn against Shuho" and "move 2" in body_of(mail)
    assert len(mail_stack.sink.to("white@example.org")) == 1  # only the verification link
    await b.close()
    await w.close()


async def test_mail_waits_while_the_smtp_server_is_down_and_goes_once_it_is_up(mail_stack: MailStack) -> None:
    down = SmtpSink()  # a port where nothing listens yet
    mailer = mail_stack.mailer(mail_smtp_port=down.port)
    player = await mail_stack.player("Jowa")
    assert (await player.http.put("/api/me/email", json={"email": "jowa@example.org"})).status_code == 202
    report = await mailer.run_once()
    assert (report.sent, report.failed) == (0, 1)
    mail_stack.clock.advance(retry_delay(1) - 1)
    assert (await mailer.run_once()).failed == 0  # not tried again before its time
    down.start()
    try:
        mail_stack.clock.advance(1)
        assert (await mailer.run_once()).sent == 1
        [message] = down.wait_for("jowa@example.org", 1)
        assert message["Subject"] == "Confirm your email address for Tengen"
        assert (await mailer.run_once()).sent == 0
        assert len(down.to("jowa@example.org")) == 1
    finally:
        down.stop()


async def test_a_mailbox_refused_for_good_is_not_tried_again(mail_stack: MailStack) -> None:
    mailer = mail_stack.mailer()
    mail_stack.sink.refused.add("gone@example.org")
    player = await mail_stack.player("Shuei")
    await player.http.put("/api/me/email", json={"email": "gone@example.org"})
    report = await mailer.run_once()
    assert (report.sent, report.failed) == (0, 1) and "550" in report.errors[0]
    mail_stack.clock.advance(3 * 3600)
    assert (await mailer.run_once()).failed == 0  # given up at once, unlike a server that is down
    async with mailer.sessionmaker() as session:
        [message] = await mail_repo.messages_to(session, "gone@example.org")
    assert (message.state, message.attempts) == ("failed", 1) and "No such mailbox" in (message.last_error or "")


async def test_two_workers_send_every_message_exactly_once(mail_stack: MailStack) -> None:
    first, second = mail_stack.mailer(), mail_stack.mailer()
    now = mail_stack.clock()
    async with first.sessionmaker() as session:
        for i in range(40):
            for _ in range(2):  # the same event queued twice is one message
                await mail_repo.queue(
                    session,
                    key=f"test:{i}",
                    user_id=None,
                    to_addr="many@example.org",
                    to_key="many@example.org",
                    kind="notice",
                    subject=f"message {i}",
                    body="hello",
                    now=now,
                )
        await session.commit()
    reports = [PassReport(), PassReport()]
    await asyncio.gather(first.deliver(reports[0]), second.deliver(reports[1]))
    assert reports[0].sent + reports[1].sent == 40
    subjects = sorted(m["Subject"] for m in mail_stack.sink.to("many@example.org"))
    assert subjects == sorted(f"message {i}" for i in range(40))
    assert len({m["Message-ID"] for m in mail_stack.sink.to("many@example.org")}) == 40


async def test_two_workers_build_one_digest_and_record_each_notice_once(mail_stack: MailStack) -> None:
    first, second = mail_stack.mailer(), mail_stack.mailer()
    await first.run_once()
    black = await mail_stack.player("Jowa", "black@example.org", first)
    white = await mail_stack.player("Inseki", "white@example.org", first)
    game_id, b, w = await begin(black, white, mail_stack.clock, CORRESPONDENCE)
    assert (await b.act({"t": "play", "p": [3, 3]}))["t"] == "ack"
    reports = await asyncio.gather(first.run_once(), second.run_once())
    assert sum(r.notices for r in reports) == 1
    mail_stack.clock.advance(DAY)
    reports = await asyncio.gather(first.run_once(), second.run_once())
    assert (sum(r.digests for r in reports), sum(r.sent for r in reports)) == (1, 1)
    assert len(mail_stack.sink.to("white@example.org")) == 2  # the link, then one digest
    await b.close()
    await w.close()
