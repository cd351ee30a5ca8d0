"""``manage.py puzzles_backfill``: puzzles cut from games played before, with a progress bar; twice: nothing new."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.engine import get_variant
from games.models import Game, Puzzle
from games.services import move_play

pytestmark = pytest.mark.django_db


def test_the_backfill_cuts_the_old_games_puzzles_once(make_game, player):
    classic = get_variant("classic")
    for _ in range(2):
        game = make_game()
        for name in ("c2", "b2", "b1", "a2", "a3", "b3", "c1", "c3", "a1"):
            move_play(game=game, player=player, move=classic.parse_cell(name))
    assert Game.objects.filter(analysis__isnull=True).count() == 2 and not Puzzle.objects.exists()
    out = StringIO()
    call_command("puzzles_backfill", stdout=out)
    text = out.getvalue()
    assert "[" + "#" * 30 + "] 2/2 games · 2 puzzle(s)" in text
    assert "2 game(s) looked at, 2 analysed, 2 new puzzle(s)" in text
    assert Puzzle.objects.count() == 2 and not Game.objects.filter(analysis__isnull=True).exists()
    again = StringIO()
    call_command("puzzles_backfill", "--variant", "classic", stdout=again)
    assert "0 analysed, 0 new puzzle(s)" in again.getvalue()
