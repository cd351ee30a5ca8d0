"""Bot accounts (issue 33): becoming a bot, being shown as one, the bot endpoints and what a bot may not do."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import bot_upgrade, challenge_accept, challenge_create, draw_offer, move_play
from players.models import ApiToken

from .helpers import assert_error, post


@pytest.fixture
def bot(make_player):
    return bot_upgrade(player=make_player("deepttt"))


@pytest.fixture
def bot_client(bot) -> Client:
    _token, raw = ApiToken.issue(player=bot, name="engine")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def play_out(game: Game, x, o) -> Game:
    """X wins along the top row."""
    for move, who in ((0, x), (3, o), (1, x), (4, o), (2, x)):
        move_play(game=game, player=who, move=move)
    game.refresh_from_db()
    return game


def test_an_account_becomes_a_bot_for_good(token_client, player):
    assert token_client.get("/api/me").json()["bot"] is False
    answer = post(token_client, "/api/bot/account/upgrade")
    assert answer.status_code == 200 and answer.json()["bot"] is True
    player.refresh_from_db()
    assert player.is_bot and player.display_name == "BOT alice"
    assert token_client.get("/api/me").json()["bot"] is True
    assert_error(post(token_client, "/api/bot/account/upgrade"), 409, "upgrade_refused")


def test_an_account_with_a_rated_game_against_a_person_stays_a_person(token_client, player, other_player):
    game = play_out(challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player),
                    player, other_player)
    assert game.is_rated
    body = assert_error(post(token_client, "/api/bot/account/upgrade"), 409, "upgrade_refused")
    assert "rated game against a person" in body["message"]
    player.refresh_from_db()
    assert not player.is_bot


def test_a_rated_game_against_a_bot_does_not_keep_an_account_a_person(token_client, player, bot):
    game = play_out(challenge_accept(game=challenge_create(player=player, variant="classic"), player=bot), player, bot)
    assert game.is_rated
    assert post(token_client, "/api/bot/account/upgrade").json()["bot"] is True


def test_seats_say_which_player_is_a_bot(token_client, player, bot):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=bot)
    seats = token_client.get(f"/api/games/{game.pk}").json()["seats"]
    assert [(s["username"], s["bot"], s["label"]) for s in seats] == [
        ("alice", False, "alice"), ("deepttt", True, "BOT deepttt")
    ]


def test_the_bot_endpoints_are_for_bots(token_client, player, other_player):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=other_player)
    assert_error(post(token_client, f"/api/bot/game/{game.pk}/move/b2"), 403, "not_a_bot")
    assert_error(post(token_client, f"/api/bot/game/{game.pk}/resign"), 403, "not_a_bot")
    assert_error(token_client.get(f"/api/bot/game/stream/{game.pk}"), 403, "not_a_bot")
    assert Game.objects.get(pk=game.pk).ply == 0


def test_a_bot_plays_by_cell_name_with_the_apis_errors(bot_client, bot, player):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="O"), player=bot)
    answer = post(bot_client, f"/api/bot/game/{game.pk}/move/B2")
    assert answer.status_code == 200 and answer.json()["moves"][0]["name"] == "b2"
    assert_error(post(bot_client, f"/api/bot/game/{game.pk}/move/a1"), 409, "not_your_turn")
    move_play(game=game, player=player, move=0)
    for bad in ("b2", "z9", "4", "b 2", "swap"):
        assert_error(post(bot_client, f"/api/bot/game/{game.pk}/move/{bad}"), 400, "illegal_move")
    assert_error(post(bot_client, "/api/bot/game/999999/move/a1"), 404, "not_found")
    assert_error(bot_client.get(f"/api/bot/game/{game.pk}/move/a1"), 405, "method_not_allowed")
    assert Game.objects.get(pk=game.pk).ply == 2


def test_a_bot_offers_declines_accepts_draws_aborts_and_resigns(bot_client, bot, player, other_player):
    game = challenge_accept(game=challenge_create(player=player, variant="four", side="O"), player=bot)
    assert post(bot_client, f"/api/bot/game/{game.pk}/abort").json()["result_reason"] == "aborted"
    game = challenge_accept(game=challenge_create(player=player, variant="four", side="O"), player=bot)
    post(bot_client, f"/api/bot/game/{game.pk}/move/a1")
    move_play(game=game, player=player, move=5)
    assert_error(post(bot_client, f"/api/bot/game/{game.pk}/abort"), 409, "abort_refused")
    assert post(bot_client, f"/api/bot/game/{game.pk}/draw/offer").json()["draw_offered_by"] == "deepttt"
    assert post(bot_client, f"/api/bot/game/{game.pk}/draw/decline").json()["draw_offered_by"] is None
    draw_offer(game=game, player=player)
    answer = post(bot_client, f"/api/bot/game/{game.pk}/draw/accept").json()
    assert answer["status"] == "finished" and answer["result"] == "draw"
    game = challenge_accept(game=challenge_create(player=other_player, variant="four", side="X"), player=bot)
    answer = post(bot_client, f"/api/bot/game/{game.pk}/resign").json()
    assert answer["result"] == "X" and answer["result_reason"] == "resigned"


def test_people_and_bots_are_ranked_apart(token_client, player, other_player, bot):
    play_out(challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player),
             player, other_player)
    play_out(challenge_accept(game=challenge_create(player=bot, variant="classic"), player=player), bot, player)
    people = token_client.get("/api/leaderboard", {"pool": "classic:untimed"}).json()
    bots = token_client.get("/api/leaderboard", {"pool": "classic:untimed", "bots": "true"}).json()
    assert {row["username"] for row in people["rows"]} == {"alice", "bob"} and not people["bots"]
    assert [(row["username"], row["bot"]) for row in bots["rows"]] == [("deepttt", True)] and bots["bots"]


def test_a_bot_does_not_seek_in_quick_pairing(bot_client):
    assert_error(post(bot_client, "/api/seeks", {"variant": "classic"}), 403, "bot_refused")


def test_a_bot_reads_the_pages_but_does_not_play_on_them(bot, player, client):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="O"), player=bot)
    client.force_login(bot)
    assert client.get(reverse("games:detail", args=[game.pk])).status_code == 200
    refused = client.post(reverse("games:move", args=[game.pk]), {"move": "4"})
    assert refused.status_code == 403 and "bot API" in refused.content.decode()
    assert client.post(reverse("games:new"), {"variant": "classic", "opponent": "easy"}).status_code == 403
    assert Game.objects.get(pk=game.pk).ply == 0


def test_bots_are_shown_as_bots(bot, player, client):
    challenge_create(player=player, variant="classic", invitee=bot)
    client.force_login(player)
    profile = client.get(reverse("profile", args=["deepttt"])).content.decode()
    assert ">BOT</span> deepttt" in profile and "Challenge BOT deepttt" in profile
    lobby = client.get(reverse("games:history")).content.decode()
    assert 'data-bot="deepttt"' in lobby and "sent to <strong>BOT deepttt</strong>" in lobby
