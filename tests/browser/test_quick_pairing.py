"""Quick pairing in three browsers: two players seek the same game and both pages land in the same new game
without a reload of their own; a third player's lobby shows the seek appear, live, and then go once paired."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser import sign_up

pytestmark = pytest.mark.browser

# Live updates come within about a second; allow for a slow machine.
LIVE_TIMEOUT = 8_000


def more_options(page: Page) -> None:
    """The full form, folded under the tiles ("Other boards, casual games")."""
    page.locator(".seek-more summary").click()


def seek(page: Page, *, variant: str = "nxn", size: str = "5", clock: str = "3+2") -> None:
    more_options(page)
    form = page.locator("#seek-form")
    form.locator('select[name="variant"]').select_option(variant)
    expect(form.locator('input[name="size"]')).to_be_visible()  # the board's size shows for n x n only
    expect(form.locator('input[name="rows"]')).to_be_hidden()
    form.locator('input[name="size"]').fill(size)
    form.locator('select[name="clock"]').select_option(clock)
    form.locator('input[name="rated"][value="rated"]').check()
    page.locator("#seek-submit").click()


def test_two_seekers_land_in_the_same_game_and_a_third_sees_the_seek_come_and_go(new_context):
    alice, bob, carol = (new_context().new_page() for _ in range(3))
    for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        sign_up(page, name)
        page.goto("/")
    expect(carol.locator("#seek-list-empty")).to_be_visible()
    carol.evaluate("window.__marker = 1")

    # Alice seeks: her panel waits, with its rating window, and asks by itself.
    seek(alice)
    expect(alice.locator("#seek-status")).to_contain_text("Looking for an opponent…")
    expect(alice.locator("#seek-status")).to_contain_text("rating window ±")
    expect(alice.locator("#seek-cancel")).to_be_visible()
    alice.evaluate("window.__marker = 1")

    # Carol's lobby shows it without a reload; her own seek is not hers to play
    row = carol.locator("#seek-list [data-seek]")
    expect(row).to_have_count(1, timeout=LIVE_TIMEOUT)
    expect(row).to_contain_text("alice")
    expect(row).to_contain_text("5 x 5")
    expect(row).to_contain_text("3+2")
    expect(alice.locator("#seek-list [data-seek-play]")).to_have_count(0)

    # Bob seeks the same thing: paired at once, to the game; Alice's page follows by itself.
    seek(bob)
    bob.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(bob.url.rstrip("/").rsplit("/", 1)[1])
    alice.wait_for_url(f"**/games/{game_id}/", timeout=LIVE_TIMEOUT)
    game = Game.objects.get(pk=game_id)
    assert {game.x_player.username, game.o_player.username} == {"alice", "bob"}
    assert (game.variant, game.options["size"], game.clock, game.status) == ("nxn", 5, "3+2", "active")
    for page in (alice, bob):
        expect(page.locator("#players")).to_contain_text("alice")
        expect(page.locator("#players")).to_contain_text("bob")

    # Carol's lobby: the seek is gone, still without a reload
    expect(carol.locator("#seek-list [data-seek]")).to_have_count(0, timeout=LIVE_TIMEOUT)
    expect(carol.locator("#seek-list-empty")).to_be_visible()
    assert carol.evaluate("window.__marker") == 1


def test_a_seek_can_be_cancelled(new_context):
    page = new_context().new_page()
    sign_up(page, "dora")
    page.goto("/")
    more_options(page)
    page.locator("#seek-form select[name='variant']").select_option("classic")
    page.locator("#seek-submit").click()
    expect(page.locator("#seek-status")).to_contain_text("Looking for an opponent…")
    page.locator("#seek-cancel").click()
    expect(page.locator("#seek-note")).to_have_text("Seek cancelled.")
    expect(page.locator("#pairing-tiles")).to_be_visible()
    expect(page.locator("#seek-list [data-seek]")).to_have_count(0, timeout=LIVE_TIMEOUT)


def test_a_ping_asked_while_cancel_is_on_its_way_does_not_undo_it(new_context):
    """The waiting panel asks every few seconds and when the page hears "me changed". An ask made while Cancel is
    on its way must not overtake it: its answer would replace the panel first, and Cancel's answer would then land
    on the panel no longer shown (the page kept saying "Looking for an opponent…" for a seek that was gone)."""
    page = new_context().new_page()
    sign_up(page, "dora")
    page.goto("/")
    more_options(page)
    page.locator("#seek-form select[name='variant']").select_option("classic")
    page.locator("#seek-submit").click()
    expect(page.locator("#seek-status")).to_contain_text("Looking for an opponent…")
    held = []
    page.route(re.compile(r"/games/seek/\d+/cancel/$"), lambda route: held.append(route))  # Cancel waits here
    page.locator("#seek-cancel").click()
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "Cancel was not sent"
    page.evaluate("document.body.dispatchEvent(new CustomEvent('live-me'))")  # the page hears "me changed": an ask
    page.wait_for_timeout(500)  # time for that ask's answer, if it went
    held[0].continue_()
    expect(page.locator("#seek-note")).to_have_text("Seek cancelled.")
    expect(page.locator("#pairing-tiles")).to_be_visible()


def test_a_tile_click_pairs_two_players(new_context):
    """Home's tiles: a click seeks that board and clock, rated; a second player clicking the same tile is paired
    with the first, and both pages go to the game. The board picker's choice comes first next time."""
    alice, bob = (new_context().new_page() for _ in range(2))
    for page, name in ((alice, "alice"), (bob, "bob")):
        sign_up(page, name)
        page.goto("/")
    alice.locator('#board-picker a[data-board="ultimate"]').click()
    expect(alice).to_have_url(re.compile(r"/\?board=ultimate$"))
    expect(alice.locator("#tile-3-2")).to_have_attribute("aria-label", re.compile(r"^Ultimate, 3\+2 \(Blitz\), rated"))
    alice.locator("#tile-3-2").click()
    expect(alice.locator("#seek-status")).to_contain_text("Looking for an opponent…")
    bob.locator('#board-picker a[data-board="ultimate"]').click()
    expect(bob.locator("#tile-3-2")).to_contain_text("1 waiting", timeout=LIVE_TIMEOUT)
    bob.locator("#tile-3-2").click()
    bob.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(bob.url.rstrip("/").rsplit("/", 1)[1])
    alice.wait_for_url(f"**/games/{game_id}/", timeout=LIVE_TIMEOUT)
    game = Game.objects.get(pk=game_id)
    assert (game.variant, game.clock, game.unrated_reason) == ("ultimate", "3+2", "")
    assert {game.x_player.username, game.o_player.username} == {"alice", "bob"}
    for page in (alice, bob):
        expect(page.locator("#clock-x")).to_have_text("3:00")
        page.goto("/")
        expect(page.locator('#board-picker a[aria-current="page"]')).to_have_text("Ultimate")
