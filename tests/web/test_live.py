"""Server push: /games/live/ streams notices of what changed (games.live publishes, the push app carries them)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.live import LOBBY, game_topic, player_topic
from games.services import challenge_accept, challenge_create, game_create, move_play
from push.hub import Hub, Subscription
from push.transports import DatabaseLog

URL = reverse("games:live")


@pytest.fixture
def hub(monkeypatch):
    """A hub of the test's own that the test reads by hand (``read_once``), in place of the process's."""
    import games.web.views.live
    import push.streams

    hub = Hub(lambda: DatabaseLog(), threaded=False)
    monkeypatch.setattr(push.streams, "hub", hub)
    monkeypatch.setattr(games.web.views.live, "open_stream", push.streams.open_stream)
    return hub


def listening(hub: Hub, *topics: str) -> Subscription:
    hub.prime()
    return hub.subscribe(Subscription(topics))


def mover(game, player, other):
    return player if game.x_player_id == player.pk else other


@pytest.mark.django_db
def test_a_change_reaches_the_subscribers_of_its_topics(player, other_player, make_player, hub, published):
    duel = challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player)
    mine, theirs = listening(hub, game_topic(duel.pk)), listening(hub, player_topic(other_player.pk))
    lobby = listening(hub, LOBBY)
    elsewhere = listening(hub, player_topic(make_player("carol").pk), game_topic(duel.pk + 1))
    with published():
        move_play(game=duel, player=mover(duel, player, other_player), move=4)
    assert hub.read_once() == 1
    assert mine.take()[0] == {game_topic(duel.pk)} and theirs.take()[0] == {player_topic(other_player.pk)}
    assert lobby.take()[0] == {LOBBY}  # a move in a game between people changes the lobby's list of live games
    assert elsewhere.take()[0] == set()


@pytest.mark.django_db
def test_a_game_against_the_computer_tells_its_page_only(player, hub, published):
    game = game_create(player=player, variant="classic", opponent="easy")
    page, lobby = listening(hub, game_topic(game.pk)), listening(hub, LOBBY)
    with published():
        move_play(game=game, player=player, move=4, quick_reply=True)
    hub.read_once()
    assert page.take()[0] == {game_topic(game.pk)} and lobby.take()[0] == set()


@pytest.mark.django_db
def test_logging_out_tells_the_players_other_pages_only(player, other_player, player_client, hub, published):
    mine, theirs, lobby = (listening(hub, t) for t in (player_topic(player.pk), player_topic(other_player.pk), LOBBY))
    with published():
        assert player_client.post(reverse("logout")).status_code == 302
    assert hub.read_once() == 1
    assert mine.take()[0] == {player_topic(player.pk)}  # its badges ask, find no session, and go to the login page
    assert theirs.take()[0] == set() and lobby.take()[0] == set()


def chunks(response):
    stream = iter(response.streaming_content)
    return lambda: next(stream).decode()


@pytest.mark.django_db(transaction=True)
def test_the_stream_says_at_once_what_changed_with_its_position(player, other_player, player_client):
    duel = challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player)
    response = player_client.get(URL, {"game": duel.pk})
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    read = chunks(response)
    opening = read()
    assert "event: open" in opening and "retry: " in opening and "\nid: db/" in opening
    assert "event: reload" in opening  # no position given: the page asks for everything once
    move_play(game=duel, player=mover(duel, player, other_player), move=4)
    notice = read()  # the process's hub hands it over as soon as it reads the log
    assert f"event: game\ndata: {duel.pk}\n" in notice and "event: me" in notice
    assert "id: db/" in notice
    response.close()


@pytest.mark.django_db(transaction=True)
def test_a_page_reconnecting_gets_what_it_missed_and_nothing_else(player, other_player, player_client):
    from push.streams import position_now

    duel = challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player)
    quiet = game_create(player=player, variant="classic", opponent="easy")
    rendered = position_now()  # the page was drawn here
    assert rendered.startswith("db/")
    move_play(game=duel, player=mover(duel, player, other_player), move=4)  # before its stream opened
    response = player_client.get(URL, {"game": duel.pk, "since": rendered})
    opening = chunks(response)()
    assert f"event: game\ndata: {duel.pk}\n" in opening and "event: reload" not in opening
    response.close()
    # the browser reconnects with the last id it heard (Last-Event-ID wins over ?since=): nothing new, nothing sent
    last = opening.split("id: ")[-1].split("\n")[0]
    move_play(game=quiet, player=player, move=4, quick_reply=True)  # another game's change: not this page's
    again = player_client.get(URL, {"game": duel.pk, "since": rendered}, HTTP_LAST_EVENT_ID=last)
    opening = chunks(again)()
    assert "event: game" not in opening and "event: reload" not in opening and "event: open" in opening
    again.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("since", ["other/5", "db/x", "db/", "garbage", "db/99999999", "é/1"])
def test_a_position_it_cannot_replay_from_tells_the_page_to_reload(player_client, since):
    response = player_client.get(URL, {"since": since})
    assert response.status_code == 200
    assert "event: reload" in chunks(response)()
    response.close()


@pytest.mark.django_db
@pytest.mark.parametrize("query,status", [({"game": "x1"}, 400), ({"game": "1.0"}, 400), ({"game": "999999"}, 404)])
def test_a_stream_for_no_game_is_refused(player_client, query, status):
    response = player_client.get(URL, query)
    assert response.status_code == status and not response.streaming


@pytest.mark.django_db
def test_a_stream_for_a_private_game_of_others_is_refused(player, other_player, make_player, client):
    game = challenge_create(player=player, variant="classic", invitee=other_player)
    client.force_login(make_player("mallory"))
    assert client.get(URL, {"game": game.pk}).status_code == 404


@pytest.mark.django_db
def test_only_signed_in_players_listen_and_only_by_get(client, player_client):
    assert client.get(URL).status_code == 302
    assert player_client.post(URL).status_code == 405


def ask(rf, player, **meta):
    from games.web.views import live as view

    request = rf.get(URL, **meta)
    request.user = player
    return view.live(request)


@pytest.mark.django_db(transaction=True)
def test_past_the_process_cap_a_stream_is_refused_with_when_to_ask_again(player, settings, rf, hub):
    """Streams per process are capped (LIVE_MAX_STREAMS): past it the page is told to poll and try later."""
    settings.LIVE_MAX_STREAMS, settings.LIVE_STREAMS_PER_PLAYER = 2, 0
    first = ask(rf, player)
    assert "event: open" in chunks(first)()  # subscribed: one stream open
    other = listening(hub, LOBBY)  # a second page's
    refused = ask(rf, player)
    assert refused.status_code == 503 and not refused.streaming
    assert refused["Retry-After"] == str(settings.LIVE_RETRY_MS // 1000)
    assert "Too many live pages" in refused.content.decode()
    hub.unsubscribe(other)
    assert ask(rf, player).status_code == 200  # one closed: room again
    first.close()


@pytest.mark.django_db(transaction=True)
def test_one_account_cannot_hold_more_than_its_share_of_streams(player, other_player, settings, rf, hub):
    settings.LIVE_MAX_STREAMS, settings.LIVE_STREAMS_PER_PLAYER = 0, 3
    held = [ask(rf, player) for _ in range(3)]
    for response in held:
        assert "event: open" in chunks(response)()
    refused = ask(rf, player)
    assert refused.status_code == 429 and "3 live pages open" in refused.content.decode()
    assert refused["Retry-After"]
    assert ask(rf, other_player).status_code == 200  # another player is not affected
    held[0].close()  # a page closed: room again
    assert ask(rf, player).status_code == 200
    for response in held[1:]:
        response.close()


@pytest.mark.django_db
def test_a_process_that_serves_no_streams_refuses_them(player, rf, hub, settings):
    """gunicorn's sync workers serve one request at a time: a stream would hold a whole process (make serve sends
    streams to the ASGI server); their config turns streams off, and a page that reaches one polls."""
    settings.LIVE_STREAMS = False
    refused = ask(rf, player)
    assert refused.status_code == 503 and "ASGI server" in refused.content.decode()
    assert hub.listeners == 0
