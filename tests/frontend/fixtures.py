"""Answers for the browser tests: REST bodies and WebSocket peers that follow the protocol draft.

They run inside playwright's request and WebSocket routing, so the frontend talks to them exactly as it
would to the server, and the tests can inspect what it sent.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Callable

from tests.frontend.schema import check_server_message

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route, WebSocketRoute

ME = {"id": 7, "name": "Guest-7f3a", "guest": True, "rank": None}

SAMPLE_ROWS = [
    "...................",
    "...................",
    "...................",
    "...X...........O...",
    "...................",
    "...................",
    "...................",
    "...................",
    "...................",
    ".........X.........",
    "...................",
    "...................",
    "...................",
    "...................",
    "..O................",
    "...X...........O...",
    "...................",
    "...................",
    "...................",
]

CHALLENGES = [
    {
        "id": "c1",
        "creator": {"id": 3, "name": "lee_sedol_fan"},
        "size": 19,
        "rules": "chinese",
        "komi": 7.5,
        "handicap": 0,
        "color": "nigiri",
        "time_control": {"kind": "byoyomi", "main": 600, "periods": 5, "period_time": 30},
        "rated": True,
        "private": False,
    },
    {
        "id": "c2",
        "creator": {"id": 4, "name": "Nguyễn Văn An"},
        "size": 9,
        "rules": "japanese",
        "komi": 6.5,
        "handicap": 0,
        "color": "white",
        "time_control": {"kind": "fischer", "main": 300, "increment": 10, "cap": 600},
        "rated": False,
        "private": False,
    },
]

LIVE_GAMES = [
    {
        "id": "g-live",
        "players": {"B": {"id": 7, "name": "Guest-7f3a"}, "W": {"id": 5, "name": "柯洁迷"}},
        "size": 19,
        "rules": "chinese",
        "komi": 7.5,
        "move_number": 4,
        "spectators": 5,
        "time_control": {"kind": "byoyomi", "main": 600, "periods": 3, "period_time": 30},
        "rated": True,
    },
    {
        "id": "g-2",
        "players": {"B": {"id": 8, "name": "María"}, "W": {"id": 9, "name": "Shusaku"}},
        "size": 13,
        "rules": "japanese",
        "komi": 6.5,
        "move_number": 81,
        "spectators": 2,
        "time_control": {"kind": "chinese_countdown", "main": 1200, "periods": 3, "period_time": 60},
        "rated": False,
    },
]

FINISHED = [
    {
        "id": "g-old",
        "players": {"B": {"id": 7, "name": "Guest-7f3a"}, "W": {"id": 5, "name": "Honinbo"}},
        "size": 9,
        "rules": "chinese",
        "komi": 7.5,
        "result": {"winner": "W", "reason": "score", "margin": 3.5, "text": "W+3.5"},
        "time_control": {"kind": "none"},
        "rated": False,
    },
]

CLOCKS = {
    "B": {"main": 431.5, "periods": 3, "period_time": 30, "period_left": 30, "stones": None, "running": True},
    "W": {"main": 0, "periods": 3, "period_time": 30, "period_left": 12, "stones": None, "running": False},
}

SNAPSHOT: dict[str, Any] = {
    "t": "snapshot",
    "v": 6,
    "resync": False,
    "you": {"role": "black", "user": ME},
    "game": {
        "id": "g-live",
        "size": 19,
        "rules": {"name": "chinese", "komi": 7.5},
        "handicap": 0,
        "players": {"B": {"id": 7, "name": "Guest-7f3a"}, "W": {"id": 5, "name": "柯洁迷"}},
        "board": [
            "...................",
            "...................",
            "...................",
            "...X...........O...",
            *["..................."] * 11,
            "...X...........O...",
            "...................",
            "...................",
            "...................",
        ],
        "moves": [
            {"color": "B", "p": [15, 15], "captured": []},
            {"color": "W", "p": [3, 15], "captured": []},
            {"color": "B", "p": [15, 3], "captured": []},
            {"color": "W", "p": [3, 3], "captured": []},
        ],
        "prisoners": {"B": 0, "W": 0},
        "to_move": "B",
        "phase": "playing",
        "presence": {"B": True, "W": True},
        "spectators": 5,
        "offers": {"undo": None, "draw": None, "adjourn": None, "resume": None, "rematch": None},
        "clocks": CLOCKS,
        "time_control": {"kind": "byoyomi", "main": 600, "periods": 3, "period_time": 30},
        "result": None,
        "chat": [{"channel": "players", "from": {"id": 5, "name": "柯洁迷"}, "text": "gl hf", "at": 1732900000}],
        # the rest of GAME (app/protocol.py, GameView; tests/test_protocol.py checks this fixture against it)
        "handicap_points": [],
        "move_number": 4,
        "ko": None,
        "illegal": [],
        "scoring": None,
        "sealed": None,
        "rematch": None,
        "deadline": None,
        "server_time": 1732900000.0,
        "chat_more": False,
        "rated": False,
        "practice": False,
    },
}
# Board rows from the moves above (x = column, y = row): B Q4, W D4, B Q16, W D16.
SNAPSHOT["game"]["board"] = [
    "..................."
    if y not in (3, 15)
    else "".join({(15, 15): "X", (3, 15): "O", (15, 3): "X", (3, 3): "O"}.get((x, y), ".") for x in range(19))
    for y in range(19)
]


def _json(route: Route, body: Any, status: int = 200) -> None:
    route.fulfill(status=status, content_type="application/json", body=json.dumps(body))


def serve_api(page: Page) -> list[dict]:
    """Answer /api/* like the backend would; returns the list of challenge specs POSTed."""
    created: list[dict] = []

    def handle(route: Route) -> None:
        req = route.request
        path = req.url.split("/api/", 1)[1]
        if path == "me":
            _json(route, ME)
        elif path == "challenges" and req.method == "GET":
            _json(route, CHALLENGES)
        elif path == "challenges" and req.method == "POST":
            spec = json.loads(req.post_data or "{}")
            created.append(spec)
            _json(route, {"id": f"c-new-{len(created)}", "creator": ME, **spec}, 201)
        elif path == "games/live":
            _json(route, LIVE_GAMES)
        elif path == "me/games/active":
            _json(route, {"games": [LIVE_GAMES[0]]})
        elif path == "me/games/history":
            _json(route, {"games": FINISHED})
        else:
            _json(route, {"error": {"code": "not_found", "message": "no such thing"}}, 404)

    page.route("**/api/**", handle)
    return created


class _Peer:
    """The server end of the frontend's WebSocket(s) for one route."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.sockets: list[WebSocketRoute] = []
        self.urls: list[str] = []
        self.received: list[dict] = []

    @property
    def ws(self) -> WebSocketRoute:
        return self.sockets[-1]

    def push(self, msg: dict) -> None:
        if "v" in msg and hasattr(self, "v"):
            self.v = msg["v"]
        self.ws.send(json.dumps(msg))

    def wait_for(self, predicate: Callable[[dict], bool], timeout: float = 5.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in self.received:
                if predicate(m):
                    return m
            self.page.wait_for_timeout(30)
        raise AssertionError(f"no matching message; received {self.received}")

    def wait_for_connection(self, count: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.sockets) >= count:
                return
            self.page.wait_for_timeout(30)
        raise AssertionError(f"only {len(self.sockets)} connection(s)")


def serve_lobby_socket(page: Page) -> _Peer:
    peer = _Peer(page)

    def on_socket(ws: WebSocketRoute) -> None:
        peer.sockets.append(ws)
        peer.urls.append(ws.url)

    page.route_web_socket("**/ws/lobby", on_socket)
    return peer


