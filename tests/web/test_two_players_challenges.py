"""Two people playing each other (issue 4), the challenge: made from the new-game form (open, or sent by name and
private), its page to each viewer, and accepted, declined or cancelled, with the refusals of each.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.errors import (
    InvalidInvitee,
)
from games.models import Game
from games.services import (
    challenge_accept,
    challenge_create,
)
from tests.web.test_two_players import HTMX, poll


def test_declining_from_the_lobby(player, other_player, other_client, player_client):
    game = challenge_create(player=player, variant="four", invitee=other_player)
    lobby = other_client.get(reverse("home")).content.decode()
    assert f'data-decline="{game.pk}"' in lobby and "Decline alice's challenge" in lobby
    assert 'id="decline-challenge"' in other_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'id="decline-challenge"' not in player_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    response = other_client.post(reverse("games:decline", args=[game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
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
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert not Game.objects.exists()
    assert other_client.post(reverse("games:accept", args=[game.pk])).status_code == 404
