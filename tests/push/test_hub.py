"""The hub: each process's reader of the log, handing notices to the streams of their topics."""

from __future__ import annotations

import threading

import pytest

from games.live import changed, game_topic
from push.hub import Hub, Subscription
from push.publish import publish
from push.transports import DatabaseLog, RedisLog


def hub_on(log) -> Hub:
    hub = Hub(lambda: log, threaded=False)
    hub.prime()
    return hub


@pytest.mark.django_db
def test_each_notice_reaches_the_subscriptions_of_its_topics(published):
    hub = hub_on(DatabaseLog())
    game, lobby, other = (hub.subscribe(Subscription([t])) for t in ("game:1", "lobby", "game:2"))
    with published():
        publish(["game:1", "lobby"])
        publish(["game:1"])
    assert hub.read_once() == 2
    topics, position = game.take()
    assert topics == {"game:1"} and position == hub.log.head()
    assert lobby.take()[0] == {"lobby"} and other.take() == (set(), None)
    hub.unsubscribe(game)
    with published():
        publish(["game:1"])
    hub.read_once()
    assert game.take()[0] == set() and hub.listeners == 2


@pytest.mark.django_db
def test_nothing_is_published_before_the_commit_nor_after_a_rollback(published):
    from django.db import transaction

    hub = hub_on(DatabaseLog())
    page = hub.subscribe(Subscription(["game:1"]))
    with published():
        try:
            with transaction.atomic():
                publish(["game:1"])
                raise RuntimeError("the change failed")
        except RuntimeError:
            pass
    assert hub.read_once() == 0 and page.take()[0] == set()


@pytest.mark.django_db(transaction=True)
def test_two_changes_committing_out_of_order_both_reach_the_page(make_player):
    """The first transaction writes first and commits last. On PostgreSQL both run at once (an id handed out at
    INSERT used to commit after a later one the reader had already passed: that notice was never heard); on
    SQLite the second waits for the first's write lock. Either way both changes reach the page."""
    from games.models import Game
    from games.services import challenge_accept, challenge_create

    alice, bob = make_player("alice"), make_player("bob")
    first, second = (challenge_accept(game=challenge_create(player=alice, variant="classic"), player=bob)
                     for _ in range(2))
    hub = Hub(lambda: DatabaseLog(), threaded=False)
    hub.prime()
    page = hub.subscribe(Subscription([game_topic(first.pk), game_topic(second.pk)]))
    wrote, go = threading.Event(), threading.Event()

    def change(game: Game, hold: bool) -> None:
        from django.db import connection, transaction

        try:
            with transaction.atomic():
                Game.objects.filter(pk=game.pk).update(version=game.version + 1)
                changed(game)
                if hold:
                    wrote.set()
                    go.wait(10)
        finally:
            connection.close()

    slow = threading.Thread(target=change, args=(first, True))
    slow.start()
    assert wrote.wait(10)
    fast = threading.Thread(target=change, args=(second, False))
    fast.start()
    fast.join(1)  # done on PostgreSQL; waiting for the first's lock on SQLite
    hub.read_once()
    go.set()
    slow.join(10)
    fast.join(10)
    hub.read_once()
    assert page.take()[0] == {game_topic(first.pk), game_topic(second.pk)}


def test_a_failing_transport_ends_the_streams_and_a_working_one_takes_them_back(redis_server):
    hub = Hub(lambda: RedisLog(redis_server.url, prefix="t:"))
    hub.prime()
    page = hub.subscribe(Subscription(["game:1"]))
    try:
        redis_server.stop()
        page.get(10)
        assert page.broken  # the stream ends: its page polls meanwhile
        assert hub.down
        redis_server.start()
        hub.prime()  # a new stream's view primes the hub: the log answers again
        assert not hub.down
        fresh = hub.subscribe(Subscription(["game:1"]))
        hub.log.append(["game:1"])
        topics, _ = fresh.get(10)
        assert topics == {"game:1"}
    finally:
        hub.stop()


def test_a_log_emptied_while_the_hub_was_idle_is_noticed_at_the_next_stream(redis_server):
    """Redis restarted while nobody listened here (no read of this hub failed): the next stream's priming finds the
    new epoch, follows the new log from its head, and ends the streams holding positions of the old one."""
    hub = Hub(lambda: RedisLog(redis_server.url, prefix="t:"), threaded=False)
    hub.prime()
    old = hub.epoch
    page = hub.subscribe(Subscription(["game:1"]))
    redis_server.stop()
    redis_server.start()
    hub.prime()
    assert hub.epoch != old and page.broken
    fresh = hub.subscribe(Subscription(["game:1"]))
    hub.log.append(["game:1"])
    assert hub.read_once() == 1 and fresh.take()[0] == {"game:1"}
