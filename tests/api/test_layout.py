"""The API's house rules (DESIGN.md): it builds on the services, the selectors and the point of view, never on
the web; modules stay about one idea; games are loaded only through the one loader."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[2] / "games" / "api"
MODULES = sorted(API.glob("*.py"))


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, as absolute names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ["games", "api"][: 2 - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_the_api_never_imports_the_web(path):
    web = {name for name in imported(path) if name.startswith(("games.web", "games.views", "games.urls"))}
    assert not web, f"{path.name} imports {web}"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_modules_stay_small(path):
    assert len(path.read_text().splitlines()) <= 500


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_games_are_loaded_by_the_one_loader(path):
    text = path.read_text()
    assert "Game.objects" not in text and "get_by_pk" not in text and "visible_game" not in text
