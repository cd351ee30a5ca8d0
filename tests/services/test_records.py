"""Game records through the services (issue 23): a game exported (games.records), a record imported as a game
(games.services.records.game_import), a player's games streamed, and a new game from a position string."""

from __future__ import annotations

import importlib
import random
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import get_variant, position_string, read_record, read_records, write_record
from games.errors import Busy, InvalidGameSettings, InvalidRecord
from games.models import Game, ImportAttempt, Move
from games.positions import fresh_position, game_position
from games.records import game_record, records_stream
from games.selectors import game_history
from games.services import game_from_position_string, game_import, game_resign, move_play
from games.services import records as records_service
from games.services.records import IMPORT_WINDOW, MAX_IMPORT_BYTES, decode_record

pytestmark = pytest.mark.django_db

clean_migration = importlib.import_module("games.migrations.0025_clean_imported_tags")

CLASSIC = '[Variant "classic"]\n[X "ann"]\n[O "Computer (hard)"]\n[Date "2026.11.26"]\n[Result "1-0"]\n\n' \
          "1. b2 a3 2. b1 c3 3. b3 1-0\n"


def played(game: Game, player, moves: list[int]) -> Game:
    for move in moves:
        move_play(game=game, player=player, move=move)
    return Game.objects.get(pk=game.pk)


# Export ----------------------------------------------------------------------------------------------------


def test_a_finished_game_is_written_with_its_players_result_and_moves(make_game, player):
    game = played(make_game(), player, [4, 0, 7, 2, 1])  # X completes the middle column
    record = read_record(game_record(game, site="example.org"))
    assert record.variant == "classic" and record.result == "1-0"
    assert record.moves == [4, 0, 7, 2, 1]
    assert record.tags["X"] == record.tags["O"] == "alice"
    assert record.tags["Site"] == "example.org" and record.tags["Date"] == game.created.strftime("%Y.%m.%d")
    assert record.tags["Termination"] == "line completed"


def test_a_resignation_says_so_and_a_running_game_is_unfinished(make_game, player):
    game = played(make_game(opponent="medium", strategy="random"), player, [4])
    running = read_record(game_record(Game.objects.get(pk=game.pk)))
    assert running.result == "*" and "Termination" not in running.tags
    game = game_resign(game=game, player=player)
    record = read_record(game_record(Game.objects.get(pk=game.pk)))
    assert record.result == "0-1" and record.tags["Termination"] == "X resigned"
    assert record.tags["O"] == "Computer (random)"


def test_multi_with_a_random_start_names_its_first_board(make_game, player):
    game = make_game(variant="multi", options={"random_start": True}, seed=3)
    state = fresh_position(game).state
    game = played(game, player, state.legal_moves()[:1])
    record = read_record(game_record(game))
    assert record.start_board == game.start_board and record.tags["FirstBoard"] == str(game.start_board)


def stored_before_values_were_checked(player) -> Game:
    """An imported game as the reader of before issue 29 stored it: a TAB and an ESC in the names, a right-to-left
    override, a line separator and a BEL in other tags (the writer refused them: its record was a 500)."""
    game = game_import(player=player, text=CLASSIC)
    tags = {**game.record_tags, "Event": "cup\u202eevil", "Site": "a\u2028b", "Annotator": "x\x07y"}
    Game.objects.filter(pk=game.pk).update(x_name="ann\tlee", o_name="\x1b[31mred", record_tags=tags)
    return Game.objects.get(pk=game.pk)


def test_a_game_stored_with_values_the_reader_now_refuses_still_exports(player):
    game = stored_before_values_were_checked(player)
    record = read_record(game_record(game))
    assert record.tags["X"] == "ann lee" and record.tags["O"] == "[31mred"
    assert record.tags["Event"] == "cupevil" and record.tags["Site"] == "a b" and record.tags["Annotator"] == "xy"
    assert record.moves == [4, 0, 7, 2, 1] and record.result == "1-0"


