"""bench/stalls.py: episodes where the machine's cores ran slow, found in timed pieces of equal work."""

from __future__ import annotations

from bench.stalls import episodes, host_stalls


def test_slow_pieces_close_together_are_one_episode():
    steady = [(i * 0.001, 0.001) for i in range(3000)]  # 3 s of 1 ms pieces
    slow = [(1.000, 0.005), (1.006, 0.012), (1.050, 0.004),  # one episode: 1.000 to 1.062, 12 times slower at worst
            (2.500, 0.004)]  # another, alone
    median, found = episodes(steady + slow)
    assert median == 0.001
    assert [(round(a, 3), round(b, 3), round(f)) for a, b, f in found] == [(1.0, 1.054, 12), (2.5, 2.504, 4)]
    assert episodes(steady) == (0.001, [])  # a piece under three times the median is not slow
    assert episodes([]) == (0.0, [])


def test_the_probe_runs_one_process_per_core_and_says_what_it_saw():
    line = host_stalls(0.3, cores=2)
    assert line.startswith("stalls of the machine itself: ") and "one process per core" in line
