"""Accounts: sign-up, log in/out, password change, profile pages."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from players.models import Player

pytestmark = pytest.mark.django_db

PASSWORD = "a-Str0ng-passphrase"


def test_signup_creates_player_and_logs_in(client):
    response = client.post(
        reverse("signup"), {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("games:new")
    player = Player.objects.get(username="alice")
    assert player.check_password(PASSWORD)
    assert client.session["_auth_user_id"] == str(player.pk)
    assert client.get(reverse("games:new")).status_code == 200  # the session's backend is a configured one


def test_signup_follows_safe_next_only(client):
    response = client.post(
        reverse("signup"),
        {"username": "bob", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert response["Location"] == reverse("games:new")
    client.logout()
    response = client.post(
        reverse("signup"),
        {"username": "carol", "password1": PASSWORD, "password2": PASSWORD, "next": "/games/"},
    )
    assert response["Location"] == "/games/"


def focused(html: str) -> str:
    """The one field that takes the focus as the page opens."""
    fields = re.findall(r'<input [^>]*\bautofocus\b[^>]*>', html)
    assert len(fields) == 1, fields
    return re.search(r'name="([^"]+)"', fields[0]).group(1)


@pytest.mark.parametrize(
    ("data", "message", "focus"),
    [
        ({"username": "dave", "password1": PASSWORD, "password2": PASSWORD + "x"}, "didn", "password2"),
        ({"username": "dave", "password1": "123", "password2": "123"}, "too short", "password2"),
        ({"username": "", "password1": PASSWORD, "password2": PASSWORD}, "required", "username"),
        ({"username": "bad name!", "password1": PASSWORD, "password2": PASSWORD}, "valid username", "username"),
    ],
)
def test_signup_rejects_bad_input_with_message(client, data, message, focus):
    response = client.post(reverse("signup"), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert focused(response.content.decode()) == focus  # the field to fix, not always the username
    assert not Player.objects.filter(username="dave").exists()


def test_signup_rejects_taken_username(client, django_user_model):
    django_user_model.objects.create_user("erin", password=PASSWORD)
    response = client.post(reverse("signup"), {"username": "erin", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 400
    assert "already exists" in response.content.decode()
    assert Player.objects.filter(username="erin").count() == 1


def test_login_and_logout(client, django_user_model):
    django_user_model.objects.create_user("frank", password=PASSWORD)
    page = client.get(reverse("login"))
    assert page.status_code == 200 and b'name="username"' in page.content
    response = client.post(reverse("login"), {"username": "frank", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    bad = client.post(reverse("login"), {"username": "frank", "password": "wrong"})
    assert bad.status_code == 400 and b"correct username and password" in bad.content
    assert focused(bad.content.decode()) == "username"  # an error of no one field: the form's own first field
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_password_change(client, django_user_model):
    player = django_user_model.objects.create_user("gina", password=PASSWORD)
    client.force_login(player)
    new = "an0ther-Passphrase"
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(new)


@pytest.mark.parametrize(
    ("old", "new1", "new2", "says", "focus"),
    [
        ("wrong-old-password", "an0ther-Passphrase", "an0ther-Passphrase", "old password was entered incorrectly",
         "old_password"),
        (PASSWORD, "an0ther-Passphrase", "an0ther-Passphrasf", "didn", "new_password2"),
        (PASSWORD, "short", "short", "too short", "new_password2"),
    ],
)
def test_password_change_refused_is_400_and_changes_nothing(client, django_user_model, old, new1, new2, says, focus):
    player = django_user_model.objects.create_user("gina", password=PASSWORD)
    client.force_login(player)
    response = client.post(
        reverse("password_change"), {"old_password": old, "new_password1": new1, "new_password2": new2}
    )
    assert response.status_code == 400
    assert says in response.content.decode()
    assert 'name="old_password"' in response.content.decode()  # the form again, to correct
    assert focused(response.content.decode()) == focus
    player.refresh_from_db()
    assert player.check_password(PASSWORD)


def test_profile_requires_login(client, django_user_model):
    django_user_model.objects.create_user("hank", password=PASSWORD)
    url = reverse("profile", args=["hank"])
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login")) and "next=" in response["Location"]


def test_profile_unknown_player_is_404(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("ivy", password=PASSWORD))
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_my_profile_redirects_to_own_page(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("jack", password=PASSWORD))
    response = client.get(reverse("my_profile"))
    assert response["Location"] == reverse("profile", args=["jack"])


def test_player_backend_reads_the_signed_in_player_like_the_orm(player):
    from config.auth import PlayerBackend
    from players.models import Player

    backend = PlayerBackend()
    user = backend.get_user(player.pk)
    expected = Player.objects.get(pk=player.pk)
    fields = [f.attname for f in Player._meta.concrete_fields]
    assert {f: getattr(user, f) for f in fields} == {f: getattr(expected, f) for f in fields}
    assert backend.get_user(player.pk + 1000) is None
    Player.objects.filter(pk=player.pk).update(is_active=False)
    assert backend.get_user(player.pk) is None


def test_password_reset_claim_is_once_per_interval(django_user_model, settings):
    from players.services import password_reset_claim

    player = django_user_model.objects.create_user("gina", password=PASSWORD)
    assert password_reset_claim(player=player) is True
    assert player.password_reset_sent_at is not None
    assert password_reset_claim(player=django_user_model.objects.get(pk=player.pk)) is False
    settings.PASSWORD_RESET_INTERVAL = timedelta(0)
    assert password_reset_claim(player=player) is True


# Recent games on a profile ---------------------------------------------------------------------------


def _finished(make_game, owner, **kwargs):
    """A game of ``owner`` against the computer, resigned at once: finished, and lost by ``owner``."""
    from games.models import Game
    from games.services import game_resign

    game = make_game(player=owner, opponent="easy", strategy="random", **kwargs)
    return game_resign(game=Game.objects.get(pk=game.pk), player=owner)


def test_a_profile_lists_recent_finished_games_its_viewer_may_open(make_game, make_player, client):
    from games.selectors import recent_games

    owner, viewer = make_player("olga"), make_player("vic")
    public = [_finished(make_game, owner) for _ in range(3)]
    private = _finished(make_game, owner, private=True)
    make_game(player=owner, opponent="easy")  # still running: not listed
    client.force_login(viewer)
    page = client.get(reverse("profile", args=["olga"])).content.decode()
    listed = [int(pk) for pk in re.findall(r'<tr data-game="(\d+)"', page)]
    assert listed == [g.pk for g in reversed(public)]  # newest first, no private game, no running game
    assert private.pk not in listed
    assert page.count('<span class="pill pill-lost">Lost</span>') == 3  # from the owner's side
    assert f'href="{reverse("games:replay", args=[public[0].pk])}"' in page
    # The owner sees the private one too, and a link to the whole history.
    assert [g.pk for g in recent_games(owner, viewer=owner)] == [private.pk] + [g.pk for g in reversed(public)]
    client.force_login(owner)
    page = client.get(reverse("profile", args=["olga"])).content.decode()
    assert f'<tr data-game="{private.pk}" ' in page and f'href="{reverse("games:history")}"' in page


def test_recent_games_stop_at_ten_and_cost_a_fixed_number_of_queries(
    make_game, make_player, client, django_assert_max_num_queries
):
    owner = make_player("olga")
    games = [_finished(make_game, owner) for _ in range(12)]
    client.force_login(owner)
    with django_assert_max_num_queries(10):  # not one per game (the session's and the live log's position are two)
        page = client.get(reverse("profile", args=["olga"])).content.decode()
    listed = [int(pk) for pk in re.findall(r'<tr data-game="(\d+)"', page)]
    assert listed == [g.pk for g in reversed(games)][:10]


def test_a_profile_without_finished_games_says_so(make_player, player_client):
    make_player("newbie")
    page = player_client.get(reverse("profile", args=["newbie"])).content.decode()
    assert 'id="recent-games"' in page and "No finished games to show." in page


def test_a_profile_shows_games_against_players_and_the_computer_apart(
    make_player, player, other_player, player_client
):
    """Games against the computer (takebacks and hints allowed, not rated) do not pad the record against people."""
    from games.models import Game
    from games.services import challenge_accept, challenge_create, game_create

    def finish(game, result):
        Game.objects.filter(pk=game.pk).update(status="finished", result=result)

    for level, result in (("easy", "X"), ("easy", "X"), ("hard", "O")):
        finish(game_create(player=player, variant="classic", options={}, opponent=level, side="X"), result)
    duel = challenge_accept(game=challenge_create(player=other_player, variant="classic", side="X"), player=player)
    finish(duel, "X")  # alice is O: lost
    page = player_client.get(reverse("profile", args=["alice"])).content.decode()
    players = page.split('id="stats-players"')[1].split("</table>")[0]
    computer = page.split('id="stats-computer"')[1].split("</table>")[0]
    cells = lambda html, row: re.findall(r"<td>([^<]*)</td>", html.split(row)[1].split("</tr>")[0])  # noqa: E731
    assert cells(players, 'data-variant="classic"') == ["1", "0", "1", "0"]  # played, won, lost, drawn
    assert cells(computer, 'data-computer="easy"') == ["2", "2", "0", "0"]
    assert cells(computer, 'data-computer="hard"') == ["1", "0", "1", "0"]
    assert "Classic 3 x 3 <span class=\"computer-name\">· easy</span>" in computer
    assert "All" in computer and "takebacks and hints allowed" in computer


def test_a_profile_with_games_against_the_computer_only(make_player, player, player_client):
    from games.models import Game
    from games.services import game_create

    game = game_create(player=player, variant="four", options={}, opponent="medium", side="O")
    Game.objects.filter(pk=game.pk).update(status="finished", result="draw")
    page = player_client.get(reverse("profile", args=["alice"])).content.decode()
    assert "No finished games against other players yet." in page
    computer = page.split('id="stats-computer"')[1].split("</table>")[0]
    assert 'data-variant="four" data-computer="medium"' in computer and "<tfoot>" not in computer


def test_the_login_page_says_what_the_site_is_to_a_visitor(client):
    html = client.get(reverse("login")).content.decode()
    assert 'id="welcome"' in html and "Tic-tac-toe and its big brothers" in html
    assert f'href="{reverse("signup")}"' in html and f'href="{reverse("rules")}"' in html
    assert html.count("<h1") == 1
    # sent here from a page that needs an account: straight to the form
    html = client.get(reverse("login"), {"next": "/games/"}).content.decode()
    assert 'id="welcome"' not in html and "Please log in to see that page." in html
