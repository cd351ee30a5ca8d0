"""The machine's own stalls: how often its cores run slow with nothing of ours running.

This machine is a virtual one sharing its host. Timing equal 1 ms pieces of pure CPU work, one process per core on
the otherwise idle machine, shows episodes where every core runs several times slower at once (2026-11-27: about
90 ms every 1.7 s, a piece taking 3 to 17 times its usual time). A request in flight then, and those queued
behind it, are slowed alike, whatever the server does: with 16 players' requests living about 35 ms each, an
episode covering 5 % of the time reaches about the slowest 7 % of them, which is where p95 lies.
``bench/web.py`` prints this measure before its own figures, so that runs on different hours can be compared.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import statistics
import time
from typing import Any

#: a piece slower than this many times the median piece is slow; slow pieces closer than JOIN seconds are one episode
SLOW, JOIN = 3.0, 0.1


def _piece() -> int:
    total = 0
    for i in range(20_000):  # about 1 ms of CPU here
        total += i
    return total


def _spin(seconds: float, out: Any) -> None:
    """Time equal pieces of CPU work for ``seconds``; put [(start, duration)] (time.monotonic, shared by processes)."""
    pieces, end = [], time.monotonic() + seconds
    while (began := time.monotonic()) < end:
        _piece()
        pieces.append((began, time.monotonic() - began))
    out.put(pieces)


def episodes(pieces: list[tuple[float, float]]) -> tuple[float, list[tuple[float, float, float]]]:
    """The median piece's duration, and the episodes where pieces ran SLOW times slower or more: (start, end, the
    slowest piece's factor), slow pieces less than JOIN seconds apart counted as one."""
    if not pieces:
        return 0.0, []
    median = statistics.median(duration for _, duration in pieces)
    found: list[list[float]] = []
    for began, duration in sorted(pieces):
        if duration <= SLOW * median:
            continue
        if found and began - found[-1][1] < JOIN:
            found[-1][1] = max(found[-1][1], began + duration)
            found[-1][2] = max(found[-1][2], duration / median)
        else:
            found.append([began, began + duration, duration / median])
    return median, [(a, b, factor) for a, b, factor in found]


def host_stalls(seconds: float, cores: int | None = None) -> str:
    """One spinning process per core for ``seconds`` (the machine otherwise idle): a line saying how often the cores
    ran slow, for how long and how much slower."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    workers = [ctx.Process(target=_spin, args=(seconds, out)) for _ in range(cores or os.cpu_count() or 1)]
    for worker in workers:
        worker.start()
    pieces = [piece for _ in workers for piece in out.get()]
    for worker in workers:
        worker.join()
    median, found = episodes(pieces)
    if not found:
        return (f"stalls of the machine itself: none in {seconds:.0f} s (pieces of {median * 1000:.2f} ms of CPU work, "
                f"one process per core, never {SLOW:.0f} times slower)")
    lengths = sorted((b - a) * 1000 for a, b, _ in found)
    share = sum(lengths) / 1000 / seconds * 100
    return (f"stalls of the machine itself: {len(found)} in {seconds:.0f} s (one every {seconds / len(found):.1f} s), "
            f"{lengths[0]:.0f}-{lengths[-1]:.0f} ms long, {share:.0f} % of the time, in which a {median * 1000:.2f} ms "
            f"piece of CPU work took up to {max(f for _, _, f in found):.0f} times as long (one process per core)")
