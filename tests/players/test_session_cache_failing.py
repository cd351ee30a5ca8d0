"""The sessions' cache may fail (Redis restarting): sessions are then read from and written to the database alone,
nothing else fails, and /healthz never depends on it (issue 29, minor). Without Redis there is no cache to fail:
sessions are read from the database."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_sessions_go_on_through_the_database_while_redis_is_down(settings, redis_server, make_player, password):
    settings.CACHES = {**settings.CACHES, settings.SESSION_CACHE_ALIAS: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_server.url}}
    make_player("ursula")
    client = Client()
    assert client.post(reverse("login"), {"username": "ursula", "password": password}).status_code == 302
    redis_server.stop()
    assert client.get("/healthz").status_code == 200
    assert client.get(reverse("games:history")).status_code == 200  # read from the database
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("games:history")).status_code == 302  # and ended
    again = Client()
    assert again.post(reverse("login"), {"username": "ursula", "password": password}).status_code == 302
    assert again.get(reverse("games:history")).status_code == 200  # a new one, written to the database


def test_without_redis_no_cache_folder_stands_between_a_request_and_its_session():
    assert django_settings.CACHES[django_settings.SESSION_CACHE_ALIAS]["BACKEND"].endswith("DummyCache")
