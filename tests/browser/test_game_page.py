"""The game page on a laptop (1280 x 800) and a phone (390 x 844), issue 30: the board, the status line and the
buttons fit the screen without scrolling on every board up to 19 x 19 and Ultimate; the two clocks are big and
beside the board; premoves and the confirmation of moves follow the player's preferences.

Measured in Chromium (the boxes of the elements), since "fits" is a matter of the screen, not of the HTML. With
``SCREENSHOTS_DIR`` set (``make screenshots``), the pages are also saved there as PNG files for docs/features.md.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import Game
from games.services import challenge_accept, challenge_create, game_create, move_play
from players.models import Player
from tests.browser import PASSWORD, log_in

pytestmark = pytest.mark.browser

SCREENS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

#: the boards whose pages docs/features.md shows
DOCUMENTED = ("classic", "gomoku", "ultimate")
#: the boards to fit: a few moves each, so that the move list, the last move and (Ultimate) a board sent to show
BOARDS = {
    "classic": ("classic", {}, (4, 0, 8)),
    "gomoku": ("mnk", {"rows": 15, "cols": 15, "k": 5}, (112, 113, 96)),
    "ultimate": ("ultimate", {}, (40, 36, 4)),
    "19x19": ("mnk", {"rows": 19, "cols": 19, "k": 5}, (180, 181, 162)),
    "3x19": ("mnk", {"rows": 3, "cols": 19, "k": 3}, (20, 21, 22)),
}


def _box(page: Page, selector: str) -> dict[str, float]:
    return page.locator(selector).first.evaluate(
        "e => { const b = e.getBoundingClientRect();"
        " return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; }"
    )


def _in_view(page: Page, selector: str, screen: dict[str, int]) -> None:
    box = _box(page, selector)
    assert 0 <= box["top"] and box["bottom"] <= screen["height"] + 0.5, (selector, box, screen)
    assert 0 <= box["left"] and box["right"] <= screen["width"] + 0.5, (selector, box, screen)


def _screenshot(page: Page, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def _duel(alice: Player, bob: Player, variant: str, options: dict, moves: tuple[int, ...]) -> Game:
    """A rated 3+2 game between alice (X) and bob, its moves played: the clocks run."""
    game = challenge_accept(
        game=challenge_create(player=alice, variant=variant, options=options, side="X", clock="3+2"), player=bob
    )
    for ply, move in enumerate(moves):
        move_play(game=game, player=alice if ply % 2 == 0 else bob, move=move)
    return game


@pytest.fixture
def players() -> tuple[Player, Player]:
    return (Player.objects.create_user("alice", password=PASSWORD),
            Player.objects.create_user("bob", password=PASSWORD))


@pytest.mark.parametrize("screen", SCREENS)
def test_every_board_fits_the_screen_with_its_status_buttons_and_big_clocks_beside_it(new_context, players, screen):
    alice, bob = players
    size = SCREENS[screen]
    page = new_context(viewport=size, has_touch=screen == "phone").new_page()
    log_in(page, "bob")
    for key, (variant, options, moves) in BOARDS.items():
        game = _duel(alice, bob, variant, options, moves)  # bob (O) to move: his clock runs
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#board button[data-move]").first).to_be_visible()
        assert page.evaluate("window.scrollY") == 0
        for part in ("#board", "#status", ".game-actions", "#resign", "#clock-x", "#clock-o"):
            _in_view(page, part, size)
        board, body_font = _box(page, "#board"), page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        for side in ("x", "o"):
            font = page.locator(f"#clock-{side}").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
            assert font >= 1.5 * body_font, (key, side, font, body_font)
        top, bottom = _box(page, "#seat-x"), _box(page, "#seat-o")  # bob plays O: his seat is at the bottom
        if screen == "laptop":  # beside the board, to its right: the opponent's level with its top, his own its foot
            for seat in (top, bottom):
                assert seat["left"] >= board["right"] and seat["top"] >= board["top"] - 40, (key, seat, board)
            assert top["top"] < board["top"] + 100 and bottom["bottom"] > board["bottom"] - 100, (key, top, bottom)
        else:  # just above and just below it
            assert board["top"] - 80 <= top["bottom"] <= board["top"], (key, top, board)
            assert board["bottom"] <= bottom["top"] <= board["bottom"] + 80, (key, bottom, board)
        expect(page.locator("#clock-o")).to_have_attribute("data-running", "")
        expect(page.locator("#seat-o")).to_have_class(re.compile(r"\bseat-to-move\b"))
        if key in DOCUMENTED:
            _screenshot(page, f"game-{key}-{screen}")


@pytest.mark.parametrize("screen", SCREENS)
def test_against_the_computer_the_hint_and_take_back_fit_too(new_context, players, screen):
    alice, _bob = players
    size = SCREENS[screen]
    page = new_context(viewport=size, has_touch=screen == "phone").new_page()
    log_in(page, "alice")
    for variant, options in (("ultimate", {}), ("mnk", {"rows": 15, "cols": 15, "k": 5}), ("classic", {})):
        game = game_create(player=alice, variant=variant, options=options, opponent="easy", side="X")
        page.goto(f"/games/{game.pk}/")
        move = page.locator("#board button[data-move]").nth(4).get_attribute("data-move")
        page.locator(f'#board button[data-move="{move}"]').click(force=True)
        expect(page.locator(f'#board [data-cell="{move}"]')).to_have_attribute("data-mark", "X")
        if page.locator(f'#board button[data-move="{move}"].armed').count():  # a phone's small cells: tap again
            page.locator(f'#board button[data-move="{move}"]').click()
        expect(page.locator("#takeback")).to_be_visible()
        for part in ("#board", "#status", "#hint-button", "#takeback", "#resign"):
            _in_view(page, part, size)


def test_the_move_lists_first_row_stays_below_its_header_when_scrolled(new_context, players):
    alice, _bob = players
    game = game_create(player=alice, variant="mnk", options={"rows": 15, "cols": 15, "k": 5}, opponent="local",
                       side="X")
    for move in range(60):  # the first four rows in turn: nobody has five, and the list of 30 pairs scrolls
        move_play(game=game, player=alice, move=move)
    page = new_context(viewport=SCREENS["laptop"]).new_page()
    log_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    box = page.locator("#play .moves-scroll")
    assert box.evaluate("e => e.scrollHeight > e.clientHeight"), "the list must scroll"
    last = page.locator('#play .move-list td[data-ply="60"]')
    page.wait_for_function("() => { const b = document.querySelector('#play .moves-scroll');"
                           " return b.scrollTop + b.clientHeight >= b.scrollHeight - 1; }")  # opened at its end
    assert _box(page, '#play .move-list td[data-ply="60"]')["bottom"] <= _box(page, "#play .moves-scroll")["bottom"] + 1
    expect(last).to_be_visible()
    box.evaluate("e => { e.scrollTop = 0; }")
    head, first = _box(page, "#play .move-list thead th"), _box(page, '#play .move-list td[data-ply="1"]')
    assert first["top"] >= head["bottom"] - 0.5, (first, head)
    box.evaluate("e => { e.scrollTop = 40; }")  # half-way: the header (sticky) stays on top, over the rows
    head, scroller = _box(page, "#play .move-list thead th"), _box(page, "#play .moves-scroll")
    assert abs(head["top"] - scroller["top"]) <= 1, (head, scroller)


def test_a_premove_is_played_when_the_opponents_move_arrives(new_context, players):
    alice, bob = players
    Player.objects.filter(pk=alice.pk).update(premove=True)
    game = _duel(alice, bob, "classic", {}, (4,))  # bob (O) to move
    page = new_context(viewport=SCREENS["laptop"]).new_page()
    log_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#play")).to_have_attribute("data-premove", "")
    page.locator('#board [data-cell="8"]').click()  # not her turn: chosen as her next move
    expect(page.locator('#board [data-cell="8"]')).to_have_class(re.compile(r"\bpremove\b"))
    expect(page.locator("#premove-note")).to_contain_text("Premove: c1")
    move_play(game=game, player=bob, move=0)  # bob answers (from his own page, say): alice's page hears it
    expect(page.locator('#board [data-cell="8"]')).to_have_attribute("data-mark", "X", timeout=8_000)
    assert list(game.moves.order_by("ply").values_list("move", flat=True)) == [4, 0, 8]
    # a premove on a cell the opponent takes is dropped, and says so
    page.locator('#board [data-cell="2"]').click()
    expect(page.locator("#premove-note")).to_contain_text("Premove: c3")
    move_play(game=game, player=bob, move=2)
    expect(page.locator("#premove-note")).to_contain_text("could not be played", timeout=8_000)
    assert Game.objects.get(pk=game.pk).ply == 4


def test_with_confirmation_always_a_move_takes_two_clicks(new_context, players):
    alice, _bob = players
    Player.objects.filter(pk=alice.pk).update(confirm_moves="always")
    game = game_create(player=alice, variant="classic", options={}, opponent="local", side="X")
    page = new_context(viewport=SCREENS["laptop"]).new_page()
    log_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    cell = page.locator('#board button[data-move="4"]')
    cell.click()
    expect(cell).to_have_class(re.compile(r"\barmed\b"))
    expect(page.locator("#tap-again")).to_have_text("Click b2 again to play it.")
    assert Game.objects.get(pk=game.pk).ply == 0
    cell.click()
    expect(page.locator('#board [data-cell="4"]')).to_have_attribute("data-mark", "X")
    # and "never": one tap on a phone's small cell plays it at once
    Player.objects.filter(pk=alice.pk).update(confirm_moves="never")
    big = game_create(player=alice, variant="mnk", options={"rows": 15, "cols": 15, "k": 5}, opponent="local",
                      side="X")
    phone = new_context(viewport=SCREENS["phone"], has_touch=True, is_mobile=True).new_page()
    log_in(phone, "alice")
    phone.goto(f"/games/{big.pk}/")
    phone.locator('#board button[data-move="112"]').tap()
    expect(phone.locator('#board [data-cell="112"]')).to_have_attribute("data-mark", "X")


def test_ones_own_clock_sounds_once_when_it_runs_low(new_context, players):
    """3+2 is low under 18 s: alice's clock, running from 19 s, crosses it while her page is open and sounds the
    low-time warning once (<body data-last-sound>); bob's clock, which is not his page's own, never does."""
    alice, bob = players
    game = _duel(alice, bob, "classic", {}, (4, 0))  # X (alice) to move: her clock runs
    page = new_context(viewport=SCREENS["laptop"]).new_page()
    log_in(page, "alice")
    # 23 s left as of now (her time runs from clock_since): above the low mark (18 s) when the page opens
    Game.objects.filter(pk=game.pk).update(clock_x_ms=23_000, clock_since=timezone.now())
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#clock-x")).not_to_have_class(re.compile(r"\bclock-low\b"))
    expect(page.locator("#clock-x")).to_have_attribute("data-own", "")
    expect(page.locator("#clock-o")).not_to_have_attribute("data-own", "")
    expect(page.locator("body")).to_have_attribute("data-last-sound", "lowtime", timeout=15_000)
    expect(page.locator("#clock-x")).to_have_class(re.compile(r"\bclock-low\b"))
    expect(page.locator("#clock-x")).to_have_text(re.compile(r"^0:1[0-7]$|^0:0\d\.\d$"))
    assert page.locator("body").get_attribute("data-sound-count") == "1"
    # opened again while low: nothing sounds on a page load
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#clock-x")).to_have_class(re.compile(r"\bclock-low\b"))
    assert page.locator("body").get_attribute("data-sound-count") is None
