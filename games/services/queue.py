"""The task queue as the services use it: the ``task`` decorator, the queues, and whether a task is still to come.

The queue is Django's Tasks framework (DEP 14) through the ``django-tasks`` backport and its database backend
(``django-tasks-db``): tasks are rows of the site's own database, enqueued in the same transaction as the change
that calls for them, so no extra server is needed and nothing is lost if a process dies (docs/operations.md,
"Workers"). Each task is defined beside the service function it runs (``moves.computer_turn``,
``assists.hint_for``...): the services enqueue, the workers run services, and nothing imports in a circle.

Whether a task is pending is asked of the framework's public API only (``pending``: the result by its id, which
the service stored on the game or the player when it enqueued it), never of a backend's own table, so that the
same code runs on Django 6's ``django.tasks``.

Each task is idempotent: it carries the game's version when it was enqueued and does nothing once the game has
moved on, and every move is stored by a compare-and-set on that version, so retries, duplicates and several
workers never store two replies.
"""

from __future__ import annotations

import os
from datetime import timedelta

from django.utils import timezone

try:  # Django 6
    from django.tasks import TaskResultStatus, default_task_backend, task
    from django.tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY
    from django.tasks.exceptions import TaskResultDoesNotExist
except ImportError:  # Django 5.2: the backport
    from django_tasks import TaskResultStatus, default_task_backend, task
    from django_tasks.base import DEFAULT_TASK_PRIORITY, TASK_MIN_PRIORITY
    from django_tasks.exceptions import TaskResultDoesNotExist

__all__ = [
    "ASSIST_QUEUE", "COMPUTER_QUEUE", "DEFAULT_TASK_PRIORITY", "LOST_AFTER", "TASK_MIN_PRIORITY", "pending", "task",
]

#: queues, in the order a worker serves them: the computer's moves before hints and analysis
COMPUTER_QUEUE = "computer"
ASSIST_QUEUE = "assist"

#: a task running this long has lost its worker (killed mid-thought): it is taken for lost and replaced; a move
#: takes at most about a second of thought, so this is generous
LOST_AFTER = timedelta(seconds=float(os.environ.get("TASK_LOST_AFTER", "30")))


def pending(result_id: str, *, ready_for: timedelta | None = None, **kwargs: object) -> bool:
    """Whether the task ``result_id`` (a ``TaskResult.id`` the caller stored) is still to come: waiting, or running
    for less than ``LOST_AFTER``. ``ready_for``: a task waiting longer than this is taken for lost too (no worker
    is serving the queue). ``kwargs``: the arguments the task must have been enqueued with (else it is another
    task's id, or an older one's)."""
    if not result_id:
        return False
    try:
        result = default_task_backend.get_result(result_id)
    except (TaskResultDoesNotExist, NotImplementedError, ValueError):  # gone, or a backend that keeps no results
        return False
    if any(result.kwargs.get(name) != value for name, value in kwargs.items()):
        return False
    now = timezone.now()
    if result.status == TaskResultStatus.READY:
        return ready_for is None or (result.enqueued_at is not None and result.enqueued_at > now - ready_for)
    if result.status == TaskResultStatus.RUNNING:
        return result.started_at is not None and result.started_at > now - LOST_AFTER
    return False
