"""The bot API's streams (issue 33): what each line says (games.api.feeds), the streams over HTTP, their refusals,
and challenges a bot leaves unanswered (games.services.bots)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.api.feeds import EventFeed, GameFeed
from games.models import ChallengeEnd, Game
from games.services import (
    bot_upgrade,
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    draw_offer,
    game_resign,
    move_play,
    sweep_bot_challenges,
)
from players.models import ApiToken
from push.hub import Hub
from push.transports import DatabaseLog

from .helpers import assert_error


@pytest.fixture
def bot(make_player):
    return bot_upgrade(player=make_player("deepttt"))


@pytest.fixture
def bot_client(bot) -> Client:
    _token, raw = ApiToken.issue(player=bot, name="engine")
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


@pytest.fixture
def own_hub(monkeypatch):
    """A hub of the test's own with no thread (nothing reads the log behind the test's back), in place of the
    process's: for the tests that only open and refuse streams."""
    import push.streams

    hub = Hub(lambda: DatabaseLog(), threaded=False)
    monkeypatch.setattr(push.streams, "hub", hub)
    return hub


def kinds(lines: list[dict]) -> list[tuple[str, int]]:
    return [(line["type"], (line.get("challenge") or line.get("game"))["id"]) for line in lines]


# The account's events ---------------------------------------------------------------------------------------


def test_the_events_open_with_what_waits_then_say_each_change(bot, player, other_player):
    running = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=bot)
    waiting = challenge_create(player=player, variant="ultimate", invitee=bot, clock="3+2")
    feed = EventFeed(bot)
    first = feed.lines()
    assert kinds(first) == [("challenge", waiting.pk), ("gameStart", running.pk)]
    challenge = first[0]["challenge"]
    assert challenge["direction"] == "in" and challenge["variant"] == "ultimate" and challenge["clock"] == "3+2"
    assert challenge["challenger"] == {"username": "alice", "bot": False}
    assert challenge["dest"] == {"username": "deepttt", "bot": True} and challenge["dest_side"] == "O"
    start = first[1]["game"]
    assert start["side"] == "O" and start["opponent"]["username"] == "alice" and start["rated"] is True
    assert feed.lines() == []  # nothing new

    accepted = challenge_accept(game=waiting, player=bot)
    assert kinds(feed.lines()) == [("gameStart", accepted.pk)]  # a challenge that became a game is no cancel
    cancelled = challenge_create(player=player, variant="classic", invitee=bot)
    declined = challenge_create(player=player, variant="classic", invitee=bot)
    mine = challenge_create(player=bot, variant="four", invitee=other_player)
    assert kinds(feed.lines()) == [("challenge", cancelled.pk), ("challenge", declined.pk), ("challenge", mine.pk)]
    challenge_cancel(game=cancelled, player=player)
    challenge_decline(game=declined, player=bot)
    challenge_decline(game=mine, player=other_player)
    ends = feed.lines()
    assert kinds(ends) == [
        ("challengeCanceled", cancelled.pk), ("challengeDeclined", declined.pk), ("challengeDeclined", mine.pk)
    ]
    assert [end["challenge"]["reason"] for end in ends] == ["canceled", "declined", "declined"]
    assert ends[2]["challenge"]["direction"] == "out"

    game_resign(game=running, player=player)
    finish = feed.lines()
    assert kinds(finish) == [("gameFinish", running.pk)]
    assert finish[0]["game"]["winner"] == "O" and finish[0]["game"]["result_reason"] == "resigned"
    assert feed.lines() == []


def test_a_game_that_starts_and_ends_between_two_looks_is_said_whole(bot, player):
    feed = EventFeed(bot)
    assert feed.lines() == []
    game = challenge_accept(game=challenge_create(player=player, variant="classic"), player=bot)
    game_resign(game=game, player=bot)
    assert kinds(feed.lines()) == [("gameStart", game.pk), ("gameFinish", game.pk)]


def test_a_challenge_a_bot_leaves_unanswered_is_declined_after_20_seconds(bot, player, other_player):
    to_bot = challenge_create(player=player, variant="classic", invitee=bot)
    to_person = challenge_create(player=player, variant="classic", invitee=other_player)
    feed = EventFeed(player)
    feed.lines()
    assert sweep_bot_challenges(now=timezone.now() + timedelta(seconds=19)) == 0
    assert sweep_bot_challenges(now=timezone.now() + timedelta(seconds=21)) == 1
    assert not Game.objects.filter(pk=to_bot.pk).exists() and Game.objects.filter(pk=to_person.pk).exists()
    said = feed.lines()
    assert kinds(said) == [("challengeDeclined", to_bot.pk)] and said[0]["challenge"]["reason"] == "timeout"
    # why a challenge went away is kept ten minutes
    assert ChallengeEnd.objects.count() == 1
    sweep_bot_challenges(now=timezone.now() + timedelta(minutes=11))
    assert ChallengeEnd.objects.count() == 0


