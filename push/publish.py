"""``publish(topics)``: the writers' side of the push (see the package's docstring for the whole way)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from .hub import hub

logger = logging.getLogger(__name__)


def publish(topics: Iterable[str]) -> None:
    """Tell the listeners of ``topics`` that something changed, once the caller's transaction has committed (at
    once outside one): a page that hears it then reads what committed. Never raises: a lost notice costs a
    page's next poll, not the change."""
    names = sorted(set(topics))
    if names:
        transaction.on_commit(lambda: _append(names))


def _append(topics: list[str]) -> None:
    try:
        hub.log.append(topics)
    except Exception:  # Redis or the database unreachable: the change stands, the pages poll
        logger.warning("push: a notice for %s was lost", " ".join(topics), exc_info=True)
