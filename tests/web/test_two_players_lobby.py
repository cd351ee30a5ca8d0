"""Two people playing each other (issue 4), the lobby: the open challenges and the live games it lists, private
ones hidden; its poll (204 while nothing changed, the same few queries however many games); the history table.
"""

from __future__ import annotations

import json
import re

from django.test import Client
from django.urls import reverse

from games.services import (
    challenge_accept,
    challenge_create,
    move_play,
    seek_create,
)
from tests.web.test_two_players import HTMX


def test_lobby_lists_challenges(player, other_player, third_player, other_client):
    public = challenge_create(player=player, variant="classic")
    for_bob = challenge_create(player=player, variant="four", invitee=other_player)
    for_carol = challenge_create(player=player, variant="classic", invitee=third_player)
    bobs_own = challenge_create(player=other_player, variant="classic")
    html = other_client.get(reverse("home")).content.decode()
    assert 'id="lobby"' in html and 'id="quick-pairing"' in html and 'id="history"' not in html
    assert 'id="lobby"' not in other_client.get(reverse("games:history")).content.decode()  # My games: its own games
    assert f'data-accept="{public.pk}"' in html and f'data-accept="{for_bob.pk}"' in html
    assert f'data-challenge="{for_carol.pk}"' not in html
    assert f'data-accept="{bobs_own.pk}"' not in html  # not your own
    assert f'data-cancel="{bobs_own.pk}"' in html
    assert f"http://testserver/games/{bobs_own.pk}/" in html  # the link to send


def test_lobby_lists_public_games_to_watch(duel, third_client, make_game):
    private = challenge_accept(
        game=challenge_create(player=duel.x_player, variant="classic", invitee=duel.o_player), player=duel.o_player
    )
    html = third_client.get(reverse("home")).content.decode()
    assert f'data-live-game="{duel.pk}"' in html and f'data-live-game="{private.pk}"' not in html


def _lobby_version(html: str) -> str:
    return re.search(r'id="lobby-live" hx-get="/games/lobby/\?v=(\w+)"', html).group(1)


def test_lobby_asks_for_changes_and_gets_204_while_nothing_changed(player, other_client, other_player):
    page = other_client.get(reverse("home")).content.decode()
    version = _lobby_version(page)
    # pushed notices first; every 5 s only while the push is down (data-poll: static/js/live.js)
    assert 'hx-trigger="live-lobby from:body, live-open from:body, every 5s" data-poll' in page
    response = other_client.get(reverse("games:lobby"), {"v": version}, **HTMX)
    assert response.status_code == 204 and response.content == b""


