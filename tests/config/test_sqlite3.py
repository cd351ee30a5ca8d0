"""config.sqlite: the task workers keep SQLite's query planner statistics (``refresh_statistics``), so per-player
queries use per-player indexes; and the lobby's index of running games.

Always on a SQLite file of its own (in a subprocess, whichever database the suite runs on): the statistics
are SQLite's.
"""

from __future__ import annotations

import sqlite3

from tests.config.test_settings import _run

#: in a shell on the file: many games between many players, the statistics gathered as the workers' sweep does, then
#: the navigation's badge query planned
SCRIPT = """
import random
from django.db import connection
from games.models import Game
from games.selectors import live_games, waiting_query
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
from config.sqlite import refresh_statistics
refresh_statistics()
with connection.cursor() as cursor:
    sql, params = waiting_query(me).query.sql_with_params()
    cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
    print("\\n".join(row[-1] for row in cursor.fetchall()))
    sql, params = live_games(me).query.sql_with_params()
    cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
    print("live games: " + " | ".join(row[-1] for row in cursor.fetchall()))
"""


def test_sqlite_plans_the_badge_by_the_players_indexes_once_it_has_statistics(tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    result = _run(["migrate", "--noinput"], DATABASE_URL=url)
    assert result.returncode == 0, result.stderr
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
