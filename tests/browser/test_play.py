"""Playing in a real browser: moves are htmx swaps (no page load), the computer answers, games end."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser import FINAL_RESULTS, create_game, mark_count, play_to_end, sign_up, wait_settled

pytestmark = pytest.mark.browser


def watch_navigations(page: Page) -> list[str]:
    """URLs of every document load of the page's main frame from now on (an htmx swap is not one)."""
    loads: list[str] = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and loads.append(frame.url))
    return loads


def test_classic_against_hard_the_computer_answers_without_a_page_reload(page: Page):
    sign_up(page, "erin")
    game_id = create_game(page, "classic", "hard")
    expect(page.locator("#board [data-cell]")).to_have_count(9)
    expect(page.locator("#board button[data-move]")).to_have_count(9)

    loads = watch_navigations(page)
    htmx_requests: list[str] = []
    page.on("request", lambda request: request.headers.get("hx-request") and htmx_requests.append(request.url))
    page.evaluate("window.__marker = 1")

    button = page.locator("#board button[data-move]").first
    move = button.get_attribute("data-move")
    button.click()
    expect(page.locator(f'#board [data-cell="{move}"]')).to_have_attribute("data-mark", "X")
    expect(page.locator('#board [data-cell][data-mark="O"]')).to_have_count(1)
    wait_settled(page, 2)

    assert page.evaluate("window.__marker") == 1, "the page was reloaded"
    assert loads == [], f"the page navigated: {loads}"
    assert htmx_requests, "the move did not go through htmx"
    expect(page.locator(f'#board button[data-move="{move}"]')).to_have_count(0)

    # The computer at its strongest never loses classic: play on to the end and see.
    result = play_to_end(page, max_moves=5)
    assert result in ("O wins", "Draw"), result
    assert page.evaluate("window.__marker") == 1
    assert loads == []
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    assert game.ply == mark_count(page)


def test_ultimate_against_easy_is_finished_by_clicking(page: Page):
    sign_up(page, "finn")
    game_id = create_game(page, "ultimate", "easy")
    expect(page.locator("#board [data-cell]")).to_have_count(81)
    expect(page.locator("#board button[data-move]")).to_have_count(81)
    loads = watch_navigations(page)
    page.evaluate("window.__marker = 1")

    result = play_to_end(page, max_moves=41)

    assert result.startswith(FINAL_RESULTS), result
    assert page.evaluate("window.__marker") == 1
    assert loads == []
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    assert game.ply == mark_count(page)
    assert game.result_text() in result


def test_the_game_page_works_without_javascript(new_context):
    page = new_context(java_script_enabled=False).new_page()
    sign_up(page, "gina")
    create_game(page, "classic", "easy")
    game_url = page.url
    loads = watch_navigations(page)

    move = play_without_javascript(page)

    assert loads, "without JavaScript the move is a plain form POST and a page load"
    expect(page).to_have_url(game_url)
    expect(page.locator(f'#board [data-cell="{move}"]')).to_have_attribute("data-mark", "X")
    expect(page.locator(f'#board button[data-move="{move}"]')).to_have_count(0)
    # The computer answered too (in the same POST, or on a page load of its own) and it is our turn again.
    expect(page.locator('#board [data-cell][data-mark="O"]')).to_have_count(1)
    expect(page.locator("#board button[data-move]")).to_have_count(7)


def play_without_javascript(page: Page) -> int:
    button = page.locator("#board button[data-move]").first
    move = int(button.get_attribute("data-move"))
    with page.expect_navigation(url=re.compile(r"/games/\d+/$")):
        button.click()
    return move