def test_all_my_games_never_break_off(player, make_game):
    """One game that cannot be written no longer ends the download: the games after it come too."""
    first = stored_before_values_were_checked(player)
    broken = game_import(player=player, text=CLASSIC)
    Game.objects.filter(pk=broken.pk).update(move_list="4,4,0,7,2")  # moves the engine refuses (edited by hand)
    last = played(make_game(), player, [4, 0, 7, 2, 1])
    text = "".join(records_stream(Game.objects.filter(pk__in=[first.pk, broken.pk, last.pk]).order_by("pk")))
    assert f"{{game {broken.pk} cannot be written as a record: move 2 (O): b2 is already taken" in text
    assert [game.moves for game in read_records(text)] == [[4, 0, 7, 2, 1], [4, 0, 7, 2, 1]]


def test_a_stored_result_the_board_contradicts_still_exports(make_game, player):
    game = played(make_game(), player, [4, 0, 7, 2, 1])  # X completes the middle column
    Game.objects.filter(pk=game.pk).update(result=Game.Result.O, result_reason=Game.Reason.DECIDED)
    record = read_record(game_record(Game.objects.get(pk=game.pk)))
    assert record.result == "1-0" and record.tags["Termination"].endswith("; the site's result is 0-1")


def test_the_migration_cleans_the_values_stored_before(player):
    game = stored_before_values_were_checked(player)
    good = game_import(player=player, text=CLASSIC.replace("ann", "Zoë\u200d"))
    clean_migration.clean_imported(django_apps, None)
    game.refresh_from_db()
    assert (game.x_name, game.o_name) == ("ann lee", "[31mred")
    assert game.record_tags["Event"] == "cupevil" and game.record_tags["Site"] == "a b"
    assert Game.objects.get(pk=good.pk).x_name == "Zoë\u200d"  # a joiner changes no direction: kept


# Import ----------------------------------------------------------------------------------------------------


def test_a_good_record_becomes_a_private_unrated_finished_game_of_the_importer(player):
    game = game_import(player=player, text=CLASSIC)
    assert game.imported and game.private and game.created_by == player
    assert game.status == Game.Status.FINISHED and game.result == "X" and game.result_reason == "line"
    assert game.x_player is None and game.o_player is None and not game.is_rated
    assert game.seat_label("X") == "ann" and game.seat_label("O") == "Computer (hard)"
    assert list(Move.objects.filter(game=game).values_list("move", flat=True)) == [4, 0, 7, 2, 1]
    assert game_position(game).state.winner == "X"


def test_an_imported_4x4_game_is_analysed_by_a_worker(player):
    from django_tasks_db.models import DBTaskResult

    from games.services import game_analysis
    from games.services.assists import work_out_analysis

    text = '[Variant "four"]\n[Result "1-0"]\n\n1. a4 a3 2. b4 b3 3. c4 c3 4. d4 1-0\n'
    game = game_import(player=player, text=text)
    task = DBTaskResult.objects.get(task_path="games.services.assists.analyse_game")
    assert task.args_kwargs["kwargs"]["game_id"] == game.pk
    assert work_out_analysis(game_id=game.pk) == "analysed"
    assert [v.move for v in game_analysis(Game.objects.get(pk=game.pk))] == [0, 4, 1, 5, 2, 6, 3]


def test_an_import_round_trips(player):
    game = game_import(player=player, text=CLASSIC)
    again = read_record(game_record(game))
    first = read_record(CLASSIC)
    assert again.moves == first.moves and again.result == first.result
    assert {k: again.tags[k] for k in ("X", "O", "Date")} == {k: first.tags[k] for k in ("X", "O", "Date")}
    assert again.variant == first.variant and again.options == first.options


def test_an_unfinished_record_is_finished_with_no_result(player):
    text = '[Variant "ultimate"]\n[Options "closed_boards=1"]\n[Result "*"]\n\n1. e5 e6 *\n'
    game = game_import(player=player, text=text)
    assert game.status == Game.Status.FINISHED and game.result == "" and game.ply == 2
    assert game.result_text() == "Unfinished (imported)"
    assert game.options == {"closed_boards": True}
    assert read_record(game_record(game)).result == "*"