class GamePeer(_Peer):
    def __init__(self, page: Page, role: str) -> None:
        super().__init__(page)
        self.role = role
        self.v = SNAPSHOT["v"]

    def push(self, msg: dict) -> None:
        """Send a message as the server would; one the server could not send fails the test here."""
        check_server_message(msg)
        super().push(msg)

    def drop(self) -> None:
        self.ws.close(code=1012, reason="restart")


ROLES = ("black", "white", "spectator")


def snapshot_for(role: str, v: int) -> dict[str, Any]:
    """The snapshot the fake room sends a ``role`` on connecting at version ``v``."""
    snap = json.loads(json.dumps(SNAPSHOT))
    snap["you"]["role"] = role
    snap["v"] = v
    if role == "spectator":
        snap["you"]["user"] = {"id": 99, "name": "Guest-0a0a"}
    return snap


def answer(msg: dict[str, Any]) -> dict[str, Any]:
    """The fake room's answer to a client message: ``pong`` to a ``ping``, else ``ack``."""
    if msg.get("t") == "ping":
        return {"t": "pong", "id": msg["id"], "server_time": time.time()}
    return {"t": "ack", "id": msg.get("id")}


def game_socket_messages() -> list[dict[str, Any]]:
    """Every message the fake game room can send (tests/frontend/test_fixtures_schema.py checks them against
    docs/protocol.schema.json)."""
    return [snapshot_for(role, SNAPSHOT["v"]) for role in ROLES] + [
        answer({"t": "ping", "id": "p1"}),
        answer({"t": "play", "id": "a1", "p": [3, 3]}),
    ]


def serve_game_socket(page: Page, role: str = "black") -> GamePeer:
    """A game room: sends the snapshot on connect, acks actions, answers pings."""
    peer = GamePeer(page, role)

    def on_socket(ws: WebSocketRoute) -> None:
        peer.sockets.append(ws)
        peer.urls.append(ws.url)

        def on_message(text: str | bytes) -> None:
            msg = json.loads(text)
            peer.received.append(msg)
            ws.send(json.dumps(answer(msg)))

        ws.on_message(on_message)
        if "?v=" not in ws.url:
            ws.send(json.dumps(snapshot_for(role, peer.v)))

    page.route_web_socket("**/ws/games/*", on_socket)
    return peer
