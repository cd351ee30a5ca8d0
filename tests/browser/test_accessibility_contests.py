"""Accessibility of the arena and puzzle pages (axe-core, as tests/browser/test_accessibility.py checks every other
kind of page): the arenas' list and form, an arena running (joined, standings) and finished (podium), the puzzles'
page, a puzzle before and after a wrong move; in light colours on a desktop and dark ones on a phone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Arena
from games.services import arena_create, arena_join, game_resign, pair_arena
from tests.browser import sign_up
from tests.browser.test_accessibility import Audit
from tests.browser.test_puzzles import two_puzzles

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("scheme", "screen"), [("light", "desktop"), ("dark", "phone")])
def test_arena_and_puzzle_pages_pass_axe(new_context, make_player, scheme, screen):
    from tests.browser.test_accessibility import SCREENS

    two_puzzles(make_player)
    bob = make_player("bob2")
    running = arena_create(player=bob, variant="classic", clock="3+2", minutes=10, name="Open arena")
    finished = arena_create(player=bob, variant="four", clock="1+0", minutes=10, name="Done arena")
    carl = make_player("carl")
    for who in (bob, carl):
        arena_join(arena=finished, player=who)
    [game] = pair_arena(arena_id=finished.pk)
    game_resign(game=game, player=game.x_player)
    Arena.objects.filter(pk=finished.pk).update(ends_at=timezone.now() - timedelta(seconds=1))

    audit = Audit()
    page = new_context(color_scheme=scheme, viewport=SCREENS[screen], has_touch=screen == "phone").new_page()
    sign_up(page, "ada")
    page.goto("/games/arenas/")
    audit(page, "arenas")
    page.goto(f"/games/arenas/{running.pk}/")
    audit(page, "arena, not joined")
    page.locator("#arena-join").click()
    expect(page.locator("#arena-withdraw")).to_be_visible()
    audit(page, "arena, joined")
    page.goto(f"/games/arenas/{finished.pk}/")
    expect(page.locator("#podium")).to_be_visible()
    audit(page, "arena, finished")
    page.goto("/puzzles/")
    audit(page, "puzzles")
    page.locator("#puzzle-next-classic").click()
    expect(page.locator("#status")).to_contain_text("to play and win")
    audit(page, "puzzle")
    page.locator('#board button[data-move="0"]').click()
    expect(page.locator("#solution")).to_be_visible()
    audit(page, "puzzle, failed")
    assert not audit.problems, f"{len(audit.problems)} accessibility problems:\n" + "\n".join(audit.problems)
