#!/usr/bin/env python
"""What a signed-in request pays for its session, per session engine (docs/operations.md, "Sessions and tokens").

    .venv/bin/python scripts/session_cost.py [--requests 1000] [--rounds 3]

In one process, on a throw-away SQLite database: a signed-in client asks for /accounts/profile/ (a redirect
that reads the session and the player, and nothing else) with each engine in turn, and the loading of one
session alone is timed too. Prints the best of a few rounds' mean time per request and per load, and the
queries per request.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINES = {
    "signed cookies (before)": "django.contrib.sessions.backends.signed_cookies",
    "players.sessions (cached_db, file cache)": "players.sessions",
    "plain database (db)": "django.contrib.sessions.backends.db",
}


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="session-cost-"))
    try:
        measure(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(work: Path) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=1000, help="requests per engine and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    os.environ.update(
        DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}", DJANGO_LOG_LEVEL="WARNING",

    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client, override_settings
    from django.utils.module_loading import import_string

    call_command("migrate", verbosity=0)
    from players.models import Player

    player = Player.objects.create_user("timing", password="x-Str0ng-passphrase")
    clients, queries = {}, {}
    for label, engine in ENGINES.items():
        with override_settings(SESSION_ENGINE=engine):
            clients[label] = Client()
            clients[label].force_login(player)
            clients[label].get("/accounts/profile/")
            reset_queries()
            settings.DEBUG = True  # keeps the query log for one request
            clients[label].get("/accounts/profile/")
            settings.DEBUG = False
            queries[label] = len(connection.queries)
    # Best of a few rounds, engines taking turns: the machine may be busy with other work.
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.rounds):
        for label, engine in ENGINES.items():
            with override_settings(SESSION_ENGINE=engine):
                client = clients[label]
                start = time.perf_counter()
                for _ in range(args.requests):
                    client.get("/accounts/profile/")
                per_request = (time.perf_counter() - start) / args.requests * 1e6
                store_class = import_string(f"{engine}.SessionStore")
                key = client.cookies[settings.SESSION_COOKIE_NAME].value
                start = time.perf_counter()
                for _ in range(args.requests):
                    store_class(session_key=key).load()
                per_load = (time.perf_counter() - start) / args.requests * 1e6
            old = best.get(label, (float("inf"), float("inf")))
            best[label] = (min(old[0], per_request), min(old[1], per_load))
    for label, (per_request, per_load) in best.items():
        print(f"{label:42} {per_request:6.0f} µs/request  {per_load:5.0f} µs/session load  "
              f"{queries[label]} queries/request")

if __name__ == "__main__":
    main()
