"""Property-based run of the JSON API: schemathesis generates requests from /api/openapi.json.

Every operation is called through the Django WSGI app (in-process, inside the test's database
transaction) with valid and invalid inputs, authenticated by a personal token; no answer may be
a 500, and every answer must match the documented status codes, content type and schema.
Bounded: a few dozen examples per operation, derandomized so a run is repeatable.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from games.services import game_create, move_play
from players.models import ApiToken

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


from config.wsgi import application  # noqa: E402 - pytest-django has set Django up by now

# Loaded at collection (the lazy fixture loader does not run under this pytest); no database needed.
# The bot API's streams are held open until their client goes (tests/api/test_bot_streams.py reads them): a generated
# request would wait on one for ever.
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application).exclude(path_regex=r"/stream/")


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """Calling the WSGI app fires request_started/request_finished, whose close_old_connections closes a
    connection found inside a transaction: the test's own, on PostgreSQL (SQLite's in-memory test database
    is never closed). Django's test Client disconnects the same handler around its requests."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def auth_headers(player, other_player) -> dict[str, str]:
    """A token for ``player``, who has a few games (ids 1.. so generated ids sometimes hit them)."""
    game_create(player=player, variant="classic", opponent="local")
    nested = game_create(player=player, variant="ultimate", opponent="medium", strategy="random")
    move_play(game=nested, player=player, move=40, reply=True)
    game_create(player=player, variant="nxn", options={"size": 4}, opponent="watch", strategy="random")
    game_create(player=other_player, variant="classic", opponent="local")  # someone else's: 404 for player
    _token, raw = ApiToken.issue(player=player, name="schemathesis")
    return {"Authorization": f"Bearer {raw}"}


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@pytest.mark.django_db
def test_api_never_500_and_matches_its_schema(case, auth_headers):
    case.call_and_validate(headers=auth_headers, checks=CHECKS)
