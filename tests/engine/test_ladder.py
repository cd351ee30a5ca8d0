"""The ladder's openings (issue 21): legal, shared by a colour-swapped couple, reproducible, balanced by rule."""

from __future__ import annotations

import argparse

import pytest

from games.engine import get_variant
from games.engine.ladder import check_opening, default_opening, main, opening_state

GOMOKU = get_variant("mnk", rows=15, cols=15, k=5)


def _distance(variant, cell: int) -> int:
    return max(abs(cell // variant.cols - variant.rows // 2), abs(cell % variant.cols - variant.cols // 2))


def _stones(state) -> list[int]:
    return [cell for cell in range(state.variant.cell_count) if (state.x | state.o) >> cell & 1]


@pytest.mark.parametrize("seed", range(40))
def test_pro_openings_follow_the_rule(seed: int) -> None:
    state = opening_state(GOMOKU, "pro", seed)
    assert state.ply == 3 and not state.is_over and state.to_move == "O"
    x = [c for c in range(GOMOKU.cell_count) if state.x >> c & 1]
    o = [c for c in range(GOMOKU.cell_count) if state.o >> c & 1]
    assert len(x) == 2 and len(o) == 1
    centre = GOMOKU.rows // 2 * GOMOKU.cols + GOMOKU.cols // 2
    assert centre in x
    assert _distance(GOMOKU, o[0]) == 1
    assert 3 <= _distance(GOMOKU, next(c for c in x if c != centre)) <= 4


def test_openings_are_reproducible_and_vary_with_the_seed() -> None:
    for opening in ("pro", "2", "4"):
        assert opening_state(GOMOKU, opening, 7).cells == opening_state(GOMOKU, opening, 7).cells
        assert len({opening_state(GOMOKU, opening, seed).cells for seed in range(20)}) >= 15


def test_the_colour_swapped_couple_shares_its_opening() -> None:
    # main() seeds game g of pair (a, b) with 1000 a + 100 b + g and opens it from seed // 2
    for a, b in [(5, 6), (7, 8), (1, 2)]:
        for g in range(0, 16, 2):
            seed = 1000 * a + 100 * b + g
            first, second = opening_state(GOMOKU, "pro", seed // 2), opening_state(GOMOKU, "pro", (seed + 1) // 2)
            assert first.cells == second.cells


def test_random_plies_stay_near_the_centre_and_zero_is_the_empty_board() -> None:
    state = opening_state(GOMOKU, "3", 11)
    assert state.ply == 3 and all(_distance(GOMOKU, c) <= 2 for c in _stones(state))
    assert opening_state(GOMOKU, "0", 11).ply == 0
    # a board too small for the rule still gets legal moves
    small = get_variant("mnk", rows=5, cols=5, k=4)
    assert opening_state(small, "pro", 3).ply == 3
    assert opening_state(get_variant("ultimate"), "2", 3).ply == 2


def test_swap2_is_the_default_where_it_fits_and_pro_on_the_other_gomoku_boards() -> None:
    assert default_opening(GOMOKU) == "swap2"  # (issue 33: the ladder's gomoku matches start from Swap2 openings)
    assert default_opening(get_variant("mnk", rows=7, cols=9, k=5)) == "pro"
    assert default_opening(get_variant("mnk", rows=15, cols=15, k=6)) == "pro"
    for key, options in [("classic", {}), ("four", {}), ("nxn", {"size": 7}), ("ultimate", {}), ("multi", {})]:
        assert default_opening(get_variant(key, **options)) == "0"


def test_bad_openings_are_refused() -> None:
    assert check_opening("pro") == "pro" and check_opening("2") == "2" and check_opening("swap2") == "swap2"
    for bad in ("", "-1", "Swap2", "Pro", "1.5"):
        with pytest.raises(argparse.ArgumentTypeError):
            check_opening(bad)


def test_the_ladder_prints_its_opening(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--variant", "mnk", "--option", "rows=15", "--option", "cols=15", "--option", "k=5",
          "--levels", "1,2", "--games", "2"])
    head = capsys.readouterr().out.splitlines()[0]
    assert "Swap2 openings" in head
    main(["--variant", "mnk", "--levels", "1,2", "--games", "2", "--opening", "pro"])
    assert "pro openings" in capsys.readouterr().out.splitlines()[0]
    main(["--variant", "classic", "--levels", "1,2", "--games", "2"])
    assert "opening" not in capsys.readouterr().out.splitlines()[0]


def test_the_mirror_prints_the_first_players_score(capsys: pytest.CaptureFixture[str]) -> None:
    """Each level against itself, with Swap2 openings made by the players: X (the opener) and its score."""
    main(["--variant", "mnk", "--levels", "1", "--mirror", "--games", "2"])
    out = capsys.readouterr().out
    assert out.startswith("Mirror on 15 x 15, 5 in a row") and "Swap2 openings" in out.splitlines()[0]
    assert "2 games in" in out and "X scored" in out
