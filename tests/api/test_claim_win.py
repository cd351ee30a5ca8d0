"""Claiming the win from an opponent who stopped playing (no clocks, but no endless games either)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from games.services import (
    move_play,
)


def idle(game: Game, *, hours: float) -> None:
    """Make the turn of the side to move, and the game's last change, ``hours`` old (a queryset update leaves
    ``updated`` as given)."""
    then = timezone.now() - timedelta(hours=hours)
    Game.objects.filter(pk=game.pk).update(updated=then, turn_started=then)


def test_api_claim_win(duel, player, player_client, other_client):
    move_play(game=duel, player=player, move=4)
    data = player_client.get(f"/api/games/{duel.pk}").json()
    assert data["claim_win_after"] is not None
    response = player_client.post(f"/api/games/{duel.pk}/claim-win")
    assert response.status_code == 409 and response.json()["code"] == "claim_refused"
    idle(duel, hours=80)
    response = other_client.post(f"/api/games/{duel.pk}/claim-win")  # bob, on his own turn
    assert response.status_code == 409
    data = player_client.post(f"/api/games/{duel.pk}/claim-win").json()
    assert data["status"] == "finished" and data["result"] == "X" and data["result_reason"] == "abandoned"
    assert data["claim_win_after"] is None
