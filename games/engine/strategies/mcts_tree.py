"""mcts's search tree: parallel lists indexed by node number, and the small helpers of the search loops."""

from __future__ import annotations

from math import log, sqrt
from typing import Any

#: how often (in iterations) an ``iterations``-bounded search checks whether the leader is settled
SETTLE_CHECK = 64


class _Tree:
    """The search tree as parallel lists indexed by node number (node 0 is the root).

    Per node: visits, summed reward (for the side that moved into it), the move into it, its moves
    not yet expanded (None: not listed yet), its children, and, aligned with the children, their
    mean rewards and 1/sqrt(visits): kept in the parent so that UCT selection is two C-level maps.
    ``up_mean[i]``/``up_inv[i]``/``slot[i]`` say where node i's own entries live in its parent.
    Children lists are made when a node is first listed, so the many leaves cost no lists.
    """

    __slots__ = (
        "c", "visits", "total", "kmove", "untried", "kids", "cmean", "cinv", "up_mean", "up_inv", "slot",
        "root", "parent", "proven",
    )

    def __init__(self, c: float) -> None:
        self.c = c
        #: the node searched from (not 0 once a kept tree is re-rooted)
        self.root = 0
        self.parent: list[int] = [-1]
        #: per node, for the side that moved into it: 1 a proven win, -1 a proven loss, 0 not known (solver)
        self.proven: list[int] = [0]
        self.visits: list[int] = [0]
        self.total: list[float] = [0.0]
        self.kmove: list[int] = [-1]
        self.untried: list[list[int] | None] = [None]
        self.kids: list[list[int]] = [[]]
        self.cmean: list[list[float]] = [[]]
        self.cinv: list[list[float]] = [[]]
        self.up_mean: list[list[float]] = [[]]
        self.up_inv: list[list[float]] = [[]]
        self.slot: list[int] = [0]

    def add(self, parent: int, move: int) -> int:
        """A new child of ``parent`` reached by ``move``; returns its number."""
        child = len(self.visits)
        self.visits.append(0)
        self.total.append(0.0)
        self.kmove.append(move)
        self.untried.append(None)
        self.kids.append(_NO_KIDS)
        self.cmean.append(_NO_KIDS)
        self.cinv.append(_NO_KIDS)
        cm, ci = self.cmean[parent], self.cinv[parent]
        self.slot.append(len(cm))
        cm.append(0.0)
        ci.append(0.0)
        self.up_mean.append(cm)
        self.up_inv.append(ci)
        self.kids[parent].append(child)
        self.parent.append(parent)
        self.proven.append(0)
        return child

    def reroot(self, node: int) -> None:
        """Search from ``node`` from now on (its statistics are kept; the rest of the tree is unused)."""
        self.root = node

    #: per-node lists moved as they are by ``subtree`` (the lists of node numbers, parent and kids, are renumbered)
    MOVED: tuple[str, ...] = ("proven", "visits", "total", "kmove", "untried", "cmean", "cinv", "up_mean", "up_inv",
                              "slot")
    #: settings copied by ``subtree``
    SETTINGS: tuple[str, ...] = ("c",)

    def subtree(self, node: int) -> _Tree:
        """A new tree of ``node`` and its descendants, ``node`` its root 0 (the rest is left behind for the
        garbage collector: a kept tree does not grow move after move). Only node numbers change: each node's lists
        move over as they are, so a child's entries in its parent's lists stay where they were."""
        kids = self.kids
        order = [node]
        for n in order:  # breadth first: the list grows as it is walked
            order.extend(kids[n])
        new = {old: i for i, old in enumerate(order)}
        out = object.__new__(type(self))
        for name in self.SETTINGS:
            setattr(out, name, getattr(self, name))
        for name in self.MOVED:
            setattr(out, name, list(map(getattr(self, name).__getitem__, order)))
        out.root = 0
        out.parent = [-1, *(new[p] for p in map(self.parent.__getitem__, order[1:]))]
        out.kids = [k if k is _NO_KIDS else [new[x] for x in k] for k in map(kids.__getitem__, order)]
        return out

    def prove(self, node: int, value: int) -> None:
        """``node`` is a proven win (1) or loss (-1) for the side that moved into it; pass it up the path.

        A child that wins for its mover makes its parent a loss for the parent's mover; a parent all of
        whose moves are listed, expanded and lost makes a win for the parent's mover. A proven node's mean
        in its parent is set far out of reach, so UCT always picks a win and never a loss again."""
        proven, root = self.proven, self.root
        while True:
            proven[node] = value
            if node == root:
                return
            self.up_mean[node][self.slot[node]] = 1e9 if value == 1 else -1e9
            parent = self.parent[node]
            if value == 1:
                node, value = parent, -1
                continue
            # a loss for the mover into node: the parent is won only if every move from it is lost
            todo = self.untried[parent]
            if todo is None or todo or any(proven[k] != -1 for k in self.kids[parent]):
                return
            node, value = parent, 1

    def list_moves(self, node: int, moves: list[int]) -> list[int]:
        self.untried[node] = moves
        self.kids[node] = []
        self.cmean[node] = []
        self.cinv[node] = []
        return moves

    def back_up(self, path: list[int], reward: float) -> None:
        """``reward`` is for the side that moved into path[0]; the sides alternate down the path."""
        visits, total, up_mean, up_inv, slot = self.visits, self.total, self.up_mean, self.up_inv, self.slot
        proven = self.proven
        visits[self.root] += 1
        for n in path:
            k = visits[n] + 1
            visits[n] = k
            t = total[n] + reward
            total[n] = t
            i = slot[n]
            if not proven[n]:  # a proven node keeps its mark (far out of reach) in the parent
                up_mean[n][i] = t / k
            up_inv[n][i] = k**-0.5
            reward = 1.0 - reward


