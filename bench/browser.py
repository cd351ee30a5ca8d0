#!/usr/bin/env python3
"""From one player's click to the move on the opponent's page, in real browsers (issue 28's browser figure).

    .venv/bin/python bench/browser.py [--games 4] [--redis] [--clock 5+3]

``make serve``'s processes (scripts/serve.py: nginx, gunicorn's threaded workers, uvicorn, a task worker) on a scratch
SQLite database (``--redis``: the push, sessions and caches through a Redis server of its own), and two Chromium
pages (Debian's, driven by Playwright), each signed in as one of two players through the login page. They play
``--games`` 4 x 4 games with a clock, a move at a time: the mover clicks a free cell, and the time from the click
to that cell's mark on the opponent's page (a MutationObserver there; both pages share the machine's clock) is
one sample. Printed: the samples' median, p95 and max.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the project's packages
from bench.common import PASSWORD, collect_static, free_port, server_env, start_stack, wait_ready  # noqa: E402
from bench.servers import RedisServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
WATCH = """(cell) => { window.__seen = null; new MutationObserver(() => {
    const c = document.querySelector(`#board [data-cell="${cell}"]`);
    if (c && c.dataset.mark && window.__seen === null) { window.__seen = Date.now(); }
}).observe(document.body, {subtree: true, childList: true, attributes: true}); }"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="4 x 4 games played (default 4)")
    parser.add_argument("--clock", default="5+3", help="the games' clock (default 5+3)")
    parser.add_argument("--redis", action="store_true", help="the push through Redis (default: the database)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    folder = Path(tempfile.mkdtemp(prefix="ttt-browser-bench-"))
    folder.chmod(0o755)
    env = server_env(f"sqlite:///{folder / 'db.sqlite3'}")
    redis = None
    if args.redis:
        redis = RedisServer(folder)
        redis.start()
        env["REDIS_URL"] = redis.url
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))})
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs a loop in this thread
    import django

    django.setup()
    from django.contrib.auth.hashers import make_password
    from django.core.management import call_command
    from django.db import connection
    from playwright.sync_api import sync_playwright

    from games.services import challenge_accept, challenge_create
    from players.models import Player

    call_command("migrate", verbosity=0)
    collect_static(env)
    alice, bob = (Player.objects.create(username=name, password=make_password(PASSWORD)) for name in ("alice", "bob"))
    connection.close()
    port = free_port()
    stack = start_stack(env, port, task_workers=1, run_dir=folder / "run")
    samples: list[float] = []
    try:
        wait_ready(port, stack)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            pages = []
            for name in ("alice", "bob"):
                page = browser.new_context(base_url=f"http://127.0.0.1:{port}").new_page()
                page.goto("/accounts/login/")
                page.fill("input[name=username]", name)
                page.fill("input[name=password]", PASSWORD)
                page.click("form [type=submit]")
                page.wait_for_url("**/games/**")
                pages.append(page)
            for _ in range(args.games):
                game = challenge_accept(game=challenge_create(player=alice, variant="four", side="X", clock=args.clock),
                                        player=bob)
                connection.close()
                for page in pages:
                    page.goto(f"/games/{game.pk}/")
                    page.wait_for_selector("html[data-live=on]", timeout=15_000)
                free = list(range(16))
                rng.shuffle(free)
                turn = 0
                while free:
                    mover, other = pages[turn % 2], pages[1 - turn % 2]
                    button = None
                    while free and button is None:
                        cell = free.pop()
                        found = mover.locator(f'#board [data-move="{cell}"]')
                        button = found if found.count() else None
                    if button is None:
                        break
                    other.evaluate(WATCH, cell)
                    clicked = mover.evaluate("Date.now()")
                    button.click()
                    other.wait_for_selector(f'#board [data-cell="{cell}"][data-mark]:not([data-mark=""])',
                                            timeout=10_000)
                    seen = other.evaluate("window.__seen")
                    samples.append((seen or mover.evaluate("Date.now()")) - clicked)
                    turn += 1
                    mover.wait_for_selector(f'#board [data-cell="{cell}"]:not([data-move])', timeout=10_000)
                    if mover.locator("#play[data-game-status=finished]").count():
                        break
                    time.sleep(0.3)  # a player looks at the board before the next move
            browser.close()
    finally:
        stack.terminate()
        stack.wait(60)
        if redis is not None:
            redis.stop()
    if len(samples) < 2:
        print("too few samples")
        return 1
    q = statistics.quantiles(samples, n=100, method="inclusive")
    push = "Redis" if args.redis else "the database"
    print(f"{len(samples)} moves in {args.games} 4 x 4 games ({args.clock}), make serve's stack, the push through "
          f"{push}: from the click to the mark on the opponent's page: median {statistics.median(samples):.0f} ms, "
          f"p95 {q[94]:.0f} ms, max {max(samples):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
