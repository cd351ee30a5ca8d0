"""The engine is pure Python: nothing under games/engine may import Django (DESIGN.md)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
ROOT = ENGINE.parents[1]


def _imported_names(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_engine_sources_do_not_import_django() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 5, "the engine package was not found"
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        for name in _imported_names(path)
        if name == "django" or name.startswith("django.")
    ]
    assert not offenders, "the engine must not import Django:\n" + "\n".join(offenders)


def test_importing_the_engine_loads_no_django() -> None:
    # A fresh interpreter: pytest-django has already imported Django into this one.
    code = (
        "import importlib, json, pkgutil, sys\n"
        "import games.engine\n"
        "for m in pkgutil.walk_packages(games.engine.__path__, 'games.engine.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "print(json.dumps(sorted(n for n in sys.modules if n == 'django' or n.startswith('django.'))))\n"
    )
    env_free = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env_free, capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
