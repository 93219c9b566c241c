"""A small GTP client for GNU Go, used by the oracle tests and the dead-stone agreement measurement."""

from __future__ import annotations

import subprocess

from app.rules.coords import GTP_COLUMNS
from tests.support.services import GNUGO


class Gtp:
    def __init__(self, *flags: str) -> None:
        self.proc = subprocess.Popen(
            [GNUGO, "--mode", "gtp", *flags],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None  # both are pipes
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout

    def batch(self, commands: list[str]) -> list[tuple[bool, str]]:
        """Send every command at once, then read one answer per command: (ok, text)."""
        self.stdin.write("".join(c + "\n" for c in commands))
        self.stdin.flush()
        out = []
        for _ in commands:
            lines: list[str] = []
            while True:
                line = self.stdout.readline()
                if line == "":
                    raise RuntimeError("GNU Go closed its output")
                if line == "\n" and lines:
                    break
                if line != "\n":
                    lines.append(line.rstrip("\n"))
            text = "\n".join(lines)
            out.append((text.startswith("="), text[1:].strip()))
        return out

    def one(self, command: str) -> str:
        ok, text = self.batch([command])[0]
        if not ok:
            raise RuntimeError(f"GNU Go refused {command!r}: {text}")
        return text

    def close(self) -> None:
        try:
            self.stdin.write("quit\n")
            self.stdin.flush()
        except OSError:
            pass
        for stream in (self.stdin, self.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.proc.wait(timeout=10)


def vertices(text: str, size: int) -> set[tuple[int, int]]:
    out = set()
    for word in text.split():
        word = word.upper()
        if word == "PASS":
            continue
        out.add((GTP_COLUMNS.index(word[0]), size - int(word[1:])))
    return out
