"""Ratings: the Elo arithmetic, the services that keep them as games between two players end, the
leaderboard, the profile, the game page and the JSON API."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Game, Rating
from games.rating import (
    INITIAL_RATING,
    K_ESTABLISHED,
    K_PROVISIONAL,
    PROVISIONAL_GAMES,
    expected_score,
    new_rating,
)
from games.services import (
    challenge_accept,
    challenge_create,
    draw_accept,
    draw_offer,
    game_claim_win,
    game_resign,
    move_play,
)

# X completes the top row: 0, (3), 1, (4), 2
X_WINS = [(0, "X"), (3, "O"), (1, "X"), (4, "O"), (2, "X")]


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def rating(player, variant: str = "classic") -> Rating:
    return Rating.objects.get(player=player, variant=variant)


def play_out(game: Game, x, o, moves=X_WINS) -> Game:
    for move, side in moves:
        move_play(game=game, player=x if side == "X" else o, move=move)
    return fresh(game)


def new_duel(x, o, variant: str = "classic", **options) -> Game:
    return challenge_accept(game=challenge_create(player=x, variant=variant, options=options, side="X"), player=o)


def test_expected_scores_add_up_to_one():
    assert expected_score(1500, 1500) == pytest.approx(0.5)
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)  # 400 points: ten to one
    for a, b in ((1500, 1700), (1234, 987), (2000, 1000)):
        assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)


def test_new_rating():
    assert new_rating(1500, 1500, 1.0, 0) == pytest.approx(1500 + K_PROVISIONAL / 2)
    assert new_rating(1500, 1500, 0.0, PROVISIONAL_GAMES) == pytest.approx(1500 - K_ESTABLISHED / 2)
    assert new_rating(1500, 1500, 0.5, 3) == pytest.approx(1500)
    assert new_rating(1500, 1900, 0.5, 3) > 1500  # a draw against a stronger player gains
    assert new_rating(1900, 1500, 1.0, 30) - 1900 < new_rating(1500, 1900, 1.0, 30) - 1500  # an upset gains more
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        new_rating(1500, 1500, 2, 0)


def test_a_win_moves_both_ratings(duel, player, other_player):
    game = play_out(duel, player, other_player)
    assert game.result == "X" and game.is_rated
    half = K_PROVISIONAL / 2
    assert (game.x_rating_before, game.x_rating_after) == (INITIAL_RATING, pytest.approx(INITIAL_RATING + half))
    assert (game.o_rating_before, game.o_rating_after) == (INITIAL_RATING, pytest.approx(INITIAL_RATING - half))
    alice, bob = rating(player), rating(other_player)
    assert (alice.games, alice.won, alice.lost, alice.drawn) == (1, 1, 0, 0)
    assert (bob.games, bob.won, bob.lost, bob.drawn) == (1, 0, 1, 0)
    assert alice.rating == pytest.approx(1520) and bob.rating == pytest.approx(1480)
    assert game.rating_change("X") == {"before": 1500, "after": 1520, "delta": 20, "delta_text": "+20"}
    assert game.rating_change("O") == {"before": 1500, "after": 1480, "delta": -20, "delta_text": "\u221220"}

    # The next game starts from there: bob, rated lower, gains more by winning than alice lost before.
    rematch = new_duel(other_player, player)
    rematch = play_out(rematch, other_player, player)
    assert rematch.x_rating_before == pytest.approx(1480) and rematch.o_rating_before == pytest.approx(1520)
    assert rating(other_player).rating - 1480 > 20
    assert rating(player).games == 2 and rating(other_player).won == 1


def test_the_k_factor_drops_after_the_provisional_games(duel, player, other_player):
    Rating.objects.create(player=player, variant="classic", rating=1500, games=PROVISIONAL_GAMES)
    game = play_out(duel, player, other_player)
    assert game.x_rating_after == pytest.approx(1500 + K_ESTABLISHED / 2)
    assert game.o_rating_after == pytest.approx(1500 - K_PROVISIONAL / 2)


def test_ratings_are_per_variant(player, other_player):
    game = play_out(new_duel(player, other_player, "nxn", size=4), player, other_player,
                    [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")])
    assert game.result == "X" and rating(player, "nxn").rating == pytest.approx(1520)
    assert not Rating.objects.filter(variant="classic").exists()


@pytest.mark.parametrize("ending", ["agreed draw", "resigned", "abandoned"])
def test_every_way_a_game_ends_is_rated(ending, duel, player, other_player):
    move_play(game=duel, player=player, move=4)
    move_play(game=duel, player=other_player, move=0)
    if ending == "agreed draw":
        draw_offer(game=duel, player=player)
        game = draw_accept(game=duel, player=other_player)
        expected = (1500, 1500)
    elif ending == "resigned":
        game = game_resign(game=duel, player=other_player)
        expected = (1520, 1480)
    else:
        move_play(game=duel, player=player, move=8)  # bob to move, and he stops playing
        Game.objects.filter(pk=duel.pk).update(turn_started=fresh(duel).turn_started - timedelta(days=4))
        game = game_claim_win(game=duel, player=player)
        expected = (1520, 1480)
    assert fresh(game).is_rated
    assert (round(rating(player).rating), round(rating(other_player).rating)) == expected
    assert rating(player).games == rating(other_player).games == 1


@pytest.mark.parametrize("opponent", ["easy", "local"])
def test_games_without_another_player_are_not_rated(opponent, make_game, player):
    game = make_game(opponent=opponent, strategy="random" if opponent == "easy" else None)
    move_play(game=game, player=player, move=4, quick_reply=True)
    if opponent == "local":
        move_play(game=game, player=player, move=0)
    game_resign(game=game, player=player)
    assert not fresh(game).is_rated and not Rating.objects.exists()


def test_a_rematch_notes_the_ratings_too(player, other_player):
    from games.services import rematch_accept, rematch_offer

    first = play_out(new_duel(player, other_player), player, other_player)
    rematch_offer(game=first, player=player)
    rematch = rematch_accept(game=first, player=other_player)
    assert (rematch.rating_now("X"), rematch.rating_now("O")) == (1480, 1520)  # sides swapped


def three_rated_games(x, o) -> list[Game]:
    """alice (x) wins twice, then loses once, against bob (o); sides stay the same."""
    o_wins = [(0, "X"), (3, "O"), (1, "X"), (4, "O"), (8, "X"), (5, "O")]
    return [play_out(new_duel(x, o), x, o, moves) for moves in (X_WINS, X_WINS, o_wins)]


def test_rating_history_follows_the_games_oldest_first(player, other_player, django_assert_num_queries):
    from games.selectors import rating_history

    games = three_rated_games(player, other_player)
    with django_assert_num_queries(1):
        history = rating_history(player)
    assert history == {"classic": [1500] + [round(game.x_rating_after) for game in games]}
    assert history["classic"][1] == 1520 and history["classic"][2] > 1520 > history["classic"][3]
    assert rating_history(other_player)["classic"] == [1500] + [round(game.o_rating_after) for game in games]
    assert rating_history(other_player)["classic"][-1] == round(rating(other_player).rating)


def test_rating_history_keeps_the_latest_games_of_each_variant(player, other_player, monkeypatch):
    from games import selectors

    games = three_rated_games(player, other_player)
    four = play_out(new_duel(player, other_player, "four"), player, other_player,
                    [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")])
    monkeypatch.setattr(selectors, "HISTORY_GAMES", 2)
    history = selectors.rating_history(player)
    # The last two classic games, from the rating before the first of them; the 4 x 4 game on its own.
    assert history["classic"] == [round(games[1].x_rating_before), round(games[1].x_rating_after),
                                  round(games[2].x_rating_after)]
    assert history["four"] == [1500, round(four.x_rating_after)]


def test_sparkline_draws_higher_ratings_higher_up():
    from players.views import SPARK_HEIGHT, SPARK_WIDTH, sparkline

    assert sparkline([]) is None and sparkline([1500]) is None
    drawn = sparkline([1500, 1520, 1510])
    points = [tuple(map(float, p.split(","))) for p in drawn["points"].split()]
    assert [x for x, _ in points] == [0, SPARK_WIDTH / 2, SPARK_WIDTH]
    assert points[1][1] < points[2][1] < points[0][1]  # SVG's y grows downwards
    assert all(0 <= y <= SPARK_HEIGHT for _, y in points)
    assert (drawn["first"], drawn["now"], drawn["low"], drawn["high"], drawn["games"]) == (1500, 1510, 1500, 1520, 2)
    flat = sparkline([1500, 1500])
    assert {y for _, y in (tuple(map(float, p.split(","))) for p in flat["points"].split())} == {SPARK_HEIGHT / 2}


def test_rated_variants_reads_one_row_per_variant(make_player):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.selectors import rated_variants

    for n, rating in enumerate((1500, 1510, 1520, 1530)):
        Rating.objects.create(player=make_player(f"r{n}"), variant="four" if n % 2 else "classic", rating=rating,
                              games=1)
    with CaptureQueriesContext(connection) as queries:
        assert rated_variants() == ["classic", "four"]
    # DISTINCT over the variant alone: Rating's ordering (by rating) would make it one row per rating
    (query,) = queries.captured_queries
    select = query["sql"].split(" FROM ")[0]
    assert "rating" not in select.replace("games_rating", ""), query["sql"]
