"""Moves the game page refuses (bad values, wrong board or turn, someone else's or a finished game, a page left
behind, no CSRF token, the wrong method): a clear 4xx, and nothing stored."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.services import game_create, move_play
from tests.web.test_views import HTMX, new_game_data, vs_random

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("htmx", [True, False])
def test_a_move_from_a_page_left_behind_is_refused_with_the_game_as_it_stands(player_client, player, htmx):
    """Another tab moved meanwhile: against a quick computer it is X's turn again, but this move was chosen on
    the position before; it is refused, and the page gets the board as it is now."""
    game = vs_random(player)
    move_play(game=game, player=player, move=4, quick_reply=True)  # the other tab: X on 4, the computer replies
    response = player_client.post(
        reverse("games:move", args=[game.pk]), {"move": "0", "ply": "0"}, **(HTMX if htmx else {})
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert "The game has moved on since your move was made: it was for the position after 0 moves, and 2 have " \
        "been played now; nothing was stored" in html
    assert 'data-cell="4" data-mark="X"' in html and '<input type="hidden" name="ply" value="2">' in html
    if htmx:
        assert response["HX-Retarget"] == "#play" and response["HX-Reswap"] == "outerHTML"
    assert Move.objects.filter(game=game).count() == 2
    free = next(cell for cell in range(9) if not Move.objects.filter(game=game, move=cell).exists())
    again = player_client.post(reverse("games:move", args=[game.pk]), {"move": str(free), "ply": "2"}, **HTMX)
    assert again.status_code == 200  # made on the position shown now


@pytest.mark.parametrize("ply", ["", "x", "-1", "٣", "1.0"])
def test_a_move_with_a_bad_ply_is_400(player_client, player, ply):
    game = vs_random(player)
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0", "ply": ply}, **HTMX)
    assert response.status_code == 400
    assert "The ply (moves played so far) must be a whole number" in response.content.decode()
    assert not Move.objects.filter(game=game).exists()


def assert_unchanged(game, ply):
    game.refresh_from_db()
    assert game.ply == ply and Move.objects.filter(game=game).count() == ply


@pytest.mark.parametrize(
    "value,status,message",
    [
        ("abc", 400, "cell number"),
        ("", 400, "no move"),
        ("4.5", 400, "cell number"),
        ("-1", 400, "out of range"),
        ("9", 400, "out of range"),
        ("99999", 400, "out of range"),
        ("9999999999", 400, "out of range"),  # a number, however long, is judged by the engine
        ("٣", 400, "cell number"),  # an Arabic-Indic 3: int() reads it, the API does not, nor do we
        ("0", 400, "already taken"),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_bad_moves_are_refused(player_client, make_game, player, value, status, message, htmx):
    game = make_game()
    move_play(game=game, player=player, move=0)
    extra = HTMX if htmx else {}
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": value}, **extra)
    assert response.status_code == status
    assert message in response.content.decode().lower()
    if htmx:
        assert response["HX-Retarget"] == "#game-error"
        assert response["HX-Reswap"] == "innerHTML"
    else:
        assert 'id="board"' in response.content.decode()
    assert_unchanged(game, 1)


def test_wrong_board_is_refused(player_client, make_game, player):
    game = make_game(variant="ultimate")
    move_play(game=game, player=player, move=9 * 4 + 2)
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0"}, **HTMX)
    assert response.status_code == 400 and "board 2" in response.content.decode()
    assert_unchanged(game, 1)


def test_not_your_turn_is_refused(player_client, player):
    game = vs_random(player, side="O")
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "0"}, **HTMX)
    assert response.status_code == 409 and "not your turn" in response.content.decode().lower()
    assert_unchanged(game, 0)


@pytest.mark.parametrize("private, status", [(True, 404), (False, 403)])
def test_not_your_game_is_refused(other_client, make_game, private, status):
    # private: it does not exist for others; public: they may watch it, not play it
    game = make_game(private=private)
    for name in ("games:move", "games:resign", "games:computer_move"):
        response = other_client.post(reverse(name, args=[game.pk]), {"move": "0"}, **HTMX)
        assert response.status_code == status
    assert_unchanged(game, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_finished_game_is_refused(player_client, make_game, player):
    game = make_game()
    for move in (0, 3, 1, 4, 2):
        move_play(game=game, player=player, move=move)
    response = player_client.post(reverse("games:move", args=[game.pk]), {"move": "8"}, **HTMX)
    assert response.status_code == 409 and "over" in response.content.decode()
    response = player_client.post(reverse("games:resign", args=[game.pk]), **HTMX)
    assert response.status_code == 409
    response = player_client.post(reverse("games:computer_move", args=[game.pk]), **HTMX)
    assert response.status_code == 409
    assert_unchanged(game, 5)


def test_missing_csrf_is_refused(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    game = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    for name, data in (("games:move", {"move": "4"}), ("games:resign", {}), ("games:computer_move", {})):
        response = client.post(reverse(name, args=[game.pk]), data, **HTMX)
        assert response.status_code == 403
    response = client.post(reverse("games:new"), new_game_data())
    assert response.status_code == 403
    assert Game.objects.count() == 1
    assert_unchanged(game, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_csrf_token_in_header_is_accepted(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    game = game_create(player=player, variant="classic", options={}, opponent="local", side="X")
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert response.status_code == 200
    assert_unchanged(game, 1)
    # The answer's forms go by that header too: no token of their own (the full page keeps them), and the
    # page's token still works for the next move.
    assert "csrfmiddlewaretoken" not in response.content.decode() and 'hx-post="' in response.content.decode()
    assert "csrfmiddlewaretoken" in page
    response = client.post(reverse("games:move", args=[game.pk]), {"move": "0"}, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert response.status_code == 200 and "csrfmiddlewaretoken" not in response.content.decode()
    assert Game.objects.get(pk=game.pk).ply == 2
    # Without JavaScript (no htmx) each page still carries the token in its forms.
    response = client.post(reverse("games:move", args=[game.pk]), {"move": "8", "csrfmiddlewaretoken": token},
                           follow=True)
    assert response.status_code == 200 and "csrfmiddlewaretoken" in response.content.decode()
    assert Game.objects.get(pk=game.pk).ply == 3


def test_get_on_post_endpoints_is_refused(player_client, make_game):
    game = make_game()
    for name in ("games:move", "games:resign", "games:computer_move"):
        assert player_client.get(reverse(name, args=[game.pk])).status_code == 405
