"""The memory the house bots' bridges hold: one ``tengen bot`` process per bot (how ``tengen serve`` ran them until
2026-12-03) against all of them in one ``tengen house-bots`` process (``app/bots/host.py``), in the same run.

A ``tengen serve`` (SQLite, house bots off) is started; the house bots' accounts and tokens are made as the
server makes them (``app/bots/house.prepare``); then, for each layout in turn, the bridges are started, each
bot's lobby connection awaited (its log says "connected"), and the resident memory (``VmRSS``) of the bridge
processes summed, then they are stopped. No game is played: GNU Go's processes start per game and are the same
in both layouts; the KataGo steps ask the server's KataGo, which neither layout starts.

    .venv/bin/python bench/house_bots_memory.py
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots.house import HOUSE_BOTS, HouseBot, HouseBots, prepare
from app.settings import Settings
from tests.support.bot_processes import BridgeProcess, ServeProcess
from tests.support.services import GNUGO

CONNECT_TIMEOUT = 120.0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def wait_connected(folder: Path, names: list[str]) -> None:
    """Until the log files in ``folder`` say every bot connected."""
    deadline = time.monotonic() + CONNECT_TIMEOUT
    text = ""
    while time.monotonic() < deadline:
        text = "".join(log.read_text(errors="replace") for log in folder.glob("*.log"))
        if all(f" as {name} (" in text for name in names):
            return
        time.sleep(0.5)
    raise SystemExit(f"not every bot connected within {CONNECT_TIMEOUT} s: {text[-3000:]}")


def one_process_each(server: ServeProcess, bots: list[tuple[HouseBot, str]], folder: Path) -> float:
    folder.mkdir()
    bridges = []
    for bot, token in bots:
        # As `tengen serve` started each bot until then: `tengen bot` with the bot's options.
        extra = ["--max-think", str(bot.max_think), "--untimed-limit", str(bot.max_think)]
        extra += ["--fallback-gtp", f"{GNUGO} --mode gtp --level 0"]
        if bot.step is None:
            extra += ["--random-share", str(bot.random_share)]
        bridge = BridgeProcess(server.url, token, folder / f"{bot.name}.log", level=bot.level, extra=extra, katago_step=bot.step)
        bridges.append(bridge.start())
    try:
        wait_connected(folder, [bot.name for bot, _ in bots])
        time.sleep(2.0)
        return sum(rss_mb(bridge.process.pid) for bridge in bridges if bridge.process is not None)
    finally:
        for bridge in bridges:
            bridge.terminate()


def one_host(server: ServeProcess, bots: list[tuple[HouseBot, str]], folder: Path) -> float:
    house = HouseBots(GNUGO, server.url, bots, folder)
    house.start()
    try:
        wait_connected(folder, [seat.name for seat in house.seats])
        time.sleep(2.0)
        assert house.process is not None
        return rss_mb(house.process.pid)
    finally:
        house.stop()


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        server = ServeProcess(root).start()
        try:
            settings = Settings(env="test", data_dir=root)
            bots = asyncio.run(prepare(settings, HOUSE_BOTS))
            before = one_process_each(server, bots, root / "each")
            bots = asyncio.run(prepare(settings, HOUSE_BOTS))  # fresh tokens, as at a server's start
            after = one_host(server, bots, root / "host")
        finally:
            server.stop()
    print(f"house bots: {len(HOUSE_BOTS)}")
    print(f"one process per bot: {before:7.1f} MB RSS")
    print(f"one process for all: {after:7.1f} MB RSS  ratio {after / before:.3f}")


if __name__ == "__main__":
    main()
