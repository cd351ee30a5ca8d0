"""Games waiting for your move: the navigation's badge on every full page, and "Your turn" in the history."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game
from games.selectors import count_games_to_move
from games.selectors import games_to_move as games_to_move_qs
from games.services import challenge_accept, challenge_create, challenge_decline, game_resign, move_play

HTMX = {"HTTP_HX_REQUEST": "true"}


def _badge(client, badge_id: str, title: str, href: str) -> str | None:
    """The number a navigation badge shows on a full page (None without it), checking where it leads."""
    html = client.get(reverse("leaderboard")).content.decode()
    found = re.search(rf'id="{badge_id}" href="([^"]+)" title="{title}">(\d+)<', html)
    if found is None:
        return None
    assert found.group(1) == href
    return found.group(2)


def badge(client) -> str | None:
    your_turn = reverse("games:history") + "?result=your_turn"
    return _badge(client, "my-turn-count", "Games waiting for your move", your_turn)


def games_to_move(player) -> list:
    """The queryset, checked against the count the navigation makes by its own SQL."""
    games = list(games_to_move_qs(player))
    assert count_games_to_move(player) == len(games)
    return games


def test_games_to_move(duel, player, other_player, make_player, make_game):
    carol = make_player("carol")
    second = challenge_accept(game=challenge_create(player=carol, variant="classic", side="X"), player=player)
    make_game(opponent="local")  # both seats alice's: not waiting for anyone
    make_game(opponent="easy")  # against the computer: never counted
    challenge_create(player=player, variant="classic")  # open: nobody to wait for yet
    assert list(games_to_move(player)) == [duel]  # alice is X in the duel; carol is X in the second game
    assert set(games_to_move(carol)) == {second}
    move_play(game=duel, player=player, move=4)
    assert list(games_to_move(player)) == [] and list(games_to_move(other_player)) == [duel]
    move_play(game=second, player=carol, move=0)
    assert list(games_to_move(player)) == [second]
    game_resign(game=second, player=player)
    assert list(games_to_move(player)) == [] and list(games_to_move(carol)) == []


def test_the_badge_counts_games_waiting_for_me(duel, player, other_player, player_client, other_client):
    assert badge(player_client) == "1" and badge(other_client) is None
    move_play(game=duel, player=player, move=4)
    assert badge(player_client) is None and badge(other_client) == "1"
    html = other_client.get(reverse("games:history")).content.decode()
    row = html.split(f'data-game="{duel.pk}"')[1].split("</tr>")[0]
    assert "pill-your" in row and "Your turn" in row
    html = player_client.get(reverse("games:history")).content.decode()
    assert "Their turn" in html.split(f'data-game="{duel.pk}"')[1].split("</tr>")[0]


def test_only_full_pages_count(duel, player, player_client):
    # The count is a query only when a full page shows it: an htmx answer does not pay for it.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def counted(queries) -> bool:
        return any("COUNT(" in query["sql"].upper() for query in queries.captured_queries)

    with CaptureQueriesContext(connection) as queries:
        html = player_client.post(reverse("games:move", args=[duel.pk]), {"move": "4"}, **HTMX).content.decode()
    assert "my-turn-count" not in html and not counted(queries)
    with CaptureQueriesContext(connection) as queries:
        player_client.get(reverse("games:detail", args=[duel.pk]))
    assert counted(queries)


def test_signed_out_pages_have_no_badge(client):
    html = client.get(reverse("login")).content.decode()
    assert "my-turn-count" not in html


def test_the_your_turn_filter(duel, player, other_player, make_player, player_client, make_game):
    carol = make_player("carol")
    second = challenge_accept(game=challenge_create(player=carol, variant="classic", side="X"), player=player)
    make_game(opponent="easy")
    html = player_client.get(reverse("games:history"), {"result": "your_turn"}).content.decode()
    assert f'data-game="{duel.pk}"' in html and f'data-game="{second.pk}"' not in html
    assert html.count('class="history-row"') == 1
    data = player_client.get("/api/games", {"result": "your_turn"}).json()
    assert [game["id"] for game in data["items"]] == [duel.pk] and data["items"][0]["your_turn"] is True


# The badge is live: its own poll, and a nudge from the answers that may change it ------------------


def test_the_badge_asks_again_with_the_count_it_shows(duel, player, player_client):
    html = player_client.get(reverse("leaderboard")).content.decode()
    badge_html = html.split('id="my-turn"')[1].split("</span></a></span>")[0]
    assert f'hx-get="{reverse("games:my_turn")}?n=1&amp;c=0"' in badge_html
    # pushed notices first (live-me), a poll while the push is down (data-poll: static/js/live.js)
    assert "live-me from:body" in badge_html and "every 10s" in badge_html and "data-poll" in badge_html
    assert "my-turn from:body" in badge_html and "[" not in badge_html.split("hx-trigger=")[1].split('"')[1]


def test_the_badge_poll_is_204_while_the_count_holds(duel, player, other_player, player_client, other_client):
    url = reverse("games:my_turn")
    assert player_client.get(url, {"n": "1", "c": "0"}, **HTMX).status_code == 204
    assert other_client.get(url, {"n": "0", "c": "0"}, **HTMX).status_code == 204
    move_play(game=duel, player=player, move=4)
    changed = other_client.get(url, {"n": "0", "c": "0"}, **HTMX)
    assert changed.status_code == 200
    assert re.search(r'id="my-turn-count" [^>]*>1<', changed.content.decode())
    assert 'hx-get="/games/my-turn/?n=1&amp;c=0"' in changed.content.decode()
    gone = player_client.get(url, {"n": "1", "c": "0"}, **HTMX)
    assert gone.status_code == 200 and "my-turn-count" not in gone.content.decode()
    assert 'id="my-turn"' in gone.content.decode()  # the empty badge keeps asking


@pytest.mark.parametrize("n", ["", "x", "-1", "99999999999999999999"])
def test_the_badge_poll_with_a_bad_count_answers_the_badge(duel, player_client, n):
    response = player_client.get(reverse("games:my_turn"), {"n": n}, **HTMX)
    assert response.status_code == 200 and re.search(r'id="my-turn-count" [^>]*>1<', response.content.decode())


def test_the_badge_address_opened_as_a_page_goes_to_the_your_turn_list(player_client, client):
    response = player_client.get(reverse("games:my_turn"))
    assert response.status_code == 302 and response["Location"] == reverse("games:history") + "?result=your_turn"
    assert player_client.post(reverse("games:my_turn"), **HTMX).status_code == 405
    signed_out = client.get(
        reverse("games:my_turn"), {"n": "0"}, HTTP_HX_CURRENT_URL="http://testserver/rules/", **HTMX
    )
    assert signed_out.status_code == 200 and signed_out["HX-Redirect"].startswith(reverse("login"))


def test_answers_of_games_between_players_nudge_the_badge(duel, player, player_client, make_game):
    answer = player_client.post(reverse("games:move", args=[duel.pk]), {"move": "4"}, **HTMX)
    assert answer.status_code == 200 and "my-turn" in answer.get("HX-Trigger", "")
    solo = make_game(opponent="easy", strategy="random")
    answer = player_client.post(reverse("games:move", args=[solo.pk]), {"move": "4"}, **HTMX)
    assert answer.status_code == 200 and "HX-Trigger" not in answer


def test_a_changed_lobby_nudges_the_badge(duel, player_client):
    answer = player_client.get(reverse("games:lobby"), {"v": "old"}, **HTMX)
    assert answer.status_code == 200 and "my-turn" in answer["HX-Trigger"]


# Challenges sent to me by name: a badge of their own, to the lobby ------------------------------------


def challenge_badge(client) -> str | None:
    return _badge(client, "challenge-count", "Challenges sent to you", reverse("home") + "#lobby")


def test_the_challenge_badge_counts_challenges_sent_to_me(player, other_player, make_player, player_client,
                                                          other_client):
    carol = make_player("carol")
    challenge_create(player=player, variant="classic")  # open to anyone: not sent to bob
    first = challenge_create(player=player, variant="classic", invitee="bob")
    challenge_create(player=carol, variant="four", invitee="bob")
    challenge_create(player=other_player, variant="classic", invitee="alice")  # bob's own: counted for alice
    assert challenge_badge(other_client) == "2" and badge(other_client) is None
    assert challenge_badge(player_client) == "1"
    html = other_client.get(reverse("leaderboard")).content.decode()
    assert "2<span" in html and "> challenges for you</span>" in html
    challenge_decline(game=first, player=other_player)
    assert challenge_badge(other_client) == "1"
    url = reverse("games:my_turn")
    assert other_client.get(url, {"n": "0", "c": "1"}, **HTMX).status_code == 204
    # accepted: no longer a challenge, but now a game waiting for someone's move
    accepted = challenge_accept(game=Game.objects.get(created_by=carol), player=other_player)
    changed = other_client.get(url, {"n": "0", "c": "1"}, **HTMX).content.decode()
    assert "challenge-count" not in changed and 'hx-get="/games/my-turn/?n=' in changed
    assert accepted.status == Game.Status.ACTIVE and challenge_badge(other_client) is None
