"""Clocks and aborts in two browsers: a challenge made with a clock from the form, both pages counting the running
side down, a flag falling ("X wins on time" on both pages without a reload), and a game aborted by a player.

No timing is asserted: the clock is made tiny by writing the stored time left (a real 0.25+0 would take 15 s)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser import GAME_URL_RE, sign_up

pytestmark = pytest.mark.browser

LIVE_TIMEOUT = 8_000


def challenge_with_clock(page: Page, clock: str, custom: str = "") -> int:
    """An open challenge from the new-game form with ``clock``; the browser ends on its page. Returns its id."""
    page.goto("/games/new/")
    page.locator('[name="opponent"][value="human"]').check()
    expect(page.locator("#clock-row")).to_be_visible()  # offered for another player only
    page.locator('select[name="clock"]').select_option(clock)
    if custom:
        page.locator('input[name="clock_custom"]').fill(custom)
    page.locator('#new-game-form button[type="submit"]').click()
    page.wait_for_url(GAME_URL_RE)
    return int(GAME_URL_RE.search(page.url).group(1))


def accept(page: Page, game_id: int) -> None:
    page.goto(f"/games/{game_id}/")
    page.locator("#accept-challenge").click()
    expect(page.locator("#board")).to_be_visible()


def play(mover: Page, move: int, *others: Page) -> None:
    expect(mover.locator(f'#board button[data-move="{move}"]')).to_be_visible(timeout=LIVE_TIMEOUT)
    mover.locator(f'#board button[data-move="{move}"]').click()
    for page in (mover, *others):
        cell = page.locator(f'#board [data-cell="{move}"]')
        expect(cell).not_to_have_attribute("data-mark", "", timeout=LIVE_TIMEOUT)


def test_both_pages_count_the_clock_down_and_a_flag_falls_on_both(new_context):
    alice, bob = (new_context().new_page() for _ in range(2))
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    alice.goto("/games/new/")
    expect(alice.locator("#clock-row")).to_be_hidden()  # against the computer (the default): no clock offered
    game_id = challenge_with_clock(alice, "1+0")
    expect(alice.locator("#clock-control")).to_have_text("1+0")
    accept(bob, game_id)
    for page in (alice, bob):
        expect(page.locator("#clock-x")).to_have_text("1:00", timeout=LIVE_TIMEOUT)
        expect(page.locator("#clock-x")).to_have_attribute("role", "timer")
        expect(page.locator("#clock-x")).to_have_attribute("aria-live", "off")

    # Nothing runs before both first moves; then X's time runs, counted down on both pages.
    play(alice, 0, bob)
    expect(alice.locator("#clock-x")).to_have_text("1:00")
    play(bob, 4, alice)
    for page in (alice, bob):
        expect(page.locator("#clock-x.clock-running")).to_be_visible(timeout=LIVE_TIMEOUT)
        expect(page.locator("#clock-x")).to_have_text(re.compile(r"^0:5\d$"), timeout=LIVE_TIMEOUT)
        expect(page.locator("#clock-o")).to_have_text("1:00")
        expect(page.locator("#clock-o")).not_to_have_class(re.compile("clock-running"))

    # O has only a moment left when X moves (written in the database as if O had used it up): O's clock runs
    # down to zero on both pages, shown as low, and the game ends on time on both, with no reload.
    Game.objects.filter(pk=game_id).update(clock_o_ms=1500)
    loads: dict[str, list[str]] = {"alice": [], "bob": []}
    for name, page in (("alice", alice), ("bob", bob)):
        page.on(
            "framenavigated",
            lambda frame, page=page, name=name: frame == page.main_frame and loads[name].append(frame.url),
        )
    play(alice, 8, bob)
    expect(bob.locator("#clock-o.clock-low")).to_be_visible(timeout=LIVE_TIMEOUT)
    for page, words in ((alice, "X wins on time — you won"), (bob, "X wins on time — you lost")):
        expect(page.locator("#status")).to_have_text(words, timeout=LIVE_TIMEOUT)
        expect(page.locator("#clock-o")).to_have_text("0:00.0")
        expect(page.locator("#board button[data-move]")).to_have_count(0)
    assert loads == {"alice": [], "bob": []}
    game = Game.objects.get(pk=game_id)
    assert game.result == "X" and game.result_reason == "time" and game.ply == 3


def test_a_player_aborts_before_the_first_moves(new_context):
    alice, bob = (new_context().new_page() for _ in range(2))
    sign_up(alice, "alice")
    sign_up(bob, "bob")
    game_id = challenge_with_clock(alice, "custom", " 4+2")
    expect(alice.locator("#clock-control")).to_have_text("4+2")
    accept(bob, game_id)
    expect(alice.locator("#abort")).to_be_visible(timeout=LIVE_TIMEOUT)
    # the time left for X's first move counts down on the page
    left = alice.locator("#first-move-left")
    shown = left.text_content()
    expect(left).not_to_have_text(shown, timeout=3_000)
    play(alice, 4, bob)
    # O has not moved yet: bob may still abort
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.locator("#abort").click()
    for page in (bob, alice):
        expect(page.locator("#status")).to_have_text("Game aborted", timeout=LIVE_TIMEOUT)
        expect(page.locator("#abort")).to_have_count(0)
        expect(page.locator("#board button[data-move]")).to_have_count(0)
    game = Game.objects.get(pk=game_id)
    assert game.is_aborted and game.result == "" and not game.is_rated
    # it is not in My games
    alice.goto("/games/")
    expect(alice.locator(f'.history-row[data-game="{game_id}"]')).to_have_count(0)
