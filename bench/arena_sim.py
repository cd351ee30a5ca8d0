"""``make arena-sim``: a short arena tournament of API players, on a throw-away database, and what it shows.

Each player is a thread calling the JSON API in this process (django.test.Client with a personal token, through the
whole stack: middleware, auth, the API's routers and the services) as a bot would: it joins, asks about the arena
(its presence, and ``your_game``), plays its game (random moves, or the ``threats`` computer player for a share of
the players), and asks again. The arena's pairing and its end are the task workers': a real ``manage.py worker``
process on the same database, its arena loop pairing every ``--pair-every`` seconds (as on the site, where it is every
second), its sweep ending games on time. The arena is made to start now and last ``--seconds``.

It prints the games played, pairings per minute, the longest wait for a new pairing (from the end of a player's game,
or their joining, to their next game), requests and moves; then checks, from the database and not from the API, that
no player was ever in two games of the arena at once and that every player's standings row equals the sum of their
games' results, replayed through ``games.arena.scoring``. Exit status 1 if a check fails.

    make arena-sim                          # 40 players, 60 s, classic 1+0
    .venv/bin/python bench/arena_sim.py --players 12 --seconds 20 --variant four --clock 0.5+0
"""

from __future__ import annotations

import argparse
import atexit
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: how long after its end the workers have to end an arena (its games finished, the standings final)
END_GRACE = 10.0


@dataclass
class Report:
    players: int
    seconds: float
    games: int = 0
    finished: int = 0
    ended_by_arena: int = 0
    moves: int = 0
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    #: seconds from the end of a player's game to their next pairing
    waits: list[float] = field(default_factory=list)
    #: seconds from a player's joining to their first pairing
    first_waits: list[float] = field(default_factory=list)
    overlaps: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    #: moves refused, by code (a move racing the arena's end or a flag: game_finished; a stale ply: conflict)
    refusals: dict[str, int] = field(default_factory=dict)
    #: game reads whose row and moves disagreed (asked again)
    torn: int = 0

    @property
    def per_minute(self) -> float:
        return self.games / (self.seconds / 60) if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        return not (self.overlaps or self.mismatches or self.errors)

    def lines(self) -> list[str]:
        waits = sorted(self.waits)
        p95 = waits[int(0.95 * (len(waits) - 1))] if waits else 0.0
        return [
            f"games: {self.games} ({self.finished} finished, {self.ended_by_arena} ended by the arena's end)",
            f"pairings per minute: {self.per_minute:.1f}",
            f"longest wait for a new pairing: {max(waits, default=0.0):.2f} s "
            f"(median {statistics.median(waits) if waits else 0.0:.2f} s, p95 {p95:.2f} s, {len(waits)} waits after "
            f"a game); for the first, after joining: {max(self.first_waits, default=0.0):.2f} s",
            f"moves: {self.moves}; API requests: {self.requests} ({self.requests / max(self.seconds, 1e-9):.0f} a "
            f"second); moves refused: {self.refusals or 'none'}; torn game reads asked again: {self.torn}",
            "check: no player in two games at once: "
            f"{'ok' if not self.overlaps else 'FAILED ' + '; '.join(self.overlaps[:5])}",
            f"check: standings equal the sum of the game results: "
            f"{'ok' if not self.mismatches else 'FAILED ' + '; '.join(self.mismatches[:5])} ({self.players} players)",
            f"errors: {len(self.errors)}" + (f" (first: {self.errors[0]})" if self.errors else ""),
        ]


