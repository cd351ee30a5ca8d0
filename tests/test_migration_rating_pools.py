"""Migration 0021 (ratings per pool): old Elo ratings, one per variant, become Glicko-2 ratings per pool by
replaying every rated game in the order the games finished (games.migrations.0021_rating_pools)."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.models import Game, Rating
from games.rating.glicko2 import Glicko, rate_game

migration = importlib.import_module("games.migrations.0021_rating_pools")


def old_rated_game(x, o, result: str, *, variant="classic", options=None, hours_ago=0) -> Game:
    """A game as the Elo site left it: rated (Elo figures on it), no pool, no deviations."""
    return Game.objects.create(
        variant=variant,
        options=options or {},
        opponent="human",
        created_by=x,
        x_player=x,
        o_player=o,
        status="finished",
        result=result,
        ply=5,
        finished=timezone.now() - timedelta(hours=hours_ago),
        x_rating_before=1500,
        x_rating_after=1520,
        o_rating_before=1500,
        o_rating_after=1480,
    )


def test_old_ratings_are_replayed_into_pools(player, other_player, make_player):
    carol = make_player("carol")
    first = old_rated_game(player, other_player, "X", hours_ago=3)
    second = old_rated_game(other_player, player, "draw", hours_ago=2)
    five = old_rated_game(player, carol, "O", variant="nxn", options={"size": 5}, hours_ago=1)
    unrated = Game.objects.create(
        variant="classic",
        opponent="human",
        created_by=player,
        x_player=player,
        o_player=carol,
        status="finished",
        result="X",
        ply=1,
        finished=timezone.now(),
        unrated_reason="too_short",
    )
    challenge = Game.objects.create(
        variant="nxn", options={"size": 7}, opponent="human", created_by=carol, x_player=carol, status="open"
    )
    # the old rows: one Elo rating per variant
    Rating.objects.create(player=player, pool="", variant="classic", rating=1510, games=2)
    Rating.objects.create(player=player, pool="-", variant="nxn", rating=1480, games=1)

    migration.replay_ratings(apps, None)

    alice1, bob1 = rate_game(Glicko(), Glicko(), 1.0)
    bob2, alice2 = rate_game(bob1, alice1, 0.5)  # bob was X in the second game
    alice5, carol5 = rate_game(Glicko(), Glicko(), 0.0)
    expected = {
        (player.pk, "classic:untimed"): (alice2, 2, 1, 0, 1),
        (other_player.pk, "classic:untimed"): (bob2, 2, 0, 1, 1),
        (player.pk, "nxn-5:untimed"): (alice5, 1, 0, 1, 0),
        (carol.pk, "nxn-5:untimed"): (carol5, 1, 1, 0, 0),
    }
    rows = {(row.player_id, row.pool): row for row in Rating.objects.all()}
    assert set(rows) == set(expected)
    for key, (glicko, games, won, lost, drawn) in expected.items():
        row = rows[key]
        assert (row.rating, row.deviation, row.volatility) == pytest.approx(
            (glicko.rating, glicko.deviation, glicko.volatility)
        ), key
        assert (row.games, row.won, row.lost, row.drawn) == (games, won, lost, drawn)
    assert rows[(player.pk, "nxn-5:untimed")].variant == "nxn"

    # each game now carries its pool and the replayed figures (history and game pages agree with the ratings)
    second.refresh_from_db()
    assert second.pool == "classic:untimed"
    assert (second.x_rating_before, second.x_rating_after) == pytest.approx((bob1.rating, bob2.rating))
    assert (second.o_rating_before, second.o_rating_after) == pytest.approx((alice1.rating, alice2.rating))
    assert second.o_deviation == pytest.approx(alice2.deviation)
    first.refresh_from_db()
    five.refresh_from_db()
    assert (first.pool, five.pool) == ("classic:untimed", "nxn-5:untimed")
    unrated.refresh_from_db()
    challenge.refresh_from_db()
    assert unrated.x_rating_after is None and unrated.pool == "classic:untimed"
    assert challenge.pool == "nxn-7:untimed"  # an open challenge: the lobby shows the creator's rating in it


@pytest.mark.django_db(transaction=True)
def test_the_migration_runs_both_ways():
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([("games", "0020_game_records")])
        executor.loader.build_graph()
        old = executor.loader.project_state([("games", "0020_game_records")]).apps
        assert "pool" not in {field.name for field in old.get_model("games", "Rating")._meta.get_fields()}
        executor = MigrationExecutor(connection)
        executor.migrate([("games", "0021_rating_pools")])
        executor.loader.build_graph()
        new = executor.loader.project_state([("games", "0021_rating_pools")]).apps
        fields = {f.name for f in new.get_model("games", "Rating")._meta.get_fields()}
        assert {"pool", "deviation", "volatility"} <= fields
    finally:  # the schema of today again for the tests after this one (later migrations were undone on the way)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


def test_migrating_back_keeps_one_rating_per_player_and_variant(player, other_player):
    Rating.objects.create(player=player, pool="nxn-5:untimed", variant="nxn", games=3)
    Rating.objects.create(player=player, pool="nxn-7:untimed", variant="nxn", games=9)
    Rating.objects.create(player=player, pool="classic:untimed", variant="classic", games=1)
    Rating.objects.create(player=other_player, pool="nxn-5:untimed", variant="nxn", games=2)
    migration.one_per_variant(apps, None)
    assert sorted(Rating.objects.values_list("player__username", "pool")) == [
        ("alice", "classic:untimed"),
        ("alice", "nxn-7:untimed"),
        ("bob", "nxn-5:untimed"),
    ]
