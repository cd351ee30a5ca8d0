"""Glicko-2 (games.rating.glicko2): Glickman's worked example, the properties a rating must keep, and refusals."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rating.glicko2 import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    PROVISIONAL_DEVIATION,
    RATING_LIMIT,
    SCALE,
    Glicko,
    InvalidRating,
    expected_score,
    rate_game,
    update,
)

PAPER_PLAYER = Glicko(1500, 200, 0.06)
PAPER_RESULTS = [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)]


# Glickman, "Example of the Glicko-2 system": tau = 0.5 in the example.


def test_paper_example_final_values():
    new = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    # The paper prints 1464.06 from rounded intermediate values; carried exactly it is 1464.0507.
    assert new.rating == pytest.approx(1464.06, abs=0.015)
    assert new.deviation == pytest.approx(151.52, abs=0.005)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.0599960 carried exactly


def test_paper_example_on_the_glicko2_scale():
    new = update(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069  # mu'
    assert round(new.deviation / SCALE, 4) == 0.8722  # phi'


def test_paper_example_with_lichess_tau_is_close():
    # tau only bounds how far the volatility moves; on this example it barely matters.
    new = update(PAPER_PLAYER, PAPER_RESULTS)
    assert new.rating == pytest.approx(1464.05, abs=0.01)
    assert new.volatility < 0.06


def test_order_of_results_does_not_matter():
    assert update(PAPER_PLAYER, PAPER_RESULTS) == pytest.approx(update(PAPER_PLAYER, PAPER_RESULTS[::-1]))


def test_no_games_only_widens_the_deviation():
    new = update(PAPER_PLAYER, [])
    assert new.rating == PAPER_PLAYER.rating
    assert new.volatility == PAPER_PLAYER.volatility
    phi = math.sqrt((200 / SCALE) ** 2 + 0.06**2)
    assert new.deviation == pytest.approx(phi * SCALE)
    assert new.deviation > PAPER_PLAYER.deviation


def test_no_games_never_beyond_the_ceiling():
    assert update(Glicko(1500, 349.9, 0.06), []).deviation == MAX_DEVIATION
    assert update(Glicko(), []).deviation == MAX_DEVIATION


def test_defaults_are_a_new_player():
    assert Glicko() == Glicko(1500.0, 350.0, 0.06)
    assert Glicko(1500, 350, 0.06).rating == 1500.0 and isinstance(Glicko(1500).rating, float)


# Properties


ratings = st.builds(
    Glicko,
    rating=st.floats(-5000, 8000),
    deviation=st.floats(1, 350),
    volatility=st.floats(0.001, 0.5),
)


@given(ratings, ratings)
def test_a_win_raises_and_a_loss_lowers(player, opponent):
    # (within a millionth of a point: the scale conversions round; a win over a far weaker player gains ~nothing)
    assert update(player, [(opponent, 1)]).rating >= player.rating - 1e-6
    assert update(player, [(opponent, 0)]).rating <= player.rating + 1e-6


@given(ratings, ratings)
def test_expected_scores_are_complementary(a, b):
    assert 0.0 <= expected_score(a, b) <= 1.0
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)


def test_expected_score_values():
    assert expected_score(Glicko(), Glicko()) == 0.5
    assert expected_score(Glicko(1700, 50), Glicko(1500, 50)) > 0.7
    # the same gap counts for less when the ratings are unsure
    assert expected_score(Glicko(1700, 350), Glicko(1500, 350)) < expected_score(Glicko(1700, 50), Glicko(1500, 50))


def test_a_draw_between_equals_leaves_the_rating():
    new = update(Glicko(1500, 100), [(Glicko(1500, 100), 0.5)])
    assert new.rating == pytest.approx(1500.0)
    assert new.deviation < 100


def test_a_draw_against_a_stronger_player_raises():
    assert update(Glicko(1500, 100), [(Glicko(1800, 100), 0.5)]).rating > 1500


def test_deviation_shrinks_with_games():
    player = Glicko()
    deviations = [player.deviation]
    for _ in range(10):
        player = update(player, [(Glicko(1500, 100), 0.5)])
        deviations.append(player.deviation)
    assert deviations == sorted(deviations, reverse=True)
    assert deviations[-1] < 120


def test_an_upset_moves_more_than_an_expected_result():
    strong, weak = Glicko(1900, 80), Glicko(1400, 80)
    upset = update(weak, [(strong, 1)]).rating - weak.rating
    expected = update(strong, [(weak, 1)]).rating - strong.rating
    assert upset > 10 * expected > 0


extremes = st.builds(
    Glicko,
    rating=st.sampled_from([-RATING_LIMIT, -5000.0, 0.0, 1500.0, 4000.0, RATING_LIMIT]),
    deviation=st.sampled_from([1e-9, 0.5, 45.0, 350.0]),
    volatility=st.sampled_from([1e-6, 0.06, 1.0]),
)


@given(extremes, st.lists(st.tuples(extremes, st.sampled_from([0, 0.5, 1])), max_size=20))
def test_extreme_inputs_stay_finite_and_bounded(player, results):
    new = update(player, results)
    assert all(math.isfinite(x) for x in (new.rating, new.deviation, new.volatility))
    assert 0 < new.deviation <= MAX_DEVIATION
    assert -RATING_LIMIT <= new.rating <= RATING_LIMIT


def test_many_games_in_one_period():
    results = [(Glicko(1500 + 10 * (i % 10), 60), i % 2) for i in range(200)]
    new = update(Glicko(), results)
    assert math.isfinite(new.rating) and new.deviation < 40


# rate_game: each game its own period, within lichess's bounds


def test_rate_game_is_two_updates_from_the_ratings_before_the_game():
    a, b = Glicko(1600, 120, 0.06), Glicko(1450, 200, 0.06)
    new_a, new_b = rate_game(a, b, 1)
    assert new_a == update(a, [(b, 1.0)])
    assert new_b == update(b, [(a, 0.0)])


def test_rate_game_between_new_players_is_symmetric():
    new_a, new_b = rate_game(Glicko(), Glicko(), 1)
    assert new_a.rating > 1500 > new_b.rating
    assert new_a.rating - 1500 == pytest.approx(1500 - new_b.rating)
    assert new_a.deviation == new_b.deviation < 350


def test_rate_game_draw_between_equals():
    new_a, new_b = rate_game(Glicko(), Glicko(), 0.5)
    assert new_a.rating == pytest.approx(1500) and new_b.rating == pytest.approx(1500)


def test_rate_game_keeps_the_deviation_floor():
    # At volatility 0.06 one game per period settles near 60; a steadier player would go below the floor.
    a = b = Glicko(1500, MIN_DEVIATION, 0.01)
    assert update(a, [(b, 0.5)]).deviation < MIN_DEVIATION
    for _ in range(50):
        a, b = rate_game(a, b, 0.5)
    assert a.deviation == MIN_DEVIATION == b.deviation
    # still able to move
    assert rate_game(a, b, 1)[0].rating > a.rating + 1


def test_rate_game_caps_the_volatility():
    erratic = Glicko(1500, 100, 0.5)
    assert update(erratic, [(Glicko(), 1)]).volatility > 0.4
    assert rate_game(erratic, Glicko(), 1)[0].volatility == 0.1


def test_provisional_while_the_deviation_is_high():
    assert Glicko().provisional
    assert Glicko(1500, PROVISIONAL_DEVIATION).provisional
    assert not Glicko(1500, PROVISIONAL_DEVIATION - 0.01).provisional
    assert Glicko(1464.9, 151).display() == "1464?"
    assert Glicko(1464.9, 60).display() == "1464"


def test_a_new_player_stops_being_provisional_after_some_games():
    player = opponent = Glicko()
    games = 0
    while player.provisional:
        player, opponent = rate_game(player, opponent, 0.5)
        games += 1
    assert 3 <= games <= 30


# Refusals


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"rating": math.nan}, "finite"),
        ({"rating": math.inf}, "finite"),
        ({"rating": 2 * RATING_LIMIT}, "at most"),
        ({"rating": "1500"}, "number"),
        ({"rating": True}, "number"),
        ({"deviation": 0}, "above 0"),
        ({"deviation": -5}, "above 0"),
        ({"deviation": 351}, "at most 350"),
        ({"volatility": 0}, "above 0"),
        ({"volatility": 2}, "at most 1"),
        ({"volatility": None}, "number"),
    ],
)
def test_bad_values_are_refused(fields, words):
    with pytest.raises(InvalidRating, match=words):
        Glicko(**fields)


@pytest.mark.parametrize("score", [2, -1, 0.25, 0.51, math.nan, "1", None, True, False])
def test_bad_scores_are_refused(score):
    with pytest.raises(InvalidRating, match="scores 1 .win., 0.5 .draw. or 0 .loss."):
        update(Glicko(), [(Glicko(), score)])
    with pytest.raises(InvalidRating, match="scores"):
        rate_game(Glicko(), Glicko(), score)


def test_bad_opponents_and_constants_are_refused():
    with pytest.raises(InvalidRating, match="opponent must be a Glicko"):
        update(Glicko(), [(1500, 1)])
    with pytest.raises(InvalidRating, match="a result is a pair"):
        update(Glicko(), [(Glicko(), 1, 0)])
    with pytest.raises(InvalidRating, match="a result is a pair"):
        update(Glicko(), [Glicko()])
    with pytest.raises(InvalidRating, match="tau"):
        update(Glicko(), [], tau=0)
    with pytest.raises(InvalidRating, match="epsilon"):
        update(Glicko(), [], epsilon=-1)
    assert issubclass(InvalidRating, ValueError)
