"""Ratings per pool, Glicko-2 (issue 22): one rating per board and speed instead of one Elo rating per variant.

Existing ratings are rebuilt, not converted: every rated game (finished, between two players, with ratings after
it) is replayed in the order the games finished, each as its own Glicko-2 rating period as the site rates from
now on, into the pool of its own board at the untimed speed (no game had a clock before pools). So a player's old
Elo rating in a variant becomes their ratings in the pools they played that variant's boards in (every n x n size
its own). Each replayed game's before/after ratings are rewritten to the replayed figures (so the game pages, the
history and the sparklines agree with the ratings), and its deviations are noted. Ratings rows without a rated game
are dropped (a player starts at 1500 / 350 / 0.06 in a pool anyway). Unrated games keep what they had; games
between two players get their pool key.

Backwards, ratings collapse to one row per player and variant (the pool with the most games) and keep their
Glicko-2 figures.
"""

from __future__ import annotations

from django.conf import settings
from django.db import migrations, models

from games.rating.glicko2 import Glicko, rate_game
from games.rating.pools import InvalidPool, Pool, pool_of_legacy


def _legacy_pool(game) -> str:
    try:
        return pool_of_legacy(game.variant, game.options or {})
    except InvalidPool:  # options no longer valid: a pool of the variant's own name keeps the game apart
        return f"{game.variant}:untimed"


def replay_ratings(apps, schema_editor) -> None:
    """Rebuild every rating from the rated games, through Glicko-2, one pool per board (see the module's notes)."""
    Game = apps.get_model("games", "Game")
    Rating = apps.get_model("games", "Rating")
    Rating.objects.all().delete()
    two_players = Game.objects.filter(opponent="human", x_player__isnull=False, o_player__isnull=False)
    for game in Game.objects.filter(opponent="human", x_rating_after__isnull=True, pool="").iterator():
        Game.objects.filter(pk=game.pk).update(pool=_legacy_pool(game))
    ratings: dict[tuple[int, str], Glicko] = {}
    tallies: dict[tuple[int, str], dict[str, int]] = {}
    rated = two_players.filter(x_rating_after__isnull=False, status="finished").order_by("finished", "pk")
    for game in rated.iterator():
        pool = _legacy_pool(game)
        x_key, o_key = (game.x_player_id, pool), (game.o_player_id, pool)
        x_old, o_old = ratings.get(x_key, Glicko()), ratings.get(o_key, Glicko())
        x_score = {"X": 1.0, "O": 0.0}.get(game.result, 0.5)
        x_new, o_new = rate_game(x_old, o_old, x_score)
        ratings[x_key], ratings[o_key] = x_new, o_new
        for key, score in ((x_key, x_score), (o_key, 1.0 - x_score)):
            tally = tallies.setdefault(key, {"games": 0, "won": 0, "lost": 0, "drawn": 0})
            tally["games"] += 1
            tally["won" if score == 1.0 else "lost" if score == 0.0 else "drawn"] += 1
        Game.objects.filter(pk=game.pk).update(
            pool=pool,
            x_rating_before=x_old.rating, x_rating_after=x_new.rating, x_deviation=x_new.deviation,
            o_rating_before=o_old.rating, o_rating_after=o_new.rating, o_deviation=o_new.deviation,
        )
    rows = []
    for (player_id, pool), glicko in ratings.items():
        try:
            variant = Pool.parse(pool).game[0]
        except InvalidPool:
            variant = pool.partition(":")[0][:20]
        rows.append(Rating(
            player_id=player_id, pool=pool, variant=variant, rating=glicko.rating, deviation=glicko.deviation,
            volatility=glicko.volatility, **tallies[(player_id, pool)],
        ))
    Rating.objects.bulk_create(rows, batch_size=500)


def one_per_variant(apps, schema_editor) -> None:
    """Backwards: keep each player's pool with the most games in a variant, so (player, variant) is unique again."""
    Rating = apps.get_model("games", "Rating")
    kept: set[tuple[int, str]] = set()
    for row in Rating.objects.order_by("player_id", "variant", "-games", "pool"):
        key = (row.player_id, row.variant)
        if key in kept:
            row.delete()
        else:
            kept.add(key)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_game_records"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="rating", name="rating_unique_player_variant"),
        migrations.RemoveIndex(model_name="rating", name="rating_board_idx"),
        migrations.AddField(model_name="rating", name="pool", field=models.CharField(default="", max_length=40),
                            preserve_default=False),
        migrations.AddField(model_name="rating", name="deviation", field=models.FloatField(default=350.0)),
        migrations.AddField(model_name="rating", name="volatility", field=models.FloatField(default=0.06)),
        migrations.AlterModelOptions(name="rating", options={"ordering": ["pool", "-rating"]}),
        migrations.AddField(model_name="game", name="pool",
                            field=models.CharField(blank=True, default="", max_length=40)),
        migrations.AddField(model_name="game", name="x_deviation", field=models.FloatField(blank=True, null=True)),
        migrations.AddField(model_name="game", name="o_deviation", field=models.FloatField(blank=True, null=True)),
        migrations.RunPython(replay_ratings, one_per_variant, elidable=False),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(fields=("player", "pool"), name="rating_unique_player_pool"),
        ),
        migrations.AddIndex(
            model_name="rating", index=models.Index(fields=["pool", "-rating"], name="rating_pool_board_idx")
        ),
    ]
