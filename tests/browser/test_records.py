"""Game records in a real browser (issue 23): a finished game's record downloaded from its page, imported again
as a file, and a position of its replay opened on the analysis board, where moves are played and stepped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine import read_record
from games.models import Game
from tests.browser import create_game, play_to_end, sign_up

pytestmark = pytest.mark.browser


def test_download_import_and_the_analysis_board(page: Page):
    sign_up(page, "rita")
    game_id = create_game(page, "classic", "hard")
    play_to_end(page, max_moves=5)

    # Download from the game page: the game as a record
    with page.expect_download() as download:
        page.locator("#record-download").click()
    assert download.value.suggested_filename == f"game-{game_id}.txt"
    path = Path(download.value.path())
    record = read_record(path.read_text(encoding="utf-8"))
    game = Game.objects.get(pk=game_id)
    assert len(record.moves) == game.ply and record.tags["X"] == "rita"

    # Import it again, as a file: it opens in the replay, its players named as the record names them
    page.goto("/games/")
    page.locator("#records-import").click()
    expect(page).to_have_url(re.compile(r"/games/import/$"))
    page.locator("#record-file").set_input_files(str(path))
    page.locator("#import-submit").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/replay/$"))
    imported = Game.objects.get(imported=True)
    assert imported.move_list == game.move_list and imported.result == game.result
    expect(page.locator(".players")).to_contain_text("rita")
    expect(page.locator(".players")).to_contain_text("Computer (hard)")

    # The replay's first step, on the analysis board
    page.locator("#replay-first").click()
    expect(page.locator("#position-string")).to_have_text("classic_3.3.3_x")
    page.locator("#replay-forward").click()
    expect(page.locator("#replay")).to_have_attribute("data-ply", "1")
    shown = page.locator("#position-string").inner_text()
    assert shown != "classic_3.3.3_x"
    page.locator("#analysis-link").click()
    expect(page).to_have_url(re.compile(r"/analysis/\?variant=classic&position="))
    expect(page.locator("#position-string")).to_have_text(shown)

    # A move on the board, in place (htmx): the line goes into the address; Back steps to the start again
    cell = page.locator("#board button[data-move]").first
    name = cell.get_attribute("data-name")
    cell.click()
    expect(page).to_have_url(re.compile(rf"moves={name}"))
    expect(page.locator("#line-1")).to_contain_text(name)
    expect(page.locator("#position-string")).not_to_have_text(shown)
    page.locator("#analysis-back").click()
    expect(page.locator("#position-string")).to_have_text(shown)

    # The computer's best move (classic: at once) and the outcome with best play
    page.locator("#best-button").click()
    expect(page.locator("#best-move")).to_contain_text("Best move for O")
    expect(page.locator("#best-move")).to_contain_text("With best play")
    # ... and ringed on the board
    best = page.locator("#best-move").get_attribute("data-move")
    expect(page.locator("#board .best")).to_have_attribute("data-cell", best)
    # the board picker: an empty board of another kind
    page.locator('#analysis-boards a[data-board="mnk-15-15-5"]').click()
    expect(page.locator("#analysis-variant")).to_have_text("15 x 15, 5 in a row")
    expect(page.locator('#analysis-boards a[aria-current="page"]')).to_have_text("Gomoku 15 x 15")
    expect(page.locator("#board button[data-move]")).to_have_count(225)


PASTED = '[Variant "classic"]\n[X "ann"]\n[O "bea"]\n[Result "1-0"]\n\n1. b2 a3 2. b1 c3 3. b3 1-0\n'


def test_a_pasted_record_imports_in_chromium(page: Page, expected_http_errors):
    """Chromium sends the text area and the empty file input under the same name: the pasted text counts, and a
    bad one comes back in the text area with what was wrong."""
    expected_http_errors.add((400, "POST", "/games/import/"))
    sign_up(page, "rita")
    page.goto("/games/import/")
    page.locator("#record-text").fill(PASTED.replace("b1 c3", "b1 b1"))
    page.locator("#import-submit").click()
    expect(page.locator("#import-error")).to_contain_text("b1 is already taken")
    expect(page.locator("#record-text")).to_have_value(PASTED.replace("b1 c3", "b1 b1"))
    page.locator("#record-text").fill(PASTED)
    page.locator("#import-submit").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/replay/$"))
    expect(page.locator(".players")).to_contain_text("ann")
    assert Game.objects.get(imported=True).x_name == "ann"
