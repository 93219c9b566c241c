"""The server's own bots: KataGo's steps from 25 kyu to its full strength where KataGo is installed, and GNU Go at
several strengths where GNU Go is, started by ``tengen serve`` as child processes.

Each house bot is a bot account with no owner, played by a bridge of its own (``app/bots/bridge.py``, as
``tengen bot`` runs one); all the bridges share one ``tengen house-bots`` process (``app/bots/host.py``), apart
from the web server's (no engine ever runs in its event loop). On every start the server makes sure the
accounts exist, revokes their old tokens, makes a fresh one for each bot (written to the process's standard
input, never on a command line or in the environment) and starts the process; should it die it is started
again; it is stopped with the server.

GNU Go at its lowest level is still far too strong for a newcomer, so the weaker bots play a share of their
moves at random among the legal moves that do not fill one of their own eyes (``--random-share``): half of
them for the beginner, a fifth for the novice. Their starting ranks say so, and their results move them
like anyone's.

The KataGo bots (``KATAGO_BOTS``, from ``app/bots/rank_pick.STEPS``) run no KataGo of their own: each bridge
answers GTP in process (``app/bots/kata_engine.py``) and asks the server's engine service for each move's
evaluation (``POST /api/bots/katago``), so the machine keeps one KataGo whatever the number of bots and games.
Their fallback, when the server's KataGo cannot answer within the move's budget, is GNU Go at level 0 where it
is installed (else the bot passes that move).

Several instances sharing one database: enable house bots on one of them only (``TENGEN_HOUSE_BOTS``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from app.accounts import tokens
from app.accounts.service import name_key
from app.bots.bridge import PARENT_PID_VARIABLE, REFUSED
from app.bots.declaration import BotAccepts
from app.bots.host import Seat
from app.bots.rank_pick import SPARRING, STEPS
from app.engines.layout import Installed, Layout, engines_dir
from app.settings import Settings
from app.store.db import create_engine, create_sessionmaker
from app.store.repositories import tokens as tokens_repo
from app.store.repositories import users

log = logging.getLogger("tengen.house_bots")

RESTART_DELAY = 5.0  # seconds before the house bots' process, should it die, is started again
STOP_GRACE = 6.0  # seconds its bridges together get to stop before it is killed


@dataclass(frozen=True)
class HouseBot:
    name: str
    level: int  # GNU Go's --level (0 to 10)
    random_share: float  # the share of random moves (0: GNU Go's own play)
    strength: str  # the starting rank
    max_games: int
    max_think: float  # seconds a move may take at most: the pace of its level, whatever the clock allows
    step: str | None = None  # a KataGo step (app/bots/rank_pick.py); None: GNU Go at ``level``
    min_move_seconds: float = 1.0  # the least time per move it accepts


GNUGO_BOTS = (
    HouseBot("GnuGo-Beginner", 1, 0.5, "25k", 20, 2.0),
    HouseBot("GnuGo-Novice", 1, 0.2, "20k", 20, 2.0),
    HouseBot("GnuGo-Level5", 5, 0.0, "14k", 10, 4.0),
    HouseBot("GnuGo-Level10", 10, 0.0, "10k", 6, 8.0, min_move_seconds=2.0),
)
# One KataGo evaluation takes about 0.4 s on 9x9 and up to 1.5 s on 19x19 on a 2-core machine: two seconds a move
# at least, five for the search.
KATAGO_BOTS = tuple(
    HouseBot(step.name, 0, 0.0, step.strength, step.max_games, step.max_think, step.name, 5.0 if step.search else 2.0)
    for step in (*STEPS, SPARRING)
)
HOUSE_BOTS = KATAGO_BOTS + GNUGO_BOTS


def find_gnugo(configured: str) -> str | None:
    for candidate in (configured, "gnugo", "/usr/games/gnugo"):
        if candidate:
            found = shutil.which(candidate)
            if found:
                return found
    return None


def accepts_for(bot: HouseBot) -> BotAccepts:
    return BotAccepts(board_sizes=[9, 13, 19], max_games=bot.max_games, min_move_seconds=bot.min_move_seconds)


def katago_installed(settings: Settings) -> bool:
    """Whether the server runs KataGo (its engine service starts it): the KataGo house bots need it."""
    return settings.katago_enabled and Installed.read(Layout.under(engines_dir(settings))) is not None


async def prepare(settings: Settings, bots: tuple[HouseBot, ...] = HOUSE_BOTS) -> list[tuple[HouseBot, str]]:
    """Make sure the house bot accounts exist and declare what they accept; a fresh token for each."""
    engine = create_engine(settings.effective_database_url)
    out = []
    try:
        async with create_sessionmaker(engine)() as session:
            for bot in bots:
                user = await users.get_by_name_key(session, name_key(bot.name))
                accepts = accepts_for(bot).model_dump()
                if user is None:
                    user = await users.add_bot(session, bot.name, name_key(bot.name), None, accepts, strength=bot.strength)
                elif not user.is_bot or user.owner_id is not None:
                    log.warning("the name %s belongs to another account: that house bot is left out", bot.name)
                    continue
                else:
                    await users.set_bot_accepts(session, user.id, accepts)
                await tokens_repo.revoke_all_of(session, user.id)
                token = tokens.PREFIX + tokens.new_secret()
                await tokens_repo.add(
                    session,
                    user_id=user.id,
                    name="house bridge",
                    prefix=token[:10],
                    digest=tokens.digest(token),
                    scopes=["play", "read"],
                )
                out.append((bot, token))
            await session.commit()
    finally:
        await engine.dispose()
    return out


def seat_for(bot: HouseBot, token: str, gnugo: str | None) -> Seat:
    """How the house bot's bridge is set up: a KataGo step, or GNU Go at its level (and its random share)."""
    options: dict[str, object] = {"max_think": bot.max_think, "untimed_limit": bot.max_think}
    engine = ""
    if bot.step is not None:
        # KataGo's steps accept the server's dead stones (KataGo's own proposal where it runs).
        options.update(katago_step=bot.step, scoring="accept")
    else:
        engine = f"{gnugo} --mode gtp --level {bot.level}"
        options["random_share"] = bot.random_share
    if gnugo is not None:
        # Over its budget, GNU Go at its fastest level gives the move.
        options["fallback"] = f"{gnugo} --mode gtp --level 0"
    return Seat(bot.name, token, engine, options)


