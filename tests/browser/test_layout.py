"""Layout on real screens: long names on a phone, big and wide boards, the profile's ratings on a phone.

Measured in Chromium (positions and computed styles), since each of these looked fine in the HTML and wrong on
the screen.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.rating.glicko2 import Glicko, rate_game
from games.services import challenge_accept, challenge_create, game_create, game_resign, move_play
from players.models import Player
from tests.browser import PASSWORD, log_in

pytestmark = pytest.mark.browser

#: 32 letters with nowhere to break (usernames may have 150)
UNBREAKABLE = "averyveryverylongusername_2024xz"


def test_a_long_unbreakable_username_never_pushes_a_phone_page_sideways(new_context):
    alice = Player.objects.create_user("alice", password=PASSWORD)
    long = Player.objects.create_user(UNBREAKABLE, password=PASSWORD)
    challenge_create(player=long, variant="classic", options={})  # in alice's lobby
    running = challenge_accept(game=challenge_create(player=long, variant="classic", side="X"), player=alice)
    finished = challenge_accept(game=challenge_create(player=long, variant="four", side="O"), player=alice)
    move_play(game=finished, player=alice, move=5)
    move_play(game=finished, player=long, move=0)
    game_resign(game=finished, player=long)  # rated: the profile and the leaderboard list the name
    page = new_context(viewport={"width": 320, "height": 640}).new_page()
    log_in(page, "alice")
    for path in ("/games/", f"/games/{running.pk}/", f"/players/{UNBREAKABLE}/", "/leaderboard/?variant=four",
                 f"/games/{finished.pk}/replay/"):
        page.goto(path)
        expect(page.get_by_text(UNBREAKABLE).first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, (path, width)


def _cell_boxes(page) -> list[dict]:
    return page.locator("#board .cell").evaluate_all(
        "cells => cells.map(cell => { const box = cell.getBoundingClientRect();"
        " return {top: box.top, bottom: box.bottom, left: box.left, right: box.right}; })"
    )


def test_big_boards_ring_the_last_move_and_the_winning_line(new_context):
    alice = Player.objects.create_user("alice", password=PASSWORD)
    options = {"rows": 15, "cols": 15, "k": 5}
    game = game_create(player=alice, variant="mnk", options=options, opponent="local", side="X")
    for move in (0, 20, 16, 21, 32, 22, 48, 23):
        move_play(game=game, player=alice, move=move)
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    log_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    ring = page.locator('#board .cell[data-cell="23"]')
    expect(ring).to_have_class(re.compile(r"\blast\b"))
    # a 2-pixel inset ring of its own colour, not only the grid line's 1-pixel shadow
    assert "2px" in ring.evaluate("cell => getComputedStyle(cell).boxShadow")
    page.locator('#board [data-move="64"]').click()  # X completes the diagonal
    expect(page.locator("#status")).to_contain_text("X wins")
    shadows = page.locator("#board .cell.win").evaluate_all(
        "cells => cells.map(cell => getComputedStyle(cell).boxShadow)"
    )
    assert len(shadows) == 5 and all("2px" in shadow for shadow in shadows), shadows
    # the buttons under the board are in view on a laptop's screen
    bottom = page.locator(".game-actions").evaluate("e => e.getBoundingClientRect().bottom")
    assert bottom <= 800, bottom


@pytest.mark.parametrize("width", [390, 1280])
def test_a_wide_short_board_keeps_every_grid_line(new_context, width):
    """3 x 19: each row of cells ends above the next one starts (the board's border once made every cell a
    fraction taller than its row, covering the line above it)."""
    alice = Player.objects.create_user("alice", password=PASSWORD)
    game = game_create(player=alice, variant="mnk", options={"rows": 3, "cols": 19, "k": 3}, opponent="local", side="X")
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    log_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    boxes = _cell_boxes(page)
    assert len(boxes) == 57
    for row in range(2):
        for col in range(19):
            upper, lower = boxes[row * 19 + col], boxes[(row + 1) * 19 + col]
            assert upper["bottom"] <= lower["top"] + 0.01, (row, col, upper, lower)
    assert Game.objects.get(pk=game.pk).ply == 0


def test_the_profile_shows_its_ratings_on_a_phone(new_context):
    alice = Player.objects.create_user("alice", password=PASSWORD)
    bob = Player.objects.create_user("bob", password=PASSWORD)
    for variant in ("classic", "mnk"):
        game = challenge_accept(game=challenge_create(player=alice, variant=variant, options={}, side="X"), player=bob)
        move_play(game=game, player=alice, move=0)
        move_play(game=game, player=bob, move=1 if variant == "classic" else 20)
        game_resign(game=game, player=bob)
    page = new_context(viewport={"width": 390, "height": 800}).new_page()
    log_in(page, "alice")
    page.goto("/players/alice/")
    table = page.locator("#ratings")  # one row per pool: classic, and 15 x 15 five in a row
    right = table.evaluate("t => t.parentElement.getBoundingClientRect().right")
    expect(page.locator("#ratings td.rating a")).to_have_count(2)
    for rating in page.locator("#ratings td.rating a").all():
        expect(rating).to_be_visible()
        assert rating.evaluate("a => a.getBoundingClientRect().right") <= right + 0.5
    # every count is there, played, won, lost and drawn (P W L D), so that they add up
    expect(page.locator("#stats-players thead .nav-short")).to_have_text(["P", "W", "L", "D"])
    for cell in page.locator("#stats-players tbody tr > :nth-child(5)").all():
        expect(cell).to_be_visible()


def test_the_copy_buttons_put_the_challenge_link_and_a_new_token_on_the_clipboard(new_context):
    Player.objects.create_user("alice", password=PASSWORD)
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    log_in(page, "alice")
    game = challenge_create(player=Player.objects.get(username="alice"), variant="classic")
    page.goto(f"/games/{game.pk}/")
    page.locator("#copy-share-link").click()
    assert page.evaluate("navigator.clipboard.readText()") == page.locator("#share-link").input_value()
    page.goto("/players/alice/")
    page.locator("#token-name").fill("my bot")
    page.locator("#token-name").press("Enter")
    token = page.locator("#new-token-value")
    expect(token).to_be_visible()
    page.locator("#copy-new-token").click()
    expect(page.locator("#copy-new-token")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == token.text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_long_name_breaks_inside_its_seat_and_leaves_the_clock_beside_it(new_context):
    """On a phone a 32-letter name breaks within its seat beside the board; the clock keeps its place at the
    seat's right end, whole."""
    alice = Player.objects.create_user("alice", password=PASSWORD)
    Player.objects.create_user(UNBREAKABLE, password=PASSWORD)
    game = challenge_accept(game=challenge_create(player=alice, variant="classic", side="X", clock="3+2"),
                            player=Player.objects.get(username=UNBREAKABLE))
    page = new_context(viewport={"width": 390, "height": 800}).new_page()
    log_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    seat, name, clock = page.evaluate(
        "() => ['#seat-o', '#seat-o .seat-name', '#clock-o'].map(s => { const box = document.querySelector(s)"
        ".getBoundingClientRect(); return {top: box.top, bottom: box.bottom, left: box.left, right: box.right}; })"
    )
    assert seat["right"] <= 390 and clock["right"] <= seat["right"] and clock["left"] >= name["right"] - 1
    assert seat["top"] <= clock["top"] and clock["bottom"] <= seat["bottom"]
    expect(page.locator("#clock-o")).to_have_text("3:00")