def test_a_termination_explains_an_early_result(player):
    text = '[Variant "classic"]\n[Result "0-1"]\n[Termination "X resigned"]\n\n1. b2 a3 0-1\n'
    game = game_import(player=player, text=text)
    assert game.result == "O" and game.result_reason == "resigned"
    odd = game_import(player=player, text=text.replace("X resigned", "X fell asleep"))
    assert odd.result_reason == "" and odd.result_text() == "O wins (X fell asleep)"
    assert read_record(game_record(odd)).tags["Termination"] == "X fell asleep"
    # the site's clocks end games on time too (issue 22): that Termination is one of its own endings now
    timed = game_import(player=player, text=text.replace("X resigned", "X lost on time"))
    assert timed.result_reason == "time" and timed.result_text() == "O wins on time"


@pytest.mark.parametrize(
    "text, line, move, words",
    [
        ('[Variant "classic"]\n[Result "1-0"]\n\n1. b2 b2 1-0\n', 4, 2, "already taken"),
        ('[Variant "classic"]\n[Result "1-0"]\n\n1. b2 z9 1-0\n', 4, 2, "not a cell"),
        ('[Variant "classic"]\n[Result "1-0"]\n\n1. b2 a3\n', None, None, ""),  # truncated: no result token
        ('[Variant "classic"]\n[Result "0-1"]\n\n1. b2 a3 2. b1 c3 3. b3 0-1\n', None, None, "over on the board"),
        ('[Variant "classic"]\n[Result "1-0"]\n\n1. b2 a3 1-0\n', None, None, "Termination"),
        ('[Variant "chess"]\n[Result "*"]\n\n*\n', None, None, "unknown variant"),
        ("just some junk", None, None, ""),
        ("", None, None, "empty"),
    ],
)
def test_a_bad_record_is_refused_with_where_and_what(player, text, line, move, words):
    with pytest.raises(InvalidRecord) as caught:
        game_import(player=player, text=text)
    assert words in str(caught.value)
    if line is not None:
        assert caught.value.line == line and caught.value.move_number == move
        assert str(caught.value).startswith(f"line {line}, move {move}")
    assert not Game.objects.filter(imported=True).exists()


def test_huge_nul_and_foreign_bytes_are_refused(player):
    with pytest.raises(InvalidRecord, match="too large"):
        game_import(player=player, text=CLASSIC + "{" + "x" * MAX_IMPORT_BYTES + "}")
    with pytest.raises(InvalidRecord, match="NUL"):
        game_import(player=player, text=CLASSIC.replace("ann", "a\x00n"))
    with pytest.raises(InvalidRecord, match="not a character"):
        game_import(player=player, text=CLASSIC.replace("ann", "a\ud800n"))
    with pytest.raises(InvalidRecord, match="not UTF-8"):
        decode_record(CLASSIC.replace("ann", "Zoë").encode("latin-1"))
    with pytest.raises(InvalidRecord, match="too large"):
        decode_record(b" " * (MAX_IMPORT_BYTES + 1))
    assert decode_record("\ufeff".encode() + CLASSIC.encode()) == CLASSIC
    with pytest.raises(InvalidRecord, match="Position tag"):
        game_import(player=player, text=CLASSIC.replace("[Result", '[Position "classic_3.3.3_x"]\n[Result'))


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200e", "\u2028", "\u2029", "\t", "\x1b"])
def test_player_names_with_direction_marks_or_line_breaks_are_refused(player, char):
    with pytest.raises(InvalidRecord, match="line 2: the value of tag X holds") as caught:
        game_import(player=player, text=CLASSIC.replace("ann", f"ann{char}eve"))
    assert caught.value.line == 2
    assert not Game.objects.filter(imported=True).exists()


def test_imports_are_limited_per_player_per_hour(player, other_player, monkeypatch):
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 3)
    for _ in range(3):
        game_import(player=player, text=CLASSIC)
    with pytest.raises(Busy) as caught:
        game_import(player=player, text=CLASSIC)
    assert 0 < caught.value.retry_after <= 3601
    game_import(player=other_player, text=CLASSIC)  # another player's count is their own


