"""Getting a player's attention in a game between two people (issue 22): offers next to the status line, in view
on a 1280 x 800 laptop and announced to screen readers; sounds with a mute toggle kept per player; the tab's title;
a browser notification asked for only on a click."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import log_in

pytestmark = pytest.mark.browser

LIVE_TIMEOUT = 8_000
LAPTOP = {"width": 1280, "height": 800}


def in_view_unscrolled(page: Page, selector: str) -> None:
    """The element is wholly inside the 1280 x 800 window, the page not scrolled, and beside the board (the game
    page's column of seats, status and buttons), not below it."""
    assert page.evaluate("window.scrollY") == 0
    box = page.locator(selector).bounding_box()
    board = page.locator("#board").bounding_box()
    assert box is not None and board is not None
    assert 0 <= box["y"] and box["y"] + box["height"] <= LAPTOP["height"], (selector, box)
    assert box["x"] >= board["x"] + board["width"], (selector, box, board)  # beside the board, not below
    assert box["y"] + box["height"] <= board["y"] + board["height"], (selector, box, board)
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
    alice.evaluate("window.scrollTo(0, 0)")  # the click may have scrolled to the button, under the board
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


# --- sounds, the title, notifications ---------------------------------------------------------------------

#: counts the page's calls of HTMLMediaElement.play (what was asked to sound), before any script of the page runs
SPY_PLAY = """
window.__plays = [];
const realPlay = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  window.__plays.push(this.src.split('/').pop());
  return realPlay.call(this).catch(() => {});
};
"""

#: a Notification the test can watch: permission "default" until requestPermission is called, then "granted"
FAKE_NOTIFICATION = """
window.__asked = 0;
window.__notes = [];
class FakeNotification {
  constructor(title, options) { window.__notes.push([title, (options || {}).body || '']); }
  close() {}
  static requestPermission() {
    window.__asked += 1;
    FakeNotification.permission = 'granted';
    return Promise.resolve('granted');
  }
}
FakeNotification.permission = 'default';
window.Notification = FakeNotification;
"""


@pytest.fixture
def classic_duel(new_context, django_user_model):
    """alice (X, to move) and bob at a classic game, each in a browser with the play() spy."""
    from games.services import challenge_accept, challenge_create
    from tests.browser import PASSWORD

    players = [django_user_model.objects.create_user(name, password=PASSWORD) for name in ("alice", "bob")]
    game = challenge_accept(game=challenge_create(player=players[0], variant="classic", side="X"), player=players[1])
    pages = []
    for name in ("alice", "bob"):
        context = new_context(viewport=LAPTOP)
        context.add_init_script(SPY_PLAY + FAKE_NOTIFICATION)
        page = context.new_page()
        log_in(page, name)
        pages.append(page)
    return pages[0], pages[1], game, players


def plays(page: Page) -> list[str]:
    return page.evaluate("window.__plays")


def test_a_move_and_the_end_sound_and_the_title_says_your_turn(classic_duel):
    from games.services import move_play

    alice, bob, game, (alice_player, bob_player) = classic_duel
    bob.goto(f"/games/{game.pk}/")
    expect(bob).not_to_have_title(re.compile("Your turn"))
    assert plays(bob) == []  # nothing sounds on a page load
    move_play(game=game, player=alice_player, move=4)  # from elsewhere: the push brings it
    expect(bob.locator("body")).to_have_attribute("data-last-sound", "move", timeout=LIVE_TIMEOUT)
    assert plays(bob) == ["move.wav"]
    expect(bob).to_have_title(re.compile(rf"^Your turn · Game {game.pk} · "))
    bob.locator('#board button[data-move="0"]').click()  # his own move sounds too
    expect(bob.locator("body")).to_have_attribute("data-sound-count", "2")
    expect(bob).to_have_title(re.compile(rf"^Game {game.pk} · "))
    for move, who in ((3, alice_player), (1, bob_player), (5, alice_player)):  # X: 4, 3, 5 wins the middle row
        move_play(game=game, player=who, move=move)
    expect(bob.locator("body")).to_have_attribute("data-last-sound", "end", timeout=LIVE_TIMEOUT)
    assert plays(bob)[-1] == "end.wav"


def test_muting_is_kept_on_the_player_in_every_browser(classic_duel, new_context):
    from games.services import move_play

    alice, bob, game, (alice_player, _) = classic_duel
    bob.goto(f"/games/{game.pk}/")
    toggle = bob.locator("[data-sound-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(bob.locator("body")).to_have_attribute("data-sound", "off")
    assert bob.url.endswith(f"/games/{game.pk}/")  # without leaving the page
    # another browser of bob's: muted there too, from the server
    elsewhere = new_context().new_page()
    log_in(elsewhere, "bob")
    elsewhere.goto("/players/bob/")
    expect(elsewhere.locator("body")).to_have_attribute("data-sound", "off")
    expect(elsewhere.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "false")
    # and muted means silent
    move_play(game=game, player=alice_player, move=4)
    expect(bob.locator('#board [data-cell="4"]')).to_have_attribute("data-mark", "X", timeout=LIVE_TIMEOUT)
    assert plays(bob) == [] and bob.locator("body").get_attribute("data-sound-count") is None
    toggle.click()  # and back on
    expect(bob.locator("body")).to_have_attribute("data-sound", "on")


def test_a_challenge_sounds_in_the_lobby(classic_duel):
    from games.services import challenge_create

    alice, bob, game, (alice_player, _) = classic_duel
    bob.goto("/")
    expect(bob.locator("#open-challenges-empty")).to_be_visible()
    challenge_create(player=alice_player, variant="four", side="X")
    expect(bob.locator("body")).to_have_attribute("data-last-sound", "challenge", timeout=15_000)
    assert plays(bob) == ["challenge.wav"]


def test_notify_me_asks_only_on_a_click_then_notifies_a_background_tab(classic_duel):
    from games.services import move_play

    alice, bob, game, (alice_player, _) = classic_duel
    bob.goto(f"/games/{game.pk}/")
    button = bob.locator("#notify-me")
    expect(button).to_be_visible()
    assert bob.evaluate("window.__asked") == 0  # never on load
    button.click()
    expect(button).to_be_hidden()
    assert bob.evaluate("window.__asked") == 1
    bob.evaluate("Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})")
    move_play(game=game, player=alice_player, move=4)
    expect(bob.locator("body")).to_have_attribute("data-notified", "1", timeout=LIVE_TIMEOUT)
    assert bob.evaluate("window.__notes") == [["Your turn", "Your turn (O)"]]
