"""Computer players: ring, threats, alphabeta, perfect, pairing (and the registry's error paths)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from games.engine import STRATEGIES, get_strategy, get_variant
from games.engine.core import State, Variant
from games.engine.grid import line_tables
from games.engine.strategies import Strategy
from games.engine.strategies.pairing import PairingError, pairs_for

MINE = ("ring", "threats", "alphabeta", "perfect", "pairing")


def play_game(variant: Variant, x: Strategy, o: Strategy, opening: tuple[int, ...] = ()) -> State:
    state = variant.new_game()
    for move in opening:
        state = state.play(move)
    while not state.is_over:
        player = x if state.to_move == "X" else o
        move = player.choose(state)
        assert move in state.legal_moves()
        state = state.play(move)
    return state


def never_loses_exhaustively(variant: Variant, strategy: Strategy, side: str) -> dict[str | None, int]:
    """Walk every sequence of opponent moves; return the count of results. Fails on a loss."""
    results: dict[str | None, int] = {}

    def walk(state: State) -> None:
        if state.is_over:
            assert state.winner in (side, None), f"{strategy.name} lost as {side}: {state!r}"
            results[state.winner] = results.get(state.winner, 0) + 1
            return
        if state.to_move == side:
            walk(state.play(strategy.choose(state)))
        else:
            for move in state.legal_moves():
                walk(state.play(move))

    walk(variant.new_game())
    return results


def loser(state: State, hero: str) -> bool:
    return state.winner is not None and state.winner != hero


# --- registry, options, supports -------------------------------------------------------------------

VARIANTS = [
    ("classic", {}),
    ("four", {}),
    ("nxn", {"size": 3}),
    ("nxn", {"size": 4}),
    ("nxn", {"size": 5}),
    ("nxn", {"size": 8}),
    ("nxn", {"size": 10}),
    ("mnk", {"rows": 3, "cols": 5, "k": 4}),
    ("mnk", {"rows": 4, "cols": 6, "k": 3}),
    ("mnk", {"rows": 6, "cols": 6, "k": 6}),
    ("mnk", {"rows": 15, "cols": 15, "k": 5}),
    ("mnk", {"rows": 19, "cols": 19, "k": 5}),
    ("mnk", {"rows": 3, "cols": 19, "k": 19}),
    ("ultimate", {}),
    ("ultimate", {"closed_boards": True}),
    ("multi", {}),
    ("multi", {"random_start": True}),
]
SUPPORTED = {
    "ring": {("classic", ())},
    "threats": "grid",
    "alphabeta": "all",
    "perfect": {
        ("classic", ()), ("four", ()), ("nxn", (("size", 3),)), ("nxn", (("size", 4),)),
        ("mnk", (("cols", 5), ("k", 4), ("rows", 3))),
    },
    "pairing": {
        ("nxn", (("size", 5),)), ("nxn", (("size", 8),)), ("nxn", (("size", 10),)),
        ("mnk", (("cols", 6), ("k", 6), ("rows", 6))),
    },
}


def _expected_support(name: str, key: str, options: dict) -> bool:
    spec = SUPPORTED[name]
    if spec == "all":
        return True
    if spec == "grid":
        return key not in ("ultimate", "multi")
    return (key, tuple(sorted(options.items()))) in spec


@pytest.mark.parametrize("name", MINE)
@pytest.mark.parametrize(("key", "options"), VARIANTS, ids=lambda v: str(v))
def test_supports_is_honest_and_moves_are_legal(name: str, key: str, options: dict) -> None:
    variant = get_variant(key, **options)
    strategy = get_strategy(name, seed=3) if "seed" in STRATEGIES[name].option_spec else get_strategy(name)
    expected = _expected_support(name, key, options)
    assert strategy.supports(variant) is expected
    state = variant.new_game()
    if not expected:
        with pytest.raises(ValueError, match="does not support"):
            strategy.choose(state)
        return
    # the empty board, then a few random positions further into a game
    rng = random.Random(f"{name}{key}{options}")
    for plies in (0, 1, 2, 5, 9):
        state = variant.new_game()
        for _ in range(plies):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        assert strategy.choose(state) in state.legal_moves()


def test_unknown_strategy_and_options_raise_value_error() -> None:
    with pytest.raises(ValueError, match="unknown strategy"):
        get_strategy("nonesuch")
    for name in MINE:
        with pytest.raises(ValueError, match="unknown option"):
            get_strategy(name, bogus=1)
    with pytest.raises(ValueError, match="depth"):
        get_strategy("alphabeta", depth=0)
    with pytest.raises(ValueError, match="wrong type"):
        get_strategy("alphabeta", depth="3")
    with pytest.raises(ValueError, match="heuristic"):
        get_strategy("alphabeta", heuristic="magic")


def test_choose_on_a_finished_game_raises() -> None:
    state = get_variant("classic").new_game()
    for move in (0, 3, 1, 4, 2):
        state = state.play(move)
    for name in MINE:
        strategy = get_strategy(name)
        if strategy.supports(state.variant):
            with pytest.raises(ValueError):
                strategy.choose(state)


# --- ring ----------------------------------------------------------------------------------------------


def test_ring_second_never_loses_exhaustively() -> None:
    results = never_loses_exhaustively(get_variant("classic"), get_strategy("ring"), "O")
    assert results.get("X", 0) == 0 and results[None] > 0 and results["O"] > 0


def test_ring_first_never_loses_exhaustively() -> None:
    # Not a promise of seed 000, but true of our reading of its rules: documented in ring.py.
    results = never_loses_exhaustively(get_variant("classic"), get_strategy("ring"), "X")
    assert results.get("O", 0) == 0


def test_ring_follows_seed_000() -> None:
    ring = get_strategy("ring")
    classic = get_variant("classic")
    # Rule 2: the centre (engine cell 4) when free.
    assert ring.choose(classic.new_game().play(0)) == 4
    # Rule 3: only the centre taken, by the opponent: a corner.
    assert ring.choose(classic.new_game().play(4)) in (0, 2, 6, 8)
    # Rule 4 (moving first): centre held, opponent on ring 1 (cell 1) -> ring 4 (cell 8).
    assert ring.choose(classic.new_game().play(4).play(1)) == 8
    # Rule 6: opponent on ring 0 and ring 5 (cells 0 and 7) -> ring 3 (cell 5).
    assert ring.choose(classic.new_game().play(0).play(4).play(7)) == 5
    # Block: the opponent holds cells 0 and 1 -> 2.
    assert ring.choose(classic.new_game().play(0).play(4).play(1)) == 2
    # Win beats block: X on 0, 1 (wins on 2), O on 3, 4 (would win on 5).
    state = classic.new_game()
    for move in (0, 3, 1, 4):
        state = state.play(move)
    assert ring.choose(state) == 2


# --- threats -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 6])
def test_threats_never_loses_nxn_against_random(size: int) -> None:
    variant = get_variant("nxn", size=size)
    threats = get_strategy("threats")
    wins = 0
    for game in range(100):  # 100 per size: 200 in all
        rnd = get_strategy("random", seed=game)
        if game % 2:
            state, hero = play_game(variant, threats, rnd), "X"
        else:
            state, hero = play_game(variant, rnd, threats), "O"
        assert not loser(state, hero), f"threats lost game {game} on {size} x {size}"
        wins += state.winner == hero
    assert wins > 50


def test_threats_wins_then_blocks() -> None:
    variant = get_variant("nxn", size=5)
    threats = get_strategy("threats")
    # X has 0..3 on the top row: X to move wins at 4.
    state = variant.new_game()
    for move in (0, 10, 1, 11, 2, 12, 3, 13):
        state = state.play(move)
    assert threats.choose(state) == 4
    # O to move (three on row 2, not yet a threat) must block X's top row at 4.
    state = variant.new_game()
    for move in (0, 10, 1, 11, 2, 12, 3):
        state = state.play(move)
    assert threats.choose(state) == 4


def test_threats_plays_a_long_19x19_game() -> None:
    variant = get_variant("mnk", rows=19, cols=19, k=5)
    threats = get_strategy("threats")
    state = variant.new_game()
    rng = random.Random(1)
    for _ in range(40):
        state = state.play(threats.choose(state) if state.ply % 2 == 0 else rng.choice(state.legal_moves()))
        if state.is_over:
            break
    # threats answers random play on a big board: a long game without losing
    assert state.winner != "O"


# --- alphabeta ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("heuristic", ["candidate", "weighted"])
def test_alphabeta_takes_the_fastest_win_and_blocks(heuristic: str) -> None:
    classic = get_variant("classic")
    ab = get_strategy("alphabeta", depth=4, heuristic=heuristic)
    # X: 0, 4; O: 1, 2. X wins at once on 8 (also a fork elsewhere would win later).
    state = classic.new_game()
    for move in (0, 1, 4, 2):
        state = state.play(move)
    assert ab.choose(state) == 8
    # O to move, X threatens 0-4-8: O must block on 8.
    state = classic.new_game()
    for move in (0, 1, 4):
        state = state.play(move)
    assert ab.choose(state) == 8


def test_alphabeta_seed_varies_ties_and_is_reproducible() -> None:
    four = get_variant("four")
    state = four.new_game()
    picks = {get_strategy("alphabeta", depth=2, seed=s).choose(state) for s in range(12)}
    assert len(picks) > 1  # the four centre cells tie on the empty board
    again = [get_strategy("alphabeta", depth=2, seed=5).choose(state) for _ in range(3)]
    assert len(set(again)) == 1


@pytest.mark.parametrize("key", ["ultimate", "multi"])
def test_alphabeta_nested_beats_random(key: str) -> None:
    variant = get_variant(key)
    wins = 0
    for game in range(4):
        ab = get_strategy("alphabeta", depth=2, heuristic="weighted", seed=game)
        rnd = get_strategy("random", seed=game)
        if game % 2:
            wins += play_game(variant, ab, rnd).winner == "X"
        else:
            wins += play_game(variant, rnd, ab).winner == "O"
    assert wins >= 3


def test_alphabeta_takes_a_nested_board_win() -> None:
    # Ultimate: X holds board-4 cells 0 and 1 and is sent to board 4; 4*9+2 = 38 wins that board.
    state = get_variant("ultimate").new_game()
    for move in (36, 0 * 9 + 4, 37, 1 * 9 + 4):
        state = state.play(move)
    assert state.target == 4 and state.to_move == "X"
    assert get_strategy("alphabeta", depth=1).choose(state) == 38


# --- perfect -----------------------------------------------------------------------------------------


@cache
def _oracle(me: int, opp: int) -> int:
    """Brute-force exact value on classic (same scale as perfect: a win scores the empties before it)."""
    _, cell_lines = line_tables(3, 3, 3)
    occupied = me | opp
    empties = 9 - occupied.bit_count()
    if not empties:
        return 0
    best = -100
    for cell in range(9):
        bit = 1 << cell
        if occupied & bit:
            continue
        mine = me | bit
        if any(mine & line == line for line in cell_lines[cell]):
            value = empties
        else:
            value = -_oracle(opp, mine)
        best = max(best, value)
    return best


@pytest.mark.parametrize("side", ["X", "O"])
def test_perfect_never_loses_classic_exhaustively(side: str) -> None:
    perfect = get_strategy("perfect")
    results = never_loses_exhaustively(get_variant("classic"), perfect, side)
    assert results[None] > 0


def test_perfect_plays_the_exact_value_everywhere_on_classic() -> None:
    """Every reachable position: perfect's move has the best exact value (fastest win, slowest loss)."""
    perfect = get_strategy("perfect")
    seen: set[tuple[int, int]] = set()
    checked = lost_with_choice = 0

    def walk(state) -> None:
        nonlocal checked, lost_with_choice
        if state.is_over or (state.x, state.o) in seen:
            return
        seen.add((state.x, state.o))
        me, opp = (state.x, state.o) if state.ply % 2 == 0 else (state.o, state.x)
        move = perfect.choose(state)
        bit = 1 << move
        after = state.play(move)
        empties = 9 - (me | opp).bit_count()
        value = empties if after.winner else 0 if after.is_over else -_oracle(opp, me | bit)
        assert value == _oracle(me, opp), f"{state!r}: move {move} is worth {value}"
        checked += 1
        if value < 0 and len(_move_values(state)) > 1:
            lost_with_choice += 1
        for m in state.legal_moves():
            walk(state.play(m))

    walk(get_variant("classic").new_game())
    assert checked == 4520  # the non-final positions of classic's 5,478
    assert lost_with_choice > 0  # positions where losing slowly (not just losing) was tested


