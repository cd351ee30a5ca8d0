"""``manage.py worker``: a task-queue worker for the site's slow computer work (the tasks of ``games.services``).

django-tasks-db's worker loop, plus what the site needs around it:

- it runs at a lower CPU priority than the web processes (``--nice``, default 10), so a busy computer never
  starves page requests;
- a sweep thread (every ``--sweep-every`` seconds, and once at start) gives a task to every game left waiting for
  its computer: a worker killed mid-thought (``kill -9``) leaves its task "running" for ever, and a game whose
  task was lost is moved on by another worker, or by this one on restart, within ``SWEEP_GRACE`` + ``LOST_AFTER``
  + the sweep's period (games.services.moves); the lost task itself is marked failed in the queue's table, so
  that staff see it under "Task results" in the admin (``mark_lost_tasks``: the one place that knows the database
  backend's own table, beside the backend's worker loop);
- the same sweep ends the games whose clock has run out (on time, or aborted when a first move did not come in
  time) even when nobody has their page open, and aborts games against the computer left for a day
  (games.services.timekeeping); it drops quick-pairing seeks whose seeker stopped asking (games.services.seeks), and
  takes as declined the challenges a bot left unanswered for 20 s (games.services.bots);
- an arena loop (every ``--arena-every`` seconds) pairs the free players of every running arena tournament and ends
  the arenas whose time is up (games.services.arena_pairing: race-safe, several workers at once are harmless); the
  sweep also schedules the site's own arenas for the next hour (games.services.arenas.schedule_arenas);
- it serves the computer's moves before hints and analysis (``--queues``, in that order of preference);
- it outlives the database: a database error in the queue's loop (SQLite's write lock held for long by a backup,
  PostgreSQL restarting) is logged and the loop starts again after a pause that grows to 30 s, instead of the
  process dying; the sweep does the same;
- on SQLite, the sweep also keeps the query planner's statistics fresh (config.sqlite: at start and hourly).

Run several (``TASK_WORKERS`` in ``make serve``), on this machine or any other that reaches the database.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from django.db.utils import DatabaseError, InterfaceError
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from config.sqlite import refresh_statistics
from games.services.arena_pairing import sweep_arenas
from games.services.arenas import schedule_arenas
from games.services.bots import sweep_bot_challenges
from games.services.moves import sweep_computer_turns
from games.services.queue import LOST_AFTER
from games.services.seeks import sweep_seeks
from games.services.timekeeping import sweep_clocks, sweep_idle_games

logger = logging.getLogger("games.worker")

#: the first and the longest pause (seconds) before the queue's loop starts again after a database error
FIRST_PAUSE, LONGEST_PAUSE = 0.5, 30.0
#: a loop that ran this long (seconds) before failing starts again after the first pause, not a longer one
STEADY_AFTER = 60.0
#: seconds between refreshes of SQLite's statistics
STATISTICS_EVERY = 3600.0


class WorkerLost(Exception):  # noqa: N818 - the admin shows its name as the task's failure
    """The worker running a task stopped before it finished (killed or restarted)."""


def mark_lost_tasks(*, now=None) -> int:
    """Mark failed the tasks running for longer than ``LOST_AFTER``: their worker was killed mid-thought (the sweep
    has given their games new tasks). Returns how many."""
    now = now or timezone.now()
    lost = DBTaskResult.objects.running().filter(started_at__lt=now - LOST_AFTER)
    return lost.update(
        status="FAILED", finished_at=now, exception_class_path=f"{__name__}.WorkerLost",
        traceback="The worker running this task stopped before it finished (killed or restarted).",
    )


class Command(BaseCommand):
    help = "Run a task-queue worker: the computer's moves, hints and analysis (Ctrl-C stops it after its task)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--queues", default="computer,assist", help="queues to serve (default: %(default)s)")
        parser.add_argument(
            "--interval", type=float, default=0.1, help="seconds between looks at an empty queue (default: %(default)s)"
        )
        parser.add_argument("--nice", type=int, default=10, help="CPU niceness added at start (default: %(default)s)")
        parser.add_argument(
            "--sweep-every", type=float, default=5.0, help="seconds between sweeps for lost turns; 0: none"
        )
        parser.add_argument(
            "--arena-every", type=float, default=1.0,
            help="seconds between arena pairings (default: %(default)s); 0: none",
        )
        parser.add_argument("--max-tasks", type=int, default=None, help="stop after this many tasks (tests)")
        parser.add_argument("--batch", action="store_true", help="run what is ready, then stop")
        parser.add_argument("--worker-id", default="", help="unique id in the pool (default: a random one)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["nice"]:
            os.nice(options["nice"])
        worker_id = options["worker_id"] or f"{os.uname().nodename[:20]}-{os.getpid()}-{get_random_string(8)}"
        if options["sweep_every"] > 0 and not options["batch"]:
            threading.Thread(target=self._sweep_forever, args=(options["sweep_every"],), daemon=True).start()
        if options["arena_every"] > 0 and not options["batch"]:
            threading.Thread(target=self._arenas_forever, args=(options["arena_every"],), daemon=True).start()
        worker = Worker(
            queue_names=options["queues"].split(","), interval=options["interval"], batch=options["batch"],
            backend_name="default", startup_delay=False, max_tasks=options["max_tasks"], worker_id=worker_id,
            excluded_queue_names=[],
        )
        self.stdout.write(f"worker {worker_id}: queues {options['queues']}, nice +{options['nice']}")
        self.stdout.flush()
        worker.configure_signals()
        pause = FIRST_PAUSE
        while True:
            started = time.monotonic()
            try:
                worker.run()
                return  # a batch done, its task count reached, or asked to stop
            except (DatabaseError, InterfaceError):
                if not worker.running:
                    raise
                if time.monotonic() - started > STEADY_AFTER:
                    pause = FIRST_PAUSE
                logger.exception("worker %s: the database failed; the queue is read again in %.1f s", worker_id,
                                 pause)
                try:
                    close_old_connections()
                except (DatabaseError, InterfaceError):
                    logger.debug("closing the broken connection failed", exc_info=True)
                time.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)

    def _sweep_forever(self, every: float) -> None:
        analysed = 0.0
        while True:
            try:
                if time.monotonic() - analysed > STATISTICS_EVERY or not analysed:
                    analysed = time.monotonic()
                    refresh_statistics()
                mark_lost_tasks()
                found = sweep_computer_turns()
                if found:
                    logger.warning("sweep: gave %d waiting game(s) a new task", found)
                # clocks: flags fallen and first moves not made in time, in games nobody looks at; and games
                # against the computer left for a day
                ended = sweep_clocks() + sweep_idle_games()
                if ended:
                    logger.info("sweep: ended %d game(s) on time or aborted", ended)
                sweep_seeks()  # quick pairing: seeks whose seeker's page stopped asking
                schedule_arenas()  # the site's own arenas of the next hour (unless ARENA_SCHEDULE is off)
                sweep_bot_challenges()  # challenges a bot left unanswered for 20 s: taken as declined
            except Exception:  # a locked or restarting database, or a bug: logged, and the next round tries again
                logger.exception("sweep failed")
            finally:
                try:
                    close_old_connections()
                except (DatabaseError, InterfaceError):
                    logger.debug("closing the broken connection failed", exc_info=True)
            time.sleep(every)

    def _arenas_forever(self, every: float) -> None:
        """Arena tournaments: pair their free players within about ``every`` seconds, end them on time."""
        while True:
            began = time.monotonic()
            try:
                sweep_arenas()
            except Exception:  # as the sweep: logged, and the next round tries again
                logger.exception("arena pairing failed")
            finally:
                try:
                    close_old_connections()
                except (DatabaseError, InterfaceError):
                    logger.debug("closing the broken connection failed", exc_info=True)
            time.sleep(max(0.05, every - (time.monotonic() - began)))  # every ``every`` s, however long it took
