"""Two app servers on one PostgreSQL and one Redis, each configured by its environment alone, as on two machines
(issue 28): a move on one reaches a page on the other, a logout on one ends the session on the other, Redis
restarted loses nothing, and a server killed leaves the other serving, its pages' streams reconnecting to it."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from bench.common import Session
from bench.servers import Postgres, RedisServer, Stack

from .conftest import Stream, app_env, make_duel, make_players, manage, run_dir

#: an account's live streams on the whole site, across both servers (settings.LIVE_STREAMS_PER_PLAYER)
PER_PLAYER = 3


@dataclass
class Cluster:
    a: Stack
    b: Stack
    redis: RedisServer
    env: dict[str, str]


@pytest.fixture(scope="module")
def cluster(production_static) -> Iterator[Cluster]:
    folder = run_dir("ttt-cluster-")
    database = Postgres()
    redis = RedisServer(folder)
    redis.start()
    env = app_env(database_url=database.url, redis_url=redis.url, static_root=production_static,
                  LIVE_STREAMS_PER_PLAYER=str(PER_PLAYER))
    manage(env, "migrate", "--noinput", "-v", "0")
    make_players(env, "alice", "bob", "carol", "dave")
    a, b = Stack(env, folder, "a"), Stack(env, folder, "b")
    try:
        a.start()
        b.start()
        yield Cluster(a, b, redis, env)
    finally:
        a.stop()
        b.stop()
        redis.stop()
        database.close()


def signed_in(stack: Stack, username: str) -> Session:
    session = Session(stack.port)
    session.login(username)
    return session


def on(stack: Stack, session: Session) -> Session:
    """The same browser (its cookies) talking to another server, as a load balancer would send it."""
    other = Session(stack.port)
    other.cookies = dict(session.cookies)
    return other


def move(session: Session, game: int, cell: int, ply: int) -> None:
    status, _, text = session.request("POST", f"/games/{game}/move/", {"move": str(cell), "ply": str(ply)}, htmx=True)
    assert status == 200, text[:300]


def test_a_move_on_one_server_reaches_a_page_on_the_other(cluster, streams):
    game = make_duel(cluster.env, "alice", "bob")
    alice, bob = signed_in(cluster.a, "alice"), signed_in(cluster.b, "bob")
    page = Stream(cluster.b.port, bob.cookies, f"?game={game}")
    streams.append(page)
    page.read_until("event: open")
    move(alice, game, 4, 0)
    page.read_until(f"event: game\ndata: {game}\n")
    move(on(cluster.b, bob), game, 0, 1)  # and back: bob moves on B, alice's page on A hears it
    mine = Stream(cluster.a.port, alice.cookies, f"?game={game}")
    streams.append(mine)
    mine.read_until("event: open")
    move(alice, game, 8, 2)
    page.read_until(f"event: game\ndata: {game}\n", timeout=10)


def test_a_logout_on_one_server_ends_the_session_on_the_other(cluster):
    carol = signed_in(cluster.a, "carol")
    elsewhere = on(cluster.b, carol)
    assert elsewhere.request("GET", "/games/")[0] == 200
    status, _, _ = carol.request("POST", "/accounts/logout/", {})
    assert status == 302
    status, location, _ = elsewhere.request("GET", "/games/")
    assert status == 302 and "/accounts/login/" in location  # at once: the session was in Redis, shared


def test_one_account_holds_a_few_streams_across_both_servers(cluster, streams):
    dave = signed_in(cluster.a, "dave")
    for stack in (cluster.a, cluster.b, cluster.a):
        stream = Stream(stack.port, dave.cookies)
        streams.append(stream)
        stream.read_until("event: open")
    refused = Stream(cluster.b.port, dave.cookies)
    streams.append(refused)
    assert refused.status == 429
    refused.read_until(f"{PER_PLAYER} live pages open")
    streams[0].close()  # a page closed: its place is given back
    deadline = time.monotonic() + 20
    while True:
        again = Stream(cluster.b.port, dave.cookies)
        streams.append(again)
        if again.status == 200:
            break
        assert time.monotonic() < deadline, "the closed stream's place was never given back"
        time.sleep(0.5)


def test_redis_restarted_moves_still_play_and_pages_catch_up(cluster, streams):
    game = make_duel(cluster.env, "alice", "bob")
    alice, bob = signed_in(cluster.a, "alice"), signed_in(cluster.b, "bob")
    page = Stream(cluster.b.port, bob.cookies, f"?game={game}")
    streams.append(page)
    page.read_until("event: open")
    seen = page.last_id()
    cluster.redis.stop()
    try:
        assert page.ends(), "the stream stayed open with its push down"  # its page polls meanwhile
        move(alice, game, 4, 0)  # sessions fall back to the database: moves play on
        status, _, text = on(cluster.b, bob).request("GET", f"/games/{game}/")
        assert status == 200 and re.search(r'data-cell="4"[^>]*data-mark="X"', text)  # what a poll shows
        down = Stream(cluster.b.port, bob.cookies, f"?game={game}")
        streams.append(down)
        assert down.status == 503  # no push meanwhile: the page polls
    finally:
        cluster.redis.start()
    back = Stream(cluster.b.port, bob.cookies, f"?game={game}", last_event_id=seen)
    streams.append(back)
    back.read_until("event: reload")  # notices were lost with Redis: the page asks for everything it shows
    move(on(cluster.b, bob), game, 0, 1)
    mine = Stream(cluster.a.port, alice.cookies, f"?game={game}")
    streams.append(mine)
    mine.read_until("event: open")
    move(alice, game, 8, 2)
    back.read_until(f"event: game\ndata: {game}\n")  # the push is back
    moves = manage(cluster.env, "shell", "--no-imports", "-c",
                   f"from games.models import Move; print(Move.objects.filter(game_id={game}).count())")
    assert int(moves) == 3  # nothing lost


def test_one_server_killed_the_other_serves_and_its_pages_reconnect_there(cluster, streams):
    game = make_duel(cluster.env, "alice", "bob")
    alice, bob = signed_in(cluster.b, "alice"), signed_in(cluster.a, "bob")
    page = Stream(cluster.a.port, bob.cookies, f"?game={game}")
    streams.append(page)
    page.read_until("event: open")
    seen = page.last_id()
    cluster.a.kill()
    assert page.ends(), "a stream of the killed server stayed open"
    move(alice, game, 4, 0)  # on B, while bob's page is away
    back = Stream(cluster.b.port, bob.cookies, f"?game={game}", last_event_id=seen)  # the balancer sends it to B
    streams.append(back)
    opening = back.read_until("event: open")
    back.read_until(f"event: game\ndata: {game}\n")  # replayed: the move it missed while reconnecting
    assert "event: reload" not in opening
