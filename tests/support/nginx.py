"""Debian's nginx run with ``deploy/nginx.conf`` in front of real instances, as a child process.

``render`` changes only where things are: each upstream's ``server appN:8000 ...;`` lines become one line per
given address (same parameters), ``listen 80`` becomes a free loopback port, and the temporary files go under
the run's own prefix. Every other directive is the deployed file's. ``Nginx`` runs it in the foreground
(``daemon off``) with its own prefix and pid file; ``stop()`` ends it (and its workers) at the end.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.support.server_process import REPO_ROOT, free_port
from tests.support.services import NGINX

DEPLOYED_CONF = REPO_ROOT / "deploy" / "nginx.conf"
START_TIMEOUT = 15.0
TEMP_KINDS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
_SERVER_LINES = re.compile(r"(?:^[ \t]*server[ \t]+app\d+:8000\b([^;\n]*);[ \t]*\n)+", re.MULTILINE)


def render(conf: str, upstreams: list[str], port: int, prefix: Path) -> str:
    """``conf`` with its replicas replaced by ``upstreams`` (host:port), listening on 127.0.0.1:``port``."""

    def servers(match: re.Match[str]) -> str:
        line = match.group(0)
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        return "".join(f"{indent}server {address}{match.group(1)};\n" for address in upstreams)

    conf, upstream_blocks = _SERVER_LINES.subn(servers, conf)
    conf, listens = re.subn(r"^(\s*)listen\s+80;", rf"\1listen 127.0.0.1:{port};", conf, flags=re.MULTILINE)
    if not upstream_blocks or listens != 1:
        raise ValueError("deploy/nginx.conf no longer has 'server appN:8000' upstream lines and one 'listen 80'")
    # Temporary files in this run's prefix. As root, the workers run as root too: they can then reach the
    # prefix inside a private temporary directory (nginx's default worker user, nobody, could not).
    paths = "".join(f"    {kind}_temp_path {prefix / 'temp' / kind};\n" for kind in TEMP_KINDS)
    conf = conf.replace("http {\n", "http {\n" + paths, 1)
    if os.geteuid() == 0:
        conf = "user root;\n" + conf
    return conf


class Nginx:
    """One nginx master (and its workers) in the foreground, in front of ``upstreams``."""

    def __init__(self, upstreams: list[str], prefix: Path, conf: str | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.prefix = prefix
        (prefix / "temp").mkdir(parents=True, exist_ok=True)
        (prefix / "logs").mkdir(exist_ok=True)
        self.conf_path = prefix / "nginx.conf"
        self.conf_path.write_text(render(conf or DEPLOYED_CONF.read_text(), upstreams, self.port, prefix))
        # The deployed file logs requests (JSON, one a line) to stdout and errors to stderr.
        self.access_log = prefix / "access.log"
        self.error_log = prefix / "error.log"
        self._out = open(self.access_log, "wb")  # closed in stop()
        self._err = open(self.error_log, "wb")  # closed in stop()
        self.process = subprocess.Popen(
            [
                NGINX,
                "-p",
                str(prefix),
                "-c",
                str(self.conf_path),
                "-e",
                "stderr",
                "-g",
                f"daemon off; pid {prefix / 'nginx.pid'};",
            ],
            stdout=self._out,
            stderr=self._err,
        )

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited ({self.process.returncode}):\n{self.error_log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen on {self.port}:\n{self.error_log.read_text()}")

    def stop(self) -> None:
        """A fast shutdown (SIGTERM): the master stops its workers and exits."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._out.close()
        self._err.close()

    def requests(self) -> list[str]:
        """The access log's lines so far (a request is logged when it ends: a socket, when it closes)."""
        return self.access_log.read_text(errors="replace").splitlines()