class HouseBots:
    """The house bots' bridges, all in one ``tengen house-bots`` child process of ``tengen serve``
    (``app/bots/host.py``): one Python process instead of one per bot (14 of about 75 MB each)."""

    def __init__(self, gnugo: str | None, server_url: str, bots: list[tuple[HouseBot, str]], log_dir: Path) -> None:
        self.server_url = server_url
        self.bots = bots
        self.seats = [seat_for(bot, token, gnugo) for bot, token in bots]
        self.log_dir = log_dir
        self.process: subprocess.Popen[bytes] | None = None
        self._stop = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="house-bots", daemon=True)

    def start(self) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._spawn()
        self._watcher.start()
        log.info("house bots started: %s", ", ".join(bot.name for bot, _ in self.bots))

    def _spawn(self) -> None:
        command = [sys.executable, "-m", "app.cli", "house-bots", "--server", self.server_url, "--log-dir", str(self.log_dir)]
        env = {**os.environ, PARENT_PID_VARIABLE: str(os.getpid())}
        with open(self.log_dir / "house-bots.log", "ab") as out:
            process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
        assert process.stdin is not None
        # The tokens through a pipe: never on a command line or in the environment, where `ps` could show them.
        process.stdin.write(json.dumps([seat.to_json() for seat in self.seats]).encode())
        process.stdin.close()
        self.process = process

    def _watch(self) -> None:
        while not self._stop.wait(RESTART_DELAY):
            process = self.process
            if process is None or process.poll() is None or self._stop.is_set():
                continue
            if process.returncode == REFUSED:
                # Every token was refused (another instance started house bots on the same database and
                # replaced them): starting it again cannot help.
                log.error("house bots: the server refused every token; not starting them again (house bots elsewhere?)")
                self.process = None
                continue
            log.warning("the house bots' process exited (%s); starting it again", process.returncode)
            self._spawn()

    def stop(self) -> None:
        self._stop.set()
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
        # Its bridges end their engines and sockets together, in a few seconds.
        try:
            process.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def start_house_bots(settings: Settings, host: str, port: int) -> HouseBots | None:
    """Start the house bots when they are enabled: KataGo's steps where KataGo runs, GNU Go's where it is
    installed (None when neither)."""
    if not settings.house_bots_enabled:
        return None
    gnugo = find_gnugo(settings.gnugo)
    wanted = (KATAGO_BOTS if katago_installed(settings) else ()) + (GNUGO_BOTS if gnugo is not None else ())
    if gnugo is None:
        log.info("GNU Go not found: no GNU Go house bots (install the gnugo package, or set TENGEN_GNUGO)")
    if not wanted:
        log.info("neither KataGo nor GNU Go: no house bots")
        return None
    bots = asyncio.run(prepare(settings, wanted))
    connect_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in connect_host:
        connect_host = f"[{connect_host}]"
    house = HouseBots(gnugo, f"http://{connect_host}:{port}", bots, settings.data_dir / "house-bots")
    house.start()
    return house
