"""``manage.py puzzles_backfill``: cut puzzles from the games played before puzzles existed, with a progress bar.

Every finished game (not aborted, at least three moves) is looked at, oldest first: its stored analysis is cut
(``games.services.puzzles.cut_puzzles``, as the workers do after each new analysis); a game without an analysis is
analysed first when its board is solved exactly (milliseconds), and on every board with ``--analyse`` (a quarter
second a position, as the workers analyse: long on many games). A game cut twice gives nothing new.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.engine.analysis import can_analyse
from games.models import Game
from games.positions import game_variant
from games.services.assists import work_out_analysis
from games.services.puzzles import cut_puzzles

BAR = 30


class Command(BaseCommand):
    help = "Cut puzzles from the games already played (their missed wins), with a progress bar."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--variant", default="", help="only games of this variant")
        parser.add_argument("--analyse", action="store_true", help="analyse games of every board that lack one")
        parser.add_argument("--limit", type=int, default=0, help="at most this many games (0: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        games = (Game.objects.filter(status=Game.Status.FINISHED, ply__gte=3).exclude(result_reason=Game.Reason.ABORTED)
                 .order_by("id"))
        if options["variant"]:
            games = games.filter(variant=options["variant"])
        ids = list(games.values_list("id", flat=True))
        if options["limit"]:
            ids = ids[: options["limit"]]
        made = analysed = 0
        started = time.monotonic()
        for done, game_id in enumerate(ids, start=1):
            game = Game.objects.filter(pk=game_id).only("id", "variant", "options", "analysis").first()
            if game is not None and game.analysis is None and (options["analyse"] or can_analyse(game_variant(game))):
                work_out_analysis(game_id=game_id)
                analysed += 1
            made += cut_puzzles(game_id=game_id)
            self._bar(done, len(ids), made, started)
        self.stdout.write(
            f"\n{len(ids)} game(s) looked at, {analysed} analysed, {made} new puzzle(s) "
            f"in {time.monotonic() - started:.1f} s"
        )

    def _bar(self, done: int, total: int, made: int, started: float) -> None:
        """``[#####.....] 120/500 games · 14 puzzles · 12 s``: redrawn in place on a terminal, every tenth elsewhere."""
        step = max(1, total // 10)
        if not sys.stdout.isatty() and done != total and done % step:
            return
        filled = BAR * done // max(total, 1)
        line = (f"[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} games · {made} puzzle(s) · "
                f"{time.monotonic() - started:.0f} s")
        self.stdout.write(f"\r{line}" if sys.stdout.isatty() else line, ending="")
        if not sys.stdout.isatty():
            self.stdout.write("")
        self.stdout.flush()
