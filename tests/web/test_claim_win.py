"""Claiming the win from an opponent who stopped playing (no clocks, but no endless games either)."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.selectors import claim_win_after
from games.services import (
    move_play,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def idle(game: Game, *, hours: float) -> None:
    """Make the turn of the side to move, and the game's last change, ``hours`` old (a queryset update leaves
    ``updated`` as given)."""
    then = timezone.now() - timedelta(hours=hours)
    Game.objects.filter(pk=game.pk).update(updated=then, turn_started=then)


def test_the_page_offers_the_claim_only_when_due(duel, player, player_client, other_client):
    move_play(game=duel, player=player, move=4)
    page = reverse("games:detail", args=[duel.pk])
    assert 'id="claim-win"' not in player_client.get(page).content.decode()
    idle(duel, hours=80)
    assert 'id="claim-win"' in player_client.get(page).content.decode()
    assert 'id="claim-win"' not in other_client.get(page).content.decode()  # bob is the one to move

    response = player_client.post(reverse("games:claim", args=[duel.pk]), **HTMX)
    assert response.status_code == 200
    assert "X wins (O stopped playing)" in response.content.decode()
    # Bob's page learns it from its poll.
    assert "X wins (O stopped playing)" in other_client.get(
        reverse("games:poll", args=[duel.pk]), {"v": "0"}, **HTMX
    ).content.decode()


def test_a_claim_too_early_is_refused_in_words(duel, player, player_client):
    move_play(game=duel, player=player, move=4)
    response = player_client.post(reverse("games:claim", args=[duel.pk]), **HTMX)
    assert response.status_code == 409
    assert "still has time to move" in response.content.decode()
    assert Game.objects.get(pk=duel.pk).status == Game.Status.ACTIVE


def test_the_claim_appears_on_an_open_page_without_a_reload(duel, player, player_client):
    move_play(game=duel, player=player, move=4)
    game = Game.objects.get(pk=duel.pk)
    page = player_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    at = int(claim_win_after(game).timestamp()) + 1
    assert f"?v={game.version}&amp;c={at}" in page  # the poll carries the moment the claim comes due
    poll = reverse("games:poll", args=[duel.pk])
    assert player_client.get(poll, {"v": game.version, "c": at}, **HTMX).status_code == 204  # not yet
    for garbage in ("soon", "nan", ""):
        assert player_client.get(poll, {"v": game.version, "c": garbage}, **HTMX).status_code == 204
    idle(duel, hours=80)  # the time has come; nothing else changed
    response = player_client.get(poll, {"v": game.version, "c": at - 80 * 3600}, **HTMX)
    assert response.status_code == 200 and 'id="claim-win"' in response.content.decode()


def test_no_claim_moment_for_the_player_to_move(duel, player, other_client):
    move_play(game=duel, player=player, move=4)
    page = other_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    duel.refresh_from_db()
    assert f"/poll/?v={duel.version}\"" in page  # the game's poll, without a claim moment (c=...)
