"""Arena scoring (games.arena.scoring): lichess's arena points, on fire, berserk."""

from __future__ import annotations

from games.arena.scoring import BERSERK_MIN_MOVES, Played, score, total


def test_win_draw_loss_are_two_one_nothing():
    assert score("win", streak=0).points == 2
    assert score("draw", streak=0).points == 1
    assert score("loss", streak=0).points == 0


def test_two_wins_in_a_row_set_a_player_on_fire_and_wins_count_double_until_a_non_win():
    first, second = score("win", streak=0), score("win", streak=1)
    assert (first.points, first.on_fire, second.points, second.on_fire) == (2, False, 2, True)
    third = score("win", streak=second.streak)
    assert (third.points, third.streak) == (4, 3)
    draw = score("draw", streak=third.streak)
    assert (draw.points, draw.streak, draw.on_fire) == (1, 0, False)  # a draw on fire is not doubled, and puts it out
    assert score("loss", streak=5) == score("loss", streak=0)


def test_berserk_adds_a_point_to_a_win_of_a_few_moves_only():
    assert score("win", streak=0, berserk=True, own_moves=BERSERK_MIN_MOVES).points == 3
    assert score("win", streak=0, berserk=True, own_moves=BERSERK_MIN_MOVES - 1).points == 2
    assert score("win", streak=2, berserk=True, own_moves=9).points == 5
    assert score("draw", streak=0, berserk=True, own_moves=9).points == 1


def test_an_aborted_game_is_worth_nothing_and_keeps_the_streak():
    aborted = score("none", streak=2)
    assert (aborted.points, aborted.streak) == (0, 2)


def test_the_total_replays_a_players_games_in_order():
    games = [Played("win"), Played("win"), Played("win", berserk=True, own_moves=5), Played("none"), Played("win"),
             Played("loss"), Played("draw"), Played("win")]
    # 2 + 2 + (4 + 1) + 0 + 4 + 0 + 1 + 2
    assert total(games) == (16, 1)
