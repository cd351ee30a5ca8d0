"""The house rules of DESIGN.md, checked over every module: imports that must never exist, and modules of one idea
(none much over 500 lines). The API's own rules are in tests/api/test_layout.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    path for folder in ("games", "players", "config", "bench") for path in (ROOT / folder).rglob("*.py")
    if "migrations" not in path.parts
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, as absolute dotted names (relative imports resolved)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def under(path: Path, *prefixes: str) -> bool:
    return module_name(path).startswith(prefixes)


#: (who, what they must never import, why)
RULES = [
    (("games.engine", "games.rating", "games.arena"),
     ("django", "games.models", "games.services", "games.selectors", "games.web", "games.api", "push", "players",
      "config"),
     "the rules are pure Python: the engine (boards, clocks), the ratings' and the arenas' rules"),
    (("games.services", "games.selectors", "games.positions", "games.pov", "games.live", "games.rating",
      "games.errors", "games.records", "games.models", "games.arena", "games.standings", "games.puzzles"),
     ("games.web", "games.api", "games.edge", "config"), "the domain never imports the edges or the wiring"),
    (("games.edge",), ("games.web", "games.api", "games.services", "games.selectors", "config"),
     "what the edges share builds on the domain's errors alone"),
    (("games.web",), ("games.api",), "the web and the API never import each other"),
    (("games.api",), ("games.web",), "the web and the API never import each other"),
    (("games.admin", "players", "games.management"), ("games.web", "games.api"),
     "the admin, players' pages and the terminal player build on services and selectors, not page helpers"),
]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_forbidden_import(path):
    names = imported(path)
    for owners, forbidden, why in RULES:
        if under(path, *owners):
            bad = sorted(name for name in names if name.startswith(forbidden))
            assert not bad, f"{module_name(path)} imports {bad}: {why}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_modules_stay_about_one_idea(path):
    assert len(path.read_text().splitlines()) <= 560, "split it: a module of one idea is about 500 lines at most"
