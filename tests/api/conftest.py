"""Fixtures of the API's tests: a personal token, a client that sends it, a game against the computer."""

from __future__ import annotations

import pytest
from django.test import Client

from players.models import ApiToken


@pytest.fixture
def token(player) -> str:
    _token, raw = ApiToken.issue(player=player, name="bot")
    return raw


@pytest.fixture
def token_client(token) -> Client:
    """A client with no session that authenticates by ``Authorization: Bearer``."""
    return Client(HTTP_AUTHORIZATION=f"Bearer {token}")


@pytest.fixture
def vs_random(make_game):
    """A classic game: ``player`` is X against the random strategy."""
    return make_game(opponent="medium", strategy="random", side="X")
