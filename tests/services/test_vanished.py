"""A game that vanishes while a request is on its way (a challenge cancelled or declined meanwhile) is refused with
the same clear "not found" as a game that never was, by every service that locks or reads it: never a
``Game.DoesNotExist`` (a 500 at the edges). The audit found 55 such 500s in 68 rounds of races."""

from __future__ import annotations

import pytest

from games import services
from games.edge.http_errors import http_error
from games.errors import ChallengeGone, GameNotFound
from games.models import Game

pytestmark = pytest.mark.django_db

ACTIONS = {
    "resign": lambda game, who: services.game_resign(game=game, player=who),
    "draw offer": lambda game, who: services.draw_offer(game=game, player=who),
    "draw accept": lambda game, who: services.draw_accept(game=game, player=who),
    "draw decline": lambda game, who: services.draw_decline(game=game, player=who),
    "takeback": lambda game, who: services.move_takeback(game=game, player=who),
    "claim": lambda game, who: services.game_claim_win(game=game, player=who),
    "rematch offer": lambda game, who: services.rematch_offer(game=game, player=who),
    "rematch accept": lambda game, who: services.rematch_accept(game=game, player=who),
    "rematch decline": lambda game, who: services.rematch_decline(game=game, player=who),
    "hint": lambda game, who: services.move_hint(game=game, player=who),
    "move": lambda game, who: services.move_play(game=game, player=who, move=4),
    "computer move": lambda game, who: services.computer_move(game=game, player=who),
    "accept": lambda game, who: services.challenge_accept(game=game, player=who),
    "cancel": lambda game, who: services.challenge_cancel(game=game, player=who),
    "decline": lambda game, who: services.challenge_decline(game=game, player=who),
    "decide": lambda game, who: services.game_decide(game=game, result="X"),
}


@pytest.mark.parametrize("action", ACTIONS)
def test_an_action_on_a_challenge_cancelled_meanwhile_is_not_found(action, player, other_player):
    challenge = services.challenge_create(player=player, variant="classic", invitee=other_player)
    seen = Game.objects.get(pk=challenge.pk)  # what the request read before the cancel
    services.challenge_cancel(game=challenge, player=player)
    with pytest.raises((GameNotFound, ChallengeGone)) as refused:
        ACTIONS[action](seen, other_player if action in ("accept", "decline") else player)
    assert http_error(refused.value).status == 404
    assert not Game.objects.filter(pk=challenge.pk).exists()
