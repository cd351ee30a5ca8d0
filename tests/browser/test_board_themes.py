"""Board colours (issue 30): each theme of the Preferences, in light and dark, passes axe on the pages that draw a
board (a finished classic game with its winning line, 15 x 15, Ultimate with a won board, the replay with its
graph, the analysis board) and on the pages around them. The theme is the player's, saved from the profile."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services import game_create, move_play
from players.models import Player
from tests.browser import PASSWORD, log_in
from tests.browser.test_accessibility import Audit

pytestmark = pytest.mark.browser

THEMES = [value for value, _label in Player.BoardTheme.choices]

#: Ultimate: O wins board 1 (a9 b8 c7), then X is sent back to it with cells still free
ULTIMATE_WON = [41, 47, 24, 54, 1, 17, 73, 14, 45, 4, 36, 0, 6, 61, 64, 10, 9, 8, 79, 63]


def test_there_are_at_least_three_board_themes():
    assert len(THEMES) >= 3 and THEMES[0] == "standard"


def test_the_theme_is_chosen_on_the_profile_and_colours_the_boards(new_context):
    Player.objects.create_user("ada", password=PASSWORD)
    page = new_context().new_page()
    log_in(page, "ada")
    page.goto("/players/ada/")
    page.locator('#board-themes input[value="wood"]').check()
    page.locator("#preferences-save").click()
    expect(page.locator("body")).to_have_attribute("data-board-theme", "wood")
    assert Player.objects.get(username="ada").board_theme == "wood"
    game = game_create(player=Player.objects.get(username="ada"), variant="classic", options={}, opponent="local",
                       side="X")
    page.goto(f"/games/{game.pk}/")
    lines = page.locator("#board").evaluate("e => getComputedStyle(e).backgroundColor")  # between the cells
    assert lines == "rgb(180, 138, 88)"  # the wood's
    page.evaluate("document.body.dataset.boardTheme = 'standard'")
    assert lines != page.locator("#board").evaluate("e => getComputedStyle(e).backgroundColor")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("theme", THEMES)
def test_every_board_page_passes_axe_in_every_theme(new_context, scheme, theme, expected_http_errors):
    expected_http_errors.add((429, "GET", "/games/live/"))  # pages opened in a row: the last ones poll instead
    ada = Player.objects.create_user("ada", password=PASSWORD, board_theme=theme)
    classic = game_create(player=ada, variant="classic", options={}, opponent="local", side="X")
    for move in (0, 3, 1, 4, 2):  # X wins along the top row: the winning line
        move_play(game=classic, player=ada, move=move)
    gomoku = game_create(player=ada, variant="mnk", options={"rows": 15, "cols": 15, "k": 5}, opponent="local",
                         side="X")
    for move in (112, 113, 96):
        move_play(game=gomoku, player=ada, move=move)
    ultimate = game_create(player=ada, variant="ultimate", options={}, opponent="local", side="X")
    for move in ULTIMATE_WON:
        move_play(game=ultimate, player=ada, move=move)
    page = new_context(color_scheme=scheme, viewport={"width": 1280, "height": 800}).new_page()
    log_in(page, "ada")
    audit = Audit()
    for path in (f"/games/{classic.pk}/", f"/games/{gomoku.pk}/", f"/games/{ultimate.pk}/",
                 f"/games/{classic.pk}/replay/?ply=3", f"/games/{ultimate.pk}/replay/", "/analysis/?variant=nxn-5",
                 "/", "/players/ada/"):
        page.goto(path)
        expect(page.locator("body")).to_have_attribute("data-board-theme", theme)
        audit(page, f"{theme} {scheme} {path}")
    assert not audit.problems, f"{len(audit.problems)} accessibility problems:\n" + "\n".join(audit.problems)
