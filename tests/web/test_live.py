"""Server push: /games/live/ streams notices of what changed (games.live's hub reads the events the services write)."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from games.live import LOBBY, Hub, Subscription, game_topic, player_topic
from games.services import challenge_accept, challenge_create, game_create, move_play

URL = reverse("games:live")


def listening(hub: Hub, *topics: str) -> Subscription:
    return hub.subscribe(Subscription(topics))


@pytest.mark.django_db
def test_a_change_reaches_the_subscribers_of_its_topics(player, other_player, make_player):
    duel = challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player)
    hub = Hub(threaded=False)
    hub.read_once()  # starts after the events already there
    mine, theirs = listening(hub, game_topic(duel.pk)), listening(hub, player_topic(other_player.pk))
    lobby = listening(hub, LOBBY)
    elsewhere = listening(hub, player_topic(make_player("carol").pk), game_topic(duel.pk + 1))
    move_play(game=duel, player=player, move=4)
    assert hub.read_once() == 1
    assert mine.get(0) == {game_topic(duel.pk)} and theirs.get(0) == {player_topic(other_player.pk)}
    assert lobby.get(0) == {LOBBY}  # a move in a game between people changes the lobby's list of live games
    assert elsewhere.get(0) == set()
    assert mine.get(0) == set()  # each notice once
    hub.unsubscribe(mine)
    move_play(game=duel, player=other_player, move=0)
    hub.read_once()
    assert mine.get(0) == set() and theirs.get(0) == {player_topic(other_player.pk)}


@pytest.mark.django_db
def test_a_game_against_the_computer_tells_its_page_only(player):
    game = game_create(player=player, variant="classic", opponent="easy")
    hub = Hub(threaded=False)
    hub.read_once()
    page, lobby = listening(hub, game_topic(game.pk)), listening(hub, LOBBY)
    move_play(game=game, player=player, move=4, quick_reply=True)
    hub.read_once()
    assert page.get(0) == {game_topic(game.pk)} and lobby.get(0) == set()


@pytest.mark.django_db
def test_logging_out_tells_the_players_other_pages_only(player, other_player, player_client):
    hub = Hub(threaded=False)
    hub.read_once()
    mine, theirs, lobby = (listening(hub, t) for t in (player_topic(player.pk), player_topic(other_player.pk), LOBBY))
    assert player_client.post(reverse("logout")).status_code == 302
    assert hub.read_once() == 1
    assert mine.get(0) == {player_topic(player.pk)}  # its badges ask, find no session, and go to the login page
    assert theirs.get(0) == set() and lobby.get(0) == set()


@pytest.mark.django_db(transaction=True)
def test_the_stream_says_at_once_what_changed(player, other_player, player_client):
    duel = challenge_accept(game=challenge_create(player=player, variant="classic"), player=other_player)
    response = player_client.get(URL, {"game": duel.pk})
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    stream = iter(response.streaming_content)
    assert b"event: open" in next(stream)
    started = time.monotonic()
    move_play(game=duel, player=player if duel.x_player_id == player.pk else other_player, move=4)
    notice = next(stream).decode()
    assert f"event: game\ndata: {duel.pk}\n\n" in notice and "event: me" in notice
    assert time.monotonic() - started < 2  # the hub reads events every 50 ms
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


@pytest.mark.django_db
def test_past_the_cap_a_stream_is_refused_with_when_to_ask_again(player, settings, monkeypatch, rf):
    """Each stream holds a thread of the process: past LIVE_MAX_STREAMS the page is told to poll and try later."""
    from games.web.views import live as view

    hub = Hub(threaded=False)
    monkeypatch.setattr(view, "hub", hub)

    def ask():
        request = rf.get(URL)
        request.user = player
        return view.live(request)

    settings.LIVE_MAX_STREAMS = 2
    first = ask()
    assert b"event: open" in next(iter(first.streaming_content))  # subscribed: one stream open
    other = listening(hub, LOBBY)  # a second page's
    assert hub.listeners == 2
    refused = ask()
    assert refused.status_code == 503 and not refused.streaming
    assert refused["Retry-After"] == "30"
    assert "Too many live pages" in refused.content.decode()
    hub.unsubscribe(other)
    assert ask().status_code == 200  # one closed: room again
    settings.LIVE_MAX_STREAMS = 0  # no cap (the development server, the tests)
    hub.subscribe(other)
    assert ask().status_code == 200
    first.close()
    assert hub.listeners == 1


@pytest.mark.django_db(transaction=True)
def test_an_idle_hub_gives_its_database_connection_back(monkeypatch):
    # A process nobody listens to holds no connection (on PostgreSQL one per process would count against the
    # server's limit, and an open one kept the test database from being dropped).
    import threading

    import games.live

    closed = threading.Event()

    class Spy:
        def close_all(self):
            if threading.current_thread().name == "live-hub":
                closed.set()

    monkeypatch.setattr(games.live, "IDLE_RESET", 0.05)
    monkeypatch.setattr(games.live, "connections", Spy())
    hub = Hub(every=0.01)
    try:
        hub.prime()
        page = listening(hub, LOBBY)
        time.sleep(0.05)  # the hub reads while the page listens
        hub.unsubscribe(page)
        assert closed.wait(5), "the idle hub kept its connection"
    finally:
        hub._stop.set()
