"""Runtime settings, read from the environment with the ``TENGEN_`` prefix."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TENGEN_", env_file=None, extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    data_dir: Path = REPO_ROOT / "data"
    database_url: str = ""  # empty: a SQLite file in data_dir
    db_pool_size: int = 20  # PostgreSQL connections kept open per instance
    db_max_overflow: int = 20  # extra connections opened under bursts, closed when returned
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

    @model_validator(mode="after")
    def _require_secret_in_production(self) -> "Settings":
        if self.env == "production" and not self.secret_key:
            raise ValueError("TENGEN_SECRET_KEY is required when TENGEN_ENV=production")
        return self

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


@lru_cache
def get_settings() -> Settings:
    return Settings()
