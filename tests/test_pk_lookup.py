"""games.pk_lookup: the move path's precompiled row lookup and writes (see also test_services.py)."""

from __future__ import annotations

import pytest

from games.models import Game
from games.pk_lookup import get_by_pk, update_fields
from games.services import game_create

pytestmark = pytest.mark.django_db


def test_update_unless_changed_is_a_compare_and_set(player):
    game = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    copy = get_by_pk(Game, game.pk)
    copy.move_list, copy.ply, copy.version = "4", 1, 1
    assert update_fields(copy, ["move_list", "ply", "version"], unless_changed={"version": 0}) == 1
    stored = Game.objects.get(pk=game.pk)
    assert (stored.move_list, stored.ply, stored.version) == ("4", 1, 1)

    game.move_list, game.ply, game.version = "0", 1, 1  # computed from version 0, which is gone
    assert update_fields(game, ["move_list", "ply", "version"], unless_changed={"version": 0}) == 0
    stored = Game.objects.get(pk=game.pk)
    assert (stored.move_list, stored.ply, stored.version) == ("4", 1, 1)


def test_update_of_a_deleted_row_updates_nothing(player):
    game = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    Game.objects.filter(pk=game.pk).delete()
    game.ply = 1
    assert update_fields(game, ["ply"]) == 0
    assert update_fields(game, ["ply"], unless_changed={"version": 0}) == 0
    assert get_by_pk(Game, game.pk) is None
