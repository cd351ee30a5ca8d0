"""Ratings: noted when a game between two players starts, moved when it ends (the maths is ``games.rating``)."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from ..models import Game, Rating
from ..rating import INITIAL_RATING, MIN_RATED_PLY, PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS, new_rating


def rate_game(locked: Game) -> list[str]:
    """A game between two players has just ended (``result`` set, in the caller's transaction): move both
    players' ratings in its variant and note them on the game. Returns the game's fields it set (none for a
    game without another player; only ``unrated_reason`` for one that ended before each player moved, or when
    the pair has played ``PAIR_GAMES_LIMIT`` rated games of the variant lately).

    The two rating rows are created if missing (without a conflict when another game creates one at the
    same moment), then locked in the order of the players' ids, so two games ending at once cannot deadlock.
    """
    if not locked.is_two_players:
        return []
    if locked.ply < MIN_RATED_PLY:  # said on the page, so that nobody looks for the points
        locked.unrated_reason = "too_short"
        return ["unrated_reason"]
    x_id, o_id = locked.x_player_id, locked.o_player_id
    Rating.objects.bulk_create(
        [Rating(player_id=pid, variant=locked.variant) for pid in sorted((x_id, o_id))], ignore_conflicts=True
    )
    rows = {
        row.player_id: row
        for row in Rating.objects.select_for_update().filter(variant=locked.variant, player_id__in=(x_id, o_id))
        .order_by("player_id")
    }
    # Counted under the lock of both rating rows: two games of the pair ending at once queue here.
    since = timezone.now() - timedelta(hours=PAIR_WINDOW_HOURS)
    pair = Q(x_player_id=x_id, o_player_id=o_id) | Q(x_player_id=o_id, o_player_id=x_id)
    recent = Game.objects.filter(pair, variant=locked.variant, x_rating_after__isnull=False, finished__gte=since)
    if recent.count() >= PAIR_GAMES_LIMIT:
        locked.unrated_reason = "pair_limit"
        return ["unrated_reason"]
    x, o = rows[x_id], rows[o_id]
    x_score = {Game.Result.X: 1.0, Game.Result.O: 0.0}.get(locked.result, 0.5)
    locked.x_rating_before, locked.o_rating_before = x.rating, o.rating
    locked.x_rating_after = new_rating(x.rating, o.rating, x_score, x.games)
    locked.o_rating_after = new_rating(o.rating, x.rating, 1.0 - x_score, o.games)
    for row, after, score in ((x, locked.x_rating_after, x_score), (o, locked.o_rating_after, 1.0 - x_score)):
        row.rating = after
        row.games += 1
        outcome = "won" if score == 1.0 else "lost" if score == 0.0 else "drawn"
        setattr(row, outcome, getattr(row, outcome) + 1)
        row.save(update_fields=["rating", "games", outcome, "updated"])
    return ["x_rating_before", "x_rating_after", "o_rating_before", "o_rating_after"]


def note_ratings(game: Game) -> list[str]:
    """A game between two players starts: note each seat's rating in the variant as it stands now, so the
    page shows who plays whom. ``rate_game`` writes the ratings the game was actually rated from when it ends.
    Returns the game's fields it set."""
    found = dict(
        Rating.objects.filter(
            variant=game.variant, player_id__in=(game.x_player_id, game.o_player_id), games__gt=0
        ).values_list("player_id", "rating")
    )
    game.x_rating_before = found.get(game.x_player_id, INITIAL_RATING)
    game.o_rating_before = found.get(game.o_player_id, INITIAL_RATING)
    return ["x_rating_before", "o_rating_before"]

