"""State changes of players that are more than a form's save()."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import Player, PlayerSession
from .sessions import SessionStore

logger = logging.getLogger(__name__)


def password_reset_claim(*, player: Player) -> bool:
    """Record that a reset email goes to ``player`` now; False if one went out within PASSWORD_RESET_INTERVAL.

    One conditional UPDATE, so two requests at once (two workers) cannot both win.
    """
    now = timezone.now()
    due = Q(password_reset_sent_at__isnull=True) | Q(password_reset_sent_at__lte=now - settings.PASSWORD_RESET_INTERVAL)
    with transaction.atomic():
        claimed = Player.objects.filter(due, pk=player.pk).update(password_reset_sent_at=now)
    if claimed:
        player.password_reset_sent_at = now
    return bool(claimed)


def end_other_sessions(*, player: Player, keep: str | None) -> int:
    """End every session of ``player`` but the one whose key is ``keep``; returns how many ended.

    Each copy of those sessions' cookies stops working at its next request (the row and its cached copy go).
    """
    keys = list(PlayerSession.objects.filter(player=player).exclude(session_key=keep or "")
                .values_list("session_key", flat=True))
    if keys:
        PlayerSession.objects.filter(session_key__in=keys).delete()
        try:
            caches[settings.SESSION_CACHE_ALIAS].delete_many([SessionStore.cache_key_prefix + key for key in keys])
        except Exception:  # the cache is down: the rows are gone, and a cached copy goes with the cache
            logger.warning("the sessions' cache failed: ended sessions' cached copies may remain", exc_info=True)
    return len(keys)


def remember_pairing_board(*, player: Player, board: str) -> None:
    """The board the player just sought a game on: the home page shows its tiles first next time."""
    if player.pairing_board != board:
        Player.objects.filter(pk=player.pk).update(pairing_board=board)
        player.pairing_board = board
