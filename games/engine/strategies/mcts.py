"""``mcts``: Monte-Carlo tree search (UCT) for every variant, bounded by ``iterations`` or ``seconds``.

Options:

- ``iterations``: playouts per move; ``seconds``: thinking time per move. Either or both (whichever
  runs out first); neither means ``seconds=1.0``. Only an ``iterations`` bound is repeatable.
- ``seed``: seeds the generator, so with ``iterations`` the same positions get the same moves.
- ``c``: the UCT exploration constant; rewards are 1 win, 1/2 draw, 0 loss. By default 0.5 with the move
  prior (``prior``), 1.0 without it.
- ``solver`` (ultimate, multi; by default on ultimate): MCTS-solver. A move that ends the game with a win is a
  proven win; a position with a winning move is a proven loss for the side that moved into it, and one whose
  moves are all proven losses is a proven win. UCT then always takes a proven win and never a proven loss,
  and the search stops once the root is proven.
- ``prior`` (ultimate with its default rules; by default on there): the tree knows the game
  (``mcts_knowing``): moves are expanded best-looking first, a child's mean carries a bias from the move's
  prior that fades with its visits, and a node widens to more children as its visits grow. The prior
  (``mcts_prior``) values winning or blocking a small board and sending the opponent to a decided board, and
  marks down sending them to a board they win at once or to a free choice.
- ``book`` (ultimate with its default rules; by default on there): the opening book's move
  (``mcts_book``: long offline searches of every position of the first plies, up to symmetry) without search.
- ``reuse`` (ultimate, multi; by default on ultimate): the strategy object keeps its last tree; when the next
  position follows the last one by a move or two (its own and the reply), the search goes on from that subtree
  (copied out: the rest is dropped). The move chosen is still legal and sound for the position given, whatever
  came before; only the statistics carry over. ``games.engine.pondering`` keeps such trees per game across
  strategy objects, and thinks on the opponent's time (``ponder``).
- ``smart`` (ultimate, multi): playouts that, on the small board they are sent to, take a win of that
  board when there is one, else block the opponent's, else play at random (off: it did not win its match).

``solver``, ``prior``, ``book`` and ``reuse`` left unset (None) mean "where it was measured to help"
(docs/ladder.md); ``False`` turns one off, ``True`` turns ``solver`` or ``reuse`` on for multi too.

The final move is the most visited root child. A move that wins at once is played without search.

Why it is fast (tens of thousands of iterations a second on ultimate in pure Python):

- the tree is a handful of parallel lists indexed by node number, not objects;
- a node stores only the move into it: each iteration copies the root's raw bit masks (a few short
  lists) and replays the path with the variant's ``raw_step``; no state objects are built;
- UCT selection is one pass of C-level ``map`` over the children's cached mean and 1/sqrt(visits);
- the playout is the variant's ``raw_playout`` straight on those masks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from math import inf
from typing import Any

from ..core import State, Variant
from ..grid import GridState, GridVariant
from ..nested import NestedState, NestedVariant
from .base import Strategy, register
from .mcts_book import book_move
from .mcts_knowing import KNOWING_C, KnowingGame
from .mcts_search import _GridGame, _NestedGame
from .mcts_tree import _Tree

DEFAULT_SECONDS = 1.0
DEFAULT_C = 1.0
#: an hour a move: a budget no one waits for (inf or 1e308 would never return)
MAX_SECONDS = 3600
#: a kept tree larger than this (nodes) is dropped rather than reused (memory)
REUSE_LIMIT = 3_000_000
#: pondering asks its ``stop`` this often (seconds)
PONDER_SLICE = 0.05


def _default_rules_ultimate(variant: Variant) -> bool:
    return variant.key == "ultimate" and not getattr(variant, "closes_won", True)


@register
class MCTSStrategy(Strategy):
    name = "mcts"
    option_spec = {
        "iterations": (int, None),
        "seconds": ((int, float), None),
        "seed": (int, None),
        "c": ((int, float), None),
        "solver": (bool, None),
        "prior": (bool, None),
        "book": (bool, None),
        "reuse": (bool, None),
        "smart": (bool, False),
    }

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        iterations, seconds, c = self.options["iterations"], self.options["seconds"], self.options["c"]
        if iterations is not None and iterations < 1:
            raise ValueError(f"option 'iterations' of strategy 'mcts' must be at least 1, not {iterations}")
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(
                f"option 'seconds' of strategy 'mcts' must be more than 0 and at most {MAX_SECONDS}, not {seconds}"
            )
        if c is not None and not 0 <= c < inf:  # also refuses nan, which compares false with anything
            raise ValueError(f"option 'c' of strategy 'mcts' must be a finite number of at least 0, not {c}")
        if iterations is None and seconds is None:
            seconds = self.options["seconds"] = DEFAULT_SECONDS  # shown as the setting in use
        self.iterations: int | None = iterations
        self.seconds: float | None = seconds
        self.c: float | None = None if c is None else float(c)
        self.rng = random.Random(self.options["seed"])
        #: iterations run by the last ``choose`` (for benchmarks)
        self.last_iterations = 0
        #: nested variants with ``reuse``: the last search's tree and its root position, for the next move
        self._kept: tuple[Any, _Tree] | None = None
        self._last_tree: _Tree | None = None
        self.last_reused = 0

    def supports(self, variant: Variant) -> bool:
        return isinstance(variant, (NestedVariant, GridVariant))

    def uses(self, option: str, variant: Variant) -> bool:
        """Whether ``option`` (solver, prior, book, reuse) is in force on ``variant``: its value, or where unset,
        whether it was measured to help there."""
        value = self.options[option]
        if option in ("prior", "book"):
            return value is not False and _default_rules_ultimate(variant)
        if value is not None:
            return bool(value) and isinstance(variant, NestedVariant)
        return variant.key == "ultimate"

    def _choose(self, state: State) -> int:
        started = time.perf_counter()
        if isinstance(state, NestedState):
            if self.uses("book", state.variant):
                move = book_move(state)
                if move is not None:
                    self.last_iterations = self.last_reused = 0
                    self._kept = None
                    return move
            return self._search(self._nested(state), state, started)
        if isinstance(state, GridState):
            return self._search(_GridGame(state), None, started)  # type: ignore[arg-type]
        raise ValueError(f"strategy 'mcts' does not support {state!r}")  # pragma: no cover - supports() guards

    def _nested(self, state: NestedState) -> _NestedGame:
        """The search of a nested position with this strategy's options."""
        variant = state.variant
        solver = self.uses("solver", variant)
        if self.uses("prior", variant):
            return KnowingGame(state, solver, self.options["smart"])
        return _NestedGame(state, solver, self.options["smart"])

    def game_for(self, state: State) -> _NestedGame | _GridGame:
        """The search of ``state`` this strategy runs (the analysis runs it too, on a ``fresh_tree``)."""
        if isinstance(state, NestedState):
            return self._nested(state)
        assert isinstance(state, GridState)
        return _GridGame(state)

    def fresh_tree(self, game: _NestedGame | _GridGame) -> _Tree:
        return game.new_tree(self._c(game))

    def _c(self, game: _NestedGame | _GridGame) -> float:
        if self.c is not None:
            return self.c
        return KNOWING_C if isinstance(game, KnowingGame) else DEFAULT_C

    def _tree_for(self, game: _NestedGame | _GridGame, state: State | None) -> _Tree:
        keep = state is not None and self.uses("reuse", state.variant)
        tree = self._reused(state, game) if keep else None  # type: ignore[arg-type]
        #: visits the search started with (a reused subtree's), for tests and benchmarks
        self.last_reused = 0 if tree is None else tree.visits[tree.root]
        return tree if tree is not None else game.new_tree(self._c(game))

    def _search(self, game: _NestedGame | _GridGame, state: State | None, started: float) -> int:
        moves = game.root_moves()
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        winning = game.winning_move(moves)
        if winning is not None:
            self.last_iterations = 0
            return winning
        tree = self._tree_for(game, state)
        budget = self.iterations if self.iterations is not None else 1 << 62
        deadline = None if self.seconds is None else started + self.seconds
        self.last_iterations = game.run(tree, self.rng, budget, deadline, self.iterations is not None)
        visits, total, root = tree.visits, tree.total, tree.root
        kids = tree.kids[root]
        if not kids:  # the budget ran out before a single iteration (a busy machine): any legal move
            return self.rng.choice(moves)
        proven = tree.proven
        won = [k for k in kids if proven[k] == 1]
        if won:
            best = won[0]
        else:
            alive = [k for k in kids if proven[k] != -1 and visits[k]] or [k for k in kids if visits[k]] or kids
            best = max(alive, key=lambda k: (visits[k], total[k] / visits[k] if visits[k] else 0.0))
        if state is not None and self.uses("reuse", state.variant):
            self._kept = (state, tree)
        self._last_tree = tree  # for tests: what the last search proved
        return tree.kmove[best]

    def root_stats(self, move: int) -> tuple[int, float, float]:
        """Of the last search: the visits of ``move`` at the root, their share of the root's, the mean result
        for the side that played it (the opening book's figures); zeros when no search ran."""
        tree = self._last_tree
        if tree is None:
            return 0, 0.0, 0.0
        root = tree.root
        for k in tree.kids[root]:
            if tree.kmove[k] == move and tree.visits[k]:
                return tree.visits[k], tree.visits[k] / max(tree.visits[root], 1), tree.total[k] / tree.visits[k]
        return 0, 0.0, 0.0

    # Trees kept across strategy objects (games.engine.pondering) -------------------------------------------
    def adopt(self, kept: tuple[State, _Tree] | None) -> None:
        """Start from ``kept`` (a root position and its tree, as ``release`` gave them) at the next search."""
        self._kept = kept

    def release(self) -> tuple[State, _Tree] | None:
        """The kept tree with its root position (None if there is none), handed over: this strategy forgets it."""
        kept, self._kept = self._kept, None
        return kept

    def ponder(self, state: State, seconds: float, stop: Callable[[], bool] | None = None,
               max_nodes: int = 1 << 62) -> int:
        """Search ``state`` without choosing (the opponent's time) for up to ``seconds``, until ``stop()`` (asked
        every ``PONDER_SLICE`` seconds), a proven root or ``max_nodes`` nodes; the tree is kept as after a move.
        Returns the iterations run. Only nested positions with ``reuse`` are pondered."""
        if not isinstance(state, NestedState) or not self.uses("reuse", state.variant) or state.is_over:
            return 0
        game = self._nested(state)
        if len(game.root_moves()) < 2:
            return 0
        tree = self._tree_for(game, state)
        end = time.perf_counter() + seconds
        done = 0
        while True:
            now = time.perf_counter()
            if now >= end or (stop is not None and stop()) or len(tree.visits) >= max_nodes or tree.proven[tree.root]:
                break
            done += game.run(tree, self.rng, 1 << 62, min(end, now + PONDER_SLICE), False)
        self._kept = (state, tree)
        self.last_iterations = done
        return done

    def _reused(self, state: NestedState, game: _NestedGame) -> _Tree | None:
        """The kept tree re-rooted at ``state`` when ``state`` follows the kept root by a move or two (and the
        tree is of the kind this search grows)."""
        if self._kept is None:
            return None
        old, tree = self._kept
        self._kept = None
        if (not isinstance(old, NestedState) or old.variant != state.variant or len(tree.visits) > REUSE_LIMIT
                or type(tree) is not type(game.new_tree(0.0))):
            return None
        # a NestedState keeps no history: the moves since the kept root are the cells that filled since
        diff = [m for m in range(81) if (state.xs[m // 9] | state.os[m // 9]) >> (m % 9) & 1
                and not (old.xs[m // 9] | old.os[m // 9]) >> (m % 9) & 1]
        if not 1 <= len(diff) <= 2 or state.ply - old.ply != len(diff):
            return None
        # the order of the moves: the old root's side played the one it owns
        mover = old.ply & 1
        mine = old.xs if mover == 0 else old.os
        after_mine = state.xs if mover == 0 else state.os
        first = [m for m in diff if after_mine[m // 9] >> (m % 9) & 1 and not mine[m // 9] >> (m % 9) & 1]
        order = first + [m for m in diff if m not in first]
        node = tree.root
        for m in order:
            node = next((k for k in tree.kids[node] if tree.kmove[k] == m), -1)
            if node < 0 or tree.untried[node] is None:
                return None
        if tree.proven[node] != 0:
            return None
        out = tree.subtree(node)
        out.c = self._c(game)
        return out
