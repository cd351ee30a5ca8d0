#!/usr/bin/env python3
"""Old beside new: the web benchmark of another checkout (the baseline: an older commit) and of this one, run in
turn, so that the machine's drift over the minutes (this VM's cores stall now and then: bench/stalls.py) falls on
both alike; the figures of each run, and the ratio of this checkout's moves per second to the baseline's.

    git worktree add --detach /tmp/ttt-baseline <commit>
    .venv/bin/python bench/alternate.py --baseline /tmp/ttt-baseline --runs 3 -- --db sqlite --seconds 10

Everything after ``--`` goes to both checkouts' bench/web.py (each starts its own server, the way that checkout
serves: its own config), with this checkout's interpreter. Each run's whole output is kept in --log.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOVES = re.compile(r"moves stored: \d+ \((\d+) moves/s")
LATENCY = re.compile(r"move request latency: p50 ([\d.]+) ms, p95 ([\d.]+) ms")


def run(checkout: Path, args: list[str], log: Path) -> tuple[float, float, float] | None:
    done = subprocess.run([sys.executable, str(checkout / "bench" / "web.py"), *args], cwd=checkout,
                          capture_output=True, text=True)
    with log.open("a") as out:
        out.write(f"\n### {checkout} (exit {done.returncode})\n{done.stdout}{done.stderr}")
    moves, latency = MOVES.search(done.stdout), LATENCY.search(done.stdout)
    if done.returncode != 0 or not moves or not latency:
        return None
    return float(moves.group(1)), float(latency.group(1)), float(latency.group(2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the other checkout (e.g. a git worktree)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, alternated (default 3)")
    parser.add_argument("--log", type=Path, default=Path("/tmp/ttt-alternate.log"), help="every run's output")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="-- then bench/web.py's options")
    args = parser.parse_args()
    passed = [a for a in args.rest if a != "--"] or ["--db", "sqlite"]
    if "--stall-seconds" not in passed:
        passed += ["--stall-seconds", "0"]
    args.log.write_text("")
    rows: list[tuple[str, int, tuple[float, float, float] | None]] = []
    for n in range(1, args.runs + 1):
        for label, checkout in (("baseline", args.baseline.resolve()), ("this", ROOT)):
            figures = run(checkout, passed, args.log)
            rows.append((label, n, figures))
            shown = "FAILED (see the log)" if figures is None else (
                f"{figures[0]:.0f} moves/s, p50 {figures[1]:.1f} ms, p95 {figures[2]:.1f} ms")
            print(f"run {n} {label:>8}: {shown}", flush=True)
    ratios = [this[0] / base[0] for (_, _, base), (_, _, this) in zip(rows[::2], rows[1::2], strict=True)
              if base and this]
    if ratios:
        print(f"this / baseline, moves/s, run by run: {', '.join(f'{r:.2f}' for r in ratios)}; "
              f"median {statistics.median(ratios):.2f}")
    return 0 if len(ratios) == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