def test_every_import_try_counts_towards_the_limit_good_or_bad(player, monkeypatch):
    """Failed imports used to go uncounted: a player could make the server read bad records without end."""
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 3)
    bad = [CLASSIC.replace("b1 c3", "b1 b1"), "not a record", b"\xff\xfe not UTF-8"]
    for text in bad:
        with pytest.raises(InvalidRecord):
            game_import(player=player, text=text)
    with pytest.raises(Busy) as caught:
        game_import(player=player, text=CLASSIC)
    assert "tried 3 imports" in str(caught.value) and 0 < caught.value.retry_after <= 3601
    assert not Game.objects.filter(imported=True).exists()
    assert ImportAttempt.objects.filter(player=player).count() == 3  # the refused try was not counted


def test_tries_older_than_the_window_no_longer_count(player, monkeypatch):
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 2)
    for _ in range(2):
        with pytest.raises(InvalidRecord):
            game_import(player=player, text="not a record")
    ImportAttempt.objects.filter(player=player).update(at=timezone.now() - IMPORT_WINDOW - timedelta(seconds=1))
    assert game_import(player=player, text=CLASSIC).imported
    assert ImportAttempt.objects.filter(player=player).count() == 1  # the expired ones were deleted on the way


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('[Position "classic_3.3.3_x"]\n', True),
        ("\n" * 5 + ' \t[Position\t"classic_3.3.3_x"]', True),
        ("[Result \"*\"]\r\n  \r\n[Position \"x\"]\r\n", True),
        ('[Positions "x"]\n', False),
        ('1. b2 [Position "x"]', False),
        ("[Position]", False),
        ("\n" * 250_000, False),
    ],
    ids=["first-line", "after-blank-lines-and-tabs", "crlf", "other-tag", "mid-line", "no-value", "blank-lines"],
)
def test_a_position_tag_is_found_on_any_line(text, found):
    assert records_service.names_a_position(text) is found


def test_a_record_of_blank_lines_under_the_size_limit_is_read(player):
    """250,000 blank lines (under 256 KB) held a web process for minutes: the Position check read each run of
    blank lines again from every line start."""
    text = CLASSIC.replace("\n\n1.", "\n" * 250_000 + "1.")
    assert len(text.encode()) <= MAX_IMPORT_BYTES
    game = game_import(player=player, text=text)
    assert game.ply == 5 and game.result == Game.Result.X


# Streaming -------------------------------------------------------------------------------------------------


def test_a_players_games_stream_a_chunk_at_a_time(player, django_assert_max_num_queries):
    rows = [
        Game(variant="classic", options={}, opponent="local", created_by=player, x_player=player, o_player=player,
             status=Game.Status.ACTIVE, ply=2, move_list="4,0")
        for _ in range(250)
    ]
    Game.objects.bulk_create(rows)
    stale = Game.objects.order_by("pk").first()  # a stale cache: its moves are read, with its chunk's
    Game.objects.filter(pk=stale.pk).update(move_list="")
    Move.objects.bulk_create([Move(game=stale, ply=1, move=8, side="X"), Move(game=stale, ply=2, move=0, side="O")])
    stream = records_stream(game_history(player), chunk_size=100)
    with django_assert_max_num_queries(2):  # the first chunk: its games and the stale game's moves at most
        first = next(stream)
    with django_assert_max_num_queries(3 * 2):  # every later chunk: at most two queries
        rest = list(stream)
    games = list(read_records("".join([first, *rest])))
    assert len(games) == 250
    assert sorted(tuple(g.moves) for g in games).count((4, 0)) == 249 and [8, 0] in [g.moves for g in games]


# A game from a position string -----------------------------------------------------------------------------


def test_a_game_starts_from_a_position_with_o_to_move(player):
    start = get_variant("classic").new_game().play(4)  # X on b2, O to move
    game = game_from_position_string(player=player, position=position_string(start), level="hard")
    assert game.start_position == "classic_3.1x1.3_o" and game.to_move == "O" and game.sides_of(player) == ["O"]
    game = move_play(game=game, player=player, move=0, reply=True).game  # O a3; the hard computer (X) answers
    game = Game.objects.get(pk=game.pk)
    state = game_position(game).state
    assert state.cells[4] == "X" and state.cells[0] == "O" and game.ply == 2 and game.to_move == "O"
    assert [m.side for m in Move.objects.filter(game=game)] == ["O", "X"]
    record = game_record(game)
    assert '[Position "classic_3.1x1.3_o"]' in record and "1... a3" in record


