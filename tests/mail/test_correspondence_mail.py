"""Email over a correspondence game played across simulated days (the server's clock moved, not the wall
clock): conditional moves, a weekend pause, a vacation that runs out, a loss on time, and a digest each day
saying what is still true. SQLite with the in-process hub, PostgreSQL with Redis."""

from __future__ import annotations

from app.mail.digest import last_digest_moment
from app.mail.worker import Mailer
from tests.support.mail_stack import MailStack, mail_stack, smtp_sink, stack_settings  # noqa: F401 - pytest fixtures, taken by name as test parameters
from tests.support.smtp_sink import body_of

DAY = 86400.0
WEEK = 7 * DAY
A_WEEK_A_MOVE = {"kind": "simple", "per_move": WEEK, "correspondence": True}


async def next_digest(stack: MailStack, mailer: Mailer) -> int:
    """Move the server's clock to the next digest hour and run a pass; how many digests went."""
    await mailer.run_once()
    stack.clock.set(last_digest_moment(stack.clock(), stack.settings.mail_digest_hour) + DAY)
    report = await mailer.run_once()
    assert report.sent == report.digests, report
    return report.digests


async def test_a_correspondence_game_over_days_with_a_digest_each_day(mail_stack: MailStack) -> None:
    assert mail_stack.server is not None
    mail_stack.server.stop()  # again with the vacation sweep frequent enough for a test
    mail_stack.settings = mail_stack.settings.model_copy(update={"vacation_sweep_seconds": 0.2})
    mail_stack.start_server()
    mailer = mail_stack.mailer()
    await mailer.run_once()
    black = await mail_stack.player("Sakata", "black@example.org", mailer)
    white = await mail_stack.player("Fujisawa", "white@example.org", mailer)
    assert (await black.http.put("/api/me/correspondence", json={"weekend_pause": True})).status_code == 200

    challenge = await black.http.post(
        "/api/challenges", json={"board_size": 9, "color": "black", "time_control": A_WEEK_A_MOVE, "opponent": "Fujisawa"}
    )
    assert challenge.status_code == 201, challenge.text
    assert await next_digest(mail_stack, mailer) == 1  # the challenge, to White
    assert "Sakata challenges you to a correspondence game." in body_of(mail_stack.sink.to("white@example.org")[-1])

    accepted = await white.http.post(f"/api/challenges/{challenge.json()['id']}/accept")
    game_id = accepted.json()["game_id"]
    b, w = await black.socket(game_id), await white.socket(game_id)
    await b.of_type("snapshot")
    await w.of_type("snapshot")
    assert (await w.act({"t": "conditional", "tree": [[[2, 2], [6, 6], []]]}))["t"] == "ack"

    # Day 1: Black plays; White's conditional answer comes at once. Only Black has news: it is their turn.
    mail_stack.clock.advance(DAY)
    assert (await b.act({"t": "play", "p": [2, 2]}))["t"] == "ack"
    await b.until(lambda m: m.get("t") == "move" and m.get("color") == "W")
    assert await next_digest(mail_stack, mailer) == 1
    [digest] = mail_stack.sink.to("black@example.org")[1:]
    assert "Fujisawa played move 2: your turn." in body_of(digest) and f"#/game/{game_id}" in body_of(digest)

    # Day 2: Black plays again; White goes on vacation, their digest still says it is their turn.
    assert (await b.act({"t": "play", "p": [4, 4]}))["t"] == "ack"
    started = await white.http.post("/api/me/vacation", json={"on": True})
    assert started.status_code == 200, started.text
    assert await next_digest(mail_stack, mailer) == 1
    assert "Sakata played move 3: your turn." in body_of(mail_stack.sink.to("white@example.org")[-1])

    # The vacation runs out by itself, White never moves and loses on time: both hear of the end.
    mail_stack.clock.set(started.json()["vacation"]["ends_at"] + 1)
    await b.until(lambda m: m.get("t") == "vacation" and m.get("on") is False, timeout=20)
    mail_stack.clock.advance(WEEK + 1)
    over = await b.of_type("game_over", timeout=20)
    assert over["result"]["text"] == "B+T"
    assert await next_digest(mail_stack, mailer) == 2
    for address, opponent in (("black@example.org", "Fujisawa"), ("white@example.org", "Sakata")):
        assert f"Your game against {opponent} ended: B+T." in body_of(mail_stack.sink.to(address)[-1])
    assert await next_digest(mail_stack, mailer) == 0  # nothing new: nothing more
    assert (len(mail_stack.sink.to("black@example.org")), len(mail_stack.sink.to("white@example.org"))) == (3, 4)
    for sock in (b, w):
        await sock.close()
