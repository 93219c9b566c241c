"""The transport knows no domain by name either (issue 32): tests/test_dependencies.py checks that app/transport
imports no domain, and this checks that its words do not name one — no identifier, comment or docstring speaks of
a game, a review, a seat or a lobby. A word that names a domain in the transport is the first step of domain
logic moving in (a deadline API keyed "by game id", a presence that counts "players"), and the next domain (a
tournament, a puzzle) would then have to bend to the game's words or fork the transport.

String literals other than docstrings are not read: they are wire codes and Redis key formats, fixed by the
protocol and by running deployments (renaming them would be a wire change). The few names kept on purpose are
listed in ``ALLOWED`` with why."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Words that name a domain or a domain's own notion. Generic words that a domain also uses ("move" as a verb,
# "clock" as a time source, "room" as any channel's owner) are not here.
DOMAIN_WORDS = frozenset(
    {
        "game",
        "games",
        "review",
        "reviews",
        "reviewer",
        "seek",
        "seeks",
        "automatch",
        "tournament",
        "tournaments",
        "puzzle",
        "puzzles",
        "correspondence",
        "lobby",
        "seat",
        "seats",
        "player",
        "players",
        "spectator",
        "spectators",
        "black",
        "white",
        "komi",
        "handicap",
    }
)

# Texts kept on purpose, by file and how the text starts, each with its reason.
ALLOWED: dict[tuple[str, str], str] = {
    # A model's name and docstring are its title and description in docs/protocol.schema.json, which stays
    # byte-identical: the shared error replies keep the words they were published with.
    ("messages.py", "LobbyError"): "a model's name is on the wire schema",
    ("messages.py", "A refusal on the lobby socket"): "a model's docstring is on the wire schema",
    ("messages.py", "A refusal on a game or review socket"): "a model's docstring is on the wire schema",
}


def allowed(file: str, text: str) -> bool:
    return any(file == name and text.startswith(start) for name, start in ALLOWED)


def words(text: str) -> Iterator[str]:
    """The lower-case words of ``text``, identifiers split at underscores and case changes."""
    for token in re.findall(r"[A-Za-z]+", text):
        for part in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", token):
            yield part.lower()


def spoken(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) for every identifier, comment and docstring of a module's source."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.NAME, tokenize.COMMENT):
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        # A string standing as a statement: a docstring (of a module, class or function, or of an attribute).
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            yield node.lineno, node.value.value


def domain_words(path: Path) -> list[str]:
    """Each place in ``path`` that names a domain, as ``file:line: word in text``."""
    found = []
    for line, text in spoken(path.read_text(encoding="utf-8")):
        for word in sorted(set(words(text)) & DOMAIN_WORDS):
            if not allowed(path.name, text):
                found.append(f"{path.name}:{line}: {word!r} in {text[:80]!r}")
    return found


def test_the_transport_names_no_domain() -> None:
    found = [place for path in sorted((ROOT / "app" / "transport").rglob("*.py")) for place in domain_words(path)]
    assert found == []


def test_the_check_sees_a_domain_named_in_an_identifier_a_comment_and_a_docstring(tmp_path: Path) -> None:
    module = tmp_path / "hub.py"
    module.write_text(
        '"""Fans events out to every player."""\n'
        "def set_deadline(gameId: str) -> None:  # one per review\n"
        '    """The seat\'s time."""\n'
        '    key = "game:1"\n',
        encoding="utf-8",
    )
    named = {place.split(": ")[1].split(" in ")[0] for place in domain_words(module)}
    assert named == {"'player'", "'game'", "'review'", "'seat'"}


def test_the_check_reads_no_wire_string() -> None:
    assert list(spoken('key = "game:" + str(1)\n')) == [(1, "key"), (1, "str")]
