"""bench/uct_peer.py: the plain UCT yardstick of issue 34 plays ultimate by its own rules: the engine's."""

from __future__ import annotations

import random

from bench.uct_peer import PeerBoard, PlainUCT
from games.engine import get_variant


def test_the_peer_board_agrees_with_the_engine_move_by_move() -> None:
    variant = get_variant("ultimate")
    rng = random.Random(5)
    for _ in range(40):
        state, board = variant.new_game(), PeerBoard()
        while not state.is_over:
            assert sorted(board.get_moves()) == state.legal_moves()
            move = rng.choice(state.legal_moves())
            state, _ = state.play(move), board.do_move(move)
        assert board.get_moves() == []
        assert board.winner == {"X": 1, "O": 2, None: 3}[state.winner]


def test_the_peer_reads_a_position_and_plays_legal_moves() -> None:
    variant = get_variant("ultimate")
    rng = random.Random(6)
    state = variant.new_game()
    for _ in range(17):
        state = state.play(rng.choice(state.legal_moves()))
    assert sorted(PeerBoard.from_state(state).get_moves()) == state.legal_moves()
    peer = PlainUCT(iterations=60, seed=1)
    assert peer.choose(state) in state.legal_moves() and peer.last_iterations == 60
