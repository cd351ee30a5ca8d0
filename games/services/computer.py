"""The computer players of a game: which strategy sits on a seat, whether it answers at once, and its turns
handed to the task queue's workers (``games.tasks``): a slow computer never thinks inside a web request."""

from __future__ import annotations

import os
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

try:  # Django 6
    from django.tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY
except ImportError:  # Django 5.2: the backport
    from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY

from .. import tasks
from ..engine import Strategy, Variant, difficulty, get_strategy
from ..models import Game
from ..positions import game_variant
from ..selectors import games_waiting_for_computer

#: a watched game's moves come this far apart, so that people can follow them
WATCH_PACE = timedelta(seconds=1)

#: strategies that answer in a few milliseconds on every variant they support (engine bench: <= 2 ms on 19 x 19)
QUICK_STRATEGIES = frozenset({"random", "ring", "threats", "pairing"})


def answers_at_once(strategy: Strategy, variant: Variant) -> bool:
    """Whether ``strategy`` answers in milliseconds, so its reply can come back in the player's own request.

    ``random``, ``ring``, ``threats``, ``pairing``; ``perfect`` on boards of at most 9 cells (classic:
    well under 10 ms; on 4 x 4 its first move in a process solves the board, about 0.15 s); ``alphabeta``
    at depth 1 or 2 (easy and medium: about 2 ms even on 19 x 19 and the nested boards). Everything
    else (mcts, deeper alphabeta) thinks for up to a second: the page asks for it in a second request.
    """
    name = strategy.name
    if name in QUICK_STRATEGIES:
        return True
    if name == "perfect":
        return variant.cell_count <= 9
    if name == "alphabeta":  # shallow anywhere; any depth on classic's nine cells
        return int(strategy.options.get("depth") or 99) <= 2 or variant.cell_count <= 9
    if name == "mcts":  # the ladder's low rungs: a few hundred iterations are milliseconds (about 40,000 a second)
        return bool(strategy.options.get("iterations")) and int(strategy.options["iterations"]) <= 1000
    if name == "erring":
        return answers_at_once(strategy.inner, variant)
    return False


def seat_strategy(game: Game, side: str, variant: Variant | None = None) -> Strategy:
    """The computer player sitting on ``side`` (ValueError if that seat is not a computer)."""
    level, name = game.seat_computer(side)
    if name:
        return get_strategy(name)
    if level:
        return difficulty(variant or game_variant(game), level)
    raise ValueError(f"seat {side} of game {game.pk} is not a computer")



def schedule_computer_move(game: Game, *, after: timedelta | None = None) -> None:
    """The computer to move in ``game`` will play in a worker: its task is enqueued in the caller's transaction
    (so it exists exactly when the change that made it the computer's turn is stored), for the game's version
    now. A takeback, a resignation or another move in between leave that version behind: the task then does
    nothing. ``after``: not before then (a watched game's pace). The task waits its player's turn
    (``fair_priority``): one player's many games do not queue everyone else's moves behind theirs."""
    player_id = game_owner_id(game)
    task = tasks.computer_turn.using(priority=fair_priority(player_id))
    if after:
        task = task.using(run_after=timezone.now() + after)
    task.enqueue(game_id=game.pk, version=game.version, player_id=player_id)


def game_owner_id(game: Game) -> int | None:
    """The player whose computer turns these are: the game's creator (a game against the computer, a watched
    game, a game from a position), else the player on a seat."""
    return game.created_by_id or game.x_player_id or game.o_player_id


def fair_priority(player_id: int | None) -> int:
    """The queue priority of a new computer turn of ``player_id``'s: one step lower for each turn of theirs
    already waiting. The workers take the highest priority first, the oldest among equals (django-tasks-db's
    order), so every player's first waiting turn comes before anyone's second, their second before anyone's
    third...: sixteen games of one player no longer put sixteen moves before another player's one. Only the
    order changes: every turn is still enqueued (and swept up again if lost), and two turns counted at the same
    moment at worst share a step."""
    if player_id is None:
        return DEFAULT_TASK_PRIORITY
    waiting = DBTaskResult.objects.filter(
        status="READY", task_path=tasks.computer_turn.module_path, args_kwargs__kwargs__player_id=player_id,
    ).count()
    return max(TASK_MIN_PRIORITY, DEFAULT_TASK_PRIORITY - waiting)


def slow_computer_to_move(game: Game, variant: Variant | None = None) -> bool:
    """A computer is to move in the running ``game`` and thinks too long to answer inside a request."""
    if game.status != Game.Status.ACTIVE or not game.is_computer(game.to_move):
        return False
    variant = variant or game_variant(game)
    return not answers_at_once(seat_strategy(game, game.to_move, variant), variant)


#: a game waiting this long for its computer without a live task is given one (the sweep)
SWEEP_GRACE = timedelta(seconds=float(os.environ.get("TASK_SWEEP_GRACE", "5")))
#: a task running this long has lost its worker (killed mid-thought): it is marked failed and replaced; a move
#: takes at most about a second of thought, so this is generous
LOST_AFTER = timedelta(seconds=float(os.environ.get("TASK_LOST_AFTER", "30")))
#: games the sweep looks at per round, oldest first
SWEEP_BATCH = 200


def sweep_computer_turns(*, now=None) -> int:
    """Make sure every game waiting for a computer has a live task: one enqueued before a worker was killed, or
    lost between a commit and a crash, is replaced. Tasks running for longer than ``LOST_AFTER`` are marked
    failed (staff see them in the admin). Every worker runs this now and then; duplicates are harmless (each
    task checks the game's version, and moves are stored by compare-and-set). Returns the tasks enqueued."""
    now = now or timezone.now()
    path = tasks.computer_turn.module_path
    lost = DBTaskResult.objects.running().filter(task_path=path, started_at__lt=now - LOST_AFTER)
    lost.update(
        status="FAILED", finished_at=now, exception_class_path="games.tasks.WorkerLost",
        traceback="The worker running this task stopped before it finished (killed or restarted).",
    )
    enqueued = 0
    for game in games_waiting_for_computer(changed_before=now - SWEEP_GRACE)[:SWEEP_BATCH]:
        live = DBTaskResult.objects.filter(
            task_path=path, status__in=("READY", "RUNNING"), args_kwargs__kwargs__game_id=game.pk
        )
        if live.exists():
            continue
        with transaction.atomic():
            schedule_computer_move(game)
        enqueued += 1
    return enqueued
