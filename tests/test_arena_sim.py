"""bench/arena_sim.py (``make arena-sim``) at a small size: API players in an arena, paired by a real task worker,
and the simulation's own checks: no player ever in two games at once, standings equal to the sum of the results."""

from __future__ import annotations

import pytest

from bench.arena_sim import simulate
from games.models import Arena, ArenaPlayer


@pytest.mark.django_db(transaction=True)
def test_a_small_simulated_arena_passes_its_checks():
    report = simulate(players=6, seconds=10, pair_every=0.5, computer_share=0.5)
    assert report.ok, "\n".join(report.lines())
    assert report.games >= 3 and report.finished == report.games
    assert not report.overlaps and not report.mismatches
    arena = Arena.objects.get()
    assert arena.closed is not None  # ended on time by the worker
    assert ArenaPlayer.objects.filter(arena=arena, games__gt=0).count() >= 4
    assert any(line.startswith("pairings per minute: ") for line in report.lines())
