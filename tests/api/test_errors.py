"""Every refusal is JSON {"code", "message"} (games/api/errors.py): the table, bad input, wrong methods, paths."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import errors
from games.api.errors import BUSY, ERRORS
from games.edge.http_errors import TABLE, http_error
from games.models import Game, Move

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db


DOMAIN_ERRORS = sorted(
    (cls for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, errors.GameError)),
    key=lambda cls: cls.__name__,
)


def refusal(error: type[errors.GameError]) -> errors.GameError:
    try:
        return error("the reason, for people")
    except TypeError:  # Busy says when to ask again
        return error("the reason, for people", retry_after=3)


@pytest.mark.parametrize("error", DOMAIN_ERRORS, ids=lambda cls: cls.__name__)
def test_every_domain_error_has_its_entry_a_4xx_and_a_snake_case_code(error):
    assert error in TABLE, f"{error.__name__} needs its line in games.edge.http_errors.TABLE"
    status, code = http_error(refusal(error))
    assert 400 <= status < 500 and status in {**ERRORS, **BUSY}  # documented on the operations
    assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code)


def test_the_api_reference_lists_every_code_of_the_table():
    reference = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    for status, code in set(TABLE.values()):
        assert f"| {status} | `{code}` |" in reference, f"docs/api.md: add {code} ({status}) to the error table"


@pytest.mark.parametrize("error", DOMAIN_ERRORS, ids=lambda cls: cls.__name__)
def test_the_api_answers_a_domain_error_from_the_table(token_client, vs_random, monkeypatch, error):
    def refuse(**kwargs):
        raise refusal(error)

    monkeypatch.setattr("games.api.games.game_resign", refuse)
    status, code = TABLE[error]
    body = assert_error(post(token_client, f"/api/games/{vs_random.pk}/resign"), status, code)
    assert body["message"] == "the reason, for people"


def test_malformed_json_is_400(player_client):
    response = player_client.post("/api/games", "{not json", content_type="application/json")
    assert_error(response, 400, "invalid_input")


@pytest.mark.parametrize("where", ["top", "options"])
def test_a_body_of_200000_keys_is_refused_before_it_is_parsed(token_client, vs_random, where, monkeypatch):
    """Issue 29: 200,000 unknown keys cost 1.5-3.5 s of CPU, the schema naming each in its refusal. Now the body's
    keys are counted before it is parsed (games.api.parser), as a form's fields are (DATA_UPLOAD_MAX_NUMBER_FIELDS),
    and neither json.loads nor the schema sees it."""
    import json

    import games.api.parser

    keys = {str(i): 0 for i in range(200_000)}
    payload = {"variant": "classic", "opponent": "easy", **keys} if where == "top" else {
        "variant": "classic", "opponent": "easy", "options": keys}
    body = json.dumps(payload, separators=(",", ":"))
    parsed: list[int] = []
    monkeypatch.setattr(games.api.parser.Parser, "parse_body", lambda self, request: parsed.append(1))
    response = token_client.post("/api/games", body, content_type="application/json")
    data = assert_error(response, 400, "invalid_input")
    assert data["message"] == (
        "the JSON body holds more than 1,000 keys, the most the API reads: no request needs that many"
    )
    assert not parsed and "details" not in data and Game.objects.count() == 1  # vs_random alone
    moves = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 4, **dict(list(keys.items())[:2000])})
    assert_error(moves, 400, "invalid_input")
    assert Move.objects.filter(game=vs_random).count() == 0


def test_keys_are_counted_outside_strings_only(token_client, settings):
    from games.api.parser import more_keys_than

    def keys(body: bytes) -> int:
        return next(n for n in range(10) if not more_keys_than(body, n))

    assert keys(b'{"a": 1, "b": {"c": [1, {"d": 2}]}}') == 4
    assert keys(rb'{"a:b": "x:y:z", "q\\": "\\"}') == 2  # colons in strings; strings ending in an escaped \
    assert keys(rb'{"a": "\":::"}') == 1  # an escaped quote does not end one
    assert keys(b'{"a": "::::::::::::::"}') == 1
    assert keys(b'{"a": "' + b'\\":' * 50_000 + b'", "b": 2}') == 2  # escaped quotes and colons: each read once
    assert keys(b'"' + b'\\"' * 50_000 + b':::') == 0  # a string never closed: not JSON, the parser refuses it
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 3
    record = '[Variant "classic"]\n[Result "*"]\n\n{at 12:30:45, 12:31:00} *\n'  # six ':' in a string
    response = post(token_client, "/api/games/import", {"record": record})
    assert response.status_code == 201, response.content  # one key: read
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 1
    assert_error(post(token_client, "/api/games", {"variant": "classic", "opponent": "easy"}), 400, "invalid_input")


def test_unknown_endpoint_is_404_json(player_client):
    assert_error(player_client.get("/api/nothing/here"), 404, "not_found")


@pytest.mark.parametrize(
    ("method", "url"),
    [("delete", "/api/games/1"), ("put", "/api/games"), ("get", "/api/games/1/moves"), ("post", "/api/variants")],
)
def test_wrong_method_is_405_json(player_client, method, url):
    response = getattr(player_client, method)(url)
    assert_error(response, 405, "method_not_allowed")
    assert response["Allow"]


@pytest.mark.parametrize("url", ["/api/variants", "/api/games/1", "/api/no-such-thing"])
def test_options_and_head_get_json_405_or_404(token_client, url):
    for method in ("options", "head"):
        response = getattr(token_client, method)(url)
        assert response["Content-Type"].startswith("application/json")
        assert response.status_code in (404, 405)
        if method == "options":
            assert response.json()["code"] in ("method_not_allowed", "not_found")
            assert response.json()["code"] == ("not_found" if "no-such" in url else "method_not_allowed")


def test_a_body_over_the_limit_gets_413_and_changes_nothing(token_client, vs_random, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 4, "pad": "x" * 20_000})
    body = assert_error(response, 413, "too_large")
    assert "10,000 bytes" in body["message"]
    assert Move.objects.filter(game=vs_random).count() == 0
    assert post(token_client, f"/api/games/{vs_random.pk}/moves", {"move": 4}).status_code == 200


def test_a_form_body_gets_the_apis_json_answers(token_client, vs_random, settings):
    # what curl -F move=4 sends: the API reads JSON, and says so in JSON (the NUL check leaves /api/ bodies alone)
    response = token_client.post(f"/api/games/{vs_random.pk}/moves", {"move": "4"})  # multipart
    assert response.status_code == 400 and response["Content-Type"].startswith("application/json")
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body, form = "move=4&pad=" + "x" * 20_000, "application/x-www-form-urlencoded"
    response = token_client.post(f"/api/games/{vs_random.pk}/moves", body, content_type=form)
    assert_error(response, 413, "too_large")
    assert Move.objects.filter(game=vs_random).count() == 0


@pytest.mark.parametrize("field", ["variant", "strategy", "invite"])
def test_a_nul_in_a_json_string_is_refused(token_client, field):
    # PostgreSQL cannot hold one (a lookup of the invitee would fail there): refused on every database alike
    data = {"variant": "classic", "opponent": "human" if field == "invite" else "easy", field: "ali\u0000ce"}
    before = Game.objects.count()
    body = assert_error(post(token_client, "/api/games", data), 400, "invalid_input")
    assert body["details"][0]["loc"] == f"body.{field}" and "NUL" in body["message"]
    assert Game.objects.count() == before


@pytest.mark.parametrize("field", ["variant", "strategy", "invite"])
@pytest.mark.parametrize("text", ["\ud800", "bo\udfffb"])
def test_a_lone_surrogate_in_a_json_string_is_refused(token_client, field, text):
    # JSON can escape one ("\ud800"), no database driver can encode it: it was a 500 on the invitee's lookup
    data = {"variant": "classic", "opponent": "human" if field == "invite" else "easy", field: text}
    before = Game.objects.count()
    body = assert_error(post(token_client, "/api/games", data), 400, "invalid_input")
    assert body["details"][0]["loc"] == f"body.{field}" and "surrogate" in body["message"]
    assert Game.objects.count() == before


def test_a_body_field_the_api_does_not_know_is_refused(token_client, vs_random):
    body = assert_error(
        post(token_client, "/api/games", {"variant": "classic", "opponent": "easy", "colour": "red"}), 400,
        "invalid_input",
    )
    assert body["details"][0]["loc"] == "body.colour" and "not permitted" in body["details"][0]["message"].lower()
    assert Game.objects.count() == 1  # vs_random only
    assert_error(post(token_client, f"/api/games/{vs_random.pk}/play-on", {"ply": 0, "speed": 1}), 400, "invalid_input")