class Bot(threading.Thread):
    """One API player: joins, pings the arena, plays each game it is given, until the arena is over."""

    def __init__(self, token: str, arena_id: int, *, computer: bool, seed: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        from django.test import Client

        self.client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="localhost")
        self.arena_id, self.computer, self.stop = arena_id, computer, stop
        self.rng = random.Random(seed)
        self.requests = self.moves = 0
        self.refusals: dict[str, int] = defaultdict(int)
        self.torn = 0
        self.errors: list[str] = []

    def call(self, method: str, url: str, body: dict[str, Any] | None = None) -> Any:
        import json

        self.requests += 1
        if method == "get":
            response = self.client.get(url)
        else:
            response = self.client.post(url, json.dumps(body or {}), content_type="application/json")
        if response.status_code >= 500:
            self.errors.append(f"{method.upper()} {url}: {response.status_code}")
        return response

    def run(self) -> None:
        from django.db import connection

        try:
            self.call("post", f"/api/arenas/{self.arena_id}/join")
            while not self.stop.is_set():
                arena = self.call("get", f"/api/arenas/{self.arena_id}").json()
                if arena["status"] == "finished":
                    break
                if arena["your_game"]:
                    self.play(arena["your_game"])
                else:
                    time.sleep(0.1)
        except Exception as err:  # a bug of ours: the report says so
            self.errors.append(repr(err))
        finally:
            connection.close()

    def play(self, game_id: int) -> None:
        from games.engine import get_strategy, get_variant

        while not self.stop.is_set():
            game = self.call("get", f"/api/games/{game_id}").json()
            if game["status"] == "finished":
                return
            if not game["your_turn"] or len(game["moves"]) != game["ply"]:
                # not our turn; or a torn read (the game's row read before a move that committed, its Move rows
                # after it: GET /api/games/{id} reads them in two queries): ask again
                self.torn += len(game["moves"]) != game["ply"]
                time.sleep(0.05)
                continue
            if self.computer:
                state = get_variant(game["variant"], **game["options"]).new_game()
                for move in game["moves"]:
                    state = state.play(move["move"])
                move = get_strategy("threats").choose(state)
            else:
                move = self.rng.choice(game["legal_moves"])
            answer = self.call("post", f"/api/games/{game_id}/moves", {"move": move, "ply": game["ply"]})
            if answer.status_code == 200:
                self.moves += 1
            else:
                self.refusals[answer.json()["code"]] += 1


