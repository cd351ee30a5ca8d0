"""Ratings per pool (Glicko-2): the services that keep them as games between two players end, the pool a game
counts in, the history and the selectors the pages read."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest

from games.models import Game, Rating
from games.rating import glicko2
from games.rating.glicko2 import INITIAL_DEVIATION, INITIAL_RATING, INITIAL_VOLATILITY, Glicko, is_provisional
from games.rating.pools import pool_for_game
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
CLASSIC = "classic:untimed"
# The first game between two new players, rated by games.rating.glicko2 (the module tested against Glickman's paper).
WINNER, LOSER = glicko2.rate_game(Glicko(), Glicko(), 1.0)


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def rating(player, pool: str = CLASSIC) -> Rating:
    return Rating.objects.get(player=player, pool=pool)


def play_out(game: Game, x, o, moves=X_WINS) -> Game:
    for move, side in moves:
        move_play(game=game, player=x if side == "X" else o, move=move)
    return fresh(game)


def new_duel(x, o, variant: str = "classic", **options) -> Game:
    return challenge_accept(game=challenge_create(player=x, variant=variant, options=options, side="X"), player=o)


def test_a_new_rating_starts_at_1500_350_006(player):
    row = Rating.objects.create(player=player, pool=CLASSIC, variant="classic")
    assert (row.rating, row.deviation, row.volatility) == (INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY)
    assert (INITIAL_RATING, INITIAL_DEVIATION, INITIAL_VOLATILITY) == (1500, 350, 0.06)
    assert row.provisional and row.display == "1500?"


def test_provisional_is_lichess_deviation_110():
    assert is_provisional(350) and is_provisional(110) and not is_provisional(109.9)
    assert is_provisional(None)  # no rating noted yet: as unsure as a new one


@pytest.mark.parametrize(
    ("variant", "options", "pool"),
    [
        ("classic", {}, "classic:untimed"),
        ("nxn", {"size": 5}, "nxn-5:untimed"),
        ("nxn", {"size": 3}, "classic:untimed"),
        ("mnk", {"rows": 7, "cols": 9, "k": 4}, "mnk-7x9k4:untimed"),
        ("ultimate", {"closed_boards": True}, "ultimate-closed:untimed"),
    ],
)
def test_pool_keys_reach_the_db(variant, options, pool, player, other_player):
    challenge = challenge_create(player=player, variant=variant, options=options, side="X")
    assert fresh(challenge).pool == pool  # the lobby reads the creator's rating in it
    challenge_accept(game=challenge, player=other_player)
    assert fresh(challenge).pool == pool


def test_pool_for_game_reads_the_clock_when_there_is_one():
    # Clocks land on another branch: pool_for_game is the one place that reads a game's time control.
    assert pool_for_game(SimpleNamespace(variant="classic", options={})) == "classic:untimed"
    assert pool_for_game(SimpleNamespace(variant="classic", options={}, clock="none")) == "classic:untimed"
    assert pool_for_game(SimpleNamespace(variant="classic", options={}, clock="3+2")) == "classic:blitz"
    assert pool_for_game(SimpleNamespace(variant="nxn", options={"size": 7}, clock="1+0")) == "nxn-7:bullet"
    assert pool_for_game(SimpleNamespace(variant="four", options={}, clock="3d")) == "four:correspondence"


def test_a_win_moves_both_ratings_by_glicko2(duel, player, other_player):
    game = play_out(duel, player, other_player)
    assert game.result == "X" and game.is_rated and game.pool == CLASSIC
    assert (game.x_rating_before, game.x_rating_after) == (INITIAL_RATING, pytest.approx(WINNER.rating))
    assert (game.o_rating_before, game.o_rating_after) == (INITIAL_RATING, pytest.approx(LOSER.rating))
    assert (game.x_deviation, game.o_deviation) == (pytest.approx(WINNER.deviation), pytest.approx(LOSER.deviation))
    alice, bob = rating(player), rating(other_player)
    assert (alice.rating, alice.deviation, alice.volatility) == pytest.approx(
        (WINNER.rating, WINNER.deviation, WINNER.volatility)
    )
    assert (bob.rating, bob.deviation, bob.volatility) == pytest.approx(
        (LOSER.rating, LOSER.deviation, LOSER.volatility)
    )
    assert (alice.games, alice.won, alice.lost, alice.drawn) == (1, 1, 0, 0)
    assert (bob.games, bob.won, bob.lost, bob.drawn) == (1, 0, 1, 0)
    assert alice.variant == bob.variant == "classic"
    up, down = round(WINNER.rating) - 1500, 1500 - round(LOSER.rating)
    assert game.rating_change("X") == {
        "before": 1500,
        "after": round(WINNER.rating),
        "delta": up,
        "delta_text": f"+{up}",
        "provisional": True,
        "pool": CLASSIC,
        "pool_label": "Classic 3 x 3 · Untimed",
    }
    assert game.rating_change("O")["delta_text"] == f"\u2212{down}"

    # The next game starts from there, each side rated against the other's rating before it.
    rematch = play_out(new_duel(other_player, player), other_player, player)
    assert rematch.x_rating_before == pytest.approx(LOSER.rating) and rematch.o_rating_before == pytest.approx(
        WINNER.rating
    )
    bob_now, alice_now = glicko2.rate_game(LOSER, WINNER, 1.0)
    assert rating(other_player).rating == pytest.approx(bob_now.rating)
    assert rating(player).rating == pytest.approx(alice_now.rating)
    assert rating(player).deviation == pytest.approx(alice_now.deviation)
    assert alice_now.deviation < WINNER.deviation  # each game makes the rating surer
    assert rating(player).games == 2 and rating(other_player).won == 1


def test_an_established_rating_moves_less(duel, player, other_player):
    steady = Glicko(1500, 60, 0.06)
    Rating.objects.create(player=player, pool=CLASSIC, variant="classic", rating=1500, deviation=60, games=40)
    game = play_out(duel, player, other_player)
    x_new, o_new = glicko2.rate_game(steady, Glicko(), 1.0)
    assert game.x_rating_after == pytest.approx(x_new.rating) and game.o_rating_after == pytest.approx(o_new.rating)
    assert 0 < game.x_rating_after - 1500 < 1500 - game.o_rating_after  # the sure rating moves less
    assert not game.rating_change("X")["provisional"] and game.rating_change("O")["provisional"]


def test_ratings_are_per_pool(player, other_player):
    game = play_out(
        new_duel(player, other_player, "nxn", size=5),
        player,
        other_player,
        [(0, "X"), (5, "O"), (1, "X"), (6, "O"), (2, "X"), (7, "O"), (3, "X"), (8, "O"), (4, "X")],
    )
    assert game.result == "X" and game.pool == "nxn-5:untimed"
    assert rating(player, "nxn-5:untimed").rating == pytest.approx(WINNER.rating)
    assert not Rating.objects.filter(pool=CLASSIC).exists()
    # another n x n size is another pool; n = 4 is the 4 x 4 game's pool
    four = play_out(
        new_duel(player, other_player, "nxn", size=4),
        player,
        other_player,
        [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")],
    )
    assert four.pool == "four:untimed" and rating(player, "four:untimed").games == 1
    assert rating(player, "nxn-5:untimed").games == 1


@pytest.mark.parametrize("ending", ["agreed draw", "resigned", "abandoned"])
def test_every_way_a_game_ends_is_rated(ending, duel, player, other_player):
    move_play(game=duel, player=player, move=4)
    move_play(game=duel, player=other_player, move=0)
    if ending == "agreed draw":
        draw_offer(game=duel, player=player)
        game = draw_accept(game=duel, player=other_player)
        draw, _ = glicko2.rate_game(Glicko(), Glicko(), 0.5)
        expected = (round(draw.rating), round(draw.rating))
    elif ending == "resigned":
        game = game_resign(game=duel, player=other_player)
        expected = (round(WINNER.rating), round(LOSER.rating))
    else:
        move_play(game=duel, player=player, move=8)  # bob to move, and he stops playing
        Game.objects.filter(pk=duel.pk).update(turn_started=fresh(duel).turn_started - timedelta(days=4))
        game = game_claim_win(game=duel, player=player)
        expected = (round(WINNER.rating), round(LOSER.rating))
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
    # sides swapped; still provisional after one game
    assert (rematch.rating_now("X"), rematch.rating_now("O")) == (f"{round(LOSER.rating)}?", f"{round(WINNER.rating)}?")
    assert rematch.pool == CLASSIC


def three_rated_games(x, o) -> list[Game]:
    """alice (x) wins twice, then loses once, against bob (o); sides stay the same."""
    o_wins = [(0, "X"), (3, "O"), (1, "X"), (4, "O"), (8, "X"), (5, "O")]
    return [play_out(new_duel(x, o), x, o, moves) for moves in (X_WINS, X_WINS, o_wins)]


def test_rating_history_follows_the_games_oldest_first(player, other_player, django_assert_num_queries):
    from games.selectors import rating_history

    games = three_rated_games(player, other_player)
    with django_assert_num_queries(1):
        history = rating_history(player)
    assert history == {CLASSIC: [1500] + [round(game.x_rating_after) for game in games]}
    assert (
        history[CLASSIC][1] == round(WINNER.rating) and history[CLASSIC][2] > history[CLASSIC][1] > history[CLASSIC][3]
    )
    assert rating_history(other_player)[CLASSIC] == [1500] + [round(game.o_rating_after) for game in games]
    assert rating_history(other_player)[CLASSIC][-1] == round(rating(other_player).rating)


def test_rating_history_keeps_the_latest_games_of_each_pool(player, other_player, monkeypatch):
    from games import selectors

    games = three_rated_games(player, other_player)
    four = play_out(
        new_duel(player, other_player, "four"),
        player,
        other_player,
        [(0, "X"), (4, "O"), (1, "X"), (5, "O"), (2, "X"), (6, "O"), (3, "X")],
    )
    monkeypatch.setattr(selectors, "HISTORY_GAMES", 2)
    history = selectors.rating_history(player)
    # The last two classic games, from the rating before the first of them; the 4 x 4 game on its own.
    assert history[CLASSIC] == [
        round(games[1].x_rating_before),
        round(games[1].x_rating_after),
        round(games[2].x_rating_after),
    ]
    assert history["four:untimed"] == [1500, round(four.x_rating_after)]


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


def test_rated_pools_most_players_first(make_player):
    from games.selectors import player_ratings, rated_pools

    players = [make_player(f"r{n}") for n in range(4)]
    for who, pool in zip(players, ("four:untimed", "classic:untimed", "four:untimed", "nxn-5:untimed"), strict=True):
        Rating.objects.create(player=who, pool=pool, variant=pool.split(":")[0][:4], games=1)
    Rating.objects.create(player=make_player("nobody"), pool="ultimate:untimed", variant="ultimate", games=0)
    assert rated_pools() == ["four:untimed", "classic:untimed", "nxn-5:untimed"]
    assert [row.label for row in player_ratings(players[0])] == ["4 x 4, 4 in a row · Untimed"]
