"""The mixed-load benchmark's report (bench/mixed.py): from what its players saw and the computer's task rows,
each phase's move latencies, the hard players' wait split into think, queue and the rest (a queue the busy
workers do not explain flagged), the verdicts against issue 19's target, and the replay of every stored game."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import check_games, percentiles

TARGET_FACTOR, TARGET_P95 = 3.0, 0.250  # the target: p95 under load <= 3 x alone, and < 250 ms
QUEUE_GRACE = 0.3  # seconds a task may wait with a worker idle (its 0.1 s poll of the queue, a busy database)


@dataclass
class Result:
    role: str  # "quick" or "hard"
    moves: list[tuple[float, float, int]] = field(default_factory=list)  # (sent, after t0; latency; moves stored)
    replies: list[tuple[int, int, float, float]] = field(default_factory=list)  # (game, version, wait, move latency)
    games_started: int = 0
    polls: int = 0  # GET /api/games/{id} while waiting for the computer
    errors: list[str] = field(default_factory=list)
    accepted: dict[int, int] = field(default_factory=dict)  # game id -> moves the client saw stored


def quantile(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def idle_time(start: float, stop: float, busy: list[tuple[float, float]], workers: int) -> float:
    """Seconds within [start, stop] during which fewer than ``workers`` tasks were running."""
    if stop <= start:
        return 0.0
    points = sorted({start, stop, *(t for span in busy for t in span if start < t < stop)})
    idle = 0.0
    for lo, hi in zip(points, points[1:], strict=False):
        mid = (lo + hi) / 2
        if sum(1 for s, f in busy if s <= mid < f) < workers:
            idle += hi - lo
    return idle


def task_rows() -> dict[tuple[int, int], list[dict]]:
    """The computer's tasks by (game, version), each with its times as seconds since the epoch."""
    from django_tasks_db.models import DBTaskResult

    from games.services.moves import computer_turn

    rows: dict[tuple[int, int], list[dict]] = {}
    for row in DBTaskResult.objects.filter(task_path=computer_turn.module_path):
        kwargs = (row.args_kwargs or {}).get("kwargs", {})
        rows.setdefault((kwargs.get("game_id"), kwargs.get("version")), []).append({
            "status": row.status, "value": row.return_value, "workers": list(row.worker_ids or []),
            "enqueued": row.enqueued_at.timestamp(),
            "started": row.started_at.timestamp() if row.started_at else None,
            "finished": row.finished_at.timestamp() if row.finished_at else None,
        })
    return rows