class PriorTree(_Tree):
    """The tree of the search with a move prior (``mcts_knowing``): per node a progressive bias, ``bias / (visits
    + 1)`` added to its mean in its parent (it fades as visits come in), and per node listed the priors of its
    untried moves, aligned with them."""

    __slots__ = ("bias", "priors")
    MOVED = (*_Tree.MOVED, "bias", "priors")

    def __init__(self, c: float) -> None:
        super().__init__(c)
        self.bias: list[float] = [0.0]
        self.priors: list[list[float] | None] = [None]

    def add(self, parent: int, move: int, bias: float = 0.0) -> int:
        self.bias.append(bias)
        self.priors.append(None)
        return super().add(parent, move)

    def back_up(self, path: list[int], reward: float) -> None:
        visits, total, up_mean, up_inv, slot = self.visits, self.total, self.up_mean, self.up_inv, self.slot
        proven, bias = self.proven, self.bias
        visits[self.root] += 1
        for n in path:
            k = visits[n] + 1
            visits[n] = k
            t = total[n] + reward
            total[n] = t
            i = slot[n]
            if not proven[n]:
                up_mean[n][i] = t / k + bias[n] / (k + 1)
            up_inv[n][i] = k**-0.5
            reward = 1.0 - reward


#: placeholder children list of a node not listed yet (never appended to)
_NO_KIDS: list[Any] = []


def _settled(tree: _Tree, remaining: int) -> bool:
    """True when no other root child can catch the most visited one in ``remaining`` iterations."""
    kids = tree.kids[tree.root]
    if len(kids) < 2:
        return True
    top = sorted(map(tree.visits.__getitem__, kids))
    return top[-1] - top[-2] > remaining


#: c * sqrt(log(n)) for n visits, grown as searches need it (a lookup instead of two calls per step)
def _explore_table(c: float, size: int) -> list[float]:
    return [0.0] + [c * sqrt(log(n)) for n in range(1, size)]


def _reward(result: int, side: int) -> float:
    return 1.0 if result == side else 0.5 if result < 0 else 0.0
