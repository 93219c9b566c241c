"""Prometheus metrics of one application instance, served at ``/metrics``.

Every app gets its own ``CollectorRegistry`` (``app.state.metrics``), so several apps in one process (tests,
or an embedding server) never clash over metric names. The names are listed in docs/operations.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Receive -> ack of a move on the server: the commit (one database transaction) dominates.
MOVE_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
MOVE_EVENTS = ("move", "pass")
# How late the event loop's 10 ms heartbeat woke up (``app/loop_watch.py``): fine steps around the 25 ms that
# a stall must stay under, then coarse ones.
LOOP_LAG_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5)
# How long automatch seekers waited for their pair: from instant to the widest gap (80 s) and beyond.
WAIT_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0)


class _Phased(Protocol):
    phase: str


class Metrics:
    """The instance's metrics. Increment through the helpers so call sites stay one line."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.connected_sockets = Gauge(
            "tengen_connected_sockets", "Game WebSockets connected to this instance.", registry=self.registry
        )
        self.live_games = Gauge(
            "tengen_live_games",
            "Rooms on this instance whose game is in progress (not finished).",
            registry=self.registry,
        )
        self.moves_applied = Counter(
            "tengen_moves_applied", "Moves and passes committed by this instance.", registry=self.registry
        )
        self.move_latency = Histogram(
            "tengen_move_latency_seconds",
            "Server time from receiving a move to sending its ack.",
            buckets=MOVE_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.loop_lag = Histogram(
            "tengen_event_loop_lag_seconds",
            "How late a heartbeat on the event loop woke up: the loop ran nothing else for that long (a stall).",
            buckets=LOOP_LAG_BUCKETS,
            registry=self.registry,
        )
        self.loop_busy_lag = Histogram(
            "tengen_event_loop_busy_lag_seconds",
            "The heartbeat's lateness, capped at the CPU time the loop's thread used meanwhile: stalls of the "
            "server's own making, without the time it waited for a core.",
            buckets=LOOP_LAG_BUCKETS,
            registry=self.registry,
        )
        self.socket_reads_slowed = Counter(
            "tengen_socket_reads_slowed",
            "Reads of a game socket put off for a while because its messages kept being refused for what they say "
            "(a spectator's moves, chat past the limit, malformed frames): a flood read once a second.",
            registry=self.registry,
        )
        self.catchup_reads = Counter(
            "tengen_room_catchup_reads",
            "Times a room re-read a game's events from the database: another instance committed and the hub "
            "did not carry the events in order (a gap, a hub reset), or a commit failed.",
            registry=self.registry,
        )
        self.automatch_seekers = Gauge(
            "tengen_automatch_seekers",
            "Automatch seeks placed on this instance and still waiting.",
            registry=self.registry,
        )
        self.automatch_pairs = Counter(
            "tengen_automatch_pairs", "Automatch pairs this instance turned into games.", registry=self.registry
        )
        self.automatch_wait = Histogram(
            "tengen_automatch_wait_seconds",
            "How long each player of a pair made here had waited for it.",
            buckets=WAIT_BUCKETS,
            registry=self.registry,
        )
        self.automatch_replaced = Counter(
            "tengen_automatch_replaced",
            "Seeks this instance placed again after they left the pool without a game (Redis lost them, a claimer "
            "died, a pair fell through).",
            registry=self.registry,
        )
        self.errors = Counter(
            "tengen_errors",
            "Errors answered to clients (WebSocket and HTTP), by error code.",
            ["code"],
            registry=self.registry,
        )

    # ---- increments

    def events_committed(self, events: Iterable[dict[str, Any]]) -> None:
        moves = sum(1 for event in events if event.get("t") in MOVE_EVENTS)
        if moves:
            self.moves_applied.inc(moves)

    def error(self, code: str) -> None:
        self.errors.labels(code=code).inc()

    def track_live_games(self, rooms: Callable[[], Iterable[Any]]) -> None:
        """Compute the live-games gauge at scrape time from ``rooms()`` (objects with an ``authority``)."""

        def count() -> float:
            return float(sum(1 for room in rooms() if _in_progress(getattr(room, "authority", None))))

        self.live_games.set_function(count)

    # ---- exposition

    def render(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


def _in_progress(authority: _Phased | None) -> bool:
    return authority is not None and authority.phase != "finished"