# A game's changes ---------------------------------------------------------------------------------------------


def test_a_game_opens_whole_then_says_each_change_and_ends(bot, player):
    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="X", clock="5+3"), player=bot)
    feed = GameFeed(game.pk, bot)
    full = feed.full()
    assert full["type"] == "gameFull" and full["variant"] == "classic" and full["clock"] == "5+3"
    assert [(seat["username"], seat["bot"]) for seat in full["seats"]] == [("alice", False), ("deepttt", True)]
    assert full["moves"] == [] and full["clock_ms"] == {"X": 300_000, "O": 300_000} and full["to_move"] == "X"
    assert full["status"] == "active" and full["state"]["type"] == "gameState"
    assert feed.lines() == []
    move_play(game=game, player=player, move=4)
    (state,) = feed.lines()
    assert state["type"] == "gameState" and state["moves"] == ["b2"] and state["to_move"] == "O"
    assert set(state["clock_ms"]) == {"X", "O"}
    draw_offer(game=game, player=bot)
    (offer,) = feed.lines()
    assert offer["draw_offered_by"] == "deepttt" and offer["moves"] == ["b2"]
    game_resign(game=game, player=player)
    (end,) = feed.lines()
    assert end["status"] == "finished" and end["winner"] == "O" and end["to_move"] is None and feed.over


def test_a_challenge_that_goes_away_ends_its_stream(bot, player):
    waiting = challenge_create(player=player, variant="classic", invitee=bot)
    feed = GameFeed(waiting.pk, bot)
    assert feed.full()["status"] == "open"
    challenge_decline(game=waiting, player=bot)
    assert feed.lines()[0]["status"] == "gone" and feed.over


# Over HTTP ----------------------------------------------------------------------------------------------------


def read_lines(response, wanted: int) -> list[dict]:
    """The first ``wanted`` lines of JSON of a stream (keep-alive lines skipped)."""
    found: list[dict] = []
    for chunk in response.streaming_content:
        found += [json.loads(line) for line in chunk.decode().splitlines() if line.strip()]
        if len(found) >= wanted:
            return found
    return found


@pytest.mark.django_db(transaction=True)
def test_the_streams_over_http_are_newline_delimited_json_held_open(bot, bot_client, player, settings):
    from push.hub import hub

    settings.BOT_STREAM_KEEPALIVE = 0.2
    game = challenge_accept(game=challenge_create(player=player, variant="classic", side="X"), player=bot)
    events = bot_client.get("/api/stream/event")
    assert events.status_code == 200 and events["Content-Type"] == "application/x-ndjson"
    assert events["X-Accel-Buffering"] == "no" and events["Cache-Control"] == "no-cache"
    assert kinds(read_lines(events, 1)) == [("gameStart", game.pk)]
    moves = bot_client.get(f"/api/bot/game/stream/{game.pk}")
    assert read_lines(moves, 1)[0]["type"] == "gameFull"
    move_play(game=game, player=player, move=0)  # heard through the push, at once
    assert read_lines(moves, 1)[0]["moves"] == ["a3"]
    challenge = challenge_create(player=player, variant="four", invitee=bot)
    assert kinds(read_lines(events, 1)) == [("challenge", challenge.pk)]
    game_resign(game=game, player=player)
    assert read_lines(moves, 1)[0]["status"] == "finished"
    assert list(moves.streaming_content) == []  # the game's stream ends after its last line
    events.close()
    moves.close()
    assert hub.listeners == 0  # closed: the process's hub stops reading for them


def test_the_streams_refuse_as_the_api_does(
    bot, bot_client, player, other_player, token_client, settings, own_hub
):
    private = challenge_accept(game=challenge_create(player=player, variant="classic", invitee=other_player),
                               player=other_player)
    assert_error(bot_client.get(f"/api/bot/game/stream/{private.pk}"), 404, "not_found")
    assert_error(bot_client.get("/api/bot/game/stream/99999"), 404, "not_found")
    assert_error(token_client.get(f"/api/bot/game/stream/{private.pk}"), 403, "not_a_bot")
    assert_error(Client().get("/api/stream/event"), 401, "unauthenticated")
    assert_error(bot_client.post("/api/stream/event"), 405, "method_not_allowed")
    settings.LIVE_STREAMS = False
    refused = assert_error(bot_client.get("/api/stream/event"), 503, "unavailable")
    assert "ASGI" in refused["message"]


def test_an_account_holds_a_few_streams_at_most(bot, bot_client, settings, own_hub):
    settings.LIVE_STREAMS_PER_PLAYER = 1
    first = bot_client.get("/api/stream/event")
    assert first.status_code == 200 and read_lines(first, 0) == []  # (its first line: nothing waits)
    refused = bot_client.get("/api/stream/event")
    assert_error(refused, 429, "busy")
    assert refused["Retry-After"]
    first.close()
    assert own_hub.listeners == 0