def test_phone_history_cards_say_as_and_vs_only_for_a_seat_against_an_opponent(new_context):
    alice = Player.objects.create_user("alice", password=PASSWORD)
    against = game_create(player=alice, variant="classic", options={}, opponent="easy", side="X")
    local = game_create(player=alice, variant="classic", options={}, opponent="local", side="X")
    watched = game_create(player=alice, variant="classic", options={}, opponent="watch", side="X")
    page = new_context(viewport={"width": 390, "height": 800}).new_page()
    log_in(page, "alice")
    page.goto("/games/")
    cards = {
        game.pk: page.locator(f'.history-row[data-game="{game.pk}"]').evaluate(
            "row => [3, 4].map(n => { const td = row.querySelector(`td:nth-child(${n})`);"
            " return (getComputedStyle(td, '::before').content.replaceAll('\"', '') + td.textContent).trim()"
            ".replace('none', ''); })"
        )
        for game in (against, local, watched)
    }
    assert cards[against.pk] == ["as X", "vs Computer (easy)"], cards
    assert cards[local.pk] == ["X and O", "two players, one screen"], cards
    assert cards[watched.pk][0] == "watching" and cards[watched.pk][1].startswith("Computer ("), cards


@pytest.mark.parametrize("width", [320, 390])
def test_the_leaderboard_fits_a_phone(new_context, width):
    alice = Player.objects.create_user("alice", password=PASSWORD)
    bob = Player.objects.create_user("bob", password=PASSWORD)
    game = challenge_accept(game=challenge_create(player=alice, variant="classic", options={}, side="X"), player=bob)
    move_play(game=game, player=alice, move=0)
    move_play(game=game, player=bob, move=4)
    game_resign(game=game, player=bob)
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    log_in(page, "alice")
    page.goto("/leaderboard/?variant=classic")
    right = page.locator("table.leaderboard").evaluate("t => t.parentElement.getBoundingClientRect().right")
    shown = [cell for cell in page.locator("table.leaderboard tr.me > *").all() if cell.is_visible()]
    # rank, name, rating, games, won, lost and drawn: every column, under short headings on a phone
    won = round(rate_game(Glicko(), Glicko(), 1.0)[0].rating)  # Glicko-2, still provisional after one game
    assert [cell.inner_text() for cell in shown][2:] == [f"{won}?", "1", "1", "0", "0"]
    headings = page.locator("table.leaderboard thead .nav-short")
    expect(headings).to_have_text(["Games", "W", "L", "D"])
    for heading in headings.all():
        expect(heading).to_be_visible()
    for cell in shown:
        assert cell.evaluate("c => c.getBoundingClientRect().right") <= right + 0.5, cell.inner_text()


