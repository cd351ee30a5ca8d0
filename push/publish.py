"""``publish(topics)``: the writers' side of the push (see the package's docstring for the whole way)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from .hub import hub
from .transports import DatabaseLog

logger = logging.getLogger(__name__)


def publish(topics: Iterable[str]) -> None:
    """Tell the listeners of ``topics`` that something changed, once the caller's transaction has committed (at
    once outside one): a page that hears it then reads what committed. Never raises after the commit: a lost
    notice costs a page's next poll, not the change (on SQLite the notice is written in the caller's transaction,
    and fails with it)."""
    names = sorted(set(topics))
    if not names:
        return
    log = hub.log
    if isinstance(log, DatabaseLog) and log.commits_in_order() and transaction.get_connection().in_atomic_block:
        # SQLite: one writer at a time, so a notice written in the change's own transaction commits with it, in
        # commit order, and is seen by no reader before: one write transaction per change instead of two (the
        # second one queued for SQLite's write lock behind every other change)
        log.append(names)
    else:
        transaction.on_commit(lambda: _append(names))


def _append(topics: list[str]) -> None:
    try:
        hub.log.append(topics)
    except Exception:  # Redis or the database unreachable: the change stands, the pages poll
        logger.warning("push: a notice for %s was lost", " ".join(topics), exc_info=True)
