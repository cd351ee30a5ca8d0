"""Playing in a real browser: moves are htmx swaps (no page load), the computer answers, games end."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine import get_variant
from games.models import Game
from tests.browser import FINAL_RESULTS, create_game, mark_count, play, play_to_end, sign_up, wait_settled

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
    assert result in ("O wins — you lost", "Draw"), result
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


def _focused_move(page: Page) -> str | None:
    return page.evaluate("() => document.activeElement && document.activeElement.getAttribute('data-move')")


def _htmx_idle(page: Page) -> None:
    """Wait until htmx has swapped and settled: a key pressed before the new board is processed would
    submit its form the plain way (a page load, the path without JavaScript)."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def test_the_board_is_played_with_the_keyboard_alone(page: Page):
    sign_up(page, "kim")
    create_game(page, "classic", "local")
    loads = watch_navigations(page)
    page.locator('#board button[data-move="0"]').focus()
    for key, move in (("ArrowRight", "1"), ("ArrowDown", "4"), ("ArrowLeft", "3"), ("ArrowUp", "0")):
        page.keyboard.press(key)
        assert _focused_move(page) == move, key
    page.keyboard.press("ArrowUp")  # the edge: nothing further up, the focus stays
    assert _focused_move(page) == "0"

    # Enter plays; the swapped board gets the focus back near the cell just played, so the next
    # move needs no Tab through the page again.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # 0 -> 3 -> 6
    page.keyboard.press("ArrowUp")  # 3
    page.keyboard.press("ArrowRight")  # 4
    page.keyboard.press("Enter")
    expect(page.locator('#board [data-cell="4"]')).to_have_attribute("data-mark", "X")
    _htmx_idle(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#board button[data-move]')")
    assert _focused_move(page) in {"1", "3", "5", "7"}  # a playable neighbour of the centre

    # Arrows skip occupied cells: from 3, right goes over the X in the centre to 5.
    page.locator('#board button[data-move="3"]').focus()
    page.keyboard.press("ArrowRight")
    assert _focused_move(page) == "5"

    # X 4, O 5, X 0, O 3, X 8: X wins along the diagonal; the focus ends on the result.
    for move in ("5", "0", "3", "8"):
        page.locator(f'#board button[data-move="{move}"]').focus()
        page.keyboard.press("Enter")
        expect(page.locator(f'#board [data-cell="{move}"]')).not_to_have_attribute("data-mark", "")
        _htmx_idle(page)
    expect(page.locator("#status")).to_have_text("X wins")
    assert loads == [], "a move loaded the page instead of going through htmx"
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'status'")


def test_the_board_is_one_tab_stop(page: Page):
    # a 15 x 15 board has 225 playable cells: Tab enters the board once and leaves it with the next Tab
    sign_up(page, "tab")
    create_game(page, "mnk", "easy", rows=15, cols=15, k=5)
    assert page.locator('#board button[data-move][tabindex="0"]').count() == 1
    assert page.locator('#board button[data-move][tabindex="-1"]').count() == 224
    page.locator("#status").evaluate("el => { el.tabIndex = -1; el.focus(); }")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('#board button[data-move]')")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    moved_to = _focused_move(page)
    assert moved_to == "16"  # from 0: right, then down
    assert page.locator('#board button[tabindex="0"]').get_attribute("data-move") == moved_to
    page.keyboard.press("Tab")  # off the board at once, to the game's buttons
    assert page.evaluate("() => document.activeElement.id") == "hint-button"
    page.keyboard.press("Shift+Tab")  # and back to the cell last used
    assert _focused_move(page) == moved_to
    page.keyboard.press("Enter")
    expect(page.locator('#board [data-cell="16"]')).to_have_attribute("data-mark", "X")
    _htmx_idle(page)
    assert page.locator('#board button[data-move][tabindex="0"]').count() == 1  # still one stop after the swap


def test_a_big_board_on_a_touch_screen_takes_two_taps(new_context):
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    sign_up(page, "tap")
    create_game(page, "mnk", "local", rows=15, cols=15, k=5)
    cell = page.locator('#board button[data-move="112"]')
    cell.tap()  # the first tap only marks the cell (they are about 21 pixels wide here)
    expect(cell).to_have_class(re.compile(r"\barmed\b"))
    expect(page.locator("#tap-again")).to_have_text("Tap h8 again to play it.")  # under the board, by its name
    page.locator('#board button[data-move="113"]').tap()  # a near miss moves the mark, nothing is played
    expect(page.locator("#board button.armed")).to_have_count(1)
    expect(page.locator("#tap-again")).to_have_text("Tap i8 again to play it.")
    assert mark_count(page) == 0
    page.locator('#board button[data-move="113"]').tap()  # the second tap on it plays
    expect(page.locator('#board [data-cell="113"]')).to_have_attribute("data-mark", "X")
    assert Game.objects.get().ply == 1


def test_a_mouse_click_leaves_the_focus_alone(page: Page):
    sign_up(page, "lee")
    create_game(page, "classic", "local")
    # Counted after the page's own listeners (registered at load), so it sees the focus they leave.
    page.evaluate(
        "() => { window.__settled = 0; document.addEventListener('htmx:afterSettle', () => window.__settled++); }"
    )
    page.locator('#board button[data-move="4"]').click()
    expect(page.locator('#board [data-cell="4"]')).to_have_attribute("data-mark", "X")
    page.wait_for_function("() => window.__settled > 0")
    assert page.evaluate("() => document.activeElement === document.body")


def test_a_click_no_pointer_made_brings_the_focus_back_like_a_key(page: Page):
    """A screen reader's browse mode (or voice control) activates a cell with a click that has no pointer
    (event.detail 0) and no key press: the focus must come back to the board as it does for Enter."""
    sign_up(page, "ray")
    create_game(page, "classic", "local")
    page.locator('#board button[data-move="4"]').focus()
    page.evaluate("() => document.querySelector('#board button[data-move=\"4\"]').click()")
    expect(page.locator('#board [data-cell="4"]')).to_have_attribute("data-mark", "X")
    _htmx_idle(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#board button[data-move]')")
    assert _focused_move(page) in {"1", "3", "5", "7"}


def test_after_a_hint_asked_with_the_keyboard_the_focus_is_on_the_suggested_cell(page: Page):
    sign_up(page, "hana")
    create_game(page, "classic", "easy")
    page.locator('#board button[data-move="0"]').focus()
    page.keyboard.press("Enter")
    wait_settled(page, 2)
    _htmx_idle(page)
    page.locator("#hint-button").focus()
    page.keyboard.press("Enter")
    hinted = page.locator("#board button[data-hint]")
    expect(hinted).to_have_count(1)
    _htmx_idle(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.hasAttribute('data-hint')")
    suggested = hinted.get_attribute("data-move")
    page.keyboard.press("Enter")  # so Enter plays the suggestion
    expect(page.locator(f'#board [data-cell="{suggested}"]')).to_have_attribute("data-mark", "X")


def test_keyboard_focus_survives_a_computer_that_answers_in_a_second_request(page: Page):
    sign_up(page, "max")
    create_game(page, "ultimate", "hard")  # mcts: the page asks for its move in a second htmx request
    page.locator('#board button[data-move="40"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('#board [data-cell="40"]')).to_have_attribute("data-mark", "X")
    wait_settled(page, 2)
    _htmx_idle(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('#board button[data-move]')")
    page.keyboard.press("Enter")  # and the next move is one key away
    wait_settled(page, 4)


def test_a_move_is_taken_back_without_a_page_reload(page: Page):
    sign_up(page, "tara")
    game_id = create_game(page, "classic", "easy")
    expect(page.locator("#takeback")).to_have_count(0)  # nothing to take back yet
    loads = watch_navigations(page)

    page.locator('#board button[data-move="4"]').click()
    wait_settled(page, 2)
    expect(page.locator('#board [data-cell="4"]')).to_have_attribute("data-mark", "X")
    page.locator("#takeback").click()

    # My move and the computer's answer are gone: an empty board, my turn, the cell playable again.
    expect(page.locator("#play")).to_have_attribute("data-ply", "0")
    expect(page.locator("#board button[data-move]")).to_have_count(9)
    expect(page.locator("#takebacks")).to_have_text("1 takeback in this game.")
    expect(page.locator("#takeback")).to_have_count(0)
    assert loads == [], f"the page navigated: {loads}"
    game = Game.objects.get(pk=game_id)
    assert (game.ply, game.takebacks, game.moves.count()) == (0, 1, 0)


def test_play_again_opens_a_new_game_with_the_same_settings(page: Page):
    sign_up(page, "uma")
    game_id = create_game(page, "nxn", "easy", side="O", size=4)
    wait_settled(page, 1)  # the computer (X) opens
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#resign").click()
    page.evaluate("window.samePage = true")  # gone if the browser loaded a page
    page.locator("#play-again").click()
    page.wait_for_url(lambda url: re.search(r"/games/(\d+)/$", url) is not None and f"/games/{game_id}/" not in url)
    new_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    assert new_id != game_id
    # Swapped in place (the old game's later version does not hold the new game's answer back).
    expect(page.locator("#play")).to_have_attribute("data-game", str(new_id))
    expect(page.locator("#board [data-cell]")).to_have_count(16)
    wait_settled(page, 1)  # the computer plays X again, and it is my turn
    expect(page).to_have_title(re.compile(rf"^Game {new_id} · 4 x 4"))
    assert page.evaluate("window.samePage") is True, "Play again loaded a new page"
    play(page)  # and the new game plays on
    game = Game.objects.get(pk=new_id)
    assert game.ply == 3 and Game.objects.get(pk=game_id).ply == 1
    # Back: the finished game again, as it is.
    page.go_back()
    page.wait_for_url(f"**/games/{game_id}/")
    expect(page.locator("#play")).to_have_attribute("data-game", str(game_id))
    expect(page.locator("#status")).to_contain_text("resign")
    game = Game.objects.get(pk=new_id)
    assert (game.variant, game.options, game.opponent, game.o_player.username) == ("nxn", {"size": 4}, "easy", "uma")


def test_each_move_is_announced_for_screen_readers(page: Page):
    sign_up(page, "vera")
    create_game(page, "classic", "easy")
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    announce.evaluate("element => { element.dataset.kept = 'yes'; }")
    page.locator('#board button[data-move="4"]').click()
    wait_settled(page, 2)
    reply = page.locator('#board [data-cell][data-mark="O"]').get_attribute("data-cell")
    # The live region outside #play is kept and only its text changes: the computer's move, then whose turn.
    expect(announce).to_have_text(f"O played {get_variant('classic').cell_name(int(reply))}. Your turn (X)")
    expect(announce).to_have_attribute("data-kept", "yes")


def test_a_hint_highlights_a_cell_and_playing_it_goes_on(page: Page):
    sign_up(page, "will")
    game_id = create_game(page, "classic", "hard")
    loads = watch_navigations(page)
    page.locator("#hint-button").click()
    hinted = page.locator("#board button[data-hint]")
    expect(hinted).to_have_count(1)
    expect(page.locator("#hint")).to_contain_text("highlighted on the board")
    move = hinted.get_attribute("data-move")
    hinted.click()
    wait_settled(page, 2)
    expect(page.locator(f'#board [data-cell="{move}"]')).to_have_attribute("data-mark", "X")
    expect(page.locator("#board [data-hint]")).to_have_count(0)  # the hint was for that position only
    expect(page.locator("#hints")).to_have_text("1 hint in this game.")
    assert loads == []
    assert Game.objects.get(pk=game_id).hints == 1


def test_watching_two_computers_play_again_goes_on_by_itself(page: Page):
    """Play again in place on a watched game: the new board is swapped in, and its computers start at once
    (the swapped-in "thinking" element triggers on load), with no page load."""
    sign_up(page, "wanda")
    game_id = create_game(page, "classic", "watch")
    finished = '#play[data-game-status="finished"]'
    expect(page.locator(finished)).to_have_count(1, timeout=30_000)
    page.evaluate("window.samePage = true")  # gone if the browser loaded a page
    page.locator("#play-again").click()
    page.wait_for_url(lambda url: f"/games/{game_id}/" not in url)
    new_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    expect(page.locator("#play")).to_have_attribute("data-game", str(new_id))
    # The new game's computers play on without a click: moves appear, up to the end.
    expect(page.locator(f'#play[data-game="{new_id}"]{finished}')).to_have_count(1, timeout=30_000)
    assert Game.objects.get(pk=new_id).ply >= 5
    assert page.evaluate("window.samePage") is True, "Play again loaded a new page"


def test_a_slow_computer_replies_from_a_worker_and_the_board_updates_by_itself(page: Page):
    """Medium on 15 x 15 thinks in a worker (the task queue): each move shows at once, "Computer is thinking…"
    while it thinks, and its reply arrives by itself (the page is told by the push), move after move."""
    sign_up(page, "zed")
    create_game(page, "mnk", "medium", rows=15, cols=15, k=5)
    loads = watch_navigations(page)
    for move, replies in ((112, 1), (113, 2)):
        page.locator(f'#board [data-move="{move}"]').click()
        expect(page.locator('#board [data-cell][data-mark="O"]')).to_have_count(replies, timeout=10_000)
    expect(page.locator("#thinking")).to_have_count(0)
    assert loads == []
