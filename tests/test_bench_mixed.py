"""The mixed-load benchmark's own parts (bench/mixed.py and its report, bench/mixed_report.py; `make bench-mixed`):
its defaults are the issue's (8 quick and 4 hard players, one task worker per core of this 2-core machine), and
its measure of a queue the workers do not explain. The benchmark itself is not run here: it loads the machine
for half a minute."""

from __future__ import annotations

import pytest

from bench import mixed, mixed_report


def test_defaults_are_the_issues():
    args = mixed.parser().parse_args([])
    assert (args.quick, args.hard, args.workers, args.web_workers, args.db) == (8, 4, 2, 2, "sqlite")
    assert 10 <= args.seconds <= 20  # a short run on a shared machine
    assert (mixed_report.TARGET_FACTOR, mixed_report.TARGET_P95) == (3.0, 0.250)


def test_help_works(capsys):
    with pytest.raises(SystemExit) as done:
        mixed.main(["--help"])
    assert done.value.code == 0
    assert "--quick" in capsys.readouterr().out


def test_idle_time_counts_only_time_with_a_worker_free():
    busy = [(0.0, 1.0), (0.5, 2.0)]  # two workers: both busy from 0.5 to 1.0
    assert mixed_report.idle_time(0.5, 1.0, busy, workers=2) == pytest.approx(0.0)
    assert mixed_report.idle_time(0.0, 2.0, busy, workers=2) == pytest.approx(1.5)
    assert mixed_report.idle_time(0.0, 2.0, busy, workers=1) == pytest.approx(0.0)
    assert mixed_report.idle_time(2.0, 3.0, busy, workers=1) == pytest.approx(1.0)
    assert mixed_report.idle_time(1.0, 1.0, busy, workers=2) == 0.0
