"""Every error code the server can send, read from its source: the codes given to its error types and error
messages (``GameError``, ``ServiceError`` and its kinds, ``ProtocolError``, ``ErrorMessage``, ...), the codes
the HTTP error handlers count, and the rules engine's illegal-move reasons. A test holds each client
dictionary to this list, so a code added to the server without a message in every language is caught."""

from __future__ import annotations

import ast
from pathlib import Path

from app.rules.errors import REASONS

APP = Path(__file__).resolve().parents[2] / "app"
# Error types and helpers whose name does not say "error" but whose first arguments are a code.
ERROR_CALLS = {"GameError", "ProtocolError", "ServiceError", "NotFound", "Forbidden", "Conflict", "_counted", "AtMost"}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _code(node: ast.expr | None) -> str | None:
    """The string of a constant that reads like an error code (a lower-case identifier), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        value = node.value
        if value.isidentifier() and value == value.lower() and not value.startswith("_"):
            return value
    return None


def _codes_in(node: ast.AST) -> list[str]:
    """Codes in one node: ``code="..."``; a dict's ``"code": "..."``; a refusals table's codes; the snake_case
    string arguments of a call to an error type or helper (``GameError("no_offer", ...)``,
    ``_chat_error(msg, "chat_rate_limited")``, ``metrics.error("no_such_game")``, ``AtMost(500, "chat_too_long",
    ...)``), or of an error's ``super().__init__("invalid_time_control", ...)``."""
    found: list[ast.expr | None] = []
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
        # A table of refusals, ``_REFUSALS = {"nodes": ("tree_too_large", "message"), ...}``: each first item.
        if any(isinstance(target, ast.Name) and target.id.endswith("REFUSALS") for target in node.targets):
            found += [v.elts[0] for v in node.value.values if isinstance(v, ast.Tuple) and v.elts]
    if isinstance(node, ast.Dict):
        found += [v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "code"]
    elif isinstance(node, ast.Call):
        found += [k.value for k in node.keywords if k.arg == "code"]
        name = _name(node.func) or ""
        if name in ERROR_CALLS or "error" in name.lower():
            found += node.args[:3]
        elif name == "__init__":
            found += node.args[:1]
    return [code for code in map(_code, found) if code is not None]


def server_error_codes() -> set[str]:
    codes = set(REASONS)
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            codes.update(_codes_in(node))
    return codes
