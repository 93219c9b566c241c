"""What the server imports is installed by the README's first command (``pip install -e .``, no extras): every
third-party module that ``app/`` imports comes from a distribution named in ``pyproject.toml``'s
``dependencies`` or required by one of them, not only from the test extras (``tengen serve`` once failed on a
fresh machine for want of httpx, which only the test extras installed).

And no import circle exists among the modules of ``app/``: every import counts, at module level, under
``if TYPE_CHECKING:`` and inside a function alike, because each says that one module needs the other, and a
circle only hidden from the interpreter (the game authority and its handlers, once) is still two modules that
cannot be read, changed or moved apart."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import sys
import tomllib
from collections.abc import Iterator
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


# The transport every live feature shares knows no domain (docs/architecture.md, "Layers"); no domain reaches up
# into the API layer. A domain's live part imports the transport, never the other way round.
DOMAINS = (
    "app.games",
    "app.reviews",
    "app.automatch",
    "app.lobby",
    "app.ratings",
    "app.moderation",
    "app.study",
    "app.bots",
    "app.mail",
    "app.api",
    "app.protocol",
)


def app_imports(package: str) -> dict[str, set[str]]:
    """Every ``app`` module each file of ``package`` (a folder under the root) imports, lazily or not."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[str(path.relative_to(ROOT))] = {name for name in names if name.split(".")[0] == "app"}
    return found


def reaching(package: str, targets: tuple[str, ...]) -> dict[str, list[str]]:
    def inside(name: str, target: str) -> bool:
        return name == target or name.startswith(target + ".")

    return {
        path: sorted(name for name in names if any(inside(name, t) for t in targets))
        for path, names in app_imports(package).items()
        if any(inside(name, t) for t in targets for name in names)
    }


def test_the_transport_imports_no_domain() -> None:
    assert (ROOT / "app/transport/hub.py").exists()
    assert not (ROOT / "app/live").exists(), "app/live/ is split: the transport or a domain's own live part"
    assert reaching("app/transport", DOMAINS) == {}


# What the transport may import of app besides itself: shared utilities that import nothing of app (background
# tasks; the limits a message's fields carry).
TRANSPORT_MAY_USE = ("app.transport", "app.background", "app.field_limits")


def test_the_transport_imports_nothing_of_app_but_itself_and_shared_utilities() -> None:
    beyond = {
        path: sorted(name for name in names if not any(name == u or name.startswith(u + ".") for u in TRANSPORT_MAY_USE))
        for path, names in app_imports("app/transport").items()
    }
    assert {path: names for path, names in beyond.items() if names} == {}


def test_no_domain_imports_the_api_layer() -> None:
    for domain in DOMAINS:
        if domain not in ("app.api", "app.protocol"):
            assert reaching(domain.replace(".", "/"), ("app.api",)) == {}, domain


def test_the_check_sees_a_domain_import() -> None:
    assert reaching("app/api", ("app.games",))  # the API layer calls the game's live part
    assert reaching("app/games/live", ("app.transport",))


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


# ----------------------------------------------------------------------------------------- import circles
def module_files(root: Path, package: str = "app") -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by its dotted name (a package by its ``__init__``)."""
    files: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def _imports(tree: ast.AST, package: str) -> Iterator[str]:
    """The dotted names every import statement in ``tree`` reaches, wherever it stands (module level, under
    ``if TYPE_CHECKING:``, inside a function); ``package`` resolves relative imports. ``from a import b``
    yields ``a.b``, which is the submodule ``b`` when there is one and else a name in ``a``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield from (f"{module}.{alias.name}" for alias in node.names)


def import_graph(root: Path, package: str = "app") -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (each import named by the deepest module it reaches:
    ``from app.games import offers`` is ``app.games.offers``, ``from app.games.offers import offer`` too)."""
    files = module_files(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        own_package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for reached in _imports(ast.parse(path.read_text(encoding="utf-8")), own_package):
            while reached and reached not in files:
                reached = reached.rpartition(".")[0]
            if reached and reached != name:
                targets.add(reached)
        graph[name] = targets
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def test_no_import_circle_among_the_modules_of_app() -> None:
    circles = import_circles(import_graph(ROOT))
    assert not circles, f"modules of app/ that import each other, directly or round a circle: {circles}"


def test_the_check_sees_a_circle_however_it_is_imported(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    sources = {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/a.py": "from pkg.sub import b\n",
        # only for the type checker: still a circle
        "pkg/sub/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import thing\n",
        "pkg/c.py": "def f():\n    from . import d\n",  # inside a function, relative
        "pkg/d.py": "import pkg.c\n",
        "pkg/e.py": "from pkg import a\n",  # reaches into the circle a-b, is no part of it
    }
    for name, text in sources.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert import_circles(import_graph(tmp_path, "pkg")) == [["pkg.a", "pkg.sub.b"], ["pkg.c", "pkg.d"]]


def reached_from(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    queue = [start]
    while queue:
        for target in graph.get(queue.pop(), ()):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen


def test_the_messages_declared_beside_a_domain_reach_neither_a_live_part_nor_the_api() -> None:
    graph = import_graph(ROOT)
    domain_messages = sorted(m for m in graph if m.endswith(".messages") and m.count(".") == 2) + ["app.games.events"]
    assert {"app.games.messages", "app.reviews.messages", "app.lobby.messages", "app.automatch.messages"} <= set(domain_messages)
    upward = {
        module: sorted(t for t in reached_from(graph, module) if t.split(".")[1] == "api" or "live" in t.split(".")[2:3])
        for module in domain_messages
    }
    assert not any(upward.values()), f"messages that import a live part or the API: {upward}"


def test_a_domain_reads_its_messages_from_beside_it_not_from_the_registry() -> None:
    """``app/protocol.py`` assembles every domain's messages, so a domain that imported it would import every
    other domain's messages with it: the domains import their own ``messages.py`` and the transport's."""
    graph = import_graph(ROOT)
    domains = ("app.games", "app.reviews", "app.lobby", "app.automatch", "app.moderation")
    through_registry = sorted(m for m, targets in graph.items() if m.startswith(domains) and "app.protocol" in targets)
    assert not through_registry, f"domain modules importing the registry app.protocol: {through_registry}"
