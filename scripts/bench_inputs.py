#!/usr/bin/env python
"""The CPU two hostile inputs cost, before and after issue 29's bounds, measured in one run, taking turns.

    .venv/bin/python scripts/bench_inputs.py [--rounds 5]

In one process, on a throw-away SQLite database, by a signed-in API client:

- a JSON body of 200,000 keys (2 MB, under the 2.5 MB body limit), sent to ``POST /api/games`` with the API's
  parser as shipped by django-ninja (before: every key reaches the schema, which names each in its refusal) and
  with ``games.api.parser.BoundedParser`` (after: the keys are counted before parsing); top-level keys and keys
  inside ``options``;
- a game record of N blank lines (under the 256 KB import limit) checked for a Position tag by the old regular
  expression (``^\\s*\\[Position[ \\t]`` with MULTILINE: quadratic) and by ``names_a_position`` (one pass).

Prints the median CPU seconds (``time.process_time``) of each, and the ratio before / after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEYS = 200_000
BLANK_LINES = (10_000, 20_000, 40_000)


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-inputs-"))
    try:
        measure(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cpu(action: Callable[[], object]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def measure(work: Path) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="turns of each, before and after alternating")
    args = parser.parse_args()
    os.environ.update(
        DJANGO_DEBUG="", DJANGO_SECRET_KEY="bench-inputs-" + "x" * 40, DJANGO_ALLOWED_HOSTS="testserver",
        DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}", DJANGO_LOG_LEVEL="CRITICAL",

    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import logging

    from django.core.management import call_command
    from django.test import Client
    from ninja.parser import Parser

    from config.api import api
    from games.api.parser import BoundedParser
    from games.services.records import names_a_position
    from players.models import ApiToken, Player

    logging.disable(logging.CRITICAL)  # each refusal is logged as a warning: not what is measured
    call_command("migrate", verbosity=0)
    player = Player.objects.create_user("timing", password="x-Str0ng-passphrase")
    _token, raw = ApiToken.issue(player=player, name="bench")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    keys = {str(i): 0 for i in range(KEYS)}
    bodies = {
        "top-level keys": json.dumps({"variant": "classic", "opponent": "easy", **keys}, separators=(",", ":")),
        "keys in options": json.dumps({"variant": "classic", "opponent": "easy", "options": keys},
                                      separators=(",", ":")),
    }
    parsers = {"before": Parser(), "after": BoundedParser()}

    def post(body: str) -> None:
        response = client.post("/api/games", body, content_type="application/json", secure=True)
        assert response.status_code == 400, response.status_code

    old_check = re.compile(r"^\s*\[Position[ \t]", re.MULTILINE)
    records = {n: '[Variant "classic"]\n[Result "*"]\n' + "\n" * n + "*\n" for n in BLANK_LINES}
    checks = {"before": old_check.search, "after": names_a_position}

    times: dict[tuple[str, str], list[float]] = {}
    post(bodies["top-level keys"])  # the first request loads what every request needs
    for _ in range(args.rounds):
        for label, body in bodies.items():
            for when, body_parser in parsers.items():
                api.parser = body_parser
                times.setdefault((label, when), []).append(cpu(lambda body=body: post(body)))
        for lines, text in records.items():
            for when, check in checks.items():
                times.setdefault((f"{lines:,} blank lines", when), []).append(cpu(lambda c=check, t=text: c(t)))
    api.parser = BoundedParser()
    print(f"median CPU seconds of {args.rounds} turns each, before and after taking turns")
    for label in dict.fromkeys(label for label, _ in times):
        before = statistics.median(times[label, "before"])
        after = statistics.median(times[label, "after"])
        what = f"POST /api/games, {KEYS:,} {label}" if "keys" in label else f"Position check, {label}"
        print(f"{what:48} before {before:8.4f} s   after {after:8.4f} s   ratio {before / max(after, 1e-6):8.1f}")


if __name__ == "__main__":
    main()
