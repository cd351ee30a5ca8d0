"""Search trees kept between moves of a game, across strategy objects: what a task worker needs to reuse the
computer's tree from one move to the next and to think on the opponent's time.

    from games.engine.pondering import choose_in_game, ponder, forget

    move = choose_in_game(strategy, state, key)      # strategy.choose(state), reusing the tree kept for ``key``
    ponder(strategy, state.play(move), key, seconds=10.0, stop=new_work_waiting)   # the opponent's time
    forget(key)                                      # the game is over

``key`` is anything hashable that names one computer seat of one game (e.g. ``(game.pk, "O")``). The trees live
in this process (``TREES``, a small LRU): a worker that chooses the next move of the same game finds the tree
its last search (or its pondering) left and goes on from the subtree of the moves played since; another process
finds nothing and searches afresh, as before. The move chosen never depends on what is kept: a kept tree whose
root does not lead to the position by one or two moves is dropped.

Only ``mcts`` with ``reuse`` in force (its default on ultimate) keeps trees; for every other strategy
``choose_in_game`` is ``strategy.choose(state)`` and ``ponder`` does nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from .core import State
from .strategies import Strategy

#: trees kept per process (one per game seat, least recently used dropped first)
CACHE_SIZE = 4
#: a tree larger than this (nodes) is not kept, and pondering stops there: about 0.5 KB a node (measured), so a
#: tree holds at most ~50 MB and the cache ~200 MB (a kept subtree is usually a small part of that); 100,000
#: nodes are about 4 s of pondering
MAX_NODES = 100_000


class TreeCache:
    """A small LRU of (root position, search tree) per key; ``take`` hands the entry over (one user at a time)."""

    def __init__(self, size: int = CACHE_SIZE, max_nodes: int = MAX_NODES) -> None:
        self.size, self.max_nodes = size, max_nodes
        self._entries: OrderedDict[Hashable, tuple[State, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: Hashable) -> tuple[State, Any] | None:
        with self._lock:
            return self._entries.pop(key, None)

    def put(self, key: Hashable, state: State, tree: Any) -> None:
        if len(tree.visits) > self.max_nodes:
            tree = tree.subtree(tree.root) if tree.root else tree
            if len(tree.visits) > self.max_nodes:
                return
        with self._lock:
            self._entries[key] = (state, tree)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def drop(self, key: Hashable) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries


#: this process's kept trees
TREES = TreeCache()


def _keeps(strategy: Strategy, state: State) -> bool:
    """Whether ``strategy`` keeps its tree on ``state``'s board: mcts where ``reuse`` is in force (by default on
    ultimate, as the search's other defaults)."""
    return strategy.name == "mcts" and strategy.uses("reuse", state.variant)  # type: ignore[attr-defined]


def choose_in_game(strategy: Strategy, state: State, key: Hashable, cache: TreeCache = TREES) -> int:
    """``strategy.choose(state)``; an mcts with ``reuse`` starts from the tree kept for ``key`` (if it leads to
    ``state``) and leaves its tree there for the next move."""
    if not _keeps(strategy, state):
        return strategy.choose(state)
    strategy.adopt(cache.take(key))  # type: ignore[attr-defined]
    try:
        return strategy.choose(state)
    finally:
        kept = strategy.release()  # type: ignore[attr-defined]
        if kept is not None:
            cache.put(key, *kept)


def ponder(strategy: Strategy, state: State, key: Hashable, seconds: float,
           stop: Callable[[], bool] | None = None, cache: TreeCache = TREES) -> int:
    """Search ``state`` (the opponent to move) for up to ``seconds``, or until ``stop()`` says so (asked about
    every 50 ms) or the tree reaches the cache's size limit, and keep the tree for ``key``: the next
    ``choose_in_game`` goes on from the subtree of the opponent's move. Returns the iterations run (0 when the
    strategy keeps no trees or the game is over)."""
    if not _keeps(strategy, state) or state.is_over:
        return 0
    strategy.adopt(cache.take(key))  # type: ignore[attr-defined]
    try:
        return strategy.ponder(state, seconds, stop, cache.max_nodes)  # type: ignore[attr-defined]
    finally:
        kept = strategy.release()  # type: ignore[attr-defined]
        if kept is not None:
            cache.put(key, *kept)


def forget(key: Hashable, cache: TreeCache = TREES) -> None:
    """Drop the tree kept for ``key`` (the game ended, or the seat is no longer the computer's)."""
    cache.drop(key)
