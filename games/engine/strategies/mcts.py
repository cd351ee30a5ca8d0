"""``mcts``: Monte-Carlo tree search (UCT) for every variant, bounded by ``iterations`` or ``seconds``.

Options:

- ``iterations``: playouts per move; ``seconds``: thinking time per move. Either or both (whichever
  runs out first); neither means ``seconds=1.0``. Only an ``iterations`` bound is repeatable.
- ``seed``: seeds the generator, so with ``iterations`` the same positions get the same moves.
- ``c`` (default 1.0): the UCT exploration constant; rewards are 1 win, 1/2 draw, 0 loss.
- ``solver`` (ultimate, multi): MCTS-solver. A move that ends the game with a win is a proven win; a
  position with a winning move is a proven loss for the side that moved into it, and one whose moves
  are all proven losses is a proven win. UCT then always takes a proven win and never a proven loss,
  and the search stops once the root is proven.
- ``smart`` (ultimate, multi): playouts that, on the small board they are sent to, take a win of that
  board when there is one, else block the opponent's, else play at random.
- ``reuse`` (ultimate, multi): the strategy object keeps its last tree; when the next position follows
  the last one by a move or two (its own and the reply), the search goes on from that subtree. The move
  chosen is still legal and sound for the position given, whatever came before; only the statistics
  carry over.

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
from operator import add as add_
from operator import or_
from typing import Any

from ..core import State, Variant
from ..grid import GridState, GridVariant
from ..nested import NestedState, NestedVariant
from ..nested_raw import (
    ONGOING,
)
from . import Strategy, register
from .mcts_book import book_move
from .mcts_nested import RAVE_B2, KnowingSearch
from .mcts_playouts import _smart_playout
from .mcts_policy import ordered_moves, policy_ultimate, win_first_ultimate
from .mcts_tree import SETTLE_CHECK, _explore_table, _reward, _settled, _Tree
from .ultimate_eval import x_score

DEFAULT_SECONDS = 1.0
DEFAULT_C = 1.0
#: an hour a move: a budget no one waits for (inf or 1e308 would never return)
MAX_SECONDS = 3600
#: a kept tree larger than this (nodes) is dropped rather than reused (memory)
REUSE_LIMIT = 3_000_000
POLICY_FULL = False
#: pondering asks its ``stop`` this often (seconds)
PONDER_SLICE = 0.05
#: the options that give the search as it was before issue 34 (the match command's ``old`` players)
OLD_OPTIONS: dict[str, Any] = {"smart": False, "reuse": False}


@register
class MCTSStrategy(Strategy):
    name = "mcts"
    option_spec = {
        "iterations": (int, None),
        "seconds": ((int, float), None),
        "seed": (int, None),
        "c": ((int, float), None),
        "solver": (bool, False),
        "smart": (bool, False),
        "reuse": (bool, False),
        "policy": (bool, False),
        "rave": (bool, False),
        "evaluate": (bool, False),
        "prior": (bool, False),
        "value": (bool, False),
        "book": (bool, False),
        "widen": (bool, False),
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
        self.c = float(DEFAULT_C if c is None else c)
        self.rng = random.Random(self.options["seed"])
        #: iterations run by the last ``choose`` (for benchmarks)
        self.last_iterations = 0
        #: nested variants with ``reuse``: the last search's tree and its root position, for the next move
        self._kept: tuple[Any, _Tree] | None = None
        self._last_tree: _Tree | None = None
        self.last_reused = 0

    def supports(self, variant: Variant) -> bool:
        return isinstance(variant, (NestedVariant, GridVariant))

    def _choose(self, state: State) -> int:
        started = time.perf_counter()
        if isinstance(state, NestedState):
            if self.options["book"]:
                move = book_move(state)
                if move is not None:
                    self.last_iterations = self.last_reused = 0
                    self._kept = None
                    return move
            return self._search(self._nested(state), state, started)
        if isinstance(state, GridState):
            return self._search(_GridGame(state), None, started)
        raise ValueError(f"strategy 'mcts' does not support {state!r}")  # pragma: no cover - supports() guards

    def _nested(self, state: NestedState) -> Any:
        """The search of a nested position with this strategy's options."""
        game = _NestedGame(state, self.options["solver"], self.options["smart"], self.options["policy"])
        if any(self.options[k] for k in ("rave", "evaluate", "prior", "value")):
            leaf = x_score if self.options["evaluate"] else None
            prior = ordered_moves if self.options["prior"] else None
            value = x_score if self.options["value"] else None
            search = KnowingSearch(game, RAVE_B2 if self.options["rave"] else None, leaf, prior, value)
            search.widen = self.options["widen"]
            return search
        return game

    def _tree_for(self, game: Any, state: State | None) -> _Tree:
        tree = self._reused(state) if self.options["reuse"] and state is not None else None
        #: visits the search started with (a reused subtree's), for tests and benchmarks
        self.last_reused = 0 if tree is None else tree.visits[tree.root]
        if tree is None:
            tree = game.new_tree(self.c) if hasattr(game, "new_tree") else _Tree(self.c)
        return tree

    def _search(self, game: Any, state: State | None, started: float) -> int:
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
        if self.options["reuse"] and state is not None:
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
        if not (self.options["reuse"] and isinstance(state, NestedState)) or state.is_over:
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

    def _reused(self, state: State) -> _Tree | None:
        """The kept tree re-rooted at ``state`` when ``state`` follows the kept root by a move or two."""
        if self._kept is None:
            return None
        old, tree = self._kept
        self._kept = None
        if not isinstance(state, NestedState) or old.variant != state.variant or len(tree.visits) > REUSE_LIMIT:
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
        return tree.subtree(node)


