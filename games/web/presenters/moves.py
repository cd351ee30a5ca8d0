"""The move list (``games/board.html#moves``) and the replay's words, every move named by its cell name.

The rows are ``GameView.moves`` as tuples (``move_rows``); the replay adds which step is shown and which moves
the analysis found to be mistakes.
"""

from __future__ import annotations

from typing import Any

from ...engine.analysis import MoveVerdict, outcome_words
from ...pov import GameView, other_side
from ...services import mistakes_by_side
from .graph import percent

#: a row of the move list: ply, side ("X"), its mark's class ("x"), the cell name, the analysis' verdict ("??", "?", "")
MoveRow = tuple[int, str, str, str, str]


def move_rows(view: GameView, verdicts: list[MoveVerdict] | None = None) -> list[MoveRow]:
    """The move list's rows, as tuples the template's loop unpacks: every row is drawn on every move answer, and
    a tuple spares the template engine an attribute lookup (and a failed dictionary lookup) per field."""
    marks = {
        ply: "??" if v.verdict == "??" else "?" for ply, v in enumerate(verdicts or (), start=1) if v.mistake
    }
    return [(row.ply, row.side, row.side.lower(), row.name, marks.get(row.ply, "")) for row in view.moves]


#: a numbered row of the move list, as chess writes it ("1. b2 a1"): the number, X's move and O's (a ``MoveRow``
#: each, None before the first move of a game that O began, and after the last)
MovePair = tuple[int, MoveRow | None, MoveRow | None]


def move_pairs(rows: list[MoveRow]) -> list[MovePair]:
    """The move list in numbered pairs: X's move and O's answer share a number. A game started from a position
    with O to move opens with "1. … a1"."""
    pairs: list[MovePair] = []
    for row in rows:
        if row[1] == "X" or not pairs or pairs[-1][2] is not None:
            pairs.append((len(pairs) + 1, row, None) if row[1] == "X" else (len(pairs) + 1, None, row))
        else:
            number, first, _ = pairs[-1]
            pairs[-1] = (number, first, row)
    return pairs


def standing(proven: str | None, chance: float) -> str:
    """A position's evaluation in words: the proven result, else X's chance to win."""
    if proven == "draw":
        return "a draw with best play (proven)"
    if proven:
        return f"a win for {proven} (proven)"
    return f"X's chance to win {percent(chance)}"


def _searched_words(view: GameView, verdicts: list[MoveVerdict], ply: int) -> tuple[str, str]:
    """The words and tone of a step on a board too big to solve (chances from a search, some results proven)."""
    if ply == 0:
        first = verdicts[0]
        best = f" Best first move found: {view.name(first.best[0])}." if first.best else ""
        return f"At the start: {standing(first.proven_before, first.chance_before)}.{best}", ""
    v = verdicts[ply - 1]
    head = f"Move {ply}, {v.side} on {view.name(v.move)}:"
    kind = {"??": "a blunder (??)", "?": "a mistake (?)"}.get(v.verdict, "")
    if not kind:
        kind = "the best move found" if v.best and v.best[0] == v.move else "no mistake"
    text = (
        f"{head} {kind}. Before it: {standing(v.proven_before, v.chance_before)}; after it: "
        f"{standing(v.proven_after, v.chance_after)}."
    )
    if v.best and v.best[0] != v.move:
        text += f" Best move found: {view.name(v.best[0])}."
    return text, "mistake" if v.verdict else "good"


def _or_list(names: list[str]) -> str:
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]


def analysis_words(view: GameView, verdicts: list[MoveVerdict], ply: int) -> dict[str, str]:
    """The replay's words on the step shown (``ply``: after that move) and the count of mistakes."""
    counts = mistakes_by_side(verdicts)
    if verdicts and not verdicts[0].exact:
        text, tone = _searched_words(view, verdicts, ply)
    elif ply == 0:
        # the first mover's outcome: O's in a game started from a position with O to move
        first = verdicts[0] if verdicts else None
        text = f"With best play from both sides, this game is {outcome_words(first.before, first.side)}." \
            if first else ""
        tone = ""
    else:
        v = verdicts[ply - 1]
        head = f"Move {ply}, {v.side} on {view.name(v.move)}:"
        if v.mistake:
            text = (
                f"{head} {'a blunder' if v.verdict == '??' else 'a mistake'}. "
                f"With best play this was {outcome_words(v.before, v.side)}; now it is "
                f"{outcome_words(v.after, v.side)}. Better: {_or_list([view.name(m) for m in v.best])}."
            )
            tone = "mistake"
        elif v.before == "loss":
            text = f"{head} {other_side(v.side)} wins whatever {v.side} plays."
            tone = ""
        else:
            text = f"{head} a good move. With best play this is {outcome_words(v.after, v.side)}."
            tone = "good"
    if not verdicts:
        summary = ""
    elif counts["X"] or counts["O"]:
        summary = f"Mistakes: X {counts['X']}, O {counts['O']}."
        worst = {side: sum(v.verdict == "??" for v in verdicts if v.side == side) for side in ("X", "O")}
        if worst["X"] or worst["O"]:
            summary += f" Blunders (??) among them: X {worst['X']}, O {worst['O']}."
    else:
        summary = "No mistakes: both sides kept the best outcome they had." if verdicts[0].exact else (
            "No mistakes found: no move lowered its side's chances by 15 points or more."
        )
    return {"text": text, "tone": tone, "summary": summary}


def replay_announcement(view: GameView, ply: int, analysis: dict[str, Any] | None, status_text: str) -> str:
    """What a screen reader says at each step of the replay: the step, the move shown and its analysis, the result
    at the end as the status line words it (the visible words are in the swapped part, which readers do not
    follow)."""
    moves = view.position.moves
    total = len(moves)
    if ply == 0:
        words = f"Start position, {total} moves in all."
    else:
        words = f"Move {ply} of {total}: {view.game.mover(ply)} on {view.name(moves[ply - 1])}."
    if analysis and analysis["text"]:
        # past its head ("Move 6, O on a2:"), which the words above already say
        text = analysis["text"].split(": ", 1)[-1] if ply else analysis["text"]
        words += f" {text[0].upper()}{text[1:]}"
    if ply == total and view.game.is_finished:
        words += f" {status_text}."
    return words
