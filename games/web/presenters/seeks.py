"""Quick pairing in words: the lobby's seeks (``games/seeks.html#seek_list``) and the player's own panel
(``games/seeks.html#quick_pairing``: the form, or "Looking for an opponent…" while the seek waits)."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.utils import timezone

from ...models import Seek
from ...rating.glicko2 import is_provisional
from ...rating.matchmaking import rating_window
from ...rating.pools import Pool
from ...selectors import fresh_seeks, open_seeks, rating_deviation
from ..forms import SeekForm
from .home import pairing_board, pairing_tiles

#: how often the waiting panel asks about its seek (which keeps it alive and looks again, the window wider)
SEEK_PING = "2s"


def _deviation(seek: Seek) -> float | None:
    """The seeker's rating deviation in the seek's pool, for the "?" of a provisional rating shown everywhere else
    (the lobby's seeks come with it: ``open_seeks``)."""
    if hasattr(seek, "deviation"):
        return seek.deviation
    return rating_deviation(seek.player_id, seek.pool)


def seek_row(seek: Seek, viewer: Any, now: datetime) -> dict[str, Any]:
    pool = Pool.parse(seek.pool)
    window = rating_window((now - seek.created).total_seconds())
    return {
        "seek": seek,
        "player": seek.player.get_username(),
        "rating": f"{round(seek.rating)}{'?' if is_provisional(_deviation(seek)) else ''}",
        "board": pool.label.rsplit(" · ", 1)[0],
        "speed": pool.label.rsplit(" · ", 1)[1],
        "clock": "No clock" if seek.clock == "none" else seek.clock,
        "rated": "Rated" if seek.rated else "Casual",
        "yours": seek.player_id == getattr(viewer, "pk", None),
        "window": None if math.isinf(window) else round(window),
    }


def seek_rows(seeks: list[Seek], viewer: Any, now: datetime) -> list[dict[str, Any]]:
    return [seek_row(seek, viewer, now) for seek in seeks]


def quick_pairing_context(
    viewer: Any, *, seek: Seek | None = None, form: SeekForm | None = None, note: str = "", board: str | None = None,
) -> dict[str, Any]:
    """The panel: ``seek`` waiting (the player's own if not given), else the tiles of ``board`` (by default the one
    the player last sought on) and the form (``form``: a refused one)."""
    now = timezone.now()
    if seek is None and form is None:
        seek = fresh_seeks(now=now).filter(player=viewer).select_related("player").first()
    waiting = seek is not None and seek.game_id is None
    return {
        "my_seek": seek_row(seek, viewer, now) if waiting else None,
        "seek_form": form or SeekForm(auto_id="seek_%s"),
        "seek_note": note,
        "seek_ping": SEEK_PING,
        "pairing": None if waiting else pairing_tiles(
            pairing_board(board, getattr(viewer, "pairing_board", "")), open_seeks(now=now), viewer
        ),
    }
