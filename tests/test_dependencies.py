"""What the server imports is installed by the README's first command (``pip install -e .``, no extras): every
third-party module that ``app/`` imports comes from a distribution named in ``pyproject.toml``'s
``dependencies`` or required by one of them, not only from the test extras (``tengen serve`` once failed on a
fresh machine for want of httpx, which only the test extras installed)."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def imported_modules() -> dict[str, str]:
    """The top-level third-party modules ``app/`` imports, each with one file that imports it."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "app" and top not in sys.stdlib_module_names:
                    found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def installed_by(requirements: list[str]) -> set[str]:
    """Every distribution ``requirements`` bring, with their own requirements and the extras asked for."""
    seen: set[str] = set()
    queue = [Requirement(r) for r in requirements]
    while queue:
        requirement = queue.pop()
        name = canonicalize_name(requirement.name)
        key = name + "[" + ",".join(sorted(requirement.extras)) + "]"
        if key in seen:
            continue
        seen.add(key)
        seen.add(name)
        try:
            needs = metadata.requires(requirement.name) or []
        except metadata.PackageNotFoundError:
            continue
        extras = sorted(requirement.extras) or [""]
        for text in needs:
            needed = Requirement(text)
            if needed.marker is None or any(needed.marker.evaluate({"extra": extra}) for extra in extras):
                queue.append(needed)
    return seen


def test_every_module_the_server_imports_is_installed_without_the_test_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    installed = installed_by(project["dependencies"])
    providers = metadata.packages_distributions()
    missing = {
        module: where
        for module, where in imported_modules().items()
        if not any(canonicalize_name(dist) in installed for dist in providers.get(module, [module]))
    }
    assert not missing, f"imported by app/ but installed only by extras (add to [project] dependencies): {missing}"


def test_the_check_sees_a_module_that_only_an_extra_installs() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    installed = installed_by(project["dependencies"])
    assert "fastapi" in installed and "starlette" in installed  # named, and required by what is named
    assert "pytest" not in installed  # the test extras' own
