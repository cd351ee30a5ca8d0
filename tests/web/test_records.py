"""Game records on the pages (issue 23): Download on the game page, the replay and My games (streamed, with its
filters); importing a record (pasted or uploaded); the position string under the replay and the analysis board."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import StreamingHttpResponse
from django_tasks_db.management.commands.db_worker import Worker

from games.engine import read_record, read_records
from games.models import Game
from games.services import game_import, move_play
from games.services import records as records_service
from games.services.records import MAX_IMPORT_BYTES

pytestmark = pytest.mark.django_db

CLASSIC = '[Variant "classic"]\n[X "ann"]\n[O "Computer (hard)"]\n[Result "1-0"]\n\n1. b2 a3 2. b1 c3 3. b3 1-0\n'
HTMX = {"HTTP_HX_REQUEST": "true"}


def finished(make_game, player) -> Game:
    game = make_game()
    for move in (4, 0, 7, 2, 1):
        move_play(game=game, player=player, move=move)
    return Game.objects.get(pk=game.pk)


# Export ----------------------------------------------------------------------------------------------------


def test_a_game_downloads_as_its_record(player_client, make_game, player):
    game = finished(make_game, player)
    response = player_client.get(f"/games/{game.pk}/record/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.txt"'
    record = read_record(response.content.decode())
    assert record.moves == [4, 0, 7, 2, 1] and record.result == "1-0" and record.tags["Site"] == "testserver"


def test_a_game_the_viewer_may_not_see_has_no_record(other_client, make_game, player):
    game = make_game(private=True)
    assert other_client.get(f"/games/{game.pk}/record/").status_code == 404
    assert other_client.get("/games/999999/record/").status_code == 404


def test_the_game_page_and_the_replay_offer_the_download(player_client, make_game, player):
    game = finished(make_game, player)
    url = f'href="/games/{game.pk}/record/"'
    assert url in player_client.get(f"/games/{game.pk}/").content.decode()
    replay = player_client.get(f"/games/{game.pk}/replay/?ply=1").content.decode()
    assert url in replay
    # the position shown, as a string, and the analysis board at it
    assert '<code id="position-string">classic_3.1x1.3_o</code>' in replay
    assert 'href="/analysis/?variant=classic&amp;position=classic_3.1x1.3_o"' in replay


def test_my_games_download_streams_with_the_filters(player_client, make_game, player):
    finished(make_game, player)
    make_game(variant="four")
    response = player_client.get("/games/record/?variant=classic")
    assert isinstance(response, StreamingHttpResponse) and response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="games-classic.txt"'
    games = list(read_records(b"".join(response.streaming_content).decode()))
    assert [g.variant for g in games] == ["classic"]
    everything = player_client.get("/games/record/?variant=nonsense")  # left out, as the list does
    assert len(list(read_records(b"".join(everything.streaming_content).decode()))) == 2
    page = player_client.get("/games/?variant=classic").content.decode()
    assert 'href="/games/record/?variant=classic"' in page and 'href="/games/import/"' in page


def stored_with_bad_values(player) -> Game:
    """Imported before issue 29: a TAB and an ESC in its tag values, which the writer refused (a 500)."""
    game = game_import(player=player, text=CLASSIC)
    Game.objects.filter(pk=game.pk).update(x_name="ann\x1b", record_tags={**game.record_tags, "Date": "2026.\t11"})
    return game


def test_a_game_stored_with_bad_tag_values_downloads_alone_and_with_all_my_games(player_client, player, make_game):
    game = stored_with_bad_values(player)
    finished(make_game, player)
    response = player_client.get(f"/games/{game.pk}/record/")
    assert response.status_code == 200
    record = read_record(response.content.decode())
    assert record.tags["X"] == "ann" and record.tags["Date"] == "2026. 11"
    everything = player_client.get("/games/record/")
    assert len(list(read_records(b"".join(everything.streaming_content).decode()))) == 2


# Import ----------------------------------------------------------------------------------------------------


def test_a_pasted_record_opens_in_the_replay(player_client):
    assert player_client.get("/games/import/").status_code == 200
    response = player_client.post("/games/import/", {"record": CLASSIC})
    game = Game.objects.get(imported=True)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/replay/"
    replay = player_client.get(response["Location"]).content.decode()
    assert "ann" in replay and "Computer (hard)" in replay and "X wins" in replay
    assert 'id="analysis"' in replay  # classic: the analysis of every move
    assert "X wins" in player_client.get(f"/games/{game.pk}/").content.decode()
    row = player_client.get("/games/").content.decode().split(f'data-game="{game.pk}"')[1].split("</tr>")[0]
    assert "imported" in row and "ann vs Computer (hard)" in row


def chromium_form(record: str) -> tuple[bytes, str]:
    """The import form as Chromium posts it: the text area, then the file input left empty, both named record."""
    boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="record"\r\n\r\n{record}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="record"; filename=""\r\n'
        f"Content-Type: application/octet-stream\r\n\r\n\r\n--{boundary}--\r\n"
    )
    return body.encode(), f"multipart/form-data; boundary={boundary}"


def test_a_pasted_record_is_read_beside_the_empty_file_input(player_client):
    body, content_type = chromium_form(CLASSIC)
    response = player_client.post("/games/import/", data=body, content_type=content_type)
    game = Game.objects.get(imported=True)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/replay/"


def test_a_bad_pasted_record_comes_back_in_the_text_area(player_client):
    body, content_type = chromium_form(CLASSIC.replace("b1 c3", "b1 b1"))
    response = player_client.post("/games/import/", data=body, content_type=content_type)
    assert response.status_code == 400
    page = response.content.decode()
    assert "b1 is already taken" in page and "1. b2 a3 2. b1 b1" in page


def test_the_import_page_explains_records_with_a_link_players_can_open(player_client):
    page = player_client.get("/games/import/").content.decode()
    assert "RULES.md" not in page and 'href="/rules/#records"' in page
    rules = player_client.get("/rules/").content.decode()
    assert 'id="records"' in rules and "[Variant" in rules


def test_an_uploaded_record_is_read(player_client):
    upload = SimpleUploadedFile("game.txt", CLASSIC.encode(), content_type="text/plain")
    response = player_client.post("/games/import/", {"record": upload})
    assert response.status_code == 302 and Game.objects.filter(imported=True).count() == 1


@pytest.mark.parametrize(
    "data, words",
    [
        ({"record": CLASSIC.replace("b1 c3", "b1 b1")}, "Line 6, move 4 (O): b1 is already taken"),
        ({"record": CLASSIC.replace(" 1-0\n", "\n")}, "result"),
        ({"record": ""}, "nothing was sent"),
        ({"record": "\x00junk"}, "NUL"),
        ({"record": SimpleUploadedFile("g.txt", CLASSIC.replace("ann", "Zoë").encode("utf-16"))}, "not UTF-8"),
        ({"record": SimpleUploadedFile("g.txt", b"x" * (MAX_IMPORT_BYTES + 1))}, "too large"),
        ({"record": CLASSIC.replace("ann", "ann\u202eeve")}, "changes the direction of text (U+202E)"),
        ({"record": CLASSIC.replace("ann", "ann\u2028eve")}, "a line or paragraph separator (U+2028)"),
    ],
    ids=["illegal", "truncated", "empty", "nul", "utf-16", "huge", "bidi-override", "line-separator"],
)
def test_a_bad_record_is_refused_with_what_was_wrong(player_client, data, words):
    response = player_client.post("/games/import/", data)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Game.objects.filter(imported=True).exists()


def test_too_many_imports_are_429_with_retry_after(player_client, player, monkeypatch):
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 1)
    game_import(player=player, text=CLASSIC)
    response = player_client.post("/games/import/", {"record": CLASSIC})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0


def test_a_failed_upload_counts_towards_the_limit(player_client, player, monkeypatch):
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 1)
    upload = SimpleUploadedFile("g.txt", CLASSIC.replace("ann", "Zoë").encode("utf-16"))
    assert player_client.post("/games/import/", {"record": upload}).status_code == 400
    response = player_client.post("/games/import/", {"record": CLASSIC})
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert not Game.objects.filter(imported=True).exists()


def test_an_imported_game_is_private(other_client, player):
    game = game_import(player=player, text=CLASSIC)
    assert other_client.get(f"/games/{game.pk}/replay/").status_code == 404


# The analysis board ------------------------------------------------------------------------------------------


def test_the_board_shows_a_position_and_plays_moves_in_place(player_client):
    response = player_client.get("/analysis/?variant=classic&position=classic_3.1x1.3_o")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<code id="position-string">classic_3.1x1.3_o</code>' in page and "O to move" in page
    # a move on the board (htmx): the partial, the line in the address
    response = player_client.get("/analysis/?position=classic_3.1x1.3_o&moves=&at=0&move=0", **HTMX)
    assert response.status_code == 200
    assert response["HX-Push-Url"] == "/analysis/?variant=classic&position=classic_3.1x1.3_o&moves=a3"
    assert '<code id="position-string">classic_o2.1x1.3_x</code>' in response.content.decode()
    # step back: the line stays
    back = player_client.get("/analysis/?position=classic_3.1x1.3_o&moves=a3,c1&at=1").content.decode()
    assert '<code id="position-string">classic_o2.1x1.3_x</code>' in back and 'id="line-2"' in back


def test_the_board_sets_up_a_variant_and_refuses_nonsense(player_client):
    page = player_client.get("/analysis/?variant=nxn-5").content.decode()
    assert "nxn-5_5.5.5.5.5_x" in page
    multi = player_client.get("/analysis/?variant=multi-1")  # the first board drawn
    assert multi.status_code == 200 and "multi-1_9.9.9.9.9.9.9.9.9_x_" in multi.content.decode()
    assert player_client.get("/analysis/?variant=ultimate-1").status_code == 200
    assert player_client.get("/analysis/?position=classic_xxx.3.3_o").status_code == 400
    assert player_client.get("/analysis/?variant=four&position=classic_3.3.3_x").status_code == 400
    bad = player_client.get("/analysis/?position=classic_3.3.3_x&moves=b2,b2")
    assert bad.status_code == 400 and "Move 2 of the line" in bad.content.decode()


def test_the_best_move_on_classic_comes_at_once(player_client):
    response = player_client.post("/analysis/best/", {"position": "classic_3.1x1.3_o"}, **HTMX)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Best move for O" in text and "a draw" in text


def test_a_slow_best_move_is_a_workers_and_the_page_asks_again(player_client):
    position = "four_4.4.4.4_x"
    response = player_client.post("/analysis/best/", {"position": position}, **HTMX)
    text = response.content.decode()
    assert response.status_code == 200 and "working it out" in text and "load delay:1s" in text
    task = text.split("task=")[1].split('"')[0]
    pending = player_client.get(f"/analysis/best/result/?position={position}&task={task}", **HTMX)
    assert "working it out" in pending.content.decode()
    worker = Worker(queue_names=["assist"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id="test", excluded_queue_names=[])
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        worker.run()
    done = player_client.get(f"/analysis/best/result/?position={position}&task={task}", **HTMX).content.decode()
    assert "Best move for X" in done and "a draw" in done
    other = player_client.get(f"/analysis/best/result/?position=classic_3.3.3_x&task={task}", **HTMX)
    assert other.status_code == 409


@pytest.mark.parametrize("url", ["/games/import/", "/analysis/?variant=ultimate-1"])
def test_the_new_pages_run_no_inline_script(player_client, url):
    import re

    page = player_client.get(url).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page) and not re.search(r"\son[a-z]+=", page)


def test_a_game_starts_from_the_board(player_client, player):
    response = player_client.post("/analysis/play/", {"position": "classic_3.1x1.3_o", "level": "hard"})
    game = Game.objects.get(created_by=player)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.start_position == "classic_3.1x1.3_o" and game.sides_of(player) == ["O"]
    page = player_client.get(f"/games/{game.pk}/").content.decode()
    assert "Your turn (O)" in page
    refused = player_client.post("/analysis/play/", {"position": "classic_oxo.1x1.1x1_o", "level": "hard"})
    assert refused.status_code == 400 and "already over" in refused.content.decode()


def test_a_game_from_the_board_is_analysed_from_its_position(player_client, player):
    from games.services import game_resign, move_play

    player_client.post("/analysis/play/", {"position": "classic_3.1x1.3_o", "level": "hard"})
    game = Game.objects.get(created_by=player)
    game = move_play(game=game, player=player, move=1, reply=True).game  # O b3, an edge: X now wins by force
    game_resign(game=Game.objects.get(pk=game.pk), player=player)
    page = player_client.get(f"/games/{game.pk}/").content.decode()
    assert "Replay and analysis" in page
    replay = player_client.get(f"/games/{game.pk}/replay/?ply=1").content.decode()
    assert 'id="analysis"' in replay
    # numbered from the position (move 1 is O's), and judged from it: X in the centre, O on an edge loses
    assert "Move 1, O on b3: a mistake. With best play this was a draw; now it is a win for X." in replay
    assert "Better: a3, c3, a1 or c1." in replay


def test_the_replay_of_a_game_from_a_position_names_the_winner_with_best_play(player_client, player):
    from games.services import move_play

    # X a3, b3 and b2 against O a2 and c2, O to move: X has three threats, O blocks one and loses
    player_client.post("/analysis/play/", {"position": "classic_xx1.oxo.3_o", "level": "hard"})
    game = Game.objects.get(created_by=player)
    game = move_play(game=game, player=player, move=2, reply=True).game  # O c3; X completes another line
    assert game.is_finished and game.result == "X"
    start = player_client.get(f"/games/{game.pk}/replay/?ply=0").content.decode()
    assert "With best play from both sides, this game is a win for X." in start