class _NestedGame:
    """Search on the raw masks of a nested variant (ultimate, multi)."""

    def __init__(self, state: NestedState, solver: bool = False, smart: bool = False, policy: bool = False) -> None:
        self.variant: NestedVariant = state.variant  # type: ignore[assignment]
        self.xs = list(state.xs)
        self.os = list(state.os)
        self.occ = list(map(or_, state.xs, state.os))
        self.won = [state.xwon, state.owon]
        self.full = state.full
        self.target = state.target
        self.side = state.ply & 1
        self.solver = solver
        self.playout = _smart_playout(self.variant) if smart else self.variant.raw_playout
        if policy and self.variant.key == "ultimate" and not self.variant.closes_won:
            self.playout = policy_ultimate if POLICY_FULL else win_first_ultimate

    def root_moves(self) -> list[int]:
        v = self.variant
        return v.raw_moves(self.occ, v.raw_closed(self.won[0], self.won[1], self.full), self.target)

    def winning_move(self, moves: list[int]) -> int | None:
        step = self.variant.raw_step
        for m in moves:
            if step(self.xs[:], self.os[:], self.occ[:], self.won[:], self.full, self.side, m)[2] == self.side:
                return m
        return None

    def run(self, tree: _Tree, rng: random.Random, budget: int, deadline: float | None, settle: bool) -> int:
        """Iterate until the budget, the deadline or (``settle``) a settled leader; returns iterations done."""
        v = self.variant
        step, moves_of, closes_won = v.raw_step, v.raw_moves, v.closes_won
        playout = self.playout
        randbytes, rand, clock = rng.randbytes, rng.random, time.perf_counter
        rxs, ros, rocc, rwon = self.xs, self.os, self.occ, self.won
        rfull, rtarget, rside = self.full, self.target, self.side
        visits, kmove, untried = tree.visits, tree.kmove, tree.untried
        kids, cmean, cinv = tree.kids, tree.cmean, tree.cinv
        add, list_moves, back_up, c = tree.add, tree.list_moves, tree.back_up, tree.c
        solver, prove, proven, root = self.solver, tree.prove, tree.proven, tree.root
        done = 0
        explore = _explore_table(c, max(min(budget, 4096), visits[root]) + 2)
        while done < budget:
            if deadline is not None and clock() >= deadline:
                break
            if visits[root] + 2 >= len(explore):
                explore = _explore_table(c, 2 * len(explore))
            if settle and done % SETTLE_CHECK == 0 and done and _settled(tree, budget - done):
                break
            if solver and proven[root]:
                break
            done += 1
            xs, os_, occ, won = rxs[:], ros[:], rocc[:], rwon[:]
            full, target, side = rfull, rtarget, rside
            node = root
            path = []
            while True:
                todo = untried[node]
                if todo is None:
                    todo = list_moves(node, moves_of(occ, full | won[0] | won[1] if closes_won else full, target))
                if todo:  # expand one random untried move, then play out from there
                    i = int(rand() * len(todo))
                    m = todo[i]
                    todo[i] = todo[-1]
                    todo.pop()
                    full, target, res = step(xs, os_, occ, won, full, side, m)
                    child = add(node, m)
                    path.append(child)
                    if res == ONGOING:
                        res = playout(xs, os_, occ, won[0], won[1], full, target, side ^ 1, randbytes)
                    elif solver and res == side:
                        prove(child, 1)  # the move wins the game: its parent is lost for the other side
                    break
                scores = list(map(add_, cmean[node], map(explore[visits[node]].__mul__, cinv[node])))
                node = kids[node][scores.index(max(scores))]
                path.append(node)
                full, target, res = step(xs, os_, occ, won, full, side, kmove[node])
                if res != ONGOING:  # a finished game in the tree: its result is exact
                    break
                side ^= 1
            back_up(path, _reward(res, rside))
        return done


