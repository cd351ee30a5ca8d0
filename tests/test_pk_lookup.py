"""games.pk_lookup: the move path's precompiled row lookup and writes (see also test_services.py)."""

from __future__ import annotations

import pytest

from games.models import Game
from games.pk_lookup import get_by_pk, insert_row, update_fields
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


def test_insert_row_stores_what_save_stores(player, other_player):
    """A new game inserted by the SQL built once reads back as the same game saved by the ORM: every field
    (JSON options, foreign keys, booleans, dates, the clock's columns), its primary key set and read back."""
    import copy
    from datetime import timedelta

    from django.utils import timezone

    started = timezone.now() - timedelta(minutes=3)

    def fresh() -> Game:
        return Game(variant="nxn", options={"size": 5}, opponent="human", created_by=player, invitee=other_player,
                    o_player=other_player, private=True, status=Game.Status.ACTIVE, pool="nxn-5-blitz",
                    turn_started=started, move_list="1,2", ply=2, version=4)

    by_orm, by_sql = fresh(), fresh()
    by_orm.save()
    insert_row(by_sql)
    assert by_sql.pk is not None and by_sql.pk != by_orm.pk and not by_sql._state.adding
    assert by_sql._state.db == by_orm._state.db
    fields = [f.attname for f in Game._meta.concrete_fields if f.attname not in ("id", "created", "updated")]
    stored_orm, stored_sql = Game.objects.get(pk=by_orm.pk), Game.objects.get(pk=by_sql.pk)
    assert {f: getattr(stored_sql, f) for f in fields} == {f: getattr(stored_orm, f) for f in fields}
    assert {f: getattr(by_sql, f) for f in fields} == {f: getattr(stored_sql, f) for f in fields}
    # auto_now_add and auto_now are set, on the instance as in the row, as save() sets them
    assert abs((stored_sql.created - stored_orm.created).total_seconds()) < 60
    assert (stored_sql.created, stored_sql.updated) == (by_sql.created, by_sql.updated)
    another = copy.copy(fresh())
    insert_row(another)
    assert another.pk > by_sql.pk
