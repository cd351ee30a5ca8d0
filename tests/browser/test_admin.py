"""The admin in a real browser: a staff member logs in and finds the players' games."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from playwright.sync_api import Page, expect

from players.models import Player
from tests.browser import create_game, log_in, play, sign_up

pytestmark = pytest.mark.browser


def make_staff(username: str) -> Player:
    """A staff member (not a superuser) allowed to look at players, games and moves."""
    staff = Player.objects.create_user(username, password="a-Str0ng-passphrase-42", is_staff=True)
    staff.user_permissions.set(
        Permission.objects.filter(content_type__app_label__in=["games", "players"], codename__startswith="view_")
    )
    return staff


def test_staff_logs_in_to_the_admin_and_finds_the_games(new_context):
    player_page: Page = new_context().new_page()
    sign_up(player_page, "dora")
    classic = create_game(player_page, "classic", "easy")
    play(player_page)
    ultimate = create_game(player_page, "ultimate", "easy")

    make_staff("sam")
    page: Page = new_context().new_page()
    log_in(page, "sam", path="/admin/login/")
    expect(page).to_have_url(re.compile(r"/admin/$"))

    page.locator('#content-main a[href$="/admin/games/game/"]').first.click()
    expect(page).to_have_url(re.compile(r"/admin/games/game/$"))
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator("#result_list")).to_contain_text("dora")
    for game_id in (classic, ultimate):
        expect(page.locator(f'#result_list a[href*="/admin/games/game/{game_id}/change/"]').first).to_be_visible()

    # Search by the player's name, then filter by variant.
    page.fill("#searchbar", "dora")
    page.locator("#changelist-search [type=submit]").click()
    expect(rows).to_have_count(2)
    page.locator('#changelist-filter a[href*="variant=ultimate"]').click()
    expect(rows).to_have_count(1)
    expect(page.locator(f'#result_list a[href*="/admin/games/game/{ultimate}/change/"]').first).to_be_visible()

    # The classic game opens with its two moves (the player's and the computer's answer), and a link to its replay.
    page.goto(f"/admin/games/game/{classic}/change/")
    expect(page.locator("#content")).to_contain_text("classic")
    moves = page.locator(".field-moves_played .readonly")
    expect(moves).to_have_text(re.compile(r"^1\. X [a-c][1-3] · 2\. O [a-c][1-3] Replay it on the site$"))
