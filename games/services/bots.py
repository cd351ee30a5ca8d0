"""Bot accounts (issue 33): an account becomes a bot, and challenges a bot leaves unanswered are taken as declined.

A bot is a program that plays through the bot API (games.api.bots, games.api.streams) with its owner's personal
token, as lichess's BOT accounts do. The account's seats, clocks and ratings are those of any player; what differs
is shown (``Player.display_name``: "BOT name"), where it may play (not through the web pages, not in quick pairing:
``check_person``) and the leaderboard it is listed on (``selectors.leaderboard(bots=True)``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from ..errors import BotRefused, BotUpgradeRefused, GameNotFound
from ..live import player_changed
from ..models import ChallengeEnd, Game
from ..selectors import challenges_unanswered_by_bots, game_for_viewer, played_rated_game_against_person
from .challenges import close_challenge

#: a challenge to a bot that has not been accepted or declined this long after it was made is taken as declined
BOT_ANSWER_WITHIN = timedelta(seconds=20)
#: why a challenge went away is kept this long (the event streams read it: games.models.challenge_end)
CHALLENGE_ENDS_KEPT = timedelta(minutes=10)
#: challenges the sweep declines at most per round, oldest first
SWEEP_BATCH = 200


def bot_upgrade(*, player):
    """Turn ``player``'s account into a bot, for good. Refused (BotUpgradeRefused) for a bot already and for an
    account that has played a rated game against a person: its rating was earned by a person, and a program would
    carry it on. Returns the player, now a bot; their open pages and streams hear of it."""
    model = get_user_model()
    with transaction.atomic():
        locked = model.objects.select_for_update().get(pk=player.pk)
        if locked.is_bot:
            raise BotUpgradeRefused("this account is a bot already")
        if played_rated_game_against_person(locked):
            raise BotUpgradeRefused(
                "this account has played a rated game against a person: it cannot become a bot (make a new account "
                "for your program)"
            )
        model.objects.filter(pk=locked.pk).update(is_bot=True)
        player_changed(locked.pk)
    player.is_bot = True
    return player


def check_person(player, doing: str) -> None:
    """Refuse (BotRefused) what only people do (``doing``, in words: "play through the web pages") to a bot."""
    if getattr(player, "is_bot", False):
        raise BotRefused(f"a bot account cannot {doing}: bots play through the bot API (docs/bots.md)")


def sweep_bot_challenges(*, now: datetime | None = None) -> int:
    """Take as declined every challenge a bot left unanswered for ``BOT_ANSWER_WITHIN`` (its maker's page and event
    stream hear ``timeout``), and forget old ``ChallengeEnd`` rows. Every worker's sweep calls it; several at once
    are harmless (each challenge is checked again under its row lock). Returns the challenges declined."""
    now = now or timezone.now()
    declined = 0
    for game in challenges_unanswered_by_bots(before=now - BOT_ANSWER_WITHIN)[:SWEEP_BATCH]:
        with transaction.atomic():
            try:
                locked = game_for_viewer(game.pk, None, visible_only=False, for_update=True)
            except GameNotFound:
                continue  # answered or cancelled meanwhile
            if locked.status == Game.Status.OPEN and locked.created < now - BOT_ANSWER_WITHIN:
                close_challenge(locked, ChallengeEnd.Reason.TIMEOUT)
                declined += 1
    ChallengeEnd.objects.filter(created__lt=now - CHALLENGE_ENDS_KEPT).delete()
    return declined
