"""The one loader of "a game this viewer may see" (``selectors.game_for_viewer``)."""

from __future__ import annotations

import pytest

from games.errors import GameNotFound
from games.selectors import MAX_ID, game_for_viewer
from games.services import challenge_create, game_create

pytestmark = pytest.mark.django_db


def test_a_player_loads_their_game_with_its_players(player):
    game = game_create(player=player, variant="classic", opponent="easy")
    loaded = game_for_viewer(game.pk, player)
    assert loaded.pk == game.pk and loaded.x_player == player and loaded.created_by == player


@pytest.mark.parametrize("pk", [0, -1, MAX_ID + 1, 10**30, True, "1", 1.0, None])
def test_what_is_no_game_id_is_not_found(player, pk):
    game_create(player=player, variant="classic", opponent="easy")  # game 1 may exist: never loaded by these
    with pytest.raises(GameNotFound, match="no such game"):
        game_for_viewer(pk, player)


def test_a_missing_game_and_a_hidden_one_look_the_same(player, other_player, make_player):
    private = challenge_create(player=player, variant="classic", invitee=other_player)
    stranger = make_player("mallory")
    with pytest.raises(GameNotFound) as hidden:
        game_for_viewer(private.pk, stranger)
    with pytest.raises(GameNotFound) as missing:
        game_for_viewer(private.pk + 1000, stranger)
    assert str(hidden.value) == str(missing.value)
    assert game_for_viewer(private.pk, other_player).pk == private.pk  # the invitee sees it


def test_a_public_game_is_seen_by_anyone_signed_in(player, make_player):
    game = game_create(player=player, variant="classic", opponent="easy")
    assert game_for_viewer(game.pk, make_player("bob")).pk == game.pk


def test_an_anonymous_viewer_sees_nothing(player):
    from django.contrib.auth.models import AnonymousUser

    game = game_create(player=player, variant="classic", opponent="easy")
    with pytest.raises(GameNotFound):
        game_for_viewer(game.pk, AnonymousUser())
