"""Puzzles in a real browser: one solved (the defence answers the first move, the second wins, the rating goes up),
one failed (a wrong move: the refutation and the solution are shown), without a page load between the moves."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import get_variant
from games.models import Puzzle
from games.services import cut_puzzles, game_analysis, move_play
from tests.browser import sign_up

pytestmark = pytest.mark.browser


def two_puzzles(make_player) -> None:
    """Two classic games of bob's where X missed a win in two (c1, O blocks c3, a1): two puzzles."""
    classic = get_variant("classic")
    from games.services import game_create

    bob = make_player("bob")
    for _ in range(2):
        game = game_create(player=bob, variant="classic", opponent="local")
        for name in ("c2", "b2", "b1", "a2", "a3", "b3", "c1", "c3", "a1"):
            move_play(game=game, player=bob, move=classic.parse_cell(name))
        game.refresh_from_db()
        game_analysis(game)
        cut_puzzles(game_id=game.pk)
    assert Puzzle.objects.count() == 2


def test_a_puzzle_solved_and_one_failed(page, make_player):
    two_puzzles(make_player)
    sign_up(page, "ann")
    page.goto("/puzzles/")
    page.locator("#puzzle-next-classic").click()
    expect(page.locator("#status")).to_have_text("X to play and win in 2 moves")
    page.evaluate("window.__marker = 1")  # no page load from here on

    page.locator('#board button[data-move="8"]').click()  # c1
    expect(page.locator("#status")).to_have_text("X to play: win in 1 move")
    expect(page.locator('#board [data-cell="2"]')).to_have_attribute("data-mark", "O")  # the defence: c3
    page.locator('#board button[data-move="6"]').click()  # a1
    expect(page.locator("#status")).to_contain_text("Solved!")
    expect(page.locator("#solution")).to_contain_text("c1")
    expect(page.locator("#rating-change")).to_contain_text("(+")
    assert page.evaluate("window.__marker") == 1

    page.locator("#puzzle-next").click()
    expect(page.locator("#status")).to_have_text("X to play and win in 2 moves")
    page.locator('#board button[data-move="0"]').click()  # a3: not the win
    expect(page.locator("#status")).to_have_text("Not the winning move.")
    expect(page.locator("#refutation")).to_contain_text("a3 does not win: the answer is")
    expect(page.locator("#solution")).to_contain_text("c1")
    expect(page.locator("#rating-change")).to_contain_text("\N{MINUS SIGN}")
    expect(page.locator("#board button[data-move]")).to_have_count(0)
