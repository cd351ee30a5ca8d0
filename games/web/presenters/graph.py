"""The replay's graph of the evaluation over a game: X's chance to win after each move, as coordinates for the
inline SVG that ``games/replay.html#eval_graph`` draws (the template builds the markup; this builds numbers and
words). One point per position: the start and after each move; each a link to that step of the replay, over a band
of the graph's full height, so that a click anywhere on the graph goes to the nearest move."""

from __future__ import annotations

from typing import Any

from ...engine.analysis import MoveVerdict

#: the SVG's user units: the plot area inside the margins holds the points
WIDTH, HEIGHT = 640, 180
LEFT, RIGHT, TOP, BOTTOM = 58, 10, 10, 24


def percent(chance: float) -> str:
    return f"{round(100 * chance)}%"


def _chances(verdicts: list[MoveVerdict]) -> list[float]:
    return [verdicts[0].chance_before, *(v.chance_after for v in verdicts)]


def evaluation_graph(verdicts: list[MoveVerdict], ply: int, replay_url: str, name) -> dict[str, Any] | None:
    """The graph's numbers and words for a game's verdicts, the step ``ply`` marked; None for a game without
    moves. ``name`` names a move by its cell name."""
    if not verdicts:
        return None
    chances = _chances(verdicts)
    total = len(verdicts)
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    points = []
    half = span_x / total / 2  # each step's band reaches halfway to its neighbours
    for step, chance in enumerate(chances):
        x = round(LEFT + span_x * step / total, 1)
        band_left = max(LEFT, x - half)
        y = round(TOP + span_y * (1 - chance), 1)
        if step:
            v = verdicts[step - 1]
            label = f"Graph, step {step} ({v.side} {name(v.move)}{' ' + v.verdict if v.verdict else ''})"
        else:
            label = "Graph, start"
        points.append(
            {
                "ply": step,
                "x": x,
                "y": y,
                "band_x": round(band_left, 1),
                "band_width": round(min(WIDTH - RIGHT, x + half) - band_left, 1),
                "url": f"{replay_url}?ply={step}",
                "current": step == ply,
                "verdict": verdicts[step - 1].verdict if step else "",
                "label": f"{label}: X {percent(chance)}",
            }
        )
    low = min(range(len(chances)), key=chances.__getitem__)
    high = max(range(len(chances)), key=chances.__getitem__)
    summary = (
        f"X's chance to win, after each of the {total} moves: {percent(chances[0])} at the start, "
        f"{percent(chances[-1])} at the end; lowest {percent(chances[low])} "
        f"{'at the start' if low == 0 else f'after move {low}'}, highest {percent(chances[high])} "
        f"{'at the start' if high == 0 else f'after move {high}'}."
    )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "points": points,
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "middle": round(TOP + span_y / 2, 1),
        "label_x": LEFT - 4,
        "plot_height": span_y,
        "axis_y": HEIGHT - 6,
        "current": points[min(ply, total)],
        "total": total,
        "summary": summary,
    }
