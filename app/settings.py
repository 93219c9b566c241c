"""Runtime settings, read from the environment with the ``TENGEN_`` prefix."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Annotated, ClassVar, Literal, Self

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent
MIN_SECRET_LENGTH = 32
LOOPBACK_NETWORKS = ("127.0.0.0/8", "::1/128")


def strong_secret(secret: str) -> bool:
    """Long, and not one character (or a short pattern) repeated: a secret an attacker cannot guess."""
    return len(secret) >= MIN_SECRET_LENGTH and len(set(secret)) >= 12


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TENGEN_", env_file=None, extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    data_dir: Path = REPO_ROOT / "data"
    database_url: str = ""  # empty: a SQLite file in data_dir
    db_pool_size: int = 20  # PostgreSQL connections kept open per instance
    db_max_overflow: int = 20  # extra connections opened under bursts, closed when returned
    # Seconds a request waits for a pooled connection; past it, 503 "unavailable" with Retry-After.
    db_pool_timeout: Annotated[float, Field(gt=0)] = 5.0
    # Connections of a pool of their own (no overflow) for guest starts, log-ins and registrations: a flood of
    # strangers at the door waits for these and cannot take the connections players' requests need.
    db_entry_pool_size: Annotated[int, Field(ge=1)] = 4
    redis_url: str = ""  # empty: the in-process hub
    redis_prefix: str = "tengen:"  # every Redis key this deployment uses starts with it
    secret_key: str = ""  # empty: generated once and kept in data_dir (not allowed in production)
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "info"
    # Seconds an idle HTTP keep-alive connection stays open. Longer than a proxy's own idle timeout for its
    # upstream connections (nginx: 60 s), so that the proxy, never the app, closes them: otherwise a request
    # sent just as the app closes the connection fails ("upstream prematurely closed connection").
    keep_alive: int = 75
    # Seconds a stop (SIGTERM) waits for requests still in progress (a slow upload, a hint being computed)
    # before cancelling them; open sockets are closed at once with 1012 (docs/operations.md, "Stopping").
    shutdown_grace_seconds: Annotated[float, Field(ge=0)] = 3.0
    # "json" (one object a line) or "text". None: json when TENGEN_ENV=production, text otherwise.
    log_format: Literal["json", "text"] | None = None
    frontend_dir: Path = REPO_ROOT / "frontend"
    # Extra origins (e.g. "https://go.example.org") allowed to make state-changing requests; the site's own
    # origin, as seen in the Host header, is always allowed.
    allowed_origins: list[str] = []
    # Send the session cookie only over HTTPS. None: only when TENGEN_ENV=production.
    cookie_secure: bool | None = None
    # Glicko-2's tau: how fast a player's volatility may change (see docs/ratings.md).
    rating_tau: float = 0.5
    # Seconds between sweeps for finished games whose rating update was not made (each instance sweeps).
    rating_sweep_seconds: float = 30.0

    # ---- exposure and client addresses (docs/operations.md, "Limits")
    # Proxies (addresses or networks, e.g. "10.0.0.0/8") whose X-Forwarded-For / X-Forwarded-Proto are believed.
    # Empty: the client address is the socket's peer, and forwarded headers are ignored.
    trusted_proxies: list[str] = []
    # Networks whose clients may read /metrics (others get 404). None: loopback, unless TENGEN_ENV=production,
    # where nobody may until the operator names networks or a token. Empty: no network may.
    metrics_networks: list[str] | None = None
    # A bearer token that may read /metrics from any address (``Authorization: Bearer ...``). Empty: none.
    metrics_token: str = ""
    # Serve the OpenAPI pages (/docs, /redoc, /openapi.json). None: yes unless TENGEN_ENV=production.
    api_docs: bool | None = None

    # ---- sizes
    max_body_bytes: int = 64 * 1024  # HTTP request bodies (with or without Content-Length): 413 beyond
    # WebSocket messages, at the server: close 1009 beyond (never below the protocol's largest frame, 26048 bytes)
    ws_max_message_bytes: int = 32 * 1024

    # ---- passwords and log-in
    password_hash_workers: int = 1  # argon2 hashes computed at once, each in a worker process at nice +10
    password_hash_queue: int = 32  # hashes waiting for a worker or its turn; beyond, 503 "busy"
    # Share of one core a hashing worker uses on average (0 < share <= 1): after a hash of d CPU seconds, its next
    # starts d / share after that one started. 0.25: 75 checks a minute per worker (app/accounts/hashing.py).
    password_hash_share: Annotated[float, Field(gt=0, le=1)] = 0.25
    login_limit_account: int = 10  # password checks per account per login window
    login_limit_address: int = 30  # password checks (log-ins and registrations) per client address per window
    login_limit_window: int = 600  # seconds
    login_limit_global: int = 300  # password checks per minute, all clients together

    # ---- sockets and messages
    sockets_per_user: int = 20  # game and lobby sockets of one user (on every instance sharing Redis)
    sockets_per_address: int = 100  # game and lobby sockets of one client address, likewise (0: no cap)
    socket_slot_seconds: float = 30.0  # a killed instance's sockets stop counting against the caps after this
    # How often each instance reads its open sockets' credentials again (a revoked token, a log-out, a sanction
    # whose news it missed); an action waits for a reading when the last good one is three of these old.
    credential_check_seconds: Annotated[float, Field(gt=0)] = 10.0
    chat_lines: int = 4  # chat lines per user per chat window, across sockets and instances
    chat_window: int = 10  # seconds
    lobby_messages_per_second: float = 2.0  # lobby socket messages (pings), burst of 10
    # A guest, or an account registered less than new_account_hours ago, chats this much per chat window.
    new_account_chat_lines: int = 2
    new_account_hours: float = 72.0

    # ---- moderation and fair play (docs/moderation.md)
    escape_window: int = 50  # the last finished games an escape share is measured over
    escape_min_games: int = 10  # fewer finished games: no share is held against anyone
    escape_threshold: float = 0.2  # escapes / games above this: unrated games only, until it falls again
    max_open_reports: int = 20  # reports of one user still waiting for a moderator
    max_blocks: int = 500  # users one user may block

    # ---- analysis boards (app/study, docs/study.md)
    study_max_body_bytes: int = 1024 * 1024  # request bodies under /api/study/ (a tree of 10,000 nodes as JSON)
    study_max_sgf_bytes: int = 256 * 1024  # an uploaded SGF record
    study_workers: int = 2  # worker processes for positions, estimates and SGF (off the event loop)
    study_queue: int = 32  # jobs waiting for those workers at once; beyond, 503 "busy"
    study_requests: int = 600  # positions, imports and exports per user (or address) per minute
    study_estimates: int = 30  # score estimates per user per minute
    game_estimates: int = 10  # score estimates of stored games (POST /api/games/{id}/estimate) per user per minute
    hint_engine: str = ""  # the hint engine's GTP command line; empty: GNU Go (TENGEN_GNUGO or found) at level 8
    hint_engines: int = 2  # hint engines running at once on an instance; beyond, 503 "busy"
    hint_seconds: float = 20.0  # time limit of one hint request, engine start included
    hints_per_window: int = 10  # hint requests per user per hint window
    hint_window: int = 600  # seconds

    # ---- automatch
    automatch_bot_after: float = 60.0  # seconds of searching before a connected house bot is offered

    # ---- what one user may create
    max_open_challenges: int = 10
    max_practice_games: int = 3  # unfinished practice games per user
    max_untimed_games: int = 10  # unfinished games without a clock per user (practice included)
    review_max_participants: int = 50  # people in one review room at once, across instances
    review_max_nodes: int = 2000  # nodes in one review's game tree
    review_max_per_day: int = 30  # reviews one user may make in 24 hours
    untimed_abandon_days: float = 14.0  # an untimed game with no action for this long ends (void)
    guests_per_address: int = 300  # new guests one client address may start per hour, across instances (0: no cap)
    guest_ttl_hours: float = 24.0  # a guest with no game, challenge or chat line is deleted after this
    housekeeping_seconds: float = 600.0  # how often unused guests and abandoned untimed games are looked for
    vacation_sweep_seconds: float = 60.0  # how often vacations that ran out are ended (docs/clocks.md)
    # How often each instance looks in the database for games nobody has acted on whose first deadline passed
    # that long ago unsettled (its registration with the hub was lost): docs/clocks.md, "A game nobody opens".
    deadline_sweep_seconds: float = 30.0

    # ---- house bots (app/bots/house.py)
    # Start the server's own GNU Go bots with `tengen serve`. None: yes, unless TENGEN_ENV=test (tests start
    # them only when they ask for them). They start only when GNU Go is found.
    house_bots: bool | None = None
    gnugo: str = ""  # the GNU Go program; empty: `gnugo` on the PATH, or /usr/games/gnugo

    # ---- KataGo (app/engines; docs/engines.md)
    engines_dir: Path | None = None  # where `tengen engines install` puts KataGo; None: <data dir>/engines
    # Run the engine service when KataGo is installed. None: yes, unless TENGEN_ENV=test (tests start it themselves).
    katago: bool | None = None
    katago_buffers: list[int] = [9, 13, 19]  # a KataGo process for each of these neural-net buffer sizes
    katago_parallel: Annotated[int, Field(ge=1)] = 1  # positions each process analyses at once (numAnalysisThreads)
    katago_search_threads: Annotated[int, Field(ge=1)] = 1  # search threads on each position
    katago_queue: Annotated[int, Field(ge=1)] = 32  # questions waiting at once on an instance; beyond, 503 engine_busy
    katago_nice: Annotated[int, Field(ge=0, le=19)] = 19  # KataGo's niceness: below the web server, so games go first
    katago_sched_idle: bool = True  # KataGo under SCHED_IDLE (runs only when the cores are free); refused: the niceness
    katago_start_seconds: Annotated[float, Field(gt=0)] = 120.0  # a process that does not answer by then failed to start
    katago_measure_visits: Annotated[int, Field(ge=0)] = 4  # evaluations timed at each start (0: not measured)

    # ---- KataGo's reviews of finished games (app/ai_review; docs/review.md)
    ai_review_worker: bool = True  # `tengen serve` works the review queue in process (when its KataGo runs)
    ai_review_auto: bool = True  # review every rated game when it ends (quick pass, lowest priority)
    ai_review_quick_seconds: Annotated[float, Field(ge=0)] = 0.5  # engine time per position, quick pass (>= 1 visit)
    ai_review_deep_seconds: Annotated[float, Field(ge=0)] = 5.0  # engine time per position, deep pass (>= 1 visit)
    ai_review_requests: int = 20  # reviews one user may ask for per hour (0: no limit); beyond, 429 review_rate_limited

    # ---- tournaments (app/tournaments; docs/tournaments.md)
    tournament_tick_seconds: Annotated[float, Field(gt=0)] = 5.0  # how often each instance moves the rounds on
    tournament_max_players: Annotated[int, Field(ge=2)] = 1000  # beyond, 422 too_many_players
    tournament_max_rounds: Annotated[int, Field(ge=1)] = 30  # beyond, 422 too_many_rounds
    tournaments_per_director: Annotated[int, Field(ge=1)] = (
        3  # unfinished events one user directs; beyond, 429 too_many_tournaments
    )

    # ---- email (app/mail; docs/operations.md, "Mail"). Sent by `tengen mailer` through this SMTP server.
    mail_smtp_host: str = ""  # empty: no mail (addresses and password reset are refused with 503 mail_disabled)
    mail_smtp_port: int = 587
    mail_smtp_security: Literal["starttls", "tls", "none"] = "starttls"
    mail_smtp_user: str = ""
    mail_smtp_password: str = ""
    mail_smtp_timeout: float = 30.0  # seconds one SMTP conversation may take
    mail_from: str = "Tengen <noreply@localhost>"
    mail_site_url: str = "http://127.0.0.1:8000"  # the site's public address, for the links in messages
    mail_digest_hour: int = 8  # the hour (UTC, 0-23) the daily digests go out
    mail_poll_seconds: float = 5.0  # how often the mailer looks for new events and messages to send
    mail_max_attempts: int = 12  # tries of one message before it is given up (failed)
    mail_verify_hours: float = 48.0  # a verification link works this long
    mail_reset_minutes: float = 60.0  # a password-reset link works this long
    mail_per_user_hour: int = 20  # messages to one account per hour (notices over it wait for the digest)
    mail_per_address_hour: int = 5  # verification and reset messages to one address per hour
    mail_requests_per_ip_hour: int = 20  # verification and reset requests per client address per hour

    @property
    def mail_enabled(self) -> bool:
        return bool(self.mail_smtp_host)

    @property
    def katago_enabled(self) -> bool:
        return self.katago if self.katago is not None else self.env != "test"

    @property
    def house_bots_enabled(self) -> bool:
        return self.house_bots if self.house_bots is not None else self.env != "test"

    @model_validator(mode="after")
    def _require_secret_in_production(self) -> "Settings":
        if self.env == "production":
            if not self.secret_key:
                raise ValueError("TENGEN_SECRET_KEY is required when TENGEN_ENV=production")
            if not strong_secret(self.secret_key):
                raise ValueError(
                    f"TENGEN_SECRET_KEY is too weak: use at least {MIN_SECRET_LENGTH} random characters "
                    "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(48))')"
                )
        if self.metrics_token and not strong_secret(self.metrics_token):
            raise ValueError(f"TENGEN_METRICS_TOKEN is too weak: use at least {MIN_SECRET_LENGTH} random characters")
        return self

    @property
    def effective_metrics_networks(self) -> list[str]:
        if self.metrics_networks is not None:
            return self.metrics_networks
        return [] if self.env == "production" else list(LOOPBACK_NETWORKS)

    @property
    def docs_enabled(self) -> bool:
        return self.api_docs if self.api_docs is not None else self.env != "production"

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data_dir / 'tengen.sqlite3'}"

    def effective_secret_key(self) -> str:
        """The configured secret, or one generated once and kept in the data folder."""
        if self.secret_key:
            return self.secret_key
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret_key"
        if not path.exists():
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        return path.read_text().strip()


class FromSettings:
    """Limits a service is given as one frozen dataclass, each field read from one setting (``SETTINGS``: field
    name to setting name; a field not named keeps its default)."""

    SETTINGS: ClassVar[dict[str, str]]

    @classmethod
    def from_settings(cls, settings: Settings) -> Self:
        return cls(**{field: getattr(settings, name) for field, name in cls.SETTINGS.items()})


@lru_cache
def get_settings() -> Settings:
    return Settings()
