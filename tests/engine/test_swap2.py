"""Swap2 (issue 33): the opening rule of gomoku boards as the engine plays it (games.engine.swap2), its moves' names,
records and position strings, and the computer playing it at every level."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.engine import (
    IllegalMove,
    InvalidCellName,
    difficulty,
    get_variant,
    parse_position,
    position_string,
    read_record,
    write_record,
)
from games.engine.clock import Clock, TimeControl
from games.engine.strategies.openings import BOOK, SYMMETRIES, book_values
from games.engine.swap2 import CHOOSE, CHOOSE2, PLACE2, PLAY, movers

SWAP2 = get_variant("mnk", opening="swap2")
N = SWAP2.cell_count


def play(*names: str, variant=SWAP2):
    state = variant.new_game()
    for name in names:
        state = state.play(variant.parse_cell(name))
    return state


def test_swap2_is_an_option_of_gomoku_boards_only():
    assert SWAP2.options == {"rows": 15, "cols": 15, "k": 5, "opening": "swap2"}
    assert get_variant("mnk", rows=19, cols=16, opening="swap2").swap2
    # freestyle is the default and is not listed: freestyle games' options stay as they were
    assert get_variant("mnk").options == get_variant("mnk", opening="freestyle").options == {"rows": 15, "cols": 15,
                                                                                              "k": 5}
    for bad in ({"rows": 14}, {"k": 6}, {"k": 4}, {"rows": 10, "cols": 10}):
        with pytest.raises(ValueError, match="swap2 opening is for gomoku boards"):
            get_variant("mnk", opening="swap2", **bad)
    for bad in ("Swap2", "renju", 2, True, None):
        with pytest.raises(ValueError, match="opening"):
            get_variant("mnk", opening=bad)
    with pytest.raises(ValueError, match="unknown option"):
        get_variant("nxn", size=5, opening="swap2")


def test_the_opener_places_three_stones_then_the_second_player_chooses():
    state = SWAP2.new_game()
    assert state.to_move == "X" and state.legal_moves() == list(range(N))
    state = play("h8", "h9")
    assert state.to_move == "X" and state.cells[SWAP2.parse_cell("h9")] == "O"  # the opener places an O stone
    state = play("h8", "h9", "j7")
    assert state.phase == CHOOSE and state.to_move == "O"
    assert state.legal_moves() == [N, N + 1, N + 2]
    assert [SWAP2.cell_name(move) for move in state.legal_moves()] == ["stay", "swap", "more"]
    assert [SWAP2.parse_cell(text) for text in ("STAY", " swap ", "More")] == [N, N + 1, N + 2]
    with pytest.raises(IllegalMove, match=r"O chooses now \(stay, swap or more\).*not g7"):
        state.play(SWAP2.parse_cell("g7"))
    with pytest.raises(IllegalMove, match="no choice to make now"):
        play("h8").play(N)
    for bad in (N + 3, -1, True, 4.0):
        with pytest.raises(IllegalMove):
            play("h8").play(bad)


@pytest.mark.parametrize(
    ("choices", "black", "next_seats"),
    [
        (["stay"], "X", ["O", "X", "O"]),  # O keeps the O stones and places the next
        (["swap"], "O", ["X", "O", "X"]),  # O takes the X stones: the opener places the next O stone
        (["more", "g7", "f8", "stay"], "X", ["O", "X", "O"]),  # the opener keeps the X stones
        (["more", "g7", "f8", "swap"], "O", ["X", "O", "X"]),  # the opener takes the O stones
    ],
)
def test_every_branch_of_the_opening(choices, black, next_seats):
    names = ["h8", "h9", "j7", *choices]
    state = play(*names)
    assert state.phase == PLAY and state.black == black and state.opening_done
    h8 = SWAP2.parse_cell("h8")
    assert state.cells[h8] == black  # the opener's first stone belongs to whoever holds the X stones
    seats = []
    for _ in next_seats:
        seats.append(state.to_move)
        state = state.play(state.legal_moves()[0])
    assert seats == next_seats
    moves = [SWAP2.parse_cell(name) for name in names]
    assert movers(moves, N)[-1] == next_seats[0]


def test_after_more_the_second_player_places_an_o_then_an_x_stone_and_the_opener_chooses():
    state = play("h8", "h9", "j7", "more")
    assert state.phase == PLACE2 and state.to_move == "O" and state.legal_moves()[0] == 0
    state = state.play(SWAP2.parse_cell("g7"))
    assert state.to_move == "O" and state.cells[SWAP2.parse_cell("g7")] == "O"
    state = state.play(SWAP2.parse_cell("f8"))
    assert state.cells[SWAP2.parse_cell("f8")] == "X"
    assert state.phase == CHOOSE2 and state.to_move == "X" and state.legal_moves() == [N, N + 1]
    with pytest.raises(IllegalMove, match=r"stay or swap.*not more"):
        state.play(N + 2)


def test_a_win_is_the_seats_who_hold_the_stones():
    # O swaps, so the X stones are O's: five X stones in a row win for O
    state = play("h8", "a1", "i8", "swap", "a2", "j8", "a3", "k8", "b1", "l8")
    assert state.is_over and state.winner == "O" and state.board.winner == "X"
    assert state.legal_moves() == [] and len(state.winning_cells) == 5
    with pytest.raises(IllegalMove, match="over"):
        state.play(0)


def test_the_seat_of_every_move_follows_the_choices_on_random_games():
    rng = random.Random(5)
    for _ in range(40):
        state, moves = SWAP2.new_game(), []
        for _ in range(rng.randrange(1, 16)):
            if state.is_over:
                break
            assert movers(moves, N)[-1] == state.to_move
            move = rng.choice(state.legal_moves())
            moves.append(move)
            state = state.play(move)
        assert movers(moves, N)[-1] == state.to_move


@pytest.mark.parametrize("choices", [["stay"], ["swap"], ["more", "g7", "f8", "stay"], ["more", "g7", "f8", "swap"]])
def test_records_of_swap2_games_round_trip(choices):
    moves = [SWAP2.parse_cell(name) for name in ["h8", "h9", "j7", *choices, "i9", "g9"]]
    text = write_record(SWAP2, moves, tags={"X": "alice", "O": "bob"})
    assert '[Options "rows=15 cols=15 k=5 opening=swap2"]' in text
    assert "1. h8 h9 2. j7 " + choices[0] in text  # the choices are moves, by their names
    record = read_record(text)
    assert record.moves == moves and record.options == SWAP2.options and record.final.to_move == play(
        *["h8", "h9", "j7", *choices, "i9", "g9"]).to_move
    assert write_record(get_variant(record.variant, **record.options), record.moves, tags=record.tags) == text


def test_a_bad_swap2_record_says_whose_move_it_was():
    text = '[Variant "mnk"]\n[Options "rows=15 cols=15 k=5 opening=swap2"]\n[Result "*"]\n\n1. h8 h9 2. j7 h10 *\n'
    with pytest.raises(ValueError, match=r"move 4 \(O\): O chooses now"):
        read_record(text)
    freestyle = text.replace(" opening=swap2", "").replace("h10", "stay")
    with pytest.raises(ValueError, match="'stay' is not a cell"):
        read_record(freestyle)


def test_a_position_string_of_a_swap2_game_is_its_stones_position():
    state = play("h8", "h9", "j7", "swap", "i9")
    word = position_string(state)
    assert word.startswith("mnk-15-15-5_") and word == position_string(state.board)
    assert parse_position(word).cells == state.board.cells
    with pytest.raises(ValueError, match="not started from a position"):
        SWAP2.from_position(state.board.cells)


def test_names_of_every_legal_move_read_back():
    state = play("h8", "h9", "j7")
    for move in [*state.legal_moves(), *play("h8").legal_moves()[:20]]:
        assert SWAP2.parse_cell(SWAP2.cell_name(move)) == move
    with pytest.raises(InvalidCellName):
        SWAP2.cell_name(N + 3)
    with pytest.raises(InvalidCellName):
        get_variant("mnk").parse_cell("swap")


def test_a_clock_runs_on_for_a_side_that_moves_twice():
    start = datetime(2026, 11, 27, tzinfo=UTC)
    clock = Clock.start(TimeControl.parse("3+2"), start, "O")
    later = clock.after_move("O", start + timedelta(seconds=5), then="O")  # O's choice, then its stone
    assert later.running == "O" and later.o_ms == 175_000 and later.since == start + timedelta(seconds=5)
    after = later.after_move("O", start + timedelta(seconds=8))
    assert after.running == "X" and after.o_ms == 174_000  # charged 3 s, then the increment


def test_the_books_openings_are_distinct_near_the_centre_and_came_out_near_even():
    values = book_values()  # each is a legal opening: an X stone, an O stone, an X stone
    assert len(values) == len(BOOK) >= 12
    orbits = [{tuple(turn(*step) for step in opening) for turn in SYMMETRIES} for opening, _ in BOOK]
    assert sum(map(len, orbits)) == len(set().union(*orbits))  # no opening is another one turned
    for opening, score in BOOK:
        assert opening[0] == (0, 0) and all(max(map(abs, step)) <= 4 for step in opening)
        assert 0.4 <= score <= 0.6  # as measured by scripts/swap2_book.py


@pytest.mark.parametrize("level", range(1, 9))
def test_the_computer_plays_the_opening_at_every_level(level):
    """Every rung plays every step of the opening that is its own: three stones of the book, a choice, and the choice
    handed back after another player's more."""
    player = difficulty(get_variant("mnk"), level, seed=level)
    state = SWAP2.new_game()
    for _ in range(3):
        state = state.play(player.choose(state))
    assert state.phase == CHOOSE
    stones = [c for c in range(N) if state.cells[c]]
    centre = 7 * 15 + 7
    assert centre in stones and all(abs(c // 15 - 7) <= 4 and abs(c % 15 - 7) <= 4 for c in stones)
    assert player.choose(state) in (N, N + 1)  # a side, by its evaluation
    state = state.play(N + 2)  # another player asks for more: two more stones, then the computer (X) chooses
    state = state.play(SWAP2.parse_cell("a1")).play(SWAP2.parse_cell("o15"))
    assert state.phase == CHOOSE2 and player.choose(state) in (N, N + 1)
    state = state.play(player.choose(state))
    assert state.phase == PLAY and player.choose(state) in state.legal_moves()
