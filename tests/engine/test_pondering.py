"""Trees kept between moves (issue 34): the subtree of the moves played, across strategy objects of one process
(games.engine.pondering, what a task worker calls), thinking on the opponent's time."""

from __future__ import annotations

import random

from games.engine import get_strategy, get_variant
from games.engine.pondering import TreeCache, choose_in_game, forget, ponder
from games.engine.strategies.mcts_tree import _Tree


def _opening(plies: int, seed: int = 1):
    state, rng = get_variant("ultimate").new_game(), random.Random(seed)
    for _ in range(plies):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def _keeper(seed: int):
    return get_strategy("mcts", iterations=600, seed=seed, reuse=True, book=False)


def test_a_worker_reuses_the_tree_of_its_last_move_in_the_same_game() -> None:
    cache = TreeCache()
    state = _opening(4)
    first = _keeper(1)
    move = choose_in_game(first, state, ("game", 7), cache)
    assert move in state.legal_moves() and ("game", 7) in cache
    reply = random.Random(2).choice(state.play(move).legal_moves())
    after = state.play(move).play(reply)
    second = _keeper(2)  # a new strategy object, as a task builds one
    assert choose_in_game(second, after, ("game", 7), cache) in after.legal_moves()
    assert second.last_reused > 0  # it started from the subtree of the two moves
    other = _keeper(3)  # another game's key finds nothing
    choose_in_game(other, after, ("game", 8), cache)
    assert other.last_reused == 0
    forget(("game", 7), cache)
    assert ("game", 7) not in cache


def test_a_tree_that_does_not_lead_to_the_position_is_not_used() -> None:
    cache = TreeCache()
    state = _opening(4)
    choose_in_game(_keeper(1), state, "k", cache)
    elsewhere = _opening(9, seed=5)
    strategy = _keeper(2)
    assert choose_in_game(strategy, elsewhere, "k", cache) in elsewhere.legal_moves()
    assert strategy.last_reused == 0


def test_pondering_grows_the_tree_the_next_move_starts_from() -> None:
    cache = TreeCache()
    state = _opening(6)
    thinker = get_strategy("mcts", seconds=5.0, seed=1, reuse=True, book=False)
    calls = []

    def stop() -> bool:  # asked between slices: stop after the second one
        calls.append(1)
        return len(calls) > 2

    done = ponder(thinker, state, "k", seconds=5.0, stop=stop, cache=cache)
    assert done > 0 and "k" in cache and len(calls) == 3
    reply = state.legal_moves()[0]
    strategy = _keeper(2)
    assert choose_in_game(strategy, state.play(reply), "k", cache) in state.play(reply).legal_moves()
    assert strategy.last_reused > 0


def test_strategies_that_keep_no_tree_just_choose() -> None:
    cache = TreeCache()
    state = _opening(3)
    plain = get_strategy("mcts", iterations=50, seed=1, reuse=False)
    assert choose_in_game(plain, state, "k", cache) in state.legal_moves()
    assert ponder(plain, state, "k", 1.0, cache=cache) == 0 and len(cache) == 0
    assert choose_in_game(get_strategy("random", seed=1), state, "k", cache) in state.legal_moves()


def test_the_cache_keeps_the_most_recent_trees_and_refuses_huge_ones() -> None:
    cache = TreeCache(size=2, max_nodes=10)
    small = _Tree(1.0)
    big = _Tree(1.0)
    for _ in range(20):
        big.add(0, 0)
    state = _opening(1)
    cache.put("a", state, small)
    cache.put("b", state, small)
    cache.put("c", state, small)
    assert "a" not in cache and "b" in cache and "c" in cache
    cache.put("d", state, big)
    assert "d" not in cache
    assert cache.take("b") == (state, small) and "b" not in cache


def test_a_subtree_keeps_every_statistic_of_its_nodes() -> None:
    strategy = get_strategy("mcts", iterations=800, seed=4, reuse=True, book=False, solver=True)
    strategy.choose(_opening(5))
    tree = strategy._last_tree
    child = max(tree.kids[tree.root], key=lambda k: tree.visits[k])
    sub = tree.subtree(child)
    assert sub.root == 0 and sub.parent[0] == -1

    def walk(t: _Tree, node: int) -> list:
        out = [(t.kmove[node], t.visits[node], t.total[node], t.proven[node])]
        for k in t.kids[node]:
            assert t.parent[k] == node and t.up_mean[k] is t.cmean[node]
            out += walk(t, k)
        return out

    assert walk(sub, 0) == walk(tree, child)
    assert len(sub.visits) < len(tree.visits)


def test_the_default_mcts_keeps_its_tree_on_ultimate_and_not_elsewhere() -> None:
    """``get_strategy("mcts")`` as the levels build it (``reuse`` unset: in force on ultimate) keeps trees there."""
    cache = TreeCache()
    state = _opening(4)
    choose_in_game(get_strategy("mcts", iterations=300, seed=1), state, "u", cache)
    assert "u" in cache
    multi = get_variant("multi").new_game()
    choose_in_game(get_strategy("mcts", iterations=300, seed=1), multi, "m", cache)
    assert "m" not in cache
