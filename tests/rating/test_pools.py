"""Rating pools (games.rating.pools): a key for every game and speed, one key per game, labels, legacy mapping."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import get_variant
from games.engine.clock import PRESETS, SPEEDS, TimeControl
from games.rating.pools import (
    POOL_SPEEDS,
    InvalidPool,
    Pool,
    board_key,
    board_label,
    pool_key,
    pool_label,
    pool_of_legacy,
    pool_speed,
)


def every_game() -> list[tuple[str, dict]]:
    """Every variant with every combination of its options (RULES.md's ranges)."""
    games: list[tuple[str, dict]] = [("classic", {}), ("four", {})]
    games += [("nxn", {"size": n}) for n in range(3, 11)]
    games += [
        ("mnk", {"rows": r, "cols": c, "k": k})
        for r in range(3, 20)
        for c in range(3, 20)
        for k in range(3, max(r, c) + 1)
    ]
    games += [("ultimate", {"closed_boards": flag}) for flag in (False, True)]
    games += [("multi", {"random_start": flag}) for flag in (False, True)]
    return games


def game_identity(variant: str, options: dict) -> tuple:
    """What makes two games the same game: the board's sides (either way round) and k, or the nested rules."""
    if variant == "classic":
        return ("grid", 3, 3, 3)
    if variant == "four":
        return ("grid", 4, 4, 4)
    if variant == "nxn":
        n = options["size"]
        return ("grid", n, n, n)
    if variant == "mnk":
        return ("grid", *sorted((options["rows"], options["cols"])), options["k"])
    if variant == "ultimate":
        return ("ultimate", options["closed_boards"])
    return ("multi",)


def test_every_game_and_speed_has_a_key_that_reads_back():
    for variant, options in every_game():
        for speed in POOL_SPEEDS:
            key = pool_key(variant, options, speed)
            pool = Pool.parse(key)
            assert pool.key == key and pool.speed == speed
            assert pool_key(*pool.game, speed) == key
            assert pool_label(key).endswith(" · " + speed.capitalize())


def test_one_key_per_game_and_distinct_games_distinct_keys():
    keys: dict[str, set] = {}
    for variant, options in every_game():
        keys.setdefault(board_key(variant, options), set()).add(game_identity(variant, options))
    assert all(len(identities) == 1 for identities in keys.values())  # a key is one game
    identities = {game_identity(v, o) for v, o in every_game()}
    assert len(keys) == len(identities)  # and each game has one key


def test_every_size_its_own_pool():
    assert len({board_key("nxn", {"size": n}) for n in range(3, 11)}) == 8
    assert board_key("mnk", {"rows": 4, "cols": 4, "k": 3}) != board_key("mnk", {"rows": 19, "cols": 19, "k": 5})
    assert board_key("mnk", {"rows": 15, "cols": 15, "k": 5}) != board_key("mnk", {"rows": 15, "cols": 15, "k": 6})


@pytest.mark.parametrize(
    "variant, options, speed, key",
    [
        ("classic", {}, "untimed", "classic:untimed"),
        ("four", {}, "blitz", "four:blitz"),
        ("nxn", {"size": 7}, "rapid", "nxn-7:rapid"),
        ("nxn", {}, "rapid", "nxn-5:rapid"),  # default size
        ("mnk", {"rows": 15, "cols": 15, "k": 5}, "blitz", "mnk-15x15k5:blitz"),
        ("mnk", {}, "blitz", "mnk-15x15k5:blitz"),  # defaults
        ("mnk", {"rows": 4, "cols": 4}, "blitz", "four:blitz"),  # k defaults to min(5, 4)
        ("mnk", {"rows": 15, "cols": 10, "k": 5}, "blitz", "mnk-10x15k5:blitz"),
        ("mnk", {"rows": 10, "cols": 15, "k": 5}, "blitz", "mnk-10x15k5:blitz"),
        ("mnk", {"rows": 3, "cols": 3, "k": 3}, "bullet", "classic:bullet"),
        ("mnk", {"rows": 8, "cols": 8, "k": 8}, "bullet", "nxn-8:bullet"),
        ("mnk", {"rows": 12, "cols": 12, "k": 12}, "bullet", "mnk-12x12k12:bullet"),
        ("nxn", {"size": 3}, "blitz", "classic:blitz"),
        ("nxn", {"size": 4}, "blitz", "four:blitz"),
        ("ultimate", {}, "correspondence", "ultimate:correspondence"),
        ("ultimate", {"closed_boards": True}, "correspondence", "ultimate-closed:correspondence"),
        ("multi", {}, "classical", "multi:classical"),
        ("multi", {"random_start": True}, "classical", "multi:classical"),
        ("classic", {}, "ultraBullet", "classic:bullet"),
    ],
)
def test_keys(variant, options, speed, key):
    assert pool_key(variant, options, speed) == key


@pytest.mark.parametrize(
    "key, label",
    [
        ("mnk-15x15k5:blitz", "15 x 15, 5 in a row · Blitz"),
        ("mnk-10x15k5:rapid", "10 x 15, 5 in a row · Rapid"),
        ("nxn-7:untimed", "7 x 7, 7 in a row · Untimed"),
        ("classic:bullet", "Classic 3 x 3 · Bullet"),
        ("four:classical", "4 x 4, 4 in a row · Classical"),
        ("ultimate:correspondence", "Ultimate · Correspondence"),
        ("ultimate-closed:blitz", "Ultimate, won boards closed · Blitz"),
        ("multi:untimed", "Multi · Untimed"),
    ],
)
def test_labels(key, label):
    assert pool_label(key) == label


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(every_game()))
def test_board_labels_say_what_the_engine_says(game):
    """The label is the engine's own description of the game the pool stands for."""
    board = board_key(*game)
    variant, options = Pool.parse(f"{board}:blitz").game
    assert board_label(board) == get_variant(variant, **options).describe()