def report(args: argparse.Namespace, quick: list[str], hard: list[str], results: list[Result],
           cpu: dict[str, list[float]], left: int, load_after: tuple[float, float, float], logs: Path) -> bool:
    """Print the run's figures, the verdicts and the check of the stored games; True if the target is met and
    nothing went wrong. The task workers' logs are named if anything did, else removed."""
    errors = [e for r in results for e in r.errors]
    accepted: dict[int, int] = {}
    for r in results:
        accepted.update(r.accepted)
    started = sum(r.games_started for r in results)
    quick_moves = [m for r in results if r.role == "quick" for m in r.moves]
    replies = [x for r in results if r.role == "hard" for x in r.replies]
    hard_errors = [e for r in results if r.role == "hard" for e in r.errors]
    quick_errors = [e for r in results if r.role == "quick" for e in r.errors]

    cores = os.cpu_count() or 1
    print(f"  gunicorn: {args.web_workers} workers (config/gunicorn.conf.py) behind nginx; "
          f"task workers: {args.workers} (manage.py worker, "
          f"nice +10); {cores} cores; {args.seconds:.0f} s per phase; load average after: "
          + " ".join(f"{x:.2f}" for x in load_after))
    phases = []
    for phase, name in enumerate((f"{args.quick} quick players alone", f"{args.quick} quick players with "
                                  f"{args.hard} hard players")):
        lo, hi = phase * args.seconds, (phase + 1) * args.seconds
        moves = [m for m in quick_moves if lo <= m[0] < hi]
        lat = [m[1] for m in moves]
        stored = sum(m[2] for m in moves)
        phases.append(lat)
        web_cpu = worker_cpu = float("nan")
        if len(cpu["web"]) > phase + 1:
            web_cpu = (cpu["web"][phase + 1] - cpu["web"][phase]) / args.seconds
            worker_cpu = (cpu["workers"][phase + 1] - cpu["workers"][phase]) / args.seconds
        print(f"  {phase + 1}. {name}: moves {percentiles(lat)}, max {ms(max(lat, default=0))}; "
              f"{stored / args.seconds:.0f} moves/s ({len(lat) / args.seconds:.0f} move requests/s); "
              f"CPU: web {web_cpu * 100:.0f}%, task workers {worker_cpu * 100:.0f}% of a core")
    print(f"  quick players: {len(quick_errors)} errors")

    rows = task_rows()
    busy = [(t["started"], t["finished"]) for ts in rows.values() for t in ts if t["started"] and t["finished"]]
    waits, thinks, queues, rests, flagged = [], [], [], [], []
    idle_total = 0.0
    worker_ids: dict[str, int] = {}
    for gid, version, wait, _latency in replies:
        done = [t for t in rows.get((gid, version), []) if t["value"] == "played" and t["finished"]]
        if not done:
            hard_errors.append(f"game {gid}: no task row played its move at version {version}")
            continue
        task = done[0]
        think, queue = task["finished"] - task["started"], task["started"] - task["enqueued"]
        waits.append(wait)
        thinks.append(think)
        queues.append(queue)
        rests.append(wait - think - queue)
        for worker in task["workers"]:
            worker_ids[worker] = worker_ids.get(worker, 0) + 1
        idle = idle_time(task["enqueued"], task["started"], busy, args.workers)
        idle_total += idle
        if idle > QUEUE_GRACE:
            flagged.append(f"game {gid} v{version}: queued {ms(queue)}, {ms(idle)} of it with a task worker idle")
    stale = sum(1 for ts in rows.values() for t in ts if t["value"] != "played")

    def line(values: list[float]) -> str:
        return (f"p50 {ms(quantile(values, 50))}, p95 {ms(quantile(values, 95))}, max {ms(max(values, default=0))}"
                if values else "n/a")

    hard_lat = [x[3] for x in replies]
    polls = sum(r.polls for r in results)
    print(f"  {args.hard} hard players (Ultimate against hard): {len(replies)} replies, {len(hard_errors)} errors; "
          f"their move answered in {line(hard_lat)}; {polls} polls ({polls / args.seconds:.0f}/s) while waiting")
    print(f"    move -> reply seen:      {line(waits)}")
    print(f"    think (started->finished): {line(thinks)}")
    print(f"    queue (enqueued->started): {line(queues)}; with a worker idle: {idle_total:.2f} s in all")
    print(f"    the rest (request, poll): {line(rests)}")
    print(f"    tasks per worker: {sorted(worker_ids.values(), reverse=True)}; tasks that did not play: {stale}; "
          f"left waiting at the end: {left}")
    for error in (quick_errors + hard_errors)[:8]:
        print(f"    error: {error}")

    # Verdict against the target.
    alone, loaded = (quantile(p, 95) for p in phases)
    quick_ok = loaded <= TARGET_FACTOR * alone and loaded < TARGET_P95 and not quick_errors
    explained = not flagged and not hard_errors and bool(replies)
    ratio = loaded / alone if alone else float("nan")
    print(f"  verdict: quick p95 {ms(alone)} alone -> {ms(loaded)} with {args.hard} hard players "
          f"({ratio:.1f}x; target <= {TARGET_FACTOR:.0f}x and < {ms(TARGET_P95)}), {len(quick_errors)} errors: "
          + ("MET" if quick_ok else "NOT MET"))
    print(f"  verdict: hard players' wait p50 {ms(quantile(waits, 50))} = think p50 {ms(quantile(thinks, 50))} + "
          f"queue p50 {ms(quantile(queues, 50))} + rest p50 {ms(quantile(rests, 50))}: "
          + ("queue explained by busy workers" if explained else
             f"{len(flagged)} tasks queued longer than the workers explain" if flagged else "errors above"))
    for item in flagged[:8]:
        print(f"    {item}")

    count, moves_total, problems = check_games(quick + hard, accepted, started)
    print(f"  check: {count} games, {moves_total} moves replayed through the engine: "
          + ("all consistent" if not problems else f"{len(problems)} PROBLEMS"))
    for problem in problems[:10]:
        print(f"    {problem}")
    if errors or problems or left:
        print(f"  the servers' and task workers' logs: {logs}/stack.log")
    else:
        shutil.rmtree(logs, ignore_errors=True)
    return quick_ok and explained and not errors and not problems and not left
