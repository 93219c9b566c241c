"""The deployment files, checked without a container engine: docker-compose.yml (services, replicas, health
checks), deploy/nginx.conf (upstream of the replicas, WebSocket upgrade, long socket timeouts) and the
Dockerfile (multi-stage, non-root, health check). Environment variable names must be real settings."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.settings import REPO_ROOT, Settings

COMPOSE = REPO_ROOT / "docker-compose.yml"
NGINX = REPO_ROOT / "deploy" / "nginx.conf"
DOCKERFILE = REPO_ROOT / "Dockerfile"
APPS = ("app1", "app2")
LONG_RUNNING = ("postgres", "redis", *APPS, "nginx")
# Read by the server outside Settings: the migrations folder, and uvicorn's trusted proxy addresses.
OTHER_ENV = {"TENGEN_ALEMBIC_DIR", "FORWARDED_ALLOW_IPS"}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, Any]:
    return compose["services"]


def _python_code(test: list[str]) -> str | None:
    """The code of a ``python -c CODE`` health check, if it is one."""
    return test[test.index("-c") + 1] if "python" in test and "-c" in test else None


def setting_names() -> set[str]:
    return {f"TENGEN_{name.upper()}" for name in Settings.model_fields}


def test_the_stack_has_storage_two_replicas_and_nginx(services: dict[str, Any]) -> None:
    assert set(LONG_RUNNING) <= set(services)
    for name in APPS:
        app = services[name]
        env = app["environment"]
        assert env["TENGEN_DATABASE_URL"].startswith("postgresql://") and "@postgres:5432/" in env["TENGEN_DATABASE_URL"]
        assert env["TENGEN_REDIS_URL"] == "redis://redis:6379/0"
        assert env["TENGEN_ENV"] == "production" and env["TENGEN_SECRET_KEY"].startswith("${TENGEN_SECRET_KEY:?")
        assert app["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert app["depends_on"]["redis"]["condition"] == "service_healthy"
        assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert "ports" not in app, "replicas are reached through nginx only"
    assert services["app1"]["environment"] == services["app2"]["environment"]
    assert services["migrate"]["command"] == ["tengen", "migrate"]
    assert services["nginx"]["depends_on"] == {name: {"condition": "service_healthy"} for name in APPS}
    assert any(v.startswith("./deploy/nginx.conf:/etc/nginx/nginx.conf") for v in services["nginx"]["volumes"])
    assert services["redis"]["command"][:3] == ["redis-server", "--save", ""]  # nothing in Redis to keep


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_every_long_running_service_has_a_health_check(services: dict[str, Any], name: str) -> None:
    check = services[name]["healthcheck"]
    assert not check.get("disable") and check["test"][0] in ("CMD", "CMD-SHELL") and len(check["test"]) > 1
    assert {"interval", "timeout", "retries"} <= set(check)
    code = _python_code(check["test"])
    if code is not None:
        compile(code, f"{name} healthcheck", "exec")


def test_replicas_are_checked_for_readiness(services: dict[str, Any]) -> None:
    for name in APPS:
        code = _python_code(services[name]["healthcheck"]["test"])
        assert code is not None and "/readyz" in code


def test_environment_names_are_real_settings(services: dict[str, Any]) -> None:
    known = setting_names() | OTHER_ENV
    for name in (*APPS, "migrate"):
        assert set(services[name]["environment"]) <= known, name
    dockerfile_env = set(re.findall(r"\b(TENGEN_[A-Z_]+)=", DOCKERFILE.read_text()))
    assert dockerfile_env and dockerfile_env <= known


# ---- nginx


def _blocks(text: str) -> dict[str, str]:
    """Top-level contents of ``upstream NAME {...}`` and ``location ... {...}`` blocks, by their header."""
    text = re.sub(r"#[^\n]*", "", text)
    out: dict[str, str] = {}
    for match in re.finditer(r"(upstream\s+\S+|location\s+[^{]+?)\s*\{", text):
        depth, start = 1, match.end()
        i = start
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out[" ".join(match.group(1).split())] = text[start : i - 1]
    return out


def _directives(block: str) -> list[list[str]]:
    return [shlex.split(d.strip()) for d in block.split(";") if d.strip() and "{" not in d]


def test_nginx_balances_over_both_replicas_and_upgrades_websockets() -> None:
    text = NGINX.read_text()
    assert text.count("{") == text.count("}")
    blocks = _blocks(text)
    upstream = _directives(blocks["upstream tengen"])
    servers = [d[1] for d in upstream if d[0] == "server"]
    assert servers == [f"{name}:8000" for name in APPS]

    ws = {d[0]: d[1:] for d in _directives(blocks["location /ws/"])}
    assert ws["proxy_pass"] == ["http://tengen"]
    assert ws["proxy_http_version"] == ["1.1"]
    headers = {d[1]: d[2] for d in _directives(blocks["location /ws/"]) if d[0] == "proxy_set_header"}
    assert headers["Upgrade"] == "$http_upgrade" and headers["Connection"] == "$connection_upgrade"
    assert headers["Host"] == "$http_host"  # the origin check compares Origin with Host
    assert "map $http_upgrade $connection_upgrade" in text

    def seconds(value: str) -> int:
        match = re.fullmatch(r"(\d+)([smh]?)", value)
        assert match is not None, value
        number, unit = match.groups()
        return int(number) * {"": 1, "s": 1, "m": 60, "h": 3600}[unit]

    assert seconds(ws["proxy_read_timeout"][0]) >= 600 and seconds(ws["proxy_send_timeout"][0]) >= 600
    # Every socket of one game on one replica: the game id from the path is the hash key.
    games = _directives(blocks["upstream tengen_games"])
    assert games[0] == ["hash", "$game_id", "consistent"]
    assert [d[1] for d in games if d[0] == "server"] == servers
    game_ws = blocks["location ~ ^/ws/games/(?<game_id>[^/]+)$"]
    assert _directives(game_ws) == [["proxy_pass", "http://tengen_games"]]
    assert blocks["location /ws/"].rstrip().endswith(game_ws + "}"), "nested in /ws/, inheriting its settings"
    plain = {d[0]: d[1:] for d in _directives(blocks["location /"])}
    assert plain["proxy_pass"] == ["http://tengen"]
    assert blocks["location = /nginx-health"].strip().startswith("access_log off")


def test_nginx_health_endpoint_matches_the_compose_check(services: dict[str, Any]) -> None:
    path = services["nginx"]["healthcheck"]["test"][-1].split("127.0.0.1", 1)[1]
    assert f"location = {path}" in NGINX.read_text()


# ---- Dockerfile


def test_dockerfile_is_multi_stage_non_root_with_a_liveness_check() -> None:
    text = DOCKERFILE.read_text()
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", text, re.MULTILINE | re.IGNORECASE)
    assert [alias for _, alias in stages] == ["builder", "runtime"]
    assert all(image.endswith("-slim") for image, _ in stages)
    assert "pip wheel --wheel-dir /wheels" in text and "--no-index --find-links=/wheels" in text
    user = re.findall(r"^USER\s+(\S+)", text, re.MULTILINE)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    healthcheck = re.search(r"^HEALTHCHECK [^\n]*\\\n\s*CMD (\[[^\n]*\])$", text, re.MULTILINE)
    assert healthcheck is not None
    command = json.loads(healthcheck.group(1))  # Docker reads the exec form as JSON
    assert "/healthz" in command[-1]
    compile(command[-1], "Dockerfile healthcheck", "exec")
    assert re.search(r'^CMD \["tengen", "serve"\]$', text, re.MULTILINE)
    for path in re.findall(r"^COPY (?!--from)(\S+) ", text, re.MULTILINE):
        assert (REPO_ROOT / path).exists(), path


def test_the_image_leaves_tests_and_secrets_out() -> None:
    ignored = set(Path(REPO_ROOT / ".dockerignore").read_text().split())
    assert {".git", ".venv", "data", "tests"} <= ignored
