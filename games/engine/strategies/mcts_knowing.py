"""mcts on ultimate with the move prior (issue 34): UCT whose tree knows the game, over plain random playouts.

Three uses of ``mcts_prior.ordered_moves``, all in the tree (the playouts stay uniformly random: knowledge there
did not pay for itself, docs/ladder.md):

- expansion order: a node's moves are expanded best-looking first, not at random;
- progressive bias: a child's mean in its parent carries ``PRIOR_WEIGHT * prior / (visits + 1)``, so a few
  unlucky playouts do not bury a good-looking move, nor a few lucky ones lift a bad one, while visits are few;
- progressive widening: a node may have ``WIDEN[visits]`` children (2 + the square root of its visits), so a
  rarely visited node spends its visits on its best-looking moves and the search goes deeper where it matters.

With the prior the exploration constant is ``KNOWING_C`` (0.5): the bias does part of the exploring.
"""

from __future__ import annotations

import random
import time
from operator import add as add_

from ..nested_raw import ONGOING
from .mcts_prior import ordered_moves
from .mcts_search import _NestedGame
from .mcts_tree import SETTLE_CHECK, PriorTree, _explore_table, _reward, _settled, _Tree

#: the exploration constant of the search with the prior (UCT's default is 1.0)
KNOWING_C = 0.5
#: the progressive bias: this times a move's prior, fading as 1 / (visits + 1)
PRIOR_WEIGHT = 1.0
#: WIDEN[visits]: the children a node may have after that many visits (beyond WIDEN_TOP visits: all of them)
WIDEN_TOP = 6561
WIDEN = tuple(2 + int(n**0.5) for n in range(WIDEN_TOP + 1))
#: a child's mean below this is a proven loss (``_Tree.prove`` sets -1e9)
LOST = -1e8


class KnowingGame(_NestedGame):
    """The search of an ultimate position (default rules) with the move prior."""

    def new_tree(self, c: float) -> _Tree:
        return PriorTree(c)

    def run(self, tree: _Tree, rng: random.Random, budget: int, deadline: float | None, settle: bool) -> int:
        """Iterate until the budget, the deadline or (``settle``) a settled leader; returns iterations done."""
        assert isinstance(tree, PriorTree)
        v = self.variant
        step, moves_of = v.raw_step, v.raw_moves
        playout = self.playout
        randbytes, rand, clock = rng.randbytes, rng.random, time.perf_counter
        rxs, ros, rocc, rwon = self.xs, self.os, self.occ, self.won
        rfull, rtarget, rside = self.full, self.target, self.side
        visits, kmove, untried, priors = tree.visits, tree.kmove, tree.untried, tree.priors
        kids, cmean, cinv = tree.kids, tree.cmean, tree.cinv
        add, list_moves, back_up, c = tree.add, tree.list_moves, tree.back_up, tree.c
        solver, prove, proven, root = self.solver, tree.prove, tree.proven, tree.root
        widen, top, weight = WIDEN, WIDEN_TOP, PRIOR_WEIGHT
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
                if todo is None:  # listed on its second visit: the best-looking move ends the list
                    todo, priors[node] = ordered_moves(xs, os_, occ, won, side, moves_of(occ, full, target), rand)
                    list_moves(node, todo)
                expand = bool(todo)
                if expand and len(kids[node]) >= widen[min(visits[node], top)]:
                    scores = list(map(add_, cmean[node], map(explore[visits[node]].__mul__, cinv[node])))
                    best = max(scores)
                    expand = best < LOST  # every child so far is a proven loss: widen now
                else:
                    scores = None
                if expand:
                    m = todo.pop()
                    bias = weight * priors[node].pop()  # type: ignore[union-attr]
                    full, target, res = step(xs, os_, occ, won, full, side, m)
                    child = add(node, m, bias)
                    path.append(child)
                    if res == ONGOING:
                        res = playout(xs, os_, occ, won[0], won[1], full, target, side ^ 1, randbytes)
                    elif solver and res == side:
                        prove(child, 1)  # the move wins the game: its parent is lost for the other side
                    break
                if scores is None:
                    scores = list(map(add_, cmean[node], map(explore[visits[node]].__mul__, cinv[node])))
                    best = max(scores)
                node = kids[node][scores.index(best)]
                path.append(node)
                full, target, res = step(xs, os_, occ, won, full, side, kmove[node])
                if res != ONGOING:  # a finished game in the tree: its result is exact
                    break
                side ^= 1
            back_up(path, _reward(res, rside))
        return done
