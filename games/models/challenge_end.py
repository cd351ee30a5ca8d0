"""Why a challenge went away (issue 33: the accounts' event streams say it).

A challenge cancelled by its maker or declined by its invitee is deleted with its game row (games.services.challenges),
so the row cannot say what became of it. One of these is written in the same transaction, and the event streams
(games.api.streams) read it to tell ``challengeCanceled`` from ``challengeDeclined``. Kept a few minutes: a stream
that was not open then missed nothing it needs (it is given the challenges still waiting when it opens). The
workers' sweep deletes old ones (games.services.bots.sweep_bot_challenges).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ChallengeEnd(models.Model):
    class Reason(models.TextChoices):
        CANCELED = "canceled", "cancelled by its maker"
        DECLINED = "declined", "declined"
        #: a challenge to a bot not answered in time (games.services.bots.BOT_ANSWER_WITHIN): taken as declined
        TIMEOUT = "timeout", "not answered in time"

    #: the deleted game's id (no foreign key: the row is gone)
    game_id = models.BigIntegerField(db_index=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=10, choices=Reason.choices)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"challenge {self.game_id}: {self.reason}"
