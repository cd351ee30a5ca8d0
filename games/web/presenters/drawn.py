"""Fragments drawn once per distinct item: ``draw_each`` joins what a template partial draws for each item.

A board's cells and a move list's rows are drawn on every move answer, and their HTML depends on the item's tuple
alone (a cell: move, mark, name, ...; a row: ply, side, name). A board has few kinds of cell and a game few kinds
of row, so each distinct tuple is drawn by its partial once per process and remembered (``DRAWN_KEEP`` at most):
the template stays the one place that says how they look, and a move answer spends its template work on the
rest of the page. Under DEBUG every item is drawn every time, so that an edited template shows at once.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache

from django.conf import settings
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

#: distinct items remembered per process (every cell of every board size in every state seen lately)
DRAWN_KEEP = 20_000


@lru_cache(maxsize=DRAWN_KEEP)
def _drawn(partial: str, name: str, item: Hashable) -> str:
    return get_template(partial).render({name: (item,)})


def draw_each(partial: str, name: str, items: Sequence[Hashable]) -> SafeString:
    """What ``partial`` draws for ``items`` (its loop runs over the context variable ``name``), item by item."""
    if settings.DEBUG:
        return mark_safe(get_template(partial).render({name: items}))
    return mark_safe("".join([_drawn(partial, name, item) for item in items]))
