"""Admin: games with their moves inline and read-only; players with search, filters and deactivation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services import move_play
from players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game(make_game, player):
    game = make_game()
    for move in (0, 3, 1, 4, 2):
        move_play(game=game, player=player, move=move)
    return game


def test_game_changelist_and_change_page(staff_client, finished_game):
    response = staff_client.get(reverse("admin:games_game_changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "alice" in html and "classic" in html
    for param in ("variant=classic", "status__exact=finished", "result__exact=X"):
        assert param in html
    response = staff_client.get(reverse("admin:games_game_change", args=[finished_game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "moves-0-id" not in html or 'name="moves-0-move"' not in html  # moves are read-only
    assert html.count('class="field-move"') >= 5
    assert 'name="draw_offered_by"' in html  # the draw offer, as a raw id (no list of every player)


def test_game_changelist_filters_and_search(staff_client, finished_game, make_game, other_player):
    make_game(player=other_player, variant="nxn", options={"size": 4})
    url = reverse("admin:games_game_changelist")
    assert "1 game" in staff_client.get(url, {"variant": "nxn"}).content.decode()
    assert "1 game" in staff_client.get(url, {"status__exact": "finished"}).content.decode()
    assert "1 game" in staff_client.get(url, {"result__exact": "X"}).content.decode()
    assert "1 game" in staff_client.get(url, {"result_reason__exact": "line"}).content.decode()
    assert "0 games" in staff_client.get(url, {"result_reason__exact": "agreed"}).content.decode()
    html = staff_client.get(url, {"q": "bob"}).content.decode()
    assert "1 game" in html and "bob" in html


def test_move_inline_is_read_only(staff_client, finished_game):
    url = reverse("admin:games_game_change", args=[finished_game.pk])
    html = staff_client.get(url).content.decode()
    assert 'name="moves-0-move"' not in html
    assert 'name="moves-TOTAL_FORMS"' in html


def test_player_changelist_search_filter_and_change(staff_client, player, other_player):
    url = reverse("admin:players_player_changelist")
    response = staff_client.get(url, {"q": "bob"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "bob" in html and ">alice<" not in html
    assert "is_active__exact=0" in staff_client.get(url).content.decode()
    response = staff_client.get(reverse("admin:players_player_change", args=[player.pk]))
    assert response.status_code == 200


def test_deactivate_action(staff_client, staff, player, other_player):
    url = reverse("admin:players_player_changelist")
    response = staff_client.post(
        url, {"action": "deactivate", "_selected_action": [player.pk, other_player.pk, staff.pk]}, follow=True
    )
    assert response.status_code == 200
    assert "Deactivated 2 player(s)." in response.content.decode()
    assert not Player.objects.get(pk=player.pk).is_active
    assert not Player.objects.get(pk=other_player.pk).is_active
    assert Player.objects.get(pk=staff.pk).is_active  # never lock yourself out


@pytest.mark.parametrize(
    "name,args",
    [("admin:games_game_changelist", []), ("admin:players_player_changelist", [])],
)
def test_non_staff_is_refused(player_client, name, args):
    response = player_client.get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_non_staff_cannot_open_change_pages(player_client, finished_game, player):
    for url in (
        reverse("admin:games_game_change", args=[finished_game.pk]),
        reverse("admin:players_player_change", args=[player.pk]),
    ):
        assert player_client.get(url).status_code == 302
