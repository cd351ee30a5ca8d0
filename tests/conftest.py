"""Shared fixtures: players, logged-in clients, games. Keep them general; any test module may use them."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.test import Client

PASSWORD = "a-Str0ng-passphrase"


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Creating users with the production hasher costs ~0.5 s each; tests don't need that strength."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def make_player(db):
    """Factory: ``make_player("alice", is_staff=True)`` creates a player with the shared password."""
    from players.models import Player

    def make(username: str = "alice", **fields):
        return Player.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def player(make_player):
    return make_player("alice")


@pytest.fixture
def other_player(make_player):
    return make_player("bob")


@pytest.fixture
def third_player(make_player):
    """carol: a third player, to watch a game of alice and bob, or to be refused a seat in it."""
    return make_player("carol")


@pytest.fixture
def staff(make_player):
    return make_player("staffer", is_staff=True, is_superuser=True)


@pytest.fixture
def player_client(player) -> Client:
    """A test client logged in as ``player``."""
    client = Client()
    client.force_login(player)
    return client


@pytest.fixture
def other_client(other_player) -> Client:
    client = Client()
    client.force_login(other_player)
    return client


@pytest.fixture
def third_client(third_player) -> Client:
    client = Client()
    client.force_login(third_player)
    return client


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def published(django_capture_on_commit_callbacks):
    """The live push's notices published inside ``with published() as heard:``, one set of topics each: the
    transaction's on-commit callbacks run as it leaves (as after a real commit) and write the push's database log,
    read back here."""
    from push.models import Entry

    @contextmanager
    def watch():
        before = Entry.objects.order_by("-id").values_list("id", flat=True).first() or 0
        heard: list[set[str]] = []
        with django_capture_on_commit_callbacks(execute=True):
            yield heard
        heard += [set(topics.split()) for topics in
                  Entry.objects.filter(id__gt=before).order_by("id").values_list("topics", flat=True)]

    return watch


@pytest.fixture
def make_game(db, player):
    """Factory over ``games.services.game_create``; defaults to a local classic game of ``player``."""
    from games.services import game_create

    def make(**kwargs):
        kwargs.setdefault("player", player)
        kwargs.setdefault("variant", "classic")
        kwargs.setdefault("options", {})
        kwargs.setdefault("opponent", "local")
        kwargs.setdefault("side", "X")
        return game_create(**kwargs)

    return make


@pytest.fixture
def duel(player, other_player):
    """A classic game in progress: alice (X) against bob (O), made by a challenge and its acceptance."""
    from games.services import challenge_accept, challenge_create

    game = challenge_create(player=player, variant="classic", side="X")
    return challenge_accept(game=game, player=other_player)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory) -> None:
    """On SQLite, test against a database file rather than pytest-django's shared in-memory one.

    Threads (the concurrency tests, the live server of the browser tests) each open their own
    connection; on a shared-cache in-memory database a second writer fails at once with "database
    table is locked", whereas on a file the settings' BEGIN IMMEDIATE + busy timeout make writers
    queue, as in production. The file lives in pytest's temporary directory (one per xdist worker).
    """
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3" and not db.get("TEST", {}).get("NAME"):
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


@pytest.fixture
def redis_server(tmp_path):
    """A throw-away Redis server (bench/servers.py), stopped after the test; ``.url``, ``.stop()``, ``.start()``."""
    from bench.servers import RedisServer

    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()