def test_pools_made_directly_are_checked_too():
    assert Pool("nxn-7", "blitz").key == "nxn-7:blitz"
    with pytest.raises(InvalidPool, match="it is classic:blitz"):
        Pool("nxn-3", "blitz")
    with pytest.raises(InvalidPool, match="no pool speed"):
        Pool("classic", "ultraBullet")
    with pytest.raises(InvalidPool, match="board is text"):
        Pool(None, "blitz")
    with pytest.raises(InvalidPool, match="it is nxn-7"):
        board_label("mnk-7x7k7")


def test_board_labels_of_the_nested_variants():
    for board in ("ultimate", "ultimate-closed", "multi"):
        variant, options = Pool(board, "blitz").game
        assert board_label(board) == get_variant(variant, **options).describe()


option_values = st.one_of(st.integers(-2, 22), st.booleans(), st.none(), st.text(max_size=2))


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["classic", "four", "nxn", "mnk", "ultimate", "multi"]),
    st.dictionaries(st.sampled_from(["size", "rows", "cols", "k", "closed_boards", "random_start"]), option_values),
)
def test_accepts_exactly_what_the_engine_accepts(variant, options):
    try:
        get_variant(variant, **options)
    except ValueError as err:
        with pytest.raises(InvalidPool) as caught:
            board_key(variant, options)
        assert str(caught.value) == str(err)
    else:
        assert board_key(variant, options)


def test_speeds():
    assert pool_speed("ultraBullet") == "bullet"
    assert {pool_speed(speed) for speed in SPEEDS} == set(POOL_SPEEDS)
    assert pool_key("classic", {}, TimeControl.parse("0.25+0").speed) == "classic:bullet"
    assert {pool_key("classic", {}, tc.speed) for tc in PRESETS} == {
        "classic:bullet", "classic:blitz", "classic:rapid", "classic:classical", "classic:correspondence",
    }
    assert pool_key("classic", {}, TimeControl.parse("none").speed) == "classic:untimed"


def test_legacy_ratings_go_to_each_boards_untimed_pool():
    assert pool_of_legacy("classic", {}) == "classic:untimed"
    assert pool_of_legacy("nxn", {"size": 6}) == "nxn-6:untimed"
    assert pool_of_legacy("nxn", {"size": 9}) == "nxn-9:untimed"
    assert pool_of_legacy("mnk", {"rows": 19, "cols": 19, "k": 5}) == "mnk-19x19k5:untimed"
    assert pool_of_legacy("mnk", {"rows": 4, "cols": 4, "k": 3}) == "mnk-4x4k3:untimed"
    assert pool_of_legacy("mnk", {}) == "mnk-15x15k5:untimed"  # options stored before defaults were written
    assert pool_of_legacy("ultimate", {"closed_boards": True}) == "ultimate-closed:untimed"
    assert pool_of_legacy("multi", {"random_start": True}) == "multi:untimed"
    with pytest.raises(InvalidPool, match="unknown variant"):
        pool_of_legacy("gomoku", {})


@pytest.mark.parametrize(
    "variant, options, speed, words",
    [
        ("chess", {}, "blitz", "unknown variant 'chess'"),
        (None, {}, "blitz", "unknown variant"),
        ("nxn", {"size": 11}, "blitz", "between 3 and 10, not 11"),
        ("mnk", {"rows": 3, "cols": 3, "k": 4}, "blitz", "k must be at most 3"),
        ("classic", {"size": 3}, "blitz", "unknown option 'size'"),
        ("ultimate", {"closed_boards": "yes"}, "blitz", "true or false"),
        ("classic", [], "blitz", "mapping"),
        ("classic", {1: 2, "a": 3}, "blitz", "option names are text"),
        ("classic", {}, "hyper", "unknown speed 'hyper'"),
        ("classic", {}, None, "unknown speed"),
        ("classic", {}, "Blitz", "unknown speed"),
    ],
)
def test_refusals(variant, options, speed, words):
    with pytest.raises(InvalidPool, match=words):
        pool_key(variant, options, speed)


@pytest.mark.parametrize(
    "key, words",
    [
        ("nxn-3:blitz", "it is classic:blitz"),
        ("mnk-15x10k5:blitz", "it is mnk-10x15k5:blitz"),
        ("mnk-7x7k7:untimed", "it is nxn-7:untimed"),
        ("nxn-07:blitz", "it is nxn-7:blitz"),
        ("classic", "not a pool key"),
        ("classic:blitz:x", "not a pool key"),
        ("classic:ultraBullet", "no pool speed"),
        ("chess:blitz", "not a board"),
        ("nxn-11:blitz", "between 3 and 10"),
        ("mnk-3x3k9:blitz", "at most 3"),
        ("x" * 10_000 + ":blitz", "not a pool key"),
        (None, "NoneType is not a pool key"),
    ],
)
def test_bad_keys_are_refused(key, words):
    with pytest.raises(InvalidPool, match=words) as caught:
        pool_label(key)
    assert len(str(caught.value)) < 200
    assert issubclass(InvalidPool, ValueError)


def test_the_pure_modules_load_no_django():
    """glicko2, clocks and pools are pure: importing them in a fresh interpreter loads no Django."""
    root = Path(__file__).resolve().parents[2]
    code = (
        "import json, sys\n"
        "import games.rating, games.rating.glicko2, games.rating.matchmaking, games.engine.clock, games.rating.pools\n"
        "print(json.dumps(sorted(n for n in sys.modules if n == 'django' or n.startswith('django.'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
