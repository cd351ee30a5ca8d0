"""The arena pages: the lists and the form, an arena's page and its live part, join and withdraw, the ping that
takes a paired player to their game, Berserk and the next pairing on the game page, the push's ``?arena=``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Arena
from games.services import arena_create, arena_join, game_resign, pair_arena
from games.web.views.live import notices
from tests.web.test_no_inline_script import assert_no_inline_script

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def arena(player):
    return arena_create(player=player, variant="classic", clock="1+0", minutes=10, name="Friday blitz")


def test_the_list_and_the_form_make_an_arena(player_client):
    page = player_client.get(reverse("games:arenas"))
    assert page.status_code == 200 and 'id="arena-form"' in page.content.decode()
    assert_no_inline_script(page.content.decode(), "arenas")
    response = player_client.post(reverse("games:arena_create"), {
        "variant": "nxn", "size": "5", "clock": "3+2", "minutes": "20", "starts_in": "300", "rated": "casual",
        "berserk": "on", "name": "", "password": "",
    })
    arena = Arena.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:arena", args=[arena.pk])
    assert (arena.variant, arena.options, arena.clock) == ("nxn", {"size": 5}, "3+2")
    assert (arena.minutes, arena.rated) == (20, False)
    assert arena.starts_at > timezone.now() + timedelta(minutes=4)
    listed = player_client.get(reverse("games:arenas")).content.decode()
    assert f'data-arena="{arena.pk}"' in listed and "5 x 5" in listed


def test_a_bad_form_shows_why(player_client):
    response = player_client.post(reverse("games:arena_create"), {
        "variant": "classic", "clock": "3+2", "minutes": "500", "starts_in": "0", "rated": "rated"})
    assert response.status_code == 400 and "120" in response.content.decode()
    assert not Arena.objects.exists()


def test_join_withdraw_and_the_page(player_client, arena):
    url = reverse("games:arena", args=[arena.pk])
    html = player_client.get(url).content.decode()
    assert_no_inline_script(html, "arena")
    assert 'id="arena-join"' in html and "Friday blitz" in html and 'data-live-url="/games/live/?arena=' in html
    assert player_client.post(reverse("games:arena_join", args=[arena.pk])).status_code == 302
    html = player_client.get(url).content.decode()
    assert 'id="arena-withdraw"' in html and 'id="arena-ping"' in html and 'data-player="alice"' in html
    player_client.post(reverse("games:arena_withdraw", args=[arena.pk]))
    assert "Join again" in player_client.get(url).content.decode()


def test_a_protected_arena_asks_for_its_password(other_client, player):
    arena = arena_create(player=player, variant="classic", clock="1+0", minutes=10, password="sesame")
    refused = other_client.post(reverse("games:arena_join", args=[arena.pk]), {"password": "nope"})
    assert refused.status_code == 403 and "wrong password" in refused.content.decode().lower()
    assert other_client.post(reverse("games:arena_join", args=[arena.pk]), {"password": "sesame"}).status_code == 302


def test_the_ping_takes_a_paired_player_to_their_game_then_to_the_next(player_client, player, other_player, arena):
    ping = reverse("games:arena_ping", args=[arena.pk])
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    assert player_client.get(ping, **HTMX).status_code == 204
    [game] = pair_arena(arena_id=arena.pk)
    assert player_client.get(ping, **HTMX)["HX-Redirect"] == reverse("games:detail", args=[game.pk])
    assert player_client.get(f"{ping}?game={game.pk}", **HTMX).status_code == 204  # the page shows it already
    page = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="arena-link"' in page and "Friday blitz" in page and 'id="berserk"' in page
    game_resign(game=game, player=player)
    page = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="arena-next"' in page and 'id="rematch-offer-button"' not in page
    [nxt] = pair_arena(arena_id=arena.pk)
    answer = player_client.get(f"{ping}?game={game.pk}", **HTMX)
    assert answer["HX-Redirect"] == reverse("games:detail", args=[nxt.pk])


def test_the_ping_stops_once_there_is_nothing_to_wait_for(player_client, player, arena):
    ping = reverse("games:arena_ping", args=[arena.pk])
    assert player_client.get(ping, **HTMX).status_code == 286  # not in it
    arena_join(arena=arena, player=player)
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert player_client.get(ping, **HTMX).status_code == 286


def test_the_live_part_and_the_podium(player_client, player, other_player, arena):
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    [game] = pair_arena(arena_id=arena.pk)
    game_resign(game=game, player=game.x_player)
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    live = player_client.get(reverse("games:arena_live", args=[arena.pk]), **HTMX).content.decode()
    assert 'id="podium"' in live and 'data-rank="1"' in live and game.o_player.username in live
    assert "Finished" in live


def test_missing_arenas_are_404(player_client):
    for name in ("games:arena", "games:arena_live", "games:arena_ping"):
        assert player_client.get(reverse(name, args=[987654])).status_code == 404
    assert player_client.post(reverse("games:arena_join", args=[987654])).status_code == 404


def test_the_push_names_the_arena(player_client, arena):
    assert notices({f"arena:{arena.pk}"}, "e/1") == f"id: e/1\nevent: arena\ndata: {arena.pk}\n\n"
    assert player_client.get("/games/live/?arena=x").status_code == 400
    assert player_client.get("/games/live/?arena=999999").status_code == 404


def test_the_arena_page_goes_to_a_game_paired_as_it_loaded_not_to_one_being_played(player_client, player,
                                                                                 other_player, arena):
    for who in (player, other_player):
        arena_join(arena=arena, player=who)
    [game] = pair_arena(arena_id=arena.pk)
    url = reverse("games:arena", args=[arena.pk])
    ping = reverse("games:arena_ping", args=[arena.pk])
    html = player_client.get(url).content.decode()
    assert f'hx-get="{ping}"' in html and 'id="your-game"' in html  # no move yet: the first ping goes there
    from games.services import move_play

    move_play(game=game, player=game.x_player, move=4)
    html = player_client.get(url).content.decode()
    assert f'hx-get="{ping}?game={game.pk}"' in html  # being played: the page stays, one click away