def test_the_sweep_finds_a_computer_to_move_first_from_a_position(player):
    from datetime import timedelta

    from django.utils import timezone

    from games.selectors import games_waiting_for_computer

    # X on b2 of 4 x 4, O to move, the player on X: the hard computer (O, a worker's) moves first
    game = game_from_position_string(player=player, position="four_4.1x2.4.4_o", level="hard", side="X")
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(minutes=5))
    waiting = games_waiting_for_computer(changed_before=timezone.now() - timedelta(minutes=1))
    assert list(waiting.values_list("pk", flat=True)) == [game.pk]
    mine = game_from_position_string(player=player, position="four_4.1x2.4.4_o", level="hard")  # the player's O
    Game.objects.filter(pk=mine.pk).update(updated=timezone.now() - timedelta(minutes=5))
    assert mine.pk not in set(waiting.values_list("pk", flat=True))


def test_a_game_from_a_position_takes_back_and_plays_on_from_there(player):
    from games.services import game_from_position, game_resign, move_takeback

    game = game_from_position_string(player=player, position="classic_3.1x1.3_o", level="hard")
    game = move_play(game=game, player=player, move=0, reply=True).game  # O a3, X answers
    game = move_takeback(game=game, player=player)  # O's move and X's answer go
    assert game.ply == 0 and game.to_move == "O"
    game = move_play(game=game, player=player, move=0, reply=True).game
    game = game_resign(game=Game.objects.get(pk=game.pk), player=player)
    again = game_from_position(game=Game.objects.get(pk=game.pk), ply=1, player=player, level="hard")
    assert again.start_position == "classic_3.1x1.3_o" and again.to_move == "X" and again.sides_of(player) == ["X"]
    assert game_position(again).state.cells[0] == "O"
    from games.services import game_analysis

    # analysed from its position (X in the centre, O to move): O's corner keeps the draw
    verdicts = game_analysis(Game.objects.get(pk=game.pk))
    assert [(v.ply, v.side) for v in verdicts[:2]] == [(1, "O"), (2, "X")]
    assert (verdicts[0].move, verdicts[0].before, verdicts[0].after) == (0, "draw", "draw")
    assert verdicts[0].best == (0, 2, 6, 8)


def test_a_position_string_is_checked(player):
    with pytest.raises(InvalidGameSettings, match="position"):
        game_from_position_string(player=player, position="classic_xxx.3.3_o", level="hard")
    with pytest.raises(InvalidGameSettings, match="over"):
        game_from_position_string(player=player, position="classic_oxo.1x1.1x1_o", level="hard")
    with pytest.raises(InvalidGameSettings, match="level"):
        game_from_position_string(player=player, position="classic_3.3.3_x", level="genius")


# The round trip through the services, on a few variants ----------------------------------------------------

VARIANTS = [("classic", {}), ("four", {}), ("mnk", {"rows": 4, "cols": 5, "k": 3}), ("ultimate", {}),
            ("multi", {"random_start": True})]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choice=st.sampled_from(VARIANTS), seed=st.integers(0, 2**16), length=st.integers(0, 40))
def test_import_of_an_export_gives_the_same_game(player, monkeypatch, choice, seed, length):
    monkeypatch.setattr(records_service, "IMPORTS_PER_WINDOW", 10**6)
    key, options = choice
    variant = get_variant(key, **options)
    rng = random.Random(seed)
    state = variant.new_game(seed=seed) if options.get("random_start") else variant.new_game()
    moves = []
    while len(moves) < length and not state.is_over:
        moves.append(rng.choice(state.legal_moves()))
        state = state.play(moves[-1])
    start_board = moves[0] // 9 if options.get("random_start") and moves else None
    if options.get("random_start") and not moves:
        start_board = state.active_boards[0]
    text = write_record(variant, moves, tags={"X": "ann", "O": "bob"}, start_board=start_board)
    game = game_import(player=player, text=text)
    back = read_record(game_record(game))
    assert back.moves == moves and back.result == read_record(text).result
    assert back.variant == key and back.options == read_record(text).options
    assert (back.tags["X"], back.tags["O"]) == ("ann", "bob")
    assert position_string(game_position(game).state) == position_string(state)
