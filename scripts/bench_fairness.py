#!/usr/bin/env python
"""How long one player waits for the hard computer while another has many moves queued (issue 29, item 6).

    .venv/bin/python scripts/bench_fairness.py [--games 16] [--workers 2] [--rounds 2]

On a throw-away SQLite database, with ``--workers`` task workers (``manage.py worker``, as ``make serve`` runs
them) started once for the whole run: player ``one`` plays a move against the hard computer on ultimate (about
0.9 s of thought), and the time from the move to the computer's reply is taken from the task's own times. Three
cases, taking turns each round:

- alone: nothing else queued;
- before: player ``many`` has just played a move in each of ``--games`` such games, their turns enqueued as the
  site enqueued them before issue 29 (all at the same priority: the workers take them oldest first);
- after: the same, enqueued as the site does now (``games.services.computer.fair_priority``).

Prints the median wait of each and the ratios to the wait alone.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-fairness-"))
    try:
        measure(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(work: Path) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=16, help="games of the player with many (default 16)")
    parser.add_argument("--workers", type=int, default=2, help="task workers (default 2)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    os.environ.update(
        DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}", DJANGO_LOG_LEVEL="WARNING",
        TASK_SWEEP_GRACE="3600",
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django_tasks_db.models import DBTaskResult

    from games.services import game_create, move_play
    from players.models import Player

    call_command("migrate", verbosity=0)
    many = Player.objects.create_user("many", password="x-Str0ng-passphrase")
    one = Player.objects.create_user("one", password="x-Str0ng-passphrase")
    workers = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "worker", "--sweep-every", "0", "--interval", "0.02",
             "--nice", "0", "--worker-id", f"bench-{n}"],
            cwd=ROOT, stdout=subprocess.DEVNULL, start_new_session=True,
        )
        for n in range(args.workers)
    ]

    def wait_for_the_queue() -> None:
        while DBTaskResult.objects.filter(status__in=("READY", "RUNNING")).exists():
            time.sleep(0.05)

    def case(name: str) -> float:
        for _ in range(args.games if name != "alone" else 0):
            move_play(game=game_create(player=many, variant="ultimate", opponent="hard"), player=many, move=40)
        if name == "before":  # as the site enqueued them before issue 29: all at the default priority
            DBTaskResult.objects.filter(status="READY").update(priority=0)
        game = game_create(player=one, variant="ultimate", opponent="hard")
        move_play(game=game, player=one, move=40)
        wait_for_the_queue()
        task = DBTaskResult.objects.get(args_kwargs__kwargs__game_id=game.pk)
        return (task.finished_at - task.enqueued_at).total_seconds()

    try:
        case("alone")  # the workers load the engine's tables: not what is measured
        waits: dict[str, list[float]] = {"alone": [], "before": [], "after": []}
        for _ in range(args.rounds):
            for name in waits:
                waits[name].append(case(name))
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait()
    alone = statistics.median(waits["alone"])
    print(f"player one's wait for the hard computer (ultimate), {args.workers} workers, median of {args.rounds}:")
    for name, found in waits.items():
        extra = "" if name == "alone" else f" while {args.games} moves of another player are queued"
        wait = statistics.median(found)
        print(f"  {name:6}  {wait:6.2f} s  ({wait / alone:4.1f} x alone){extra}")


if __name__ == "__main__":
    main()
