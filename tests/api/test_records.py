"""Game records in the API (issue 23): ``GET /api/games/{id}/record`` and ``POST /api/games/import``."""

from __future__ import annotations

import pytest

from games.engine import read_record
from games.models import Game
from games.services import game_import, move_play
from games.services import records as records_service
from games.services.records import MAX_IMPORT_BYTES

from .helpers import assert_error, post

pytestmark = pytest.mark.django_db

CLASSIC = '[Variant "classic"]\n[X "ann"]\n[O "bob"]\n[Date "2026.11.26"]\n[Result "1-0"]\n\n' \
          "1. b2 a3 2. b1 c3 3. b3 1-0\n"


def test_a_games_record_is_the_pages_text(token_client, player_client, make_game, player):
    game = make_game()
    for move in (4, 0, 7):
        move_play(game=game, player=player, move=move)
    response = token_client.get(f"/api/games/{game.pk}/record")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content == player_client.get(f"/games/{game.pk}/record/").content
    record = read_record(response.content.decode())
    assert record.moves == [4, 0, 7] and record.result == "*"


def test_a_game_stored_with_bad_tag_values_has_a_record(token_client, player):
    """Imported before issue 29 with a TAB in a name, which the writer refused: the record was a 500."""
    game = game_import(player=player, text=CLASSIC)
    Game.objects.filter(pk=game.pk).update(o_name="bob\tby", record_tags={**game.record_tags, "Site": "\u202ehere"})
    response = token_client.get(f"/api/games/{game.pk}/record")
    assert response.status_code == 200
    record = read_record(response.content.decode())
    assert record.tags["O"] == "bob by" and record.tags["Site"] == "here"


def test_no_record_of_a_game_the_caller_may_not_see(other_player, make_game, token_client):
    hidden = make_game(player=other_player, private=True)
    assert_error(token_client.get(f"/api/games/{hidden.pk}/record"), 404, "not_found")
    assert_error(token_client.get("/api/games/99999/record"), 404, "not_found")


def test_an_import_answers_201_with_the_games_json(token_client, player):
    response = post(token_client, "/api/games/import", {"record": CLASSIC})
    assert response.status_code == 201, response.content
    data = response.json()
    game = Game.objects.get(pk=data["id"])
    assert game.imported and game.created_by == player
    assert data == token_client.get(f"/api/games/{game.pk}").json()
    assert data["status"] == "finished" and data["result"] == "X" and data["ply"] == 5
    assert [seat["label"] for seat in data["seats"]] == ["ann", "bob"] and data["imported"] is True
    assert [seat["kind"] for seat in data["seats"]] == ["named", "named"]
    assert [m["name"] for m in data["moves"]] == ["b2", "a3", "b1", "c3", "b3"]
    again = read_record(token_client.get(f"/api/games/{game.pk}/record").content.decode())
    assert again.moves == read_record(CLASSIC).moves and (again.tags["X"], again.tags["O"]) == ("ann", "bob")


@pytest.mark.parametrize(
    "record, words",
    [
        (CLASSIC.replace("b1 c3", "b1 a3"), "line 7, move 4 (O)"),
        (CLASSIC.replace('"1-0"', '"0-1"').replace(" 1-0", " 0-1"), "over on the board"),
        (CLASSIC[:-8], "result"),
        ("\x00", "NUL"),
        ("x" * (MAX_IMPORT_BYTES + 1), "too large"),
        (CLASSIC.replace("ann", "ann\u2067"), "line 2: the value of tag X holds a mark that changes the direction"),
        (CLASSIC.replace("bob", "bob\tby"), "line 3: the value of tag O holds a control character (U+0009, a tab)"),
    ],
    ids=["illegal", "wrong-result", "truncated", "nul", "huge", "bidi-isolate", "tab"],
)
def test_a_bad_record_is_400_invalid_record(token_client, record, words):
    body = assert_error(post(token_client, "/api/games/import", {"record": record}), 400, "invalid_record")
    assert words in body["message"]
    assert not Game.objects.filter(imported=True).exists()


def test_an_import_needs_its_field_and_a_string(token_client):
    assert_error(post(token_client, "/api/games/import", {}), 400, "invalid_input")
    assert_error(post(token_client, "/api/games/import", {"record": 3}), 400, "invalid_input")
    assert_error(post(token_client, "/api/games/import", {"record": CLASSIC, "x": 1}), 400, "invalid_input")


def test_too_many_imports_are_429_busy(token_client, player, monkeypatch):
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 1)
    game_import(player=player, text=CLASSIC)
    response = post(token_client, "/api/games/import", {"record": CLASSIC})
    body = assert_error(response, 429, "busy")
    assert body["retry_after"] > 0 and response["Retry-After"] == str(body["retry_after"])


def test_a_failed_import_counts_towards_the_limit(token_client, monkeypatch):
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 1)
    assert_error(post(token_client, "/api/games/import", {"record": "junk"}), 400, "invalid_record")
    assert_error(post(token_client, "/api/games/import", {"record": CLASSIC}), 429, "busy")
    assert not Game.objects.filter(imported=True).exists()
