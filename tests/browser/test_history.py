"""History and replay in a real browser: both games a player finished are listed, one is replayed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser import create_game, play_to_end, sign_up

pytestmark = pytest.mark.browser

MARKS = '#board [data-cell][data-mark="X"], #board [data-cell][data-mark="O"]'


def step(page: Page, control: str, ply: int, total: int) -> None:
    """Click a replay control (first/back/forward/last) and check the board as it stood after `ply` moves."""
    page.locator(f"#replay-{control}").click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
    expect(page.locator(".replay-count")).to_have_text(f"{ply} / {total}")
    expect(page.locator(MARKS)).to_have_count(ply)


def test_both_games_are_in_the_history_and_one_is_replayed(page: Page):
    sign_up(page, "hugo")
    classic = create_game(page, "classic", "hard")
    classic_result = play_to_end(page, max_moves=5)
    ultimate = create_game(page, "ultimate", "easy")
    play_to_end(page, max_moves=41)

    page.locator("nav a", has_text="My games").click()
    expect(page).to_have_url(re.compile(r"/games/$"))
    # Both games, newest first, finished, each with its moves count.
    rows = page.locator("#history tr[data-game]")
    expect(rows).to_have_count(2)
    assert rows.evaluate_all("rows => rows.map(row => row.dataset.game)") == [str(ultimate), str(classic)]
    for game_id, variant in ((classic, "classic"), (ultimate, "ultimate")):
        row = page.locator(f'#history tr[data-game="{game_id}"]')
        expect(row).to_have_attribute("data-variant", variant)
        expect(row).to_contain_text(str(Game.objects.get(pk=game_id).ply))
        expect(row.get_by_role("link", name="Replay")).to_be_visible()

    # Filtering by variant leaves the ultimate game alone; the address follows, without a history entry each time.
    entries = page.evaluate("history.length")
    page.locator('#history-filters select[name="variant"]').select_option("ultimate")
    expect(page.locator("#history tr[data-game]")).to_have_count(1)
    expect(page.locator(f'#history tr[data-game="{ultimate}"]')).to_be_visible()
    expect(page).to_have_url(re.compile(r"/games/\?variant=ultimate&result=$"))
    page.locator('#history-filters select[name="variant"]').select_option("classic")
    expect(page.locator(f'#history tr[data-game="{classic}"]')).to_be_visible()
    page.locator('#history-filters select[name="variant"]').select_option("")
    expect(page.locator("#history tr[data-game]")).to_have_count(2)
    assert page.evaluate("history.length") == entries

    # Replay the classic game from its row, then step through it with the controls.
    page.locator(f'#history tr[data-game="{classic}"]').get_by_role("link", name="Replay").click()
    expect(page).to_have_url(re.compile(rf"/games/{classic}/replay/"))
    total = Game.objects.get(pk=classic).ply
    assert 5 <= total <= 9
    expect(page.locator("#replay")).to_have_attribute("data-total", str(total))
    page.evaluate("window.__marker = 1")

    step(page, "first", 0, total)
    expect(page.locator("#replay-first")).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#replay-back")).to_have_attribute("aria-disabled", "true")
    # The finished classic game is analysed: each step says what its move did; the hard level (O) never errs.
    expect(page.locator("#analysis")).to_have_text("With best play from both sides, this game is a draw.")
    expect(page.locator("#analysis-summary")).to_have_text(re.compile(r"(O 0\.|No mistakes)"))
    step(page, "forward", 1, total)
    expect(page.locator(MARKS)).to_have_text(["X"])
    expect(page.locator("#analysis")).to_contain_text("Move 1, X on ")
    step(page, "forward", 2, total)
    step(page, "back", 1, total)
    step(page, "last", total, total)
    expect(page.locator("#replay-forward")).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#status")).to_contain_text(classic_result)
    step(page, "back", total - 1, total)


    # Keys pressed faster than the answers come: each counts from the step asked for, not the one still shown.
    page.keyboard.press("End")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(total - 3))
    expect(page).to_have_url(re.compile(rf"\?ply={total - 3}$"))

    # The keys do what the buttons do: End, Home, Right, Left (nothing before the start).
    for key, ply in (("End", total), ("Home", 0), ("ArrowLeft", 0), ("ArrowRight", 1), ("ArrowRight", 2),
                     ("ArrowLeft", 1)):
        page.keyboard.press(key)
        expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
        expect(page.locator(MARKS)).to_have_count(ply)
    expect(page).to_have_url(re.compile(r"\?ply=1$"))  # the address follows, as with the buttons
    assert page.evaluate("window.__marker") == 1, "stepping through the replay reloaded the page"
    # ... in place: one Back leaves the replay for My games, however many steps were taken
    page.go_back()
    expect(page).to_have_url(re.compile(r"/games/(\?.*)?$"))
    page.go_forward()
    expect(page).to_have_url(re.compile(r"\?ply=1$"))
    expect(page.locator("#replay")).to_have_attribute("data-ply", "1")

    # Play on from the position after move 1, as O against the easy computer: a new game, O to move.
    page.locator("#play-on-level").select_option("easy")
    page.locator("#play-on button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator("#status")).to_contain_text("Your turn (O)")
    expect(page.locator(MARKS)).to_have_text(["X"])
    expect(page.locator("#board [data-move]")).to_have_count(8)


def test_on_a_phone_the_replay_keeps_the_step_shown_in_the_move_list(page: Page):
    from games.services import game_create, move_play
    from players.models import Player
    from tests.browser import PASSWORD, log_in

    player = Player.objects.create_user("pia", password=PASSWORD)
    game = game_create(player=player, variant="four", options={}, opponent="local", side="X")
    for move in (0, 4, 1, 5, 2, 6, 8, 9, 10, 12, 11, 13, 14, 15):  # 14 moves, O completes 12-13-14-15
        move_play(game=game, player=player, move=move)
    page.set_viewport_size({"width": 390, "height": 800})
    log_in(page, "pia")

    def row_in_view(ply: int) -> bool:
        return page.evaluate(
            """ply => {
                const row = document.querySelector(`#replay .move-list td[data-ply="${ply}"]`);
                const box = row.closest(".moves-scroll").getBoundingClientRect();
                const head = document.querySelector("#replay .move-list thead").getBoundingClientRect();
                const r = row.getBoundingClientRect();
                return r.top >= box.top + head.height - 1 && r.bottom <= box.bottom + 1;
            }""",
            ply,
        )

    page.goto(f"/games/{game.pk}/replay/?ply=1")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "1")
    expect(page.locator("#replay-keys")).to_be_hidden()  # no keyboard to speak of on a phone
    assert page.evaluate("document.querySelector('#replay .moves-scroll').scrollHeight > "
                         "document.querySelector('#replay .moves-scroll').clientHeight"), "the list must scroll"
    assert row_in_view(1)
    page.locator("#replay-last").click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", "14")
    assert row_in_view(14)
    page.locator("#replay-first").click()
    page.locator("#replay-forward").click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", "1")
    page.wait_for_function("() => !document.querySelector('.htmx-settling')")
    assert row_in_view(1)


def test_the_replay_speaks_each_step_and_keeps_the_keyboard_focus(page: Page):
    """For a screen reader: #replay-announce (outside the swapped part) says the step, its move, the analysis and
    the result; the control that took the step keeps the focus, even at either end where it does nothing."""
    from games.services import game_create, move_play
    from players.models import Player
    from tests.browser import PASSWORD, log_in

    player = Player.objects.create_user("sam", password=PASSWORD)
    game = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    for move in (0, 3, 1, 4, 2):  # X takes the top row
        move_play(game=game, player=player, move=move)
    log_in(page, "sam")
    page.goto(f"/games/{game.pk}/replay/")
    # A swapped-in part is live at once (no settle delay): an Enter on a link just swapped in is htmx's, not a
    # whole page load of its href. Counted: swaps still settling once the swap's own work is done.
    page.evaluate(
        "() => { window.__unsettled = 0; document.addEventListener('htmx:afterSwap', () => queueMicrotask(() => {"
        " if (document.querySelector('.htmx-settling')) window.__unsettled++; })); }"
    )
    announce = page.locator("#replay-announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(page.locator("#replay [aria-live]")).to_have_count(0)  # no live regions in the swapped part

    page.locator("#replay-back").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "4")
    expect(announce).to_have_text(re.compile(r"^Move 4 of 5: O on b2\. "))
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'replay-back'")
    page.keyboard.press("Enter")
    expect(announce).to_have_text(re.compile(r"^Move 3 of 5: X on b3\. "))

    page.locator("#replay-last").focus()
    page.keyboard.press("Enter")
    expect(announce).to_have_text(re.compile(r"^Move 5 of 5: X on c3\. .*X wins\.$"))
    expect(page.locator("#replay-last")).to_have_attribute("aria-disabled", "true")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'replay-last'")
    page.keyboard.press("Enter")  # at the end it does nothing, and keeps the focus
    expect(page.locator("#replay")).to_have_attribute("data-ply", "5")
    assert page.evaluate("document.activeElement.id") == "replay-last"

    link = page.get_by_role("link", name="Move 2, O on a2")
    link.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "2")
    expect(announce).to_have_text(re.compile(r"^Move 2 of 5: O on a2\. "))
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'step-2'")

    page.locator("#replay-first").focus()
    page.keyboard.press("Enter")
    expect(announce).to_have_text(re.compile(r"^Start position, 5 moves in all\. With best play"))
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'replay-first'")
    assert page.evaluate("window.__unsettled") == 0


def test_paging_my_games_with_the_keyboard_keeps_the_focus_in_the_list(page: Page):
    """Older on page 1 leads to the last page, which has no Older: the focus goes to the list, not the page's top."""
    from games.services import game_create
    from players.models import Player
    from tests.browser import PASSWORD, log_in

    player = Player.objects.create_user("pat", password=PASSWORD)
    for _ in range(25):
        game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    log_in(page, "pat")
    page.goto("/games/")
    # the page's push has connected and its first asks are answered: nothing else swaps while we page
    expect(page.locator("html[data-live=on]")).to_have_count(1)
    page.wait_for_load_state("networkidle")
    page.locator("#history-older").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"page=2$"))
    expect(page.locator("#history-older")).to_have_count(0)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'history'")
    page.keyboard.press("Tab")  # and on from there: into the list, not the footer
    assert page.evaluate("document.getElementById('history').contains(document.activeElement)")
