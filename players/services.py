"""State changes of players that are more than a form's save()."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from .models import Player


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
