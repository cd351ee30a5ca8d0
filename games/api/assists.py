"""Help in games without another person (a hint, taking a move back) and a finished game's analysis.

A hint or an analysis that takes the computer more than a moment is worked out by the server's workers, never
inside a request: the answer is then 202 (``pending``, with ``Retry-After``), and the same request asked again
later gives the result (a hint is counted once). A player has one such request waiting at a time: another is
429 ``busy``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import Router, Status

from ..engine.analysis import can_analyse, start_outcome
from ..positions import game_position, game_variant
from ..services import game_analysis, mistakes_by_side, move_hint, move_takeback
from .answers import game_state, load_game
from .errors import BUSY, ERRORS
from .schemas import AnalysisOut, GameOut, HintOut, PendingOut

router = Router(tags=["games"])

#: seconds a client is asked to wait before asking again for work the workers do
PENDING_RETRY = 2


def _pending(response: HttpResponse, what: str) -> Status:
    response["Retry-After"] = str(PENDING_RETRY)
    message = f"the computer is working out {what}; ask again in a moment"
    return Status(202, {"pending": True, "message": message, "retry_after": PENDING_RETRY})


@router.post(
    "/games/{int:game_id}/hint", response={200: HintOut, 202: PendingOut, **ERRORS, **BUSY}, summary="Suggest a move"
)
def hint(request: HttpRequest, game_id: int, response: HttpResponse) -> Any:
    """On your turn, in a running game without another player: the move the hard level would play; it is not
    played. ``hints`` counts them. Where the hard level thinks for up to a second, 202 ``pending`` while the
    server's workers work it out: ask again (it is counted once). Against another player: ``409 hint_refused``;
    not your turn: ``409 not_your_turn``; another slow request of yours still waiting: ``429 busy``."""
    game, move = move_hint(game=load_game(request, game_id), player=request.auth)
    if move is None:
        return _pending(response, "a hint")
    name = game_variant(game).cell_name(move)
    return {"move": move, "name": name, "label": name, "hints": game.hints}


@router.post("/games/{int:game_id}/takeback", response={200: GameOut, **ERRORS}, summary="Take your move back")
def take_back(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """In a running game without another player (against the computer, or both seats yours): your latest
    move goes, with the computer's replies after it, so it is your turn again; both seats yours: the last
    move. ``takebacks`` counts them. Against another player, in a finished game, or before your first move:
    ``409 takeback_refused`` (or the usual ``game_finished``)."""
    game = move_takeback(game=load_game(request, game_id), player=request.auth)
    return game_state(game_position(game), request.auth)


@router.get(
    "/games/{int:game_id}/analysis", response={200: AnalysisOut, 202: PendingOut, **ERRORS, **BUSY},
    summary="What each move did",
)
def analysis(request: HttpRequest, game_id: int, response: HttpResponse) -> Any:
    """A finished game, on every board: for each move X's chance to win before and after it (``evaluation_before``,
    ``evaluation``), the result with best play where proven (``proven_before``, ``proven``; and the mover's
    outcome, ``before`` / ``after``), the best move (``best``, ``best_names``, ``best_name``) and the verdict
    (``?`` a mistake, ``??`` a blunder). Exact on boards of at most 16 cells (classic, 4 x 4, small m,n,k), from
    a bounded search elsewhere (docs/features.md). Worked out once, by the server's workers beyond classic: 202
    ``pending`` meanwhile; a game started from a position is analysed from there. A game still being played:
    ``409 analysis_unavailable``."""
    game = load_game(request, game_id)
    verdicts = game_analysis(game, player=request.auth)
    if verdicts is None:
        return _pending(response, "the analysis")
    variant = game_variant(game)
    if verdicts:
        start = verdicts[0].proven_before
    else:
        start = {"win": "X", "loss": "O", "draw": "draw"}[start_outcome(variant)] if can_analyse(variant) else None
    name = variant.cell_name
    return {
        "outcome": start,
        "mistakes": mistakes_by_side(verdicts),
        "moves": [
            {
                "ply": v.ply, "side": v.side, "move": v.move, "name": name(v.move), "label": name(v.move),
                "before": v.before, "after": v.after, "mistake": v.mistake, "verdict": v.verdict,
                "evaluation_before": round(v.chance_before, 3), "evaluation": round(v.chance_after, 3),
                "proven_before": v.proven_before, "proven": v.proven_after, "exact": v.exact,
                "best": list(v.best), "best_names": [name(m) for m in v.best],
                "best_name": name(v.best[0]) if v.best else None,
            }
            for v in verdicts
        ],
    }