def database_url() -> str:
    """The DATABASE_URL of the database Django is using now (a task worker started by the simulation uses it too)."""
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def start_worker(every: float) -> subprocess.Popen[bytes]:
    """A real task worker (``manage.py worker``, another process, as on the site) on this database: its arena loop
    pairs and ends the arena, its sweep ends games on time."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(DATABASE_URL=database_url(), DJANGO_DEBUG="1", DJANGO_ARENA_SCHEDULE="0")
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "worker", "--nice", "0", "--arena-every", str(every), "--sweep-every", "1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    assert worker.stdout is not None
    worker.stdout.readline()  # "worker ...: queues ...": it is up (its loops start with it), so waits are pairing's
    return worker


def simulate(
    *, players: int = 40, seconds: float = 60.0, variant: str = "classic", options: dict[str, Any] | None = None,
    clock: str = "1+0", computer_share: float = 0.25, pair_every: float = 1.0, seed: int = 1,
) -> Report:
    """Run the arena (on the database Django is configured with) and check it; the report of what was seen."""
    from django.contrib.auth import get_user_model

    from games.models import Arena
    from games.services import arena_create
    from players.models import ApiToken

    people = [get_user_model().objects.create_user(username=f"sim{i:03d}-{seed}", password=None)
              for i in range(players)]
    tokens = [ApiToken.issue(player=person, name="sim")[1] for person in people]
    worker = start_worker(pair_every)
    try:
        arena = arena_create(player=people[0], variant=variant, options=options or {}, clock=clock, minutes=10,
                             name="Simulated arena")
        started = datetime.now(tz=arena.starts_at.tzinfo)
        Arena.objects.filter(pk=arena.pk).update(starts_at=started, ends_at=started + timedelta(seconds=seconds))
        stop = threading.Event()
        errors: list[str] = []
        rng = random.Random(seed)
        bots = [Bot(token, arena.pk, computer=rng.random() < computer_share, seed=seed * 1000 + n, stop=stop)
                for n, token in enumerate(tokens)]
        began = time.monotonic()
        for bot in bots:
            bot.start()
        for bot in bots:
            bot.join(timeout=seconds + 60)
        stop.set()
        # The players stop when the arena's time is up; the worker's arena loop ends it (its games drawn, the
        # standings final) within a round or two of that: a busy database may take a few seconds more.
        deadline = time.monotonic() + END_GRACE + 2 * pair_every
        while Arena.objects.filter(pk=arena.pk, closed__isnull=True).exists():
            if time.monotonic() > deadline:
                errors.append(f"the arena was not ended within {END_GRACE:.0f} s of its end")
                break
            time.sleep(0.1)
    finally:
        worker.kill()
        worker.wait(10)
    report = Report(players=players, seconds=time.monotonic() - began)
    report.requests = sum(bot.requests for bot in bots)
    report.moves = sum(bot.moves for bot in bots)
    report.errors = errors + [e for bot in bots for e in bot.errors]
    report.refusals = dict(sum((Counter(bot.refusals) for bot in bots), Counter()))
    report.torn = sum(bot.torn for bot in bots)
    check(arena.pk, report)
    return report


def check(arena_id: int, report: Report) -> None:
    """The figures and the checks, from the database: games, waits, overlaps, standings against the results."""
    from games.arena.scoring import Played, total
    from games.models import Arena, ArenaPairing, ArenaPlayer, Game
    from games.services.arena_scores import outcome_for, own_moves

    arena = Arena.objects.get(pk=arena_id)
    pairings = list(ArenaPairing.objects.filter(arena_id=arena_id).select_related("game").order_by("game__created"))
    report.games = len(pairings)
    report.finished = sum(p.game.status == Game.Status.FINISHED for p in pairings)
    late = [p.game_id for p in pairings if p.game.created >= arena.ends_at]
    if late or report.finished != report.games:
        report.errors.append(f"games paired after the end {late}, or left running: {report.games - report.finished}")
    report.ended_by_arena = sum(p.game.result_reason == Game.Reason.ARENA for p in pairings)
    by_player: dict[int, list[tuple[Any, str]]] = defaultdict(list)
    for p in pairings:
        by_player[p.game.x_player_id].append((p, "X"))
        by_player[p.game.o_player_id].append((p, "O"))
    for entry in ArenaPlayer.objects.filter(arena_id=arena_id):
        games = by_player.get(entry.player_id, [])
        free_from = entry.joined
        for n, ((p, _side), nxt) in enumerate(zip(games, [*games[1:], None], strict=True)):
            (report.waits if n else report.first_waits).append((p.game.created - free_from).total_seconds())
            if p.game.finished is None:
                if nxt is not None:
                    report.overlaps.append(f"player {entry.player_id}: game {p.game_id} still running")
                continue
            if nxt is not None and nxt[0].game.created < p.game.finished:
                report.overlaps.append(
                    f"player {entry.player_id}: game {nxt[0].game_id} began before {p.game_id} ended")
            free_from = p.game.finished
        played = [Played(outcome_for(p.game, side), p.berserk_of(side), own_moves(p.game, side))
                  for p, side in games if p.game.status == Game.Status.FINISHED]
        score, _streak = total(played)
        counted = sum(outcome != "none" for outcome in (g.outcome for g in played))
        if (score, counted) != (entry.score, entry.games):
            report.mismatches.append(
                f"player {entry.player_id}: standings {entry.score} in {entry.games}, games say {score} in {counted}")


def _setup(database: str | None) -> str:
    """Django on a throw-away SQLite database (or ``database``, a DATABASE_URL), migrated; its description."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DJANGO_DEBUG"] = "1"
    os.environ["DJANGO_ARENA_SCHEDULE"] = "0"
    if database:
        os.environ["DATABASE_URL"] = database
    else:
        folder = tempfile.mkdtemp(prefix="arena-sim-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)  # thrown away with the run
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/sim.sqlite3"
    import logging

    import django
    from django.core.management import call_command

    django.setup()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the bots' refused moves (409) are counted instead
    call_command("migrate", verbosity=0)
    from django.db import connection

    return connection.vendor


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--clock", default="1+0")
    parser.add_argument("--computer-share", type=float, default=0.25, help="share of players moving by 'threats'")
    parser.add_argument("--pair-every", type=float, default=1.0, help="seconds between pairings (the workers' loop)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default=None, help="a DATABASE_URL (default: a throw-away SQLite file)")
    args = parser.parse_args(argv)
    vendor = _setup(args.database)
    print(f"arena-sim: {args.players} API players, {args.variant} {args.clock}, {args.seconds:g} s, pairing every "
          f"{args.pair_every:g} s, {vendor}", flush=True)
    report = simulate(players=args.players, seconds=args.seconds, variant=args.variant, clock=args.clock,
                      computer_share=args.computer_share, pair_every=args.pair_every, seed=args.seed)
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
