"""Security: other people's games, HTML in usernames, the admin, CSRF.

Every way in is tried: the web pages (plain and htmx) and the JSON API (session and Bearer token).
A refusal must change nothing, and a private game must look exactly like a missing one.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game

# No "/" in it: a username is part of the profile's URL.
HTML_NAME = '<img src=x onerror="alert(1)"><b>'
ESCAPED = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;b&gt;"

# Every POST on a game that a stranger might try, web and API.
WEB_ACTIONS = [
    "move", "computer_move", "resign", "accept", "cancel", "rematch", "rematch_accept", "rematch_decline",
    "draw", "draw_accept", "draw_decline", "claim", "takeback", "hint", "again", "play_on",
]
API_ACTIONS = [
    "moves", "computer-move", "resign", "accept", "cancel", "rematch", "rematch/accept", "rematch/decline",
    "draw", "draw/accept", "draw/decline", "claim-win", "takeback", "hint", "again", "play-on",
]


@pytest.fixture
def eve(make_player):
    return make_player("eve")


@pytest.fixture
def eve_client(eve) -> Client:
    client = Client()
    client.force_login(eve)
    return client


@pytest.fixture
def eve_token(eve) -> str:
    from players.models import ApiToken

    return ApiToken.issue(player=eve, name="eve's script")[1]


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (
        game.status, game.ply, game.result, game.x_player_id, game.o_player_id, game.moves.count(), game.version,
        game.takebacks, game.hints, Game.objects.count(),
    )


def web_posts(client: Client, game: Game) -> list[tuple[str, int]]:
    answers = []
    for name in WEB_ACTIONS:
        url = reverse(f"games:{name}", args=[game.pk])
        data = {"move": "4", "ply": "0"}  # ply: play on from the start
        answers.append((url, client.post(url, data).status_code))
        answers.append((url + " (htmx)", client.post(url, data, HTTP_HX_REQUEST="true").status_code))
    return answers


def api_posts(client: Client, game: Game, **headers: str) -> list[tuple[str, int, dict]]:
    answers = []
    for action in API_ACTIONS:
        url = f"/api/games/{game.pk}/{action}"
        # the body each endpoint takes (a field it does not know would be refused before the game is looked up)
        body = {"moves": {"move": 4, "ply": 0}, "play-on": {"ply": 0}}.get(action, {})
        response = client.post(url, json.dumps(body), content_type="application/json", **headers)
        answers.append((url, response.status_code, response.json()))
    return answers


# Someone else's game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("opponent", ["easy", "local", "human"])
def test_a_private_game_is_invisible_to_others_on_every_page(make_game, other_player, eve_client, opponent):
    if opponent == "human":
        from games.services import challenge_accept

        game = make_game(opponent=opponent, invitee=other_player, private=True)
        challenge_accept(game=game, player=other_player)
    else:
        game = make_game(opponent=opponent, private=True)
    before = snapshot(game)
    for name in ("detail", "replay", "poll"):
        url = reverse(f"games:{name}", args=[game.pk])
        assert eve_client.get(url).status_code == 404, url
        assert eve_client.get(url, HTTP_HX_REQUEST="true").status_code == 404, url
    for url, status in web_posts(eve_client, game):
        assert status == 404, url  # not 403: a private game looks like a missing one
    history = eve_client.get(reverse("games:history")).content.decode()
    assert reverse("games:detail", args=[game.pk]) not in history
    assert snapshot(game) == before


def test_a_private_game_is_invisible_to_others_in_the_api(make_game, eve_client, eve_token):
    game = make_game(opponent="easy", private=True)
    before = snapshot(game)
    missing = Client().get("/api/games/999999", HTTP_AUTHORIZATION=f"Bearer {eve_token}").json()
    for client, headers in ((eve_client, {}), (Client(), {"HTTP_AUTHORIZATION": f"Bearer {eve_token}"})):
        response = client.get(f"/api/games/{game.pk}", **headers)
        assert response.status_code == 404
        assert response.json()["code"] == missing["code"]
        assert game.pk not in [g["id"] for g in client.get("/api/games", **headers).json()["items"]]
        lobby = json.dumps(client.get("/api/challenges", **headers).json())
        assert f'"id": {game.pk},' not in lobby
        for url, status, body in api_posts(client, game, **headers):
            assert status == 404, (url, body)
    assert snapshot(game) == before


def test_a_public_game_can_be_watched_but_not_touched(make_game, eve_client, eve_token):
    game = make_game(opponent="easy", private=False)
    before = snapshot(game)
    page = eve_client.get(reverse("games:detail", args=[game.pk]))
    assert page.status_code == 200
    assert b"data-move=" not in page.content  # a spectator has nothing to click
    for url, status in web_posts(eve_client, game):
        assert status in (403, 404, 409), url
    api = Client()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {eve_token}"}
    assert api.get(f"/api/games/{game.pk}", **headers).status_code == 200
    for url, status, body in api_posts(api, game, **headers):
        assert status in (403, 404, 409), (url, body)
        assert body["code"] not in ("server_error",)
    assert snapshot(game) == before


def test_anonymous_visitors_get_nothing(make_game):
    game = make_game(opponent="easy", private=False)
    before = snapshot(game)
    anonymous = Client()
    for name in ("detail", "replay", "poll"):
        response = anonymous.get(reverse(f"games:{name}", args=[game.pk]))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for url, status in web_posts(anonymous, game):
        # htmx requests are sent to the login page as a whole page (config.middleware): 200 + HX-Redirect.
        assert status == (200 if url.endswith("(htmx)") else 302), url
    for name in WEB_ACTIONS:
        response = anonymous.post(reverse(f"games:{name}", args=[game.pk]), {"move": "4"}, HTTP_HX_REQUEST="true")
        assert response["HX-Redirect"].startswith(reverse("login")) and response.content == b""
    assert anonymous.get(f"/api/games/{game.pk}").status_code == 401
    for url, status, _body in api_posts(anonymous, game):
        assert status == 401, url
    bad_token = {"HTTP_AUTHORIZATION": "Bearer ttt_not-a-real-token"}
    assert anonymous.get(f"/api/games/{game.pk}", **bad_token).status_code == 401
    assert snapshot(game) == before


def test_the_other_player_cannot_move_out_of_turn_or_for_the_opponent(make_game, player, other_player, other_client):
    """In a game between two people each may only play their own side, on their own turn."""
    from games.services import challenge_accept, game_create

    game = game_create(player=player, variant="classic", opponent="human", side="X", invitee=other_player)
    challenge_accept(game=game, player=other_player)
    before = snapshot(game)
    response = other_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409  # X (alice) is to move
    assert snapshot(game) == before


# HTML in usernames ---------------------------------------------------------------------------------------


@pytest.fixture
def villain(make_player, player):
    """A player whose username is HTML: the username validator forbids it, so it is forced into the database."""
    from players.models import Player

    villain = make_player("villain")
    Player.objects.filter(pk=villain.pk).update(username=HTML_NAME)
    villain.refresh_from_db()
    return villain


def assert_escaped(response) -> None:
    assert response.status_code == 200
    text = response.content.decode()
    assert HTML_NAME not in text
    assert "<img src=x" not in text
    assert ESCAPED in text, "the name should be shown, escaped"


def test_html_usernames_are_escaped_on_every_page(villain, player, player_client, staff_client):
    from games.services import challenge_accept, game_create, move_play

    game = game_create(player=villain, variant="classic", opponent="human", side="X", private=False)
    challenge_accept(game=game, player=player)
    move_play(game=game, player=villain, move=4)
    lobby_game = game_create(player=villain, variant="classic", opponent="human", side="X", private=False)

    assert_escaped(player_client.get(reverse("games:history")))
    assert_escaped(player_client.get(reverse("games:detail", args=[game.pk])))
    assert_escaped(player_client.get(reverse("games:detail", args=[game.pk]), HTTP_HX_REQUEST="true"))
    assert_escaped(player_client.get(reverse("games:replay", args=[game.pk])))
    assert_escaped(player_client.get(reverse("games:detail", args=[lobby_game.pk])))
    assert_escaped(player_client.get(reverse("profile", args=[villain.username])))
    assert_escaped(staff_client.get(reverse("admin:players_player_changelist")))
    assert_escaped(staff_client.get(reverse("admin:players_player_change", args=[villain.pk])))
    assert_escaped(staff_client.get(reverse("admin:games_game_changelist")))
    assert_escaped(staff_client.get(reverse("admin:games_game_change", args=[game.pk])))
    # The JSON API carries the name as data (JSON-escaped), never as markup.
    data = player_client.get(f"/api/games/{game.pk}").json()
    assert HTML_NAME in [seat["username"] for seat in data["seats"]]


def test_html_username_in_the_lobby(villain, player_client):
    from games.services import game_create

    game_create(player=villain, variant="classic", opponent="human", side="X", private=False)
    for url in (reverse("games:new"), reverse("games:history")):
        response = player_client.get(url)
        assert response.status_code == 200
        assert HTML_NAME not in response.content.decode()


# The admin --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/admin/", "/admin/players/player/", "/admin/games/game/", "/admin/games/game/add/", "/admin/auth/group/"]
)
def test_the_admin_refuses_players_who_are_not_staff(player_client, path):
    response = player_client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_the_admin_login_refuses_a_player_who_is_not_staff(player, password):
    client = Client()
    response = client.post("/admin/login/", {"username": player.username, "password": password})
    assert response.status_code == 200
    assert b"staff account" in response.content
    assert client.get("/admin/").status_code == 302


def test_staff_without_superuser_rights_see_only_what_they_may(make_player):
    clerk = make_player("clerk", is_staff=True)
    client = Client()
    client.force_login(clerk)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/players/player/").status_code == 403


def test_a_non_staff_player_cannot_change_anything_through_the_admin(player_client, other_player):
    response = player_client.post(
        f"/admin/players/player/{other_player.pk}/change/", {"username": "pwned", "is_staff": "on"}
    )
    assert response.status_code == 302
    other_player.refresh_from_db()
    assert other_player.username == "bob" and not other_player.is_staff


# CSRF ----------------------------------------------------------------------------------------------------------


@pytest.fixture
def csrf_client(player) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    return client


def test_posts_without_the_csrf_token_are_refused(csrf_client, make_game, player):
    game = make_game(opponent="easy")
    before = snapshot(game)
    games_before = Game.objects.count()
    new = {"variant": "classic", "opponent": "easy", "side": "X"}
    assert csrf_client.post(reverse("games:new"), new).status_code == 403
    for name in ("move", "computer_move", "resign"):
        url = reverse(f"games:{name}", args=[game.pk])
        assert csrf_client.post(url, {"move": "4"}).status_code == 403, url
        assert csrf_client.post(url, {"move": "4"}, HTTP_HX_REQUEST="true").status_code == 403, url
    assert csrf_client.post(reverse("token_create", args=[player.username]), {"name": "x"}).status_code == 403
    # The API with the browser's session needs the CSRF header too...
    response = csrf_client.post(f"/api/games/{game.pk}/moves", {"move": 4}, content_type="application/json")
    assert response.status_code == 403
    assert response.json()["code"] == "csrf_failed"
    assert snapshot(game) == before
    assert Game.objects.count() == games_before
    assert not player.api_tokens.exists()


def test_the_same_posts_work_with_the_csrf_token(csrf_client, make_game):
    game = make_game(opponent="easy")
    csrf_client.get(reverse("games:detail", args=[game.pk]))  # sets the csrftoken cookie
    token = csrf_client.cookies["csrftoken"].value
    response = csrf_client.post(
        reverse("games:move", args=[game.pk]), {"move": "4"}, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 200
    # The easy computer answered in the same response (it is quick): X is to move again.
    free = re.findall(r'data-move="(\d+)"', response.content.decode())
    assert len(free) == 7
    response = csrf_client.post(
        f"/api/games/{game.pk}/moves", {"move": int(free[0])}, content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200, response.content
    game.refresh_from_db()
    assert game.ply == 4


def test_login_and_signup_forms_need_the_csrf_token(player, password):
    client = Client(enforce_csrf_checks=True)
    assert client.post(reverse("login"), {"username": player.username, "password": password}).status_code == 403
    assert client.post(
        reverse("signup"), {"username": "x1", "password1": password, "password2": password}
    ).status_code == 403
    assert "_auth_user_id" not in client.session


def test_bearer_token_api_calls_need_no_csrf(make_game, player):
    from players.models import ApiToken

    game = make_game(opponent="easy")
    raw = ApiToken.issue(player=player, name="bot")[1]
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        f"/api/games/{game.pk}/moves", {"move": 4}, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {raw}"
    )
    assert response.status_code == 200