def _move_values(state) -> set[int]:
    me, opp = (state.x, state.o) if state.ply % 2 == 0 else (state.o, state.x)
    empties = 9 - (me | opp).bit_count()
    values = set()
    for m in state.legal_moves():
        after = state.play(m)
        values.add(empties if after.winner else 0 if after.is_over else -_oracle(opp, me | 1 << m))
    return values


def test_perfect_wins_a_won_position_fastest() -> None:
    classic = get_variant("classic")
    perfect = get_strategy("perfect")
    # X: 0, 4; O: 1, 2; X to move. 8 wins now; 3 or 6 would fork and win two moves later.
    state = classic.new_game()
    for move in (0, 1, 4, 2):
        state = state.play(move)
    assert perfect.choose(state) == 8
    # X centre, O on an edge: X forces a win; against every defence it wins by ply 7 (its 4th move).
    state = classic.new_game().play(4).play(1)
    longest = 0

    def walk(s) -> None:
        nonlocal longest
        if s.is_over:
            assert s.winner == "X"
            longest = max(longest, s.ply)
            return
        if s.to_move == "X":
            walk(s.play(perfect.choose(s)))
        else:
            for m in s.legal_moves():
                walk(s.play(m))

    walk(state)
    assert longest == 7


@pytest.mark.parametrize("opponent", ["random", "threats", "alphabeta"])
def test_perfect_never_loses_four(opponent: str) -> None:
    four = get_variant("four")
    perfect = get_strategy("perfect")
    games = {"random": 120, "threats": 40, "alphabeta": 40}[opponent]  # 200 in all, both sides
    for game in range(games):
        rng = random.Random(game)
        if opponent == "random":
            other = get_strategy("random", seed=game)
        elif opponent == "alphabeta":
            other = get_strategy("alphabeta", depth=2 + game % 2, heuristic=("candidate", "weighted")[game // 2 % 2],
                                 seed=game)
        else:
            other = get_strategy("threats")
        hero = "X" if game % 2 else "O"
        state = four.new_game()
        first = True
        while not state.is_over:
            if state.to_move == hero:
                move = perfect.choose(state)
            elif first and opponent == "threats":
                # threats is deterministic: a random first move of its own makes the games differ
                move, first = rng.choice(state.legal_moves()), False
            else:
                move = other.choose(state)
            state = state.play(move)
        assert not loser(state, hero), f"perfect lost to {opponent} in game {game}"


# --- pairing -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(5, 11))
def test_pairs_exist_and_are_disjoint(n: int) -> None:
    lines, _ = line_tables(n, n, n)
    pairs = pairs_for(n)
    assert len(pairs) == len(lines) == 2 * n + 2
    cells = [c for pair in pairs for c in pair]
    assert len(cells) == len(set(cells))
    for line, (a, b) in zip(lines, pairs, strict=True):
        assert line >> a & 1 and line >> b & 1 and a != b


@pytest.mark.parametrize("n", [3, 4])
def test_no_pairing_below_five(n: int) -> None:
    with pytest.raises(PairingError):
        pairs_for(n)


@pytest.mark.parametrize(
    ("key", "options"), [("nxn", {"size": 5}), ("nxn", {"size": 6}), ("mnk", {"rows": 8, "cols": 8, "k": 8})]
)
def test_pairing_never_loses(key: str, options: dict) -> None:
    variant = get_variant(key, **options)
    pairing = get_strategy("pairing")
    for game in range(20):
        other = get_strategy("random", seed=game) if game % 4 < 2 else get_strategy("alphabeta", depth=2, seed=game)
        if game % 2:
            state, hero = play_game(variant, pairing, other), "X"
        else:
            state, hero = play_game(variant, other, pairing), "O"
        assert not loser(state, hero)


def test_pairing_answers_a_pair_cell_with_its_partner() -> None:
    variant = get_variant("nxn", size=5)
    a, b = pairs_for(5)[0]
    state = variant.new_game().play(a)
    assert get_strategy("pairing").choose(state) == b