def test_lobby_poll_shows_a_new_challenge_then_its_acceptance(player, other_player, third_player, other_client):
    version = _lobby_version(other_client.get(reverse("home")).content.decode())
    game = challenge_create(player=player, variant="classic")
    response = other_client.get(reverse("games:lobby"), {"v": version}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and f'data-accept="{game.pk}"' in html
    assert 'id="lobby-live"' in html and 'id="challenge-form"' not in html  # the lists only: the form stays as typed
    newer = _lobby_version(html)
    assert newer != version
    assert other_client.get(reverse("games:lobby"), {"v": newer}, **HTMX).status_code == 204

    challenge_accept(game=game, player=third_player)  # taken by someone else: it leaves the open list
    html = other_client.get(reverse("games:lobby"), {"v": newer}, **HTMX).content.decode()
    assert f'data-accept="{game.pk}"' not in html and f'data-live-game="{game.pk}"' in html


def test_lobby_poll_follows_moves_of_live_games(duel, third_client, player, other_player):
    page = third_client.get(reverse("home")).content.decode()
    assert re.search(rf'data-live-game="{duel.pk}">.*no move yet', page)
    move_play(game=duel, player=player, move=4)
    html = third_client.get(reverse("games:lobby"), {"v": _lobby_version(page)}, **HTMX).content.decode()
    assert re.search(rf'data-live-game="{duel.pk}">.*1 move played<', html)
    move_play(game=duel, player=other_player, move=0)
    html = third_client.get(reverse("games:lobby"), **HTMX).content.decode()
    assert re.search(rf'data-live-game="{duel.pk}">.*2 moves played<', html)


def test_lobby_poll_keeps_private_challenges_private(player, other_player, third_client):
    version = _lobby_version(third_client.get(reverse("home")).content.decode())
    hidden = challenge_create(player=player, variant="classic", invitee=other_player)
    assert third_client.get(reverse("games:lobby"), {"v": version}, **HTMX).status_code == 204
    assert f'data-challenge="{hidden.pk}"' not in third_client.get(reverse("games:lobby"), **HTMX).content.decode()


def test_lobby_poll_costs_the_same_few_queries_however_many_games(
    player, make_player, other_client, django_assert_max_num_queries
):
    for i in range(6):
        someone = make_player(f"someone{i}")
        challenge_create(player=someone, variant="classic")
        challenge_accept(game=challenge_create(player=someone, variant="classic"), player=player)
        seek_create(player=someone, variant="nxn", options={"size": 5 + i})  # six pools: none pairs
    # The session (from the database when there is no Redis) and the player; open challenges, challenges for me,
    # mine, live games, games waiting for my move, quick pairing's seeks: each list one query with its players; and
    # one aggregate over the player's own running games.
    with django_assert_max_num_queries(9):
        html = other_client.get(reverse("games:lobby"), **HTMX).content.decode()
    assert html.count("data-accept=") == 6 and html.count("data-live-game=") == 6
    assert html.count("data-seek-play=") == 6


def test_lobby_without_htmx_or_signed_out(other_client):
    response = other_client.get(reverse("games:lobby"))
    assert response.status_code == 302 and response["Location"] == reverse("home")
    response = Client().get(reverse("games:lobby"), HTTP_HX_CURRENT_URL="http://testserver/", **HTMX)
    assert response["HX-Redirect"] == reverse("login") + "?next=%2F"  # the page, not the poll's address
    assert other_client.post(reverse("games:lobby"), **HTMX).status_code == 405


def test_history_shows_open_challenges_and_invitee(player_client, player, other_player):
    game = challenge_create(player=player, variant="classic", invitee=other_player)
    html = player_client.get(reverse("games:history")).content.decode()
    assert f'<tr class="history-row" data-game="{game.pk}"' in html and "bob (invited)" in html


def test_a_move_in_my_game_changes_the_lobby_version_and_its_your_turn_list(duel, player, other_player, player_client):
    page = player_client.get(reverse("home")).content.decode()
    assert f'data-your-turn-game="{duel.pk}"' in page  # alice (X) is to move
    version = _lobby_version(page)
    assert player_client.get(reverse("games:lobby"), {"v": version}, **HTMX).status_code == 204
    move_play(game=duel, player=player, move=4)  # alice (X) moves, in another tab say
    answer = player_client.get(reverse("games:lobby"), {"v": version}, **HTMX)
    assert answer.status_code == 200 and f'data-your-turn-game="{duel.pk}"' not in answer.content.decode()
    assert json.loads(answer["HX-Trigger"]).keys() == {"my-turn"}


def test_the_history_table_asks_for_itself_again_with_its_filters(duel, player, player_client):
    html = player_client.get(reverse("games:history"), {"result": "unfinished", "page": "1"}).content.decode()
    root = html.split('<div id="history"')[1].split(">")[0]
    version = re.search(r'hx-get="/games/\?result=unfinished&amp;page=1&amp;v=(\w+)"', root).group(1)
    assert 'hx-trigger="live-me from:body, live-open from:body, every 10s" data-poll' in root
    query = {"result": "unfinished", "page": "1", "v": version}
    assert player_client.get("/games/", query, **HTMX).status_code == 204  # nothing changed
    move_play(game=duel, player=player, move=4)
    again = player_client.get("/games/", query, **HTMX).content.decode()
    assert again.lstrip().startswith('<div id="history"') and f'data-game="{duel.pk}"' in again


def test_the_lobby_names_a_variants_options_as_the_game_page_does(player, other_client):
    """"Ultimate, won boards closed" on the game page; the same words in the lobby (it said "closed boards")."""
    game = challenge_create(player=player, variant="ultimate", options={"closed_boards": True})
    html = other_client.get(reverse("home")).content.decode()
    row = rf'data-challenge="{game.pk}">.*?Ultimate<span class="muted">, won boards closed</span>'
    assert re.search(row, html, re.S)
    assert "closed boards" not in html


def test_a_busy_lobby_folds_its_open_challenges_after_five(player, player_client, make_player):
    for i in range(8):
        challenge_create(player=make_player(f"rival{i}"), variant="classic")
    html = player_client.get(reverse("home")).content.decode()
    shown, folded = html.split('id="open-challenges-more"')
    assert shown.split('id="open-challenges"')[1].count("data-challenge=") == 5
    assert "3 more open challenges</summary>" in folded and folded.split("</details>")[0].count("data-challenge=") == 3
