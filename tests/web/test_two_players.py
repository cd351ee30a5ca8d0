"""Two people playing each other (issue 4), on the game page: only your own controls, spectators, the live poll
(it answers 204 while nothing changed), the rematch, and the title that says whose turn it is.

Making and accepting challenges: test_two_players_challenges.py; the lobby: test_two_players_lobby.py. The rules
themselves are tests/services/test_two_players.py, the JSON API tests/api/test_two_players.py.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Move
from games.services import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    game_resign,
    move_play,
    rematch_accept,
    rematch_offer,
)

HTMX = {"HTTP_HX_REQUEST": "true"}


def finish(game: Game, x, o) -> Game:
    """X wins along the top row."""
    for move, who in ((0, x), (3, o), (1, x), (4, o), (2, x)):
        move_play(game=game, player=who, move=move)
    game.refresh_from_db()
    return game


def version(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def test_players_see_their_controls_spectators_none(duel, player_client, other_client, third_client):
    url = reverse("games:detail", args=[duel.pk])
    mine = player_client.get(url).content.decode()  # alice, X, to move
    assert mine.count("data-move=") == 9 and 'id="resign"' in mine and 'id="poll"' in mine
    theirs = other_client.get(url).content.decode()  # bob, O, waiting
    assert "data-move=" not in theirs and 'id="resign"' in theirs and 'id="poll"' in theirs
    watching = third_client.get(url).content.decode()
    assert "data-move=" not in watching and 'id="resign"' not in watching and 'id="spectating"' in watching
    assert 'id="poll"' in watching and "rematch" not in watching.lower()


def test_spectator_posts_are_refused(duel, third_client):
    for name in ("games:move", "games:resign", "games:computer_move", "games:rematch", "games:cancel"):
        response = third_client.post(reverse(name, args=[duel.pk]), {"move": "0"}, **HTMX)
        assert response.status_code == 403, name
    assert third_client.post(reverse("games:accept", args=[duel.pk])).status_code == 409
    duel.refresh_from_db()
    assert duel.ply == 0 and duel.status == "active"


def test_move_out_of_turn_and_not_seated_views(duel, other_client, third_client):
    response = other_client.post(reverse("games:move", args=[duel.pk]), {"move": "0"}, **HTMX)
    assert response.status_code == 409 and "not your turn" in response.content.decode().lower()
    response = third_client.post(reverse("games:move", args=[duel.pk]), {"move": "0"}, **HTMX)
    assert response.status_code == 403 and "not playing" in response.content.decode()
    assert not Move.objects.exists()


def poll(client: Client, game: Game, v: int):
    return client.get(reverse("games:poll", args=[game.pk]), {"v": v}, **HTMX)


def test_poll_is_204_while_nothing_changed_and_cheap(duel, other_client, django_assert_max_num_queries):
    v = version(duel)
    poll(other_client, duel, v)  # warm up
    with django_assert_max_num_queries(3):  # session, user, the game row
        response = poll(other_client, duel, v)
    assert response.status_code == 204 and response.content == b""


def test_poll_answers_the_partial_after_the_opponents_move(duel, player, other_client):
    v = version(duel)
    move_play(game=duel, player=player, move=4)
    response = poll(other_client, duel, v)
    html = response.content.decode()
    assert response.status_code == 200 and 'id="play"' in html
    assert 'data-cell="4" data-mark="X"' in html and html.count("data-move=") == 8  # now bob's turn
    assert response["X-Game-Version"] == str(v + 1) and f"v={v + 1}" in html
    assert poll(other_client, duel, v + 1).status_code == 204


def test_poll_shows_acceptance_to_the_waiting_creator(player, player_client, other_player):
    game = challenge_create(player=player, variant="classic")
    v = version(game)
    assert poll(player_client, game, v).status_code == 204
    challenge_accept(game=game, player=other_player)
    html = poll(player_client, game, v).content.decode()
    assert 'id="players"' in html and 'id="seat-o"' in html and "bob" in html  # the seats are part of #play
    assert html.count("data-move=") == 9


def test_poll_shows_resign_and_rematch_offer_live(duel, player, other_player, player_client, other_client):
    v = version(duel)
    game_resign(game=duel, player=other_player)
    html = poll(player_client, duel, v).content.decode()
    assert "X wins (O resigned)" in html and 'id="rematch-offer-button"' in html
    # one primary button: the rematch offer; New game stays plain beside it
    assert f'class="button" href="{reverse("games:new")}">New game' in html
    assert f'class="button primary" href="{reverse("games:new")}"' not in html
    assert 'id="poll"' in html  # still listening for a rematch offer
    v = version(duel)
    rematch_offer(game=duel, player=other_player)
    html = poll(player_client, duel, v).content.decode()
    assert 'id="rematch-accept"' in html and 'id="rematch-decline"' in html
    html = other_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    assert 'id="rematch-waiting"' in html and 'id="rematch-accept"' not in html


def test_polling_stops_when_finished_for_spectators_and_after_the_rematch(duel, player, other_player, third_client,
                                                                         player_client):
    v = version(duel)
    game_resign(game=duel, player=player)
    html = poll(third_client, duel, v).content.decode()
    assert "O wins" in html and 'id="poll"' not in html
    new = rematch_offer(game=duel, player=player) or rematch_accept(game=duel, player=other_player)
    html = player_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    assert f'href="/games/{new.pk}/"' in html and 'id="rematch-link"' in html and 'id="poll"' not in html


def test_no_polling_against_the_computer(player_client, make_game):
    game = make_game(opponent="easy", strategy="random")
    assert 'id="poll"' not in player_client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_poll_of_a_cancelled_challenge_is_404(player, other_client):
    game = challenge_create(player=player, variant="classic")
    v = version(game)
    challenge_cancel(game=game, player=player)
    response = poll(other_client, game, v)
    assert response.status_code == 404 and response["HX-Retarget"] == "#play" and response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert 'id="play"' in html and "no longer available" in html
    assert "data-accept" not in html and 'id="poll"' not in html  # nothing left to press, and no more asking


def test_rematch_views(duel, player, other_player, player_client, other_client):
    finish(duel, player, other_player)
    response = player_client.post(reverse("games:rematch", args=[duel.pk]), **HTMX)
    assert response.status_code == 200 and 'id="rematch-waiting"' in response.content.decode()
    response = other_client.post(reverse("games:rematch_accept", args=[duel.pk]), **HTMX)
    new = Game.objects.get(rematch_of=duel)
    assert response.status_code == 200 and response["HX-Redirect"] == reverse("games:detail", args=[new.pk])
    html = other_client.get(reverse("games:detail", args=[new.pk])).content.decode()
    assert html.count("data-move=") == 9 and 'id="rematch-of-link"' in html  # bob is X now


def test_rematch_decline_view(duel, player, other_player, player_client, other_client):
    finish(duel, player, other_player)
    player_client.post(reverse("games:rematch", args=[duel.pk]))
    v = version(duel)
    response = other_client.post(reverse("games:rematch_decline", args=[duel.pk]), **HTMX)
    html = response.content.decode()
    # bob may still change his mind, by offering one himself
    assert response.status_code == 200 and 'id="rematch-offer-button"' in html
    assert "You declined the rematch." in html and 'id="rematch-accept"' not in html
    assert other_client.post(reverse("games:rematch_accept", args=[duel.pk]), **HTMX).status_code == 409
    # alice's waiting page learns it, is told (also by its live region) and may not ask again; it keeps listening
    # for a while, in case bob changes his mind
    html = poll(player_client, duel, v).content.decode()
    assert "Your opponent declined the rematch." in html and 'id="rematch-waiting"' not in html
    assert 'id="announce"' in html and html.count("Your opponent declined the rematch.") == 2
    assert 'id="rematch-offer-button"' not in html and 'id="rematch-withdraw"' not in html and 'id="poll"' in html
    response = player_client.post(reverse("games:rematch", args=[duel.pk]), **HTMX)
    assert response.status_code == 409 and "declined" in response.content.decode()


def test_the_offerers_waiting_page_follows_an_accepted_rematch(duel, player, other_player, player_client,
                                                             other_client, third_client):
    finish(duel, player, other_player)
    player_client.post(reverse("games:rematch", args=[duel.pk]))
    v = version(duel)
    assert poll(player_client, duel, v).status_code == 204
    other_client.post(reverse("games:rematch_accept", args=[duel.pk]), **HTMX)
    new = Game.objects.get(rematch_of=duel)
    response = poll(player_client, duel, v)
    assert response.status_code == 200 and response["HX-Redirect"] == reverse("games:detail", args=[new.pk])
    # not someone else's page, and not a page opened after the rematch began (it shows the link, no polling)
    assert "HX-Redirect" not in poll(third_client, duel, v)
    html = player_client.get(reverse("games:detail", args=[duel.pk])).content.decode()
    assert 'id="rematch-link"' in html and 'id="poll"' not in html


def test_a_rematch_offer_is_listened_for_however_late_it_was_made(duel, player, other_player, player_client,
                                                                   other_client):
    finish(duel, player, other_player)
    Game.objects.filter(pk=duel.pk).update(finished=timezone.now() - timedelta(hours=1))
    page = reverse("games:detail", args=[duel.pk])
    assert 'id="poll"' not in player_client.get(page).content.decode()  # nothing to wait for an hour later
    player_client.post(reverse("games:rematch", args=[duel.pk]))
    for client in (player_client, other_client):  # the answer, or a withdrawal, shows without a reload
        assert 'id="poll"' in client.get(page).content.decode()
    other_client.post(reverse("games:rematch_decline", args=[duel.pk]))
    for client in (player_client, other_client):  # answered: nothing more to wait for
        assert 'id="poll"' not in client.get(page).content.decode()


def title(html: str) -> str:
    found = re.findall(r"<title>([^<]*)</title>", html)
    assert len(found) == 1, found
    return found[0]


def test_the_title_says_whose_turn_it_is(duel, player, player_client, other_client, third_client):
    page = f"/games/{duel.pk}/"
    assert title(player_client.get(page).content.decode()).startswith(f"Your turn · Game {duel.pk} · Classic")
    assert title(other_client.get(page).content.decode()).startswith(f"Game {duel.pk} · Classic")
    assert title(third_client.get(page).content.decode()).startswith(f"Game {duel.pk} · ")  # a spectator
    # Each htmx answer brings the title: the mover's says it is no longer their turn, the other's poll says it is.
    moved = player_client.post(reverse("games:move", args=[duel.pk]), {"move": "4"}, **HTMX).content.decode()
    assert title(moved).startswith(f"Game {duel.pk} · ")
    polled = other_client.get(reverse("games:poll", args=[duel.pk]), {"v": "0"}, **HTMX).content.decode()
    assert title(polled).startswith(f"Your turn · Game {duel.pk} · ")
    game_resign(game=duel, player=duel.o_player)
    assert title(other_client.get(page).content.decode()).startswith(f"Game {duel.pk} · ")


def test_only_players_pages_ask_from_a_background_tab(duel, player_client, third_client, make_game):
    page = f"/games/{duel.pk}/"
    player = player_client.get(page).content.decode()
    assert 'hx-trigger="live-game from:body, live-open from:body, every 1s"' in player and "data-poll-hidden" in player
    spectator = third_client.get(page).content.decode()
    assert 'hx-trigger="live-game from:body, live-open from:body, every 1s"' in spectator
    assert "data-poll-hidden" not in spectator


def test_games_against_the_computer_keep_their_title_out_of_move_answers(make_game, player_client):
    game = make_game(opponent="easy", strategy="random")
    answer = player_client.post(reverse("games:move", args=[game.pk]), {"move": "4"}, **HTMX).content.decode()
    assert "<title>" not in answer
    assert "Your turn" not in title(player_client.get(f"/games/{game.pk}/").content.decode())


def test_a_watched_game_moves_on_the_server_for_everyone(make_game, player_client, third_client):
    game = make_game(opponent="watch", strategy="random")
    page = f"/games/{game.pk}/"
    for client in (third_client, player_client):  # nobody's page drives it: a worker plays
        html = client.get(page).content.decode()
        assert 'id="thinking"' in html and 'id="poll"' in html and "hx-post" not in html.split('id="thinking"')[1][:200]
