"""Slow computer work, run by the task queue's workers (``manage.py worker``), never inside a web request.

The queue is Django's Tasks framework (DEP 14) through the ``django-tasks`` backport and its database backend
(``django-tasks-db``): tasks are rows of the site's own database, enqueued in the same transaction as the change
that calls for them, so no extra server is needed and nothing is lost if a process dies (see docs/operations.md,
"Workers"). The same code runs on ``django.tasks`` once the project is on Django 6.

Each task is idempotent: it carries the game's version when it was enqueued and does nothing once the game has
moved on, and every move is stored by a compare-and-set on that version, so retries, duplicates and several
workers never store two replies.
"""

from __future__ import annotations

try:  # Django 6
    from django.tasks import task
except ImportError:  # Django 5.2: the backport
    from django_tasks import task

from . import services  # a module, not its names: the services enqueue these tasks, these call the services

#: queues, in the order a worker serves them: the computer's moves before hints and analysis
COMPUTER_QUEUE = "computer"
ASSIST_QUEUE = "assist"


@task(queue_name=COMPUTER_QUEUE)
def computer_turn(game_id: int, version: int, player_id: int | None = None) -> str:
    """The computer to move in game ``game_id`` plays, if the game is still at ``version``; what happened, in a
    word (the admin shows it): played, stale, finished, gone. ``player_id``: whose game it is, which orders the
    queue fairly between players (games.services.computer.fair_priority)."""
    return services.moves.play_computer_turn(game_id=game_id, version=version)


@task(queue_name=ASSIST_QUEUE)
def hint_for(game_id: int, ply: int, player_id: int) -> str:
    """The hard level's move for the position after ``ply`` moves, stored as the game's hint (``player_id``: who
    asked, held to one waiting request at a time)."""
    return services.assists.work_out_hint(game_id=game_id, ply=ply)


@task(queue_name=ASSIST_QUEUE)
def evaluate_position(position: str, player_id: int) -> dict:
    """The analysis board: the hard level's move and the exact outcome (where known) of a position string
    (``player_id``: who asked, held to one waiting request at a time); the result is the task's return value."""
    return services.assists.work_out_evaluation(position=position)


@task(queue_name=ASSIST_QUEUE)
def analyse_game(game_id: int, player_id: int | None = None) -> str:
    """A finished game's analysis, stored on it (``player_id``: who asked, or None when the game's end asked)."""
    return services.assists.work_out_analysis(game_id=game_id)
