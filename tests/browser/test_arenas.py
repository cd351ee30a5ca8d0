"""Arena tournaments in real browsers, with a real task worker pairing them (its arena loop, every second):

- three players join an arena from its page, two are paired and their pages go to the game by themselves, they play,
  the standings move without a reload (on the page of its maker, who watches without playing), the next pairing
  takes the third player and one of the two straight on (not the same two again), and the one left waiting opens
  the standings from their game page;
- an arena ends on time: the page's countdown runs out, the worker finishes the game still running (a draw, counted)
  and the page shows the podium."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import Arena, ArenaPlayer, Game
from games.services import arena_create, arena_join, game_resign, move_play, pair_arena
from tests.browser import GAME_URL_RE, sign_up

pytestmark = pytest.mark.browser

#: pairing comes within about a second of the worker's arena loop; pages follow by push
LIVE = 15_000


def click_cell(page: Page, move: int, side: str) -> None:
    cell = page.locator(f'#board button[data-move="{move}"]:not([disabled])')
    expect(cell).to_be_visible(timeout=LIVE)
    cell.click()
    expect(page.locator(f'#board [data-cell="{move}"]')).to_have_attribute("data-mark", side, timeout=LIVE)


def game_of(page: Page) -> int:
    page.wait_for_url(GAME_URL_RE, timeout=LIVE)
    return int(GAME_URL_RE.search(page.url).group(1))


def test_three_players_join_are_paired_play_and_see_the_standings_move(new_context, task_worker):
    pages = {name: new_context().new_page() for name in ("ann", "ben", "cid")}
    for name, page in pages.items():
        sign_up(page, name)
    maker = new_context().new_page()
    sign_up(maker, "dan")
    creator = Game._meta.get_field("created_by").related_model.objects.get(username="dan")
    arena = arena_create(player=creator, variant="classic", clock="1+0", minutes=10, name="Test arena")
    maker.goto(f"/games/arenas/{arena.pk}/")
    for page in pages.values():
        page.goto(f"/games/arenas/{arena.pk}/")
        page.locator("#arena-join").click()
        expect(page.locator("#arena-withdraw")).to_be_visible()

    # Two of them are paired by the worker and their pages go to the game by themselves; the third waits.
    deadline = timezone.now() + timedelta(seconds=LIVE / 1000)
    while not Game.objects.filter(arena=arena).exists() and timezone.now() < deadline:
        pages["ann"].wait_for_timeout(200)
    game = Game.objects.select_related("x_player", "o_player").get(arena=arena)
    x, o = pages[game.x_player.username], pages[game.o_player.username]
    waiting_name = ({"ann", "ben", "cid"} - {game.x_player.username, game.o_player.username}).pop()
    waiting = pages[waiting_name]
    assert game_of(x) == game_of(o) == game.pk
    expect(x.locator("#arena-link")).to_contain_text("Test arena")
    expect(waiting.locator("#arena-waiting")).to_be_visible()
    expect(maker.locator("#standings tbody tr")).to_have_count(3)
    expect(maker.locator(f'#standings tr[data-player="{game.x_player.username}"] a')).to_have_text("playing")
    maker.evaluate("window.__marker = 1")

    # They play: X takes the top row.
    for move, page, side in ((0, x, "X"), (3, o, "O"), (1, x, "X"), (4, o, "O"), (2, x, "X")):
        click_cell(page, move, side)
    expect(x.locator("#status")).to_contain_text("X wins")

    # The standings move, live.
    winner_row = maker.locator(f'#standings tr[data-player="{game.x_player.username}"]')
    expect(winner_row).to_have_attribute("data-score", "2", timeout=LIVE)
    expect(maker.locator("#standings tbody tr").first).to_have_attribute("data-player", game.x_player.username)
    assert maker.evaluate("window.__marker") == 1  # without a reload

    # The next pairing: the waiting player with one of the two (not the same two again), both pages straight on.
    nxt = game_of(waiting)
    assert nxt != game.pk
    again = Game.objects.get(pk=nxt)
    partner = ({again.x_player.username, again.o_player.username} - {waiting_name}).pop()
    expect(pages[partner]).to_have_url(re.compile(rf"/games/{nxt}/$"), timeout=LIVE)
    left = ({game.x_player.username, game.o_player.username} - {partner}).pop()
    expect(pages[left].locator("#arena-next")).to_be_visible()
    assert ArenaPlayer.objects.get(arena=arena, player__username=left).current_game_id is None
    pages[left].locator("#arena-link").click()  # the one waiting looks at the standings
    expect(pages[left].locator("#standings tbody tr").first).to_have_attribute("data-score", "2")
    expect(pages[left].locator("#arena-waiting")).to_be_visible()


def test_an_arena_ends_on_time_and_shows_its_podium(new_context, task_worker, make_player):
    ann, ben, cid, dan = (make_player(name) for name in ("ann", "ben", "cid", "dan"))
    arena = arena_create(player=ann, variant="classic", clock="3+2", minutes=10, name="Short arena")
    for who in (ann, ben):
        arena_join(arena=arena, player=who)
    [first] = pair_arena(arena_id=arena.pk)
    game_resign(game=first, player=first.o_player)  # X wins: 2 points
    for who in (cid, dan):
        arena_join(arena=arena, player=who)
    ArenaPlayer.objects.filter(arena=arena, player__in=(ann, ben)).update(withdrawn=True)
    [running] = pair_arena(arena_id=arena.pk)
    move_play(game=running.pk, player=running.x_player, move=4)
    move_play(game=running.pk, player=running.o_player, move=0)

    page = new_context().new_page()
    sign_up(page, "eve")
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() + timedelta(seconds=4))
    page.goto(f"/games/arenas/{arena.pk}/")
    expect(page.locator("#arena-status")).to_contain_text("Running")
    expect(page.locator("#podium")).to_have_count(0)

    # The countdown runs out; the worker ends the arena, the game still running is a draw and counts.
    expect(page.locator("#arena-status")).to_contain_text("Finished", timeout=LIVE)
    podium = page.locator("#podium li")
    expect(podium).to_have_count(3)
    expect(podium.first).to_contain_text(first.x_player.username)
    expect(podium.first).to_contain_text("2 points")
    expect(podium.nth(1)).to_contain_text("1 points")
    running.refresh_from_db()
    assert (running.result, running.result_reason) == ("draw", "arena")
