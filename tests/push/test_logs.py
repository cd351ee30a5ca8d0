"""The push's two logs, each against the real thing: the site's database, and a Redis server."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from push.models import Entry
from push.transports import DatabaseLog, RedisLog, order, valid_position


@pytest.mark.django_db
def test_the_database_log_reads_in_order_and_replays_what_a_reader_missed():
    log = DatabaseLog()
    start = log.head()
    for topics in (["game:1", "lobby"], ["player:2"], ["game:1"]):
        log.append(topics)
    notices = log.read(start, 0)
    assert [n.topics for n in notices] == [("game:1", "lobby"), ("player:2",), ("game:1",)]
    assert log.head() == notices[-1].position
    assert log.read(log.head(), 0) == []
    assert [n.topics for n in log.since(notices[0].position)] == [("player:2",), ("game:1",)]
    assert log.epoch() == "db"


@pytest.mark.django_db
def test_the_database_log_says_when_a_replay_would_have_holes():
    log = DatabaseLog()
    for n in range(5):
        log.append([f"game:{n}"])
    first, *_, last = Entry.objects.order_by("id")
    Entry.objects.filter(pk=first.pk).update(created=timezone.now() - timedelta(hours=1))
    log.prune()
    assert not Entry.objects.filter(pk=first.pk).exists()
    assert log.since(str(first.pk - 1)) is None  # pruned past it: the page reloads
    assert [n.topics for n in log.since(str(first.pk))] == [("game:1",), ("game:2",), ("game:3",), ("game:4",)]
    Entry.objects.exclude(pk=last.pk).update(created=timezone.now() - timedelta(hours=1))
    log.prune()
    assert list(Entry.objects.values_list("pk", flat=True)) == [last.pk]  # the newest stays: the log's position
    assert log.head() == str(last.pk)


@pytest.mark.django_db
def test_an_emptied_database_log_asks_pages_to_reload():
    log = DatabaseLog()
    assert log.since("0") == []
    assert log.since("7") is None


def test_positions_of_either_log_sort_and_are_checked():
    assert order("17") < order("18") and order("1732712345678-0") < order("1732712345678-1") < order("1732712345679-0")
    assert valid_position("17") and valid_position("1732712345678-3")
    for bad in ("", "x", "1-2-3", "-1", "1 ", "9" * 21, "1\n2"):
        assert not valid_position(bad)


def test_the_redis_log_reads_blocks_and_replays(redis_server):
    log = RedisLog(redis_server.url, prefix="t:")
    assert log.since("0-0") == []  # nothing yet: nothing missed
    start = log.head()
    log.append(["game:1", "lobby"])
    log.append(["player:2"])
    notices = log.read(start, 0.1)
    assert [n.topics for n in notices] == [("game:1", "lobby"), ("player:2",)]
    assert order(notices[0].position) < order(notices[1].position) and log.head() == notices[1].position
    assert [n.topics for n in log.since(notices[0].position)] == [("player:2",)]
    assert log.read(log.head(), 0.05) == []  # waited, and nothing came


def test_a_restarted_redis_changes_the_epoch(redis_server):
    log = RedisLog(redis_server.url, prefix="t:")
    epoch = log.epoch()
    assert epoch and log.epoch() == epoch  # the same while Redis keeps it
    log.append(["game:1"])
    redis_server.stop()
    with pytest.raises(Exception):  # noqa: B017 - whatever redis-py raises for a refused connection
        log.append(["game:2"])  # lost: the next append that works starts a new epoch
    redis_server.start()
    assert log.epoch() != epoch  # emptied by the restart: a new epoch, so pages reload rather than replay
    renewed = log.epoch()
    log.append(["game:3"])
    assert log.epoch() != renewed  # an append failed in between: notices may be missing, a new epoch again


def test_the_redis_log_serves_a_burst_of_threads_larger_than_its_pool(redis_server):
    """Under uvicorn each request's view runs in a thread of its own: 200 pages opening their streams at once ask
    the process's one log from 200 threads. They wait their turn for a connection, and none is refused (redis-py's
    default pool refused past 100: "Too many connections", and the page got "live updates are down")."""
    import threading

    log = RedisLog(redis_server.url, prefix="burst:")
    log.append(["game:1"])
    start, errors, heads = threading.Barrier(200), [], []

    def open_a_page() -> None:
        start.wait()
        try:
            log.epoch()
            heads.append(log.head())
            log.since("0-0")
        except Exception as err:  # noqa: BLE001 - any failure is what the test counts
            errors.append(repr(err))

    threads = [threading.Thread(target=open_a_page) for _ in range(200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(heads) == 200 and len(set(heads)) == 1
