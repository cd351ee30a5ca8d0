"""Two people playing each other (issue 4): challenges, refusals, private games, spectators, live poll, rematch.

Services first (the rules), then the pages (only your own controls; the poll answers 204 while nothing
changed), then the JSON API over the same services.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.errors import (
    InvalidInvitee,
)
from games.models import Game, Move
from games.services import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    game_resign,
    move_play,
    rematch_accept,
    rematch_offer,
    seek_create,
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


def test_declining_from_the_lobby(player, other_player, other_client, player_client):
    game = challenge_create(player=player, variant="four", invitee=other_player)
    lobby = other_client.get(reverse("games:history")).content.decode()
    assert f'data-decline="{game.pk}"' in lobby and "Decline alice's challenge" in lobby
    assert 'id="decline-challenge"' in other_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="decline-challenge"' not in player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    response = other_client.post(reverse("games:decline", args=[game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:history")
    assert f"Challenge #{game.pk} declined." in response.content.decode()
    assert not Game.objects.filter(pk=game.pk).exists()
    # its maker's page, still open, hears it at the next poll: no longer available
    assert poll(player_client, game, 1).status_code == 404


def test_new_game_human_makes_an_open_challenge(player_client, player):
    response = player_client.post(reverse("games:new"), {"variant": "classic", "opponent": "human", "side": "X"})
    game = Game.objects.get()
    assert response.status_code == 302 and game.status == "open" and not game.private and game.invitee is None


def test_new_game_with_invite_makes_a_private_direct_challenge(player_client, other_player):
    data = {"variant": "classic", "opponent": "human", "side": "O", "invite": "bob"}
    assert player_client.post(reverse("games:new"), data).status_code == 302
    game = Game.objects.get()
    assert game.invitee == other_player and game.private and game.o_player is not None


def test_new_game_visibility_public_for_a_direct_challenge(player_client, other_player):
    data = {"variant": "classic", "opponent": "human", "side": "X", "invite": "bob", "visibility": "public"}
    player_client.post(reverse("games:new"), data)
    assert Game.objects.get().private is False


def test_new_game_unknown_invitee_is_400(player_client):
    data = {"variant": "classic", "opponent": "human", "side": "X", "invite": "nobody"}
    response = player_client.post(reverse("games:new"), data)
    assert response.status_code == 400 and "no player called" in response.content.decode()
    assert not Game.objects.exists()


def test_a_private_challenge_must_name_its_player(player, player_client):
    """Nobody but its maker could see an open challenge that only the players may watch: nobody could accept it."""
    with pytest.raises(InvalidInvitee, match="a private challenge needs the name of the player who may accept it"):
        challenge_create(player=player, variant="classic", private=True)
    data = {"variant": "classic", "opponent": "human", "side": "X", "invite": " ", "visibility": "private"}
    response = player_client.post(reverse("games:new"), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'id="id_invite_error"[^>]*>\s*<li>A private challenge needs the name of the player', html)
    assert not Game.objects.exists()


def test_an_unknown_player_is_named_on_the_player_field(player_client):
    data = {"variant": "classic", "opponent": "human", "side": "X", "invite": "nobody"}
    html = player_client.post(reverse("games:new"), data).content.decode()
    assert re.search(r'id="id_invite_error"[^>]*>\s*<li>There is no player called &#x27;nobody&#x27;', html)


def test_lobby_lists_challenges(player, other_player, third_player, other_client):
    public = challenge_create(player=player, variant="classic")
    for_bob = challenge_create(player=player, variant="four", invitee=other_player)
    for_carol = challenge_create(player=player, variant="classic", invitee=third_player)
    bobs_own = challenge_create(player=other_player, variant="classic")
    html = other_client.get(reverse("games:history")).content.decode()
    assert 'id="lobby"' in html and 'id="history"' in html and 'id="history-filters"' in html
    assert f'data-accept="{public.pk}"' in html and f'data-accept="{for_bob.pk}"' in html
    assert f'data-challenge="{for_carol.pk}"' not in html
    assert f'data-accept="{bobs_own.pk}"' not in html  # not your own
    assert f'data-cancel="{bobs_own.pk}"' in html
    assert f"http://testserver/games/{bobs_own.pk}/" in html  # the link to send


def test_lobby_lists_public_games_to_watch(duel, third_client, make_game):
    private = challenge_accept(
        game=challenge_create(player=duel.x_player, variant="classic", invitee=duel.o_player), player=duel.o_player
    )
    html = third_client.get(reverse("games:history")).content.decode()
    assert f'data-live-game="{duel.pk}"' in html and f'data-live-game="{private.pk}"' not in html


def _lobby_version(html: str) -> str:
    return re.search(r'id="lobby-live" hx-get="/games/lobby/\?v=(\w+)"', html).group(1)


def test_lobby_asks_for_changes_and_gets_204_while_nothing_changed(player, other_client, other_player):
    page = other_client.get(reverse("games:history")).content.decode()
    version = _lobby_version(page)
    # pushed notices first; every 5 s only while the push is down (data-poll: static/js/live.js)
    assert 'hx-trigger="live-lobby from:body, live-open from:body, every 5s" data-poll' in page
    response = other_client.get(reverse("games:lobby"), {"v": version}, **HTMX)
    assert response.status_code == 204 and response.content == b""


def test_lobby_poll_shows_a_new_challenge_then_its_acceptance(player, other_player, third_player, other_client):
    version = _lobby_version(other_client.get(reverse("games:history")).content.decode())
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
    page = third_client.get(reverse("games:history")).content.decode()
    assert re.search(rf'data-live-game="{duel.pk}">.*no move yet', page)
    move_play(game=duel, player=player, move=4)
    html = third_client.get(reverse("games:lobby"), {"v": _lobby_version(page)}, **HTMX).content.decode()
    assert re.search(rf'data-live-game="{duel.pk}">.*1 move played<', html)
    move_play(game=duel, player=other_player, move=0)
    html = third_client.get(reverse("games:lobby"), **HTMX).content.decode()
    assert re.search(rf'data-live-game="{duel.pk}">.*2 moves played<', html)


def test_lobby_poll_keeps_private_challenges_private(player, other_player, third_client):
    version = _lobby_version(third_client.get(reverse("games:history")).content.decode())
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
    # The player; open challenges, challenges for me, mine, live games, quick pairing's seeks: each list one query
    # with its players; and one aggregate over the player's own running games (for the history's table).
    with django_assert_max_num_queries(7):
        html = other_client.get(reverse("games:lobby"), **HTMX).content.decode()
    assert html.count("data-accept=") == 6 and html.count("data-live-game=") == 6
    assert html.count("data-seek-play=") == 6


def test_lobby_without_htmx_or_signed_out(other_client):
    response = other_client.get(reverse("games:lobby"))
    assert response.status_code == 302 and response["Location"] == reverse("games:history")
    response = Client().get(reverse("games:lobby"), HTTP_HX_CURRENT_URL="http://testserver/games/", **HTMX)
    assert response["HX-Redirect"] == reverse("login") + "?next=%2Fgames%2F"  # the page, not the poll's address
    assert other_client.post(reverse("games:lobby"), **HTMX).status_code == 405


def test_challenge_page_for_its_creator_has_link_and_cancel(player_client, player):
    game = challenge_create(player=player, variant="classic")
    html = player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="share-link"' in html and f'value="http://testserver/games/{game.pk}/"' in html
    assert 'id="cancel-challenge"' in html and 'id="accept-challenge"' not in html
    assert 'id="poll"' in html  # waits for the acceptance live
    # every second in view; from a background tab less often, so that the title can say someone joined
    assert 'hx-trigger="live-game from:body, live-open from:body, every 1s"' in html and "data-poll-hidden" in html
    assert "data-move" not in html


def test_challenge_page_for_others_has_accept(other_client, player):
    game = challenge_create(player=player, variant="classic")
    html = other_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="accept-challenge"' in html and 'id="cancel-challenge"' not in html and 'id="share-link"' not in html


def test_a_challenge_says_what_it_is_to_each_viewer(player_client, other_client, third_client, player, other_player):
    def status(client, game):
        html = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        return re.search(r'id="status"[^>]*>([^<]*)<', html).group(1), 'id="spectating"' in html

    open_one = challenge_create(player=player, variant="classic")
    assert status(player_client, open_one) == ("Waiting for an opponent to join", False)
    # someone who may take the seat is not "watching"
    assert status(other_client, open_one) == ("Open challenge from alice", False)
    direct = challenge_create(player=player, variant="classic", invitee=other_player, private=False)
    assert status(player_client, direct) == ("Waiting for bob to accept", False)
    assert status(other_client, direct) == ("alice challenges you", False)
    assert status(third_client, direct) == ("Waiting for the invited player to accept", True)
    # accepted: a spectator reads whose turn it is as a computer seat says it ("X to move: Computer (easy)")
    challenge_accept(game=direct, player=other_player)
    assert status(third_client, direct) == ("X to move: alice", True)


def test_direct_challenge_page_for_someone_else(third_client, player, other_player):
    private = challenge_create(player=player, variant="classic", invitee=other_player)
    assert third_client.get(reverse("games:detail", args=[private.pk])).status_code == 404
    public = challenge_create(player=player, variant="classic", invitee=other_player, private=False)
    html = third_client.get(reverse("games:detail", args=[public.pk])).content.decode()
    assert 'id="accept-challenge"' not in html and "sent to bob" in html


def test_accept_view_redirects_to_the_game(other_client, player, other_player):
    game = challenge_create(player=player, variant="classic")
    response = other_client.post(reverse("games:accept", args=[game.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[game.pk])
    game.refresh_from_db()
    assert game.o_player == other_player and game.status == "active"


@pytest.mark.parametrize("htmx", [False, True])
def test_accept_own_challenge_view_is_400(player_client, player, htmx):
    game = challenge_create(player=player, variant="classic")
    response = player_client.post(reverse("games:accept", args=[game.pk]), **(HTMX if htmx else {}))
    assert response.status_code == 400 and "your own challenge" in response.content.decode()
    assert Game.objects.get(pk=game.pk).status == "open"


def test_accept_direct_challenge_for_someone_else_view_is_403(third_client, player, other_player):
    game = challenge_create(player=player, variant="classic", invitee=other_player, private=False)
    assert third_client.post(reverse("games:accept", args=[game.pk])).status_code == 403
    private = challenge_create(player=player, variant="classic", invitee=other_player)
    assert third_client.post(reverse("games:accept", args=[private.pk])).status_code == 404
    assert Game.objects.filter(status="open").count() == 2


def test_accept_taken_view_is_409(other_client, third_client, player):
    game = challenge_create(player=player, variant="classic")
    assert other_client.post(reverse("games:accept", args=[game.pk])).status_code == 302
    response = third_client.post(reverse("games:accept", args=[game.pk]), **HTMX)
    assert response.status_code == 409 and "already been accepted" in response.content.decode()


def test_cancel_views(player_client, other_client, player):
    game = challenge_create(player=player, variant="classic")
    assert other_client.post(reverse("games:cancel", args=[game.pk])).status_code == 403
    response = player_client.post(reverse("games:cancel", args=[game.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("games:history")
    assert not Game.objects.exists()
    assert other_client.post(reverse("games:accept", args=[game.pk])).status_code == 404


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
    assert 'id="players"' in html and 'hx-swap-oob="true"' in html and "bob" in html
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


def test_history_shows_open_challenges_and_invitee(player_client, player, other_player):
    game = challenge_create(player=player, variant="classic", invitee=other_player)
    html = player_client.get(reverse("games:history")).content.decode()
    assert f'<tr class="history-row" data-game="{game.pk}"' in html and "bob (invited)" in html


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
    for client in (third_client, player_client):  # nobody's page drives it: a worker plays (games.tasks)
        html = client.get(page).content.decode()
        assert 'id="thinking"' in html and 'id="poll"' in html and "hx-post" not in html.split('id="thinking"')[1][:200]


def test_a_move_in_my_game_changes_the_lobby_version_and_asks_for_the_history_again(duel, player, player_client):
    version = _lobby_version(player_client.get(reverse("games:history")).content.decode())
    assert player_client.get(reverse("games:lobby"), {"v": version}, **HTMX).status_code == 204
    move_play(game=duel, player=player, move=4)  # alice (X) moves, in another tab say
    answer = player_client.get(reverse("games:lobby"), {"v": version}, **HTMX)
    assert answer.status_code == 200
    assert json.loads(answer["HX-Trigger"]).keys() == {"my-turn", "history-changed"}


def test_the_history_table_asks_for_itself_again_with_its_filters(duel, player_client):
    html = player_client.get(reverse("games:history"), {"result": "unfinished", "page": "1"}).content.decode()
    root = html.split('<div id="history"')[1].split(">")[0]
    assert 'hx-get="/games/?result=unfinished&amp;page=1"' in root and 'hx-trigger="history-changed from:body"' in root
    again = player_client.get("/games/", {"result": "unfinished", "page": "1"}, **HTMX).content.decode()
    assert again.lstrip().startswith('<div id="history"') and f'data-game="{duel.pk}"' in again


def test_the_lobby_names_a_variants_options_as_the_game_page_does(player, other_client):
    """"Ultimate, won boards closed" on the game page; the same words in the lobby (it said "closed boards")."""
    game = challenge_create(player=player, variant="ultimate", options={"closed_boards": True})
    html = other_client.get(reverse("games:history")).content.decode()
    row = rf'data-challenge="{game.pk}">.*?Ultimate<span class="muted">, won boards closed</span>'
    assert re.search(row, html, re.S)
    assert "closed boards" not in html


def test_a_busy_lobby_folds_its_open_challenges_after_five(player, player_client, make_player):
    for i in range(8):
        challenge_create(player=make_player(f"rival{i}"), variant="classic")
    html = player_client.get(reverse("games:history")).content.decode()
    shown, folded = html.split('id="open-challenges-more"')
    assert shown.split('id="open-challenges"')[1].count("data-challenge=") == 5
    assert "3 more open challenges</summary>" in folded and folded.split("</details>")[0].count("data-challenge=") == 3