def _lines(locator) -> list[int]:
    """How many lines each element's text takes on the screen."""
    return locator.evaluate_all(
        "elements => elements.map(e => { const range = document.createRange(); range.selectNodeContents(e);"
        " return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; })"
    )


@pytest.mark.parametrize("width", [390, 1280])
def test_my_games_keeps_its_words_whole(new_context, width):
    """Only an opponent's name may break anywhere: "Continue" and "Replay" never break in the middle."""
    alice = Player.objects.create_user("alice", password=PASSWORD)
    Player.objects.create_user(UNBREAKABLE, password=PASSWORD)
    challenge_accept(game=challenge_create(player=Player.objects.get(username=UNBREAKABLE), variant="classic",
                                           side="X"), player=alice)
    game_create(player=alice, variant="classic", options={}, opponent="local", side="X")
    game_resign(game=game_create(player=alice, variant="mnk", options={"rows": 15, "cols": 15, "k": 5},
                                 opponent="easy", side="X"), player=alice)
    page = new_context(viewport={"width": width, "height": 800}).new_page()
    log_in(page, "alice")
    page.goto("/games/")
    buttons = page.locator(".history-table .button")
    expect(buttons).to_have_count(3)
    assert _lines(buttons) == [1, 1, 1]
    assert _lines(page.locator(".history-table td:nth-child(3)")) == [1, 1, 1]  # "X and O" on one line
    assert page.evaluate("document.documentElement.scrollWidth") <= width
