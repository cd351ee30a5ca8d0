"""Issue 33 in the browser: a person challenges a bot (the reference bot, running against the live server) from its
profile and plays it to the end; a Swap2 game through every branch of its opening on one screen."""

from __future__ import annotations

import re
import threading
import time

import pytest
from playwright.sync_api import Page, expect

from games.bot.client import Api
from games.bot.runner import Bot
from games.engine import get_strategy
from games.models import Game
from games.services import bot_upgrade
from players.models import ApiToken, Player
from push.hub import hub
from tests.browser import FINAL_RESULT_RE, GAME_URL_RE, PASSWORD, create_game, sign_up

pytestmark = pytest.mark.browser

#: the bot accepts at once and moves the moment a move is pushed to it; the page hears its moves by push
LIVE_TIMEOUT = 10_000


@pytest.fixture
def reference_bot(live_server, settings):
    """The reference bot on an account of its own (``robot``), playing random moves, for one test."""
    settings.BOT_STREAM_KEEPALIVE = 0.2  # a stopped bot's streams end at once
    player = bot_upgrade(player=Player.objects.create_user(username="robot", password=PASSWORD))
    _token, raw = ApiToken.issue(player=player, name="engine")
    bot = Bot(Api(live_server.url, raw), lambda: get_strategy("random", seed=11))
    threading.Thread(target=bot.run, daemon=True, name="reference-bot").start()
    yield bot
    bot.stop()
    end = time.monotonic() + 30
    while hub.listeners and time.monotonic() < end:  # its streams end at their next line
        time.sleep(0.05)


MARKS_MORE_THAN = "n => document.querySelectorAll('#board [data-mark=X], #board [data-mark=O]').length > n"


def test_a_person_challenges_a_bot_from_its_profile_and_plays_it_to_the_end(page: Page, reference_bot):
    sign_up(page, "alice")
    page.goto("/players/robot/")
    expect(page.locator("h1")).to_contain_text("BOT")
    page.locator("#challenge-player").click()  # the new-game page, the bot named: choose the game and the clock
    page.wait_for_url(re.compile(r"/games/new/\?invite=robot$"))
    form = page.locator('form:has([name="variant"])')
    form.locator('[name="variant"]').select_option("classic")
    form.locator('[name="side"][value="X"]').check()
    form.locator('[name="clock"]').select_option("5+3")
    form.locator('button[type="submit"]').first.click()
    page.wait_for_url(GAME_URL_RE)
    game_id = int(GAME_URL_RE.search(page.url).group(1))
    # the bot accepts by itself: the page hears it, and shows whom alice plays
    expect(page.locator("#players")).to_contain_text("BOT robot", timeout=LIVE_TIMEOUT)
    while True:
        status = page.locator("#status")
        expect(status).to_have_text(re.compile(r"Your turn|X wins|O wins|Draw"), timeout=LIVE_TIMEOUT)
        if FINAL_RESULT_RE.search(status.inner_text()):
            break
        marks = page.locator("#board [data-mark=X], #board [data-mark=O]").count()
        page.locator("#board button[data-move]").first.click()
        # my move is drawn; the bot's reply arrives by push (or the game ends)
        page.wait_for_function(MARKS_MORE_THAN, arg=marks)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished" and game.o_player.username == "robot" and game.clock == "5+3"
    assert game.result_reason in ("line", "full")


def cell(page: Page, name: str):
    return page.locator(f'#board button[data-name="{name}"]')


def place(page: Page, *names: str) -> None:
    for name in names:
        before = page.locator("#moves tbody tr").count()
        cell(page, name).click()
        expect(page.locator("#moves tbody tr")).to_have_count(before + 1)


def choose(page: Page, choice: str) -> None:
    before = page.locator("#moves tbody tr").count()
    page.locator(f'#swap2-choices [data-choice="{choice}"]').click()
    expect(page.locator("#moves tbody tr")).to_have_count(before + 1)


@pytest.mark.parametrize("branch", [["stay"], ["swap"], ["more", "g7", "f8", "stay"], ["more", "g7", "f8", "swap"]])
def test_a_swap2_game_through_each_branch_of_its_opening(page: Page, branch):
    sign_up(page, "alice")
    game_id = create_game(page, "mnk", "local", rows=15, cols=15, k=5, opening="swap2")
    expect(page.locator("#swap2-note")).to_contain_text("places three stones")
    place(page, "h8", "h9", "j7")
    expect(page.locator("#swap2-note")).to_contain_text("O (alice) chooses")
    expect(page.locator("#board button[data-move]")).to_have_count(0)  # no stone now: a choice
    expect(page.locator("#swap2-choices button[data-move]")).to_have_count(3)
    for step in branch:
        if step in ("stay", "swap", "more"):
            choose(page, step)
        else:
            place(page, step)
    if branch[0] == "more":
        expect(page.locator("#moves")).to_contain_text("more")
    h8 = page.locator('#board [data-cell="112"]')
    swapped = branch[-1] == "swap"
    expect(h8).to_have_attribute("data-mark", "O" if swapped else "X")  # the X stones' holder
    expect(page.locator("#swap2-choices")).to_have_count(0)
    # the game goes on as gomoku: the O stones' holder places the next stone
    expect(page.locator("#status")).to_contain_text("O" if not swapped else "X")
    place(page, "a1")
    rows = page.locator("#moves tbody tr")
    expect(rows.nth(3)).to_contain_text(branch[0])
    game = Game.objects.get(pk=game_id)
    assert game.options["opening"] == "swap2" and game.ply == 3 + len(branch) + 1