class _GridGame:
    """Search on the two bit masks of a grid variant."""

    def __init__(self, state: GridState) -> None:
        self.variant: GridVariant = state.variant  # type: ignore[assignment]
        self.x = state.x
        self.o = state.o
        self.side = state.ply & 1

    def root_moves(self) -> list[int]:
        occ = self.x | self.o
        return [i for i in range(self.variant.cell_count) if not occ >> i & 1]

    def winning_move(self, moves: list[int]) -> int | None:
        mine = self.o if self.side else self.x
        cell_lines = self.variant.cell_lines
        for m in moves:
            after = mine | 1 << m
            if any(after & line == line for line in cell_lines[m]):
                return m
        return None

    def run(self, tree: _Tree, rng: random.Random, budget: int, deadline: float | None, settle: bool) -> int:
        v = self.variant
        cell_lines, full_mask, cells, playout = v.cell_lines, v.full, range(v.cell_count), v.raw_playout
        rand, clock = rng.random, time.perf_counter
        rx, ro, rside = self.x, self.o, self.side
        visits, kmove, untried = tree.visits, tree.kmove, tree.untried
        kids, cmean, cinv = tree.kids, tree.cmean, tree.cinv
        add, list_moves, back_up, c = tree.add, tree.list_moves, tree.back_up, tree.c
        done = 0
        explore = _explore_table(c, min(budget, 4096) + 2)
        while done < budget:
            if deadline is not None and clock() >= deadline:
                break
            if done + 2 >= len(explore):
                explore = _explore_table(c, 2 * len(explore))
            if settle and done % SETTLE_CHECK == 0 and done and _settled(tree, budget - done):
                break
            done += 1
            x, o, side = rx, ro, rside
            node = 0
            path = []
            while True:
                todo = untried[node]
                if todo is None:
                    occ = x | o
                    todo = list_moves(node, [i for i in cells if not occ >> i & 1])
                expanded = bool(todo)
                if expanded:
                    i = int(rand() * len(todo))
                    m = todo[i]
                    todo[i] = todo[-1]
                    todo.pop()
                    path.append(add(node, m))
                else:
                    scores = list(map(add_, cmean[node], map(explore[visits[node]].__mul__, cinv[node])))
                    node = kids[node][scores.index(max(scores))]
                    path.append(node)
                    m = kmove[node]
                bit = 1 << m
                if side:
                    o |= bit
                    mine = o
                else:
                    x |= bit
                    mine = x
                if any(mine & line == line for line in cell_lines[m]):
                    res = side
                    break
                if x | o == full_mask:
                    res = -1
                    break
                side ^= 1
                if expanded:
                    res = playout(x, o, side, rand)
                    break
            back_up(path, _reward(res, rside))
        return done
