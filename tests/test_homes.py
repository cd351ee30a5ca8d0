"""Every rule in one home (issue 31): no import circle among the modules of ``games``, the pure packages load no
Django, and each idea is defined once (the names it had in two or three places are gone).

Imports are read from the source (every ``import`` and ``from ... import``, inside functions too: a circle through a
late import is still a circle); ``from package import name`` counts as an import of ``package.name`` when that is a
module. A package's ``__init__`` importing its own modules is an arrow like any other.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(path for path in (ROOT / "games").rglob("*.py") if "migrations" not in path.parts)
#: packages of plain Python: no Django, no apps
PURE = ("games.engine", "games.rating", "games.arena")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in GAMES}


def imports_of(path: Path) -> set[str]:
    """The modules of ``games`` that ``path`` imports."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            names = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in MODULES else module for alias in node.names
            ]
        else:
            continue
        found.update(name for name in names if name in MODULES)
    found.discard(module_name(path))
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_circle_finder_finds_a_circle_and_nothing_else():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set(), "c": {"b"}}) == []


def test_no_import_circle_among_the_modules_of_games():
    graph = {name: imports_of(path) for name, path in MODULES.items()}
    assert sum(len(edges) for edges in graph.values()) > 200  # the reader sees the house's arrows
    assert circles(graph) == []


def test_the_pure_packages_load_no_django():
    pure = sorted(name for name in MODULES if name.startswith(PURE) and name.split(".")[-1] not in ("cli", "ladder"))
    code = (
        "import importlib, json, sys\n"
        f"for name in {pure!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(n for n in sys.modules if n.split('.')[0] in ('django', 'players', 'config', 'push')"
        " or n.startswith(('games.models', 'games.services', 'games.selectors')))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120, check=True,
    )
    assert len(pure) > 25
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


#: files whose idea now lives elsewhere: clocks in games/engine/clock.py and games/services/timekeeping.py, ratings
#: in games/rating/, the tasks beside their services, the HTTP table in games/edge/
GONE_FILES = (
    "games/clocks.py", "games/glicko2.py", "games/pools.py", "games/pairing.py", "games/rating.py", "games/tasks.py",
    "games/http_errors.py", "games/services/clocks.py", "games/pk_lookup.py",
)


@pytest.mark.parametrize("path", GONE_FILES)
def test_an_idea_moved_leaves_no_file_behind(path):
    assert not (ROOT / path).exists()


def definitions(name: str) -> list[str]:
    """The modules of ``games`` that define a function or class called ``name`` at any depth."""
    return sorted(
        module for module, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name
    )


@pytest.mark.parametrize(
    ("name", "home"),
    [
        ("result_token", ["games.engine.records"]),
        ("side_of_ply", ["games.engine.core"]),
        ("write_record", ["games.engine.records"]),
        ("tag_line", ["games.engine.records"]),
        ("_wrap", ["games.engine.records"]),
        ("game_for_viewer", ["games.selectors"]),
        ("claim_win_after", ["games.selectors"]),
        ("is_provisional", ["games.rating.glicko2"]),
        ("TimeControl", ["games.engine.clock"]),
        ("pick_opponent", ["games.rating.matchmaking"]),
        ("lock_game", []),
        ("visible_game", []),
        ("game_for_page", []),
        ("pending_assist", []),
    ],
)
def test_each_idea_is_defined_once(name, home):
    assert definitions(name) == home


def test_the_domain_asks_the_queue_through_the_tasks_framework_only():
    """No service or selector reads django-tasks-db's own table: whether a task is pending is asked of the
    framework's public API (games.services.queue.pending)."""
    for module, path in MODULES.items():
        if module.startswith(("games.services", "games.selectors", "games.pov", "games.web", "games.api")):
            assert "django_tasks_db" not in path.read_text(), module
