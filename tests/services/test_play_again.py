"""Play again: a new game with a finished game's settings, for the player who started it (page and API)."""

from __future__ import annotations

import pytest

from games.errors import NotCreator, RematchRefused
from games.models import Game
from games.services import challenge_create, game_again, game_create

SETTINGS = ("variant", "options", "opponent", "private", "x_level", "x_strategy", "o_level", "o_strategy")


def settings_of(game: Game) -> tuple:
    return tuple(getattr(game, name) for name in SETTINGS) + (game.x_player_id, game.o_player_id)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"variant": "classic", "opponent": "easy", "side": "O"},
        {"variant": "mnk", "options": {"rows": 7, "cols": 8, "k": 4}, "opponent": "hard", "strategy": "threats"},
        {"variant": "ultimate", "opponent": "local", "private": True},
        {"variant": "nxn", "options": {"size": 5}, "opponent": "watch", "strategy": "random"},
        {"variant": "multi", "options": {"random_start": True}, "opponent": "medium"},
    ],
)
def test_the_same_settings_again(kwargs, player):
    game = game_create(player=player, **kwargs)
    again = game_again(game=game, player=player)
    assert again.pk != game.pk and again.status == Game.Status.ACTIVE
    assert again.ply == (1 if kwargs.get("side") == "O" else 0)  # the quick computer has opened as X
    assert settings_of(again) == settings_of(game)
    assert again.created_by_id == player.pk


def test_only_its_creator_and_not_against_another_player(player, other_player, duel, make_game):
    game = make_game(opponent="easy")
    with pytest.raises(NotCreator):
        game_again(game=game, player=other_player)
    with pytest.raises(RematchRefused, match="rematch"):
        game_again(game=duel, player=player)
    with pytest.raises(RematchRefused):
        game_again(game=challenge_create(player=player, variant="classic"), player=player)
    assert Game.objects.count() == 3  # nothing new
