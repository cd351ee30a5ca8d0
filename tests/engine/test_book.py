"""mcts's opening book on ultimate (issue 34): symmetry, the shipped file, the command that rebuilds it."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import get_strategy, get_variant
from games.engine.book import book_move_in, book_positions, build
from games.engine.strategies.mcts_book import BOOK_PATH, INVERSE, SYMMETRIES, book_move, canonical, load_book, map_move


def _random_state(plies: int, seed: int):
    state, rng = get_variant("ultimate").new_game(), random.Random(seed)
    for _ in range(plies):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_the_symmetries_are_the_eight_of_the_square() -> None:
    assert len(set(SYMMETRIES)) == 8 and SYMMETRIES[0] == tuple(range(9))
    for g, h in enumerate(INVERSE):
        assert all(map_move(map_move(m, g), h) == m for m in range(81))
    assert {SYMMETRIES[g][4] for g in range(8)} == {4}  # the centre stays


@pytest.mark.parametrize("seed", range(6))
def test_symmetric_positions_share_one_key_and_the_rules_agree(seed: int) -> None:
    rng = random.Random(seed)
    state, moves = get_variant("ultimate").new_game(), []
    for _ in range(rng.randrange(1, 30)):
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    key = canonical(state)[0]
    for g in range(8):
        image = get_variant("ultimate").new_game()
        for move in moves:
            image = image.play(map_move(move, g))  # legal in the image: the rules are symmetric
        assert canonical(image)[0] == key
        assert sorted(map_move(m, g) for m in state.legal_moves()) == image.legal_moves()


def test_the_shipped_book_answers_every_position_it_may_meet_with_a_legal_move() -> None:
    book = load_book()
    assert book["variant"] == "ultimate" and book["plies"] >= 2
    assert book["command"].startswith("python -m games.engine.book ")
    entries = book["positions"]
    found = book_positions(book["plies"], lambda state: book_move_in(entries, state))
    assert {key for key, _, _ in found} == set(entries)  # no position missing, none to spare
    for _, _, state in found:
        assert state.ply <= 2
        moves = [m for mark in "XO" for m, cell in enumerate(state.cells) if cell == mark]  # X's, then O's
        for g in range(8):  # the position's seven images are answered too, each with a legal move
            image = get_variant("ultimate").new_game()
            for move in moves:
                image = image.play(map_move(move, g))
            move = book_move(image)
            assert move is not None and move in image.legal_moves()


def test_the_book_file_is_what_its_command_writes() -> None:
    """The rebuild command with a tiny budget writes a file of the same shape (its moves, and so the positions
    after them, may differ), consistent with itself."""
    shipped = json.loads(BOOK_PATH.read_text())
    tiny = build(shipped["plies"], 30, shipped["seed"])
    assert tiny["command"].replace("--iterations 30", f"--iterations {shipped['iterations']}") == shipped["command"]
    assert set(tiny) == set(shipped)
    found = book_positions(tiny["plies"], lambda state: book_move_in(tiny["positions"], state))
    assert {key for key, _, _ in found} == set(tiny["positions"])
    for entry in [*shipped["positions"].values(), *tiny["positions"].values()]:
        assert set(entry) == {"move", "visits", "share", "score"}


def test_mcts_plays_the_book_and_can_be_told_not_to() -> None:
    empty = get_variant("ultimate").new_game()
    with_book = get_strategy("mcts", iterations=50, seed=1)
    assert with_book.choose(empty) == book_move(empty) and with_book.last_iterations == 0
    without = get_strategy("mcts", iterations=50, seed=1, book=False)
    without.choose(empty)
    assert without.last_iterations > 0
    assert book_move(_random_state(9, 1)) is None  # beyond the book's plies
    closed = get_variant("ultimate", closed_boards=True).new_game()
    assert book_move(closed) is None  # another rule set: no book
