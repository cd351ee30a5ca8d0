"""config.sqlite3: SQLite keeps the query planner's statistics, so per-player queries use per-player indexes;
and the lobby's index of running games.

Always on a SQLite file of its own (in a subprocess, whichever database the suite runs on): the statistics
are SQLite's.
"""

from __future__ import annotations

import sqlite3

from tests.config.test_settings import _run

#: in a shell on the file: many games between many players, then the navigation's badge query, planned after
#: the connection that ran it closed (config.sqlite3 brings the statistics up to date as a connection closes)
SCRIPT = """
import random
from django.db import connection
from games.models import Game
from games.selectors import _waiting_sql, count_waiting, live_games
from players.models import Player

players = Player.objects.bulk_create([Player(username=f"p{i}", password="!") for i in range(200)])
rng = random.Random(7)
games = []
for _ in range(6000):
    x, o = rng.sample(players, 2)
    finished = rng.random() < 0.7
    games.append(Game(variant="classic", options={}, opponent="human", x_player=x, o_player=o, created_by=x,
                      status="finished" if finished else "active", result="X" if finished else "",
                      ply=rng.randint(0, 9)))
Game.objects.bulk_create(games, batch_size=1000)
me = players[7]
count_waiting(me)
connection.close()
with connection.cursor() as cursor:
    sql = _waiting_sql("default") % ("'active'", me.pk, me.pk, "'open'", me.pk)
    cursor.execute("EXPLAIN QUERY PLAN " + sql)
    print("\\n".join(row[-1] for row in cursor.fetchall()))
    sql, params = live_games(me).query.sql_with_params()
    cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
    print("live games: " + " | ".join(row[-1] for row in cursor.fetchall()))
"""


def test_sqlite_plans_the_badge_by_the_players_indexes_once_it_has_statistics(tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    result = _run(["migrate", "--noinput"], DATABASE_URL=url)
    assert result.returncode == 0, result.stderr
    # migrate's connection closing gathered the first statistics: their table is there from the start
    with sqlite3.connect(tmp_path / "site.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone() == (1,)
    result = _run(["shell", "--no-imports", "-c", SCRIPT], DATABASE_URL=url)
    assert result.returncode == 0, result.stderr
    plan, live = result.stdout.split("live games: ")
    to_move, challenges = plan.split("SCALAR SUBQUERY 2")
    # the running games to move in: this player's games as X and as O, not every running game on the site
    assert "games_game_x_player_id" in to_move and "games_game_o_player_id" in to_move, plan
    assert "game_lobby_idx" not in to_move and "games_game_status" not in to_move, plan
    # the challenges sent to the player: by their invitee, or among the open games only (few); the sampled
    # statistics may tie the two
    assert "invitee_id" in challenges or "game_lobby_idx (status=?)" in challenges, plan
    # the lobby's games to watch: read in order from their index, the latest ten, not all of them sorted
    assert "game_live_idx (status=? AND opponent=?)" in live and "TEMP B-TREE" not in live, live
    with sqlite3.connect(tmp_path / "site.sqlite3") as db:
        rows = dict(db.execute("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'games_game'").fetchall())
    assert int(rows["game_lobby_idx"].split()[0]) >= 1000, rows  # the games were counted (sampled)


#: another process holds the write lock while a connection closes: the statistics wait for the next close
LOCKED = """
import sqlite3, time
from django.conf import settings
from django.db import connection
from players.models import Player

# a table grown from nothing, used by this connection: the close would analyse it
Player.objects.bulk_create([Player(username=f"p{i}", password="!") for i in range(3000)])
Player.objects.filter(username="p7").exists()
blocker = sqlite3.connect(settings.DATABASES["default"]["NAME"])
blocker.execute("BEGIN IMMEDIATE")
started = time.monotonic()
connection.close()
print(f"closed in {time.monotonic() - started:.2f} s")
blocker.rollback()
"""


def test_a_connection_closes_at_once_while_another_process_writes(tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    assert _run(["migrate", "--noinput"], DATABASE_URL=url).returncode == 0
    result = _run(["shell", "--no-imports", "-c", LOCKED], DATABASE_URL=url)
    assert result.returncode == 0 and not result.stderr, result.stderr
    seconds = float(result.stdout.split()[2])
    assert seconds < 2, result.stdout  # not the settings' 20 s busy timeout


def test_statements_get_their_qmarks_once_as_django_writes_them():
    """config.sqlite3's cursor rewrites ``%s`` to ``?`` as Django's does, once per distinct statement."""
    from django.db.backends.sqlite3.base import SQLiteCursorWrapper

    from config.sqlite3.base import QMARK_LONGEST, CursorWrapper, _qmark

    connection = sqlite3.connect(":memory:")
    ours, djangos = connection.cursor(factory=CursorWrapper), connection.cursor(factory=SQLiteCursorWrapper)
    long = "SELECT count(*) FROM (SELECT 1) WHERE 1 IN (" + ", ".join(["%s"] * (QMARK_LONGEST // 3)) + ")"
    for query in ("SELECT %s, '100%%'", 'SELECT "a" FROM "t" WHERE "x" = %s AND "y" LIKE %s ESCAPE \'\\\'', long):
        assert ours.convert_query(query) == djangos.convert_query(query)
    assert ours.convert_query("SELECT %(a)s", param_names=["a"]) == djangos.convert_query(
        "SELECT %(a)s", param_names=["a"]) == "SELECT :a"

    _qmark.cache_clear()
    for _ in range(3):
        assert ours.execute("SELECT %s, '100%%'", [7]).fetchone() == (7, "100%")
        assert ours.execute("SELECT %(a)s", {"a": 8}).fetchone() == (8,)
    assert (_qmark.cache_info().misses, _qmark.cache_info().hits) == (1, 2)
    assert ours.execute(long, list(range(QMARK_LONGEST // 3))).fetchone() == (1,)
    assert _qmark.cache_info().currsize == 1  # a statement that long is rewritten each time, not kept
