"""The load benchmark's own parts (bench/web.py): its client plays real games against a live server, and
what it counts is what the server stored. If the pages change what the client reads, this fails
rather than the benchmark quietly measuring nothing."""

from __future__ import annotations

import queue
import threading
import time
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest

from bench import bare_wsgi
from bench.web import PASSWORD, Session, play
from games.models import Game, Move
from games.positions import game_moves, state_after


@pytest.fixture
def bench_player(transactional_db):
    from players.models import Player

    return Player.objects.create_user(username="bench000", password=PASSWORD)


@pytest.mark.parametrize("again", [True, False], ids=["play-again", "new-each-game"])
def test_client_plays_whole_games_and_counts_what_is_stored(live_server, bench_player, again):
    port = urlsplit(live_server.url).port
    out: queue.Queue = queue.Queue()
    deadline = SimpleNamespace(value=time.monotonic() + 60)
    play(port, bench_player.username, threading.Barrier(1), deadline, 3, 7, again, out)
    stats = out.get_nowait()

    assert stats.errors == []
    assert stats.games_started == stats.games_finished == 3
    games = list(Game.objects.filter(created_by=bench_player))
    assert len(games) == 3 and all(game.is_finished for game in games)
    assert stats.moves == Move.objects.filter(game__in=games).count()
    assert stats.accepted == {game.pk: game.ply for game in games}
    for game in games:
        assert state_after(game, game_moves(game)).is_over
    # The first game from the form and its page; the next ones by Play again (one answer each), or the form.
    opened = {kind: len(stats.by_kind.get(kind, [])) for kind in ("new game", "game page", "again")}
    expected = {"new game": 1, "game page": 1, "again": 2} if again else {"new game": 3, "game page": 3, "again": 0}
    assert opened == expected
    sides = {game.o_player_id is None for game in games}
    assert len(sides) == 1  # the player keeps its side from game to game
    assert len(stats.move_latencies) >= 3 * 2  # at least two moves of the player's per classic game


def test_session_keeps_cookies_and_reads_answers_by_length(live_server, bench_player):
    session = Session(urlsplit(live_server.url).port)
    session.login(bench_player.username)
    assert {"sessionid", "csrftoken"} <= set(session.cookies)
    status, location, _ = session.request(
        "POST", "/games/new/", {"variant": "classic", "opponent": "easy", "strategy": "random", "side": "X"}
    )
    assert status == 302 and location.endswith(f"/games/{Game.objects.get().pk}/")
    status, _, body = session.request("GET", location)
    assert status == 200 and body.rstrip().endswith("</html>")
    status, _, body = session.request("POST", f"/games/{Game.objects.get().pk}/move/", {"move": "99"}, htmx=True)
    assert status == 400 and "99" in body  # the engine's reason, shown in the page's error box
    old = Game.objects.get()
    old.status = Game.Status.FINISHED
    old.save()
    status, where, body = session.request("POST", f"/games/{old.pk}/again/", {}, htmx=True)
    new = Game.objects.exclude(pk=old.pk).get()
    assert status == 200 and where == f"/games/{new.pk}/"  # HX-Push-Url: where the browser now is
    assert f'data-game="{new.pk}"' in body
    session.close()


def test_session_login_with_a_wrong_password_fails_loudly(live_server, bench_player):
    bench_player.set_password("something-else-entirely")
    bench_player.save()
    with pytest.raises(AssertionError, match="login of bench000: 400"):
        Session(urlsplit(live_server.url).port).login(bench_player.username)


def test_bare_wsgi_app_answers_ok():
    started = {}

    def start_response(status, headers):
        started.update(status=status, headers=dict(headers))

    assert b"".join(bare_wsgi.application({}, start_response)) == b"ok"
    assert started == {"status": "200 OK", "headers": {"Content-Type": "text/plain", "Content-Length": "2"}}
