"""Ratings: noted when a game between two players starts, moved when it ends; the one writer of the rules in
``games.rating`` (its docstring maps the home).

One rating per pool (``games.rating.pools.pool_for_game``: the board and the speed), Glicko-2
(``games.rating.glicko2``), each game its own rating period as lichess rates.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from ..models import Game, Rating
from ..rating import MIN_RATED_PLY, PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS
from ..rating.glicko2 import INITIAL_DEVIATION, INITIAL_RATING, Glicko
from ..rating.glicko2 import rate_game as glicko_rate_game
from ..rating.pools import Pool, pool_for_game

RATED_FIELDS = [
    "pool",
    "x_rating_before",
    "x_rating_after",
    "o_rating_before",
    "o_rating_after",
    "x_deviation",
    "o_deviation",
]


def glicko_of(row: Rating) -> Glicko:
    return Glicko(row.rating, row.deviation, row.volatility)


def rate_game(locked: Game) -> list[str]:
    """A game between two players has just ended (``result`` set, in the caller's transaction): move both
    players' ratings in its pool and note them on the game. Returns the game's fields it set (none for a
    game without another player; only ``unrated_reason`` for one that ended before each player moved, or when
    the pair has played ``PAIR_GAMES_LIMIT`` rated games of the pool lately).

    The two rating rows are created if missing (without a conflict when another game creates one at the
    same moment), then locked in the order of the players' ids, so two games ending at once cannot deadlock.
    """
    if not locked.is_two_players or locked.unrated_reason == "casual":  # casual: asked for unrated (quick pairing)
        return []
    # said on the page, so that nobody looks for the points (a Swap2 game: each side has moved after 4 moves)
    if locked.ply < max(MIN_RATED_PLY, locked.first_moves):
        locked.unrated_reason = "too_short"
        return ["unrated_reason"]
    pool = locked.pool = pool_for_game(locked)
    x_id, o_id = locked.x_player_id, locked.o_player_id
    variant = Pool.parse(pool).game[0]
    Rating.objects.bulk_create(
        [Rating(player_id=pid, pool=pool, variant=variant) for pid in sorted((x_id, o_id))], ignore_conflicts=True
    )
    rows = {
        row.player_id: row
        for row in Rating.objects.select_for_update()
        .filter(pool=pool, player_id__in=(x_id, o_id))
        .order_by("player_id")
    }
    # Counted under the lock of both rating rows: two games of the pair ending at once queue here.
    since = timezone.now() - timedelta(hours=PAIR_WINDOW_HOURS)
    pair = Q(x_player_id=x_id, o_player_id=o_id) | Q(x_player_id=o_id, o_player_id=x_id)
    recent = Game.objects.filter(pair, pool=pool, x_rating_after__isnull=False, finished__gte=since)
    if recent.count() >= PAIR_GAMES_LIMIT:
        locked.unrated_reason = "pair_limit"
        return ["pool", "unrated_reason"]
    x, o = rows[x_id], rows[o_id]
    x_score = {Game.Result.X: 1.0, Game.Result.O: 0.0}.get(locked.result, 0.5)
    x_new, o_new = glicko_rate_game(glicko_of(x), glicko_of(o), x_score)
    locked.x_rating_before, locked.o_rating_before = x.rating, o.rating
    locked.x_rating_after, locked.o_rating_after = x_new.rating, o_new.rating
    locked.x_deviation, locked.o_deviation = x_new.deviation, o_new.deviation
    for row, new, score in ((x, x_new, x_score), (o, o_new, 1.0 - x_score)):
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += 1
        outcome = "won" if score == 1.0 else "lost" if score == 0.0 else "drawn"
        setattr(row, outcome, getattr(row, outcome) + 1)
        row.save(update_fields=["rating", "deviation", "volatility", "games", outcome, "updated"])
    return list(RATED_FIELDS)


def note_ratings(game: Game) -> list[str]:
    """A game between two players starts: note each seat's rating in the game's pool as it stands now, so the
    page shows who plays whom. ``rate_game`` writes the ratings the game was actually rated from when it ends.
    Returns the game's fields it set."""
    game.pool = pool_for_game(game)
    found = {
        player_id: (rating, deviation)
        for player_id, rating, deviation in Rating.objects.filter(
            pool=game.pool, player_id__in=(game.x_player_id, game.o_player_id), games__gt=0
        ).values_list("player_id", "rating", "deviation")
    }
    fresh = (INITIAL_RATING, INITIAL_DEVIATION)
    game.x_rating_before, game.x_deviation = found.get(game.x_player_id, fresh)
    game.o_rating_before, game.o_deviation = found.get(game.o_player_id, fresh)
    return ["pool", "x_rating_before", "o_rating_before", "x_deviation", "o_deviation"]
