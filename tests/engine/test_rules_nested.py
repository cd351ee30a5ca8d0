"""The rules of RULES.md for the nested variants, checked against the engine: ultimate (where a move sends the
opponent, a won or full board, closed boards, three boards in a row) and multi (on to the next open board, a
random start, most boards wins)."""

from __future__ import annotations

import random

import pytest

from games.engine import IllegalMove, get_variant
from games.engine.nested import ALL9
from tests.engine.test_rules import _play

# --- ultimate ----------------------------------------------------------------------------------------

# X takes board 1 (cells 0, 1, 2) with its last move on cell 1, sending O to the board X just won.
SENT_TO_WON = [9, 1, 11, 19, 10]
# Ends with O sent (cell 3) to board 3, which is full.
SENT_TO_FULL = [34, 66, 28, 9, 3, 30, 35, 73, 16, 69, 57, 29, 21, 27, 8, 80, 75, 31, 42, 61, 64, 10, 12, 32, 48,
                33, 62, 76, 39]


def test_ultimate_first_move_anywhere() -> None:
    state = get_variant("ultimate").new_game()
    assert state.legal_moves() == list(range(81))
    assert state.active_boards == list(range(9))


def test_ultimate_sent_to_won_board_still_plays_there() -> None:
    state = _play("ultimate", SENT_TO_WON)
    assert state.board_winners[1] == "X"
    assert state.active_boards == [1]
    assert state.legal_moves() == [9 + c for c in range(3, 9)]
    with pytest.raises(IllegalMove, match="board 1"):
        state.play(0)
    # a later line on the won board does not change its owner
    state = state.play(9 + 3)  # O board 1 cell 3 -> X to board 3
    for m in (27 + 1, 9 + 4, 36 + 1, 9 + 5):  # X sends O back to board 1 twice: O gets 3, 4, 5 there
        state = state.play(m)
    assert state.cells[9 + 3: 9 + 6] == ("O", "O", "O")
    assert state.board_winners[1] == "X"


def test_ultimate_sent_to_full_board_plays_anywhere() -> None:
    state = _play("ultimate", SENT_TO_FULL)
    assert state.last_move % 9 == 3 and state.cells[27:36].count(None) == 0
    assert state.active_boards == [b for b in range(9) if b != 3]
    assert state.legal_moves() == [m for m in range(81) if m // 9 != 3 and state.cells[m] is None]


def test_ultimate_closed_boards_option() -> None:
    state = _play("ultimate", SENT_TO_WON, closed_boards=True)
    assert state.board_winners[1] == "X"
    assert 1 not in state.active_boards and state.active_boards == [0, 2, 3, 4, 5, 6, 7, 8]
    with pytest.raises(IllegalMove, match="closed"):
        state.play(9 + 4)
    assert state.play(0).cells[0] == "O"


def test_ultimate_won_by_three_boards() -> None:
    # Random games, checked at every ply: a line of owned boards ends the game for its owner at once.
    rng = random.Random(3)
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    results = set()
    for _ in range(200):
        state = get_variant("ultimate").new_game()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            owners = state.board_winners
            lined = {owners[a] for a, b, c in lines if owners[a] is not None and owners[a] == owners[b] == owners[c]}
            if lined:
                assert state.is_over and lined == {state.winner}
                line_boards = {b for line in lines for b in line if all(owners[c] == state.winner for c in line)}
                assert set(state.winning_boards) == line_boards
            else:
                assert state.winner is None and state.winning_boards == ()
        if state.winner is None:
            assert None not in state.cells
        results.add(state.winner)
    assert results >= {"X", "O"}


# --- multi -------------------------------------------------------------------------------------------

# O wins board 8 (cells 6, 7, 8) with its last move on cell 8: X is sent to 8, closed, so wraps to 0.
MULTI_WRAP = [8, 79, 71, 78, 62, 80]


def test_multi_wraps_to_next_open_board() -> None:
    state = _play("multi", MULTI_WRAP)
    assert state.board_winners[8] == "O"
    assert state.active_boards == [0]
    with pytest.raises(IllegalMove):
        state.play(72)  # board 8 is closed


def test_multi_skips_closed_boards_upwards() -> None:
    # X wins board 1 (cells 0, 1, 2) on cell 1: O is sent to board 1, closed, so board 2.
    state = _play("multi", SENT_TO_WON)
    assert state.board_winners[1] == "X"
    assert state.active_boards == [2]
    with pytest.raises(IllegalMove):
        state.play(9 + 4)


def test_multi_random_games_obey_the_rules() -> None:
    rng = random.Random(8)
    winners = set()
    for _ in range(150):
        state = get_variant("multi").new_game()
        while not state.is_over:
            prev = state
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            owners = state.board_winners
            closed = {b for b in range(9) if owners[b] or None not in state.cells[9 * b: 9 * b + 9]}
            # a won or full board is closed: no legal move goes there
            assert not closed & {m // 9 for m in state.legal_moves()}
            # won boards stay won by the same side
            assert all(o is None or o == n for o, n in zip(prev.board_winners, owners, strict=True))
            if len(closed) < 9:
                assert not state.is_over
                c = move % 9
                expected = next((c + i) % 9 for i in range(9) if (c + i) % 9 not in closed)
                assert state.active_boards == [expected]
        assert state.closed == ALL9
        nx, no = state.board_winners.count("X"), state.board_winners.count("O")
        assert state.winner == ("X" if nx > no else "O" if no > nx else None)
        # what won it: every board of the winner
        assert state.winning_boards == tuple(b for b in range(9) if state.winner and owners[b] == state.winner)
        winners.add(state.winner)
    assert winners == {"X", "O", None}


def test_multi_random_start_repeatable() -> None:
    variant = get_variant("multi", random_start=True)
    boards = set()
    for seed in range(40):
        a, b = variant.new_game(seed=seed), variant.new_game(seed=seed)
        assert a.active_boards == b.active_boards and len(a.active_boards) == 1
        board = a.active_boards[0]
        assert a.legal_moves() == [9 * board + c for c in range(9)]
        other = (board + 1) % 9
        with pytest.raises(IllegalMove):
            a.play(9 * other)
        boards.add(board)
        replay = variant.new_game(start_board=board)
        assert replay == a and replay.legal_moves() == a.legal_moves()
    assert len(boards) > 3
    # without random_start any board is allowed first
    assert get_variant("multi").new_game().active_boards == list(range(9))


def test_multi_start_board_checks() -> None:
    with pytest.raises(ValueError, match="random_start"):
        get_variant("multi").new_game(start_board=3)
    for bad in (9, -1, "3", True):
        with pytest.raises(ValueError, match="start_board"):
            get_variant("multi", random_start=True).new_game(start_board=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        get_variant("ultimate").new_game(start_board=3)
