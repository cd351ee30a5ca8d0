#!/usr/bin/env python3
"""A plain UCT player for Ultimate, written the way typical public Python implementations are, and a match of the
engine's ``mcts`` against it at unequal time (issue 34).

    .venv/bin/python bench/uct_peer.py --games 8 --ours 0.1 --peer 3.0
    .venv/bin/python bench/uct_peer.py --games 8 --ours "mcts seconds=0.1 smart=False" --peer 3.0

The peer is deliberately ordinary, as found in tutorials and course code (after the well-known ``UCT.py`` of
mcts.ai): its own board (a list of 81 cells, a list of 9 board owners), a ``Node`` object per tree node with
its untried moves, UCB1 with exploration sqrt(2), uniformly random playouts through the same ``do_move`` as the
tree, the most visited child played. It implements the rules by itself (RULES.md, ultimate without options: a
won board stays playable, a full board sends to a free choice); tests/engine/test_uct_peer.py checks that its
moves agree with the engine's. It is a yardstick, not a player of the site.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from math import log, sqrt
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the checkout's root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import NestedState  # noqa: E402

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class PeerBoard:
    """The whole game: cells (0 empty, 1 X, 2 O), board owners (0 none), the target board (-1 any)."""

    def __init__(self) -> None:
        self.cells = [0] * 81
        self.owner = [0] * 9
        self.target = -1
        self.player_just_moved = 2  # X moves first
        self.winner = 0  # 1 X, 2 O, 3 draw

    @classmethod
    def from_state(cls, state: NestedState) -> PeerBoard:
        board = cls()
        board.cells = [0 if c is None else 1 if c == "X" else 2 for c in state.cells]
        board.owner = [0 if w is None else 1 if w == "X" else 2 for w in state.board_winners]
        board.target = state.target
        board.player_just_moved = 2 if state.to_move == "X" else 1
        return board

    def clone(self) -> PeerBoard:
        other = PeerBoard.__new__(PeerBoard)
        other.cells = self.cells[:]
        other.owner = self.owner[:]
        other.target = self.target
        other.player_just_moved = self.player_just_moved
        other.winner = self.winner
        return other

    def board_full(self, b: int) -> bool:
        return all(self.cells[9 * b + i] for i in range(9))

    def get_moves(self) -> list[int]:
        if self.winner:
            return []
        if self.target >= 0 and not self.board_full(self.target):
            return [9 * self.target + i for i in range(9) if not self.cells[9 * self.target + i]]
        return [m for m in range(81) if not self.cells[m]]

    def do_move(self, move: int) -> None:
        player = 3 - self.player_just_moved
        self.cells[move] = player
        b, c = divmod(move, 9)
        if not self.owner[b]:
            base = 9 * b
            for x, y, z in LINES:
                if self.cells[base + x] == self.cells[base + y] == self.cells[base + z] == player:
                    self.owner[b] = player
                    if any(self.owner[x] == self.owner[y] == self.owner[z] == player for x, y, z in LINES):
                        self.winner = player
                    break
        if not self.winner and all(self.cells):
            self.winner = 3
        self.target = c
        self.player_just_moved = player

    def result(self, player: int) -> float:
        """1 if ``player`` won, 0.5 a draw, 0 a loss (the game is over)."""
        return 0.5 if self.winner == 3 else 1.0 if self.winner == player else 0.0


class Node:
    def __init__(self, move: int | None = None, parent: Node | None = None, board: PeerBoard | None = None) -> None:
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.wins = 0.0
        self.visits = 0
        self.untried = board.get_moves() if board is not None else []
        self.player_just_moved = board.player_just_moved if board is not None else 0

    def select_child(self) -> Node:
        log_n = log(self.visits)
        return max(self.children, key=lambda c: c.wins / c.visits + sqrt(2 * log_n / c.visits))

    def add_child(self, move: int, board: PeerBoard) -> Node:
        child = Node(move, self, board)
        self.untried.remove(move)
        self.children.append(child)
        return child

    def update(self, result: float) -> None:
        self.visits += 1
        self.wins += result


class PlainUCT:
    """UCT bounded by ``seconds`` (or ``iterations``): ``choose(state)`` takes the engine's NestedState."""

    def __init__(self, seconds: float | None = None, iterations: int | None = None, seed: int | None = None) -> None:
        self.seconds, self.iterations = seconds, iterations
        self.rng = random.Random(seed)
        self.last_iterations = 0

    def choose(self, state: NestedState) -> int:
        root_board = PeerBoard.from_state(state)
        root = Node(board=root_board)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        rng = self.rng
        while (self.iterations is None or done < self.iterations) and (
                deadline is None or time.perf_counter() < deadline):
            node, board = root, root_board.clone()
            while not node.untried and node.children:  # select
                node = node.select_child()
                board.do_move(node.move)  # type: ignore[arg-type]
            if node.untried:  # expand
                move = rng.choice(node.untried)
                board.do_move(move)
                node = node.add_child(move, board)
            moves = board.get_moves()
            while moves:  # roll out
                board.do_move(rng.choice(moves))
                moves = board.get_moves()
            while node is not None:  # back-propagate
                node.update(board.result(node.player_just_moved))
                node = node.parent
            done += 1
        self.last_iterations = done
        if not root.children:
            return rng.choice(root.untried)
        return max(root.children, key=lambda c: c.visits).move  # type: ignore[return-value]

    def __repr__(self) -> str:
        bound = f"seconds={self.seconds}" if self.seconds else f"iterations={self.iterations}"
        return f"<PlainUCT {bound}>"


def main(argv: list[str] | None = None) -> int:
    from games.engine.match import PlayerSpec, play_match

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games (sides alternate)")
    parser.add_argument("--ours", default="0.1",
                        help="seconds a move for the engine's mcts (its defaults), or a player as games.engine.match "
                        "takes it (e.g. 'mcts seconds=0.1 smart=False', 'level 8')")
    parser.add_argument("--peer", type=float, default=3.0, help="seconds a move for the plain UCT")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ours = PlayerSpec.parse(f"mcts seconds={args.ours}" if args.ours.replace(".", "", 1).isdigit() else args.ours)
    peer = PlayerSpec(f"plain UCT {args.peer} s", lambda seed: PlainUCT(seconds=args.peer, seed=seed))
    return play_match("ultimate", {}, ours, peer, args.games, seed=args.seed)


if __name__ == "__main__":
    raise SystemExit(main())
