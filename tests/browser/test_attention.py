"""Getting a player's attention in a game between two people (issue 22): offers next to the status line, in view
on a 1280 x 800 laptop and announced to screen readers; sounds with a mute toggle kept per player; the tab's title;
a browser notification asked for only on a click."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser import log_in

pytestmark = pytest.mark.browser

LIVE_TIMEOUT = 8_000
LAPTOP = {"width": 1280, "height": 800}


def in_view_unscrolled(page: Page, selector: str) -> None:
    """The element is wholly inside the 1280 x 800 window, the page not scrolled, and above the board."""
    assert page.evaluate("window.scrollY") == 0
    box = page.locator(selector).bounding_box()
    board = page.locator("#board").bounding_box()
    assert box is not None and board is not None
    assert 0 <= box["y"] and box["y"] + box["height"] <= LAPTOP["height"], (selector, box)
    assert box["y"] + box["height"] <= board["y"], (selector, box, board)  # above the board, not below
    status = page.locator("#status").bounding_box()
    assert status is not None and box["y"] - (status["y"] + status["height"]) < 80  # right by the status line


@pytest.fixture
def big_duel(new_context, django_user_model):
    """alice (X, to move) and bob on a 15 x 15 board (tall: below-the-board offers would be off-screen)."""
    from games.services import challenge_accept, challenge_create
    from tests.browser import PASSWORD

    alice_player = django_user_model.objects.create_user("alice", password=PASSWORD)
    bob_player = django_user_model.objects.create_user("bob", password=PASSWORD)
    game = challenge_accept(
        game=challenge_create(player=alice_player, variant="mnk", options={"rows": 15, "cols": 15, "k": 5}, side="X"),
        player=bob_player,
    )
    pages = []
    for name in ("alice", "bob"):
        page = new_context(viewport=LAPTOP).new_page()
        log_in(page, name)
        page.goto(f"/games/{game.pk}/")
        pages.append(page)
    return pages[0], pages[1], game


def test_a_draw_offer_shows_by_the_status_line_in_view_and_is_announced(big_duel):
    alice, bob, game = big_duel
    alice.locator("#draw-offer-button").click()
    expect(alice.locator("#draw-waiting")).to_be_visible()
    in_view_unscrolled(alice, "#draw")
    expect(bob.locator("#draw-offer")).to_be_visible(timeout=LIVE_TIMEOUT)
    in_view_unscrolled(bob, "#draw")
    # read out by the polite live region that stays in place while #play is swapped
    announce = bob.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_contain_text("Your opponent offers a draw.")
    assert bob.locator("#play #announce").count() == 0


def test_a_rematch_offer_shows_by_the_result_in_view_and_is_announced(big_duel):
    alice, bob, game = big_duel
    alice.locator('#board button[data-move="112"]').click()
    expect(bob.locator('#board [data-cell="112"]')).to_have_attribute("data-mark", "X", timeout=LIVE_TIMEOUT)
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.locator("#resign").click()
    expect(bob.locator("#rematch-offer-button")).to_be_visible()
    bob.locator("#rematch-offer-button").click()
    expect(alice.locator("#rematch-offer")).to_be_visible(timeout=LIVE_TIMEOUT)
    in_view_unscrolled(alice, "#rematch")
    expect(alice.locator("#announce")).to_contain_text("Your opponent offers a rematch.")
