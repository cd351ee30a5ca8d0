"""Help in games without another person (a hint, taking a move back) and a finished game's analysis."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from ..engine.analysis import start_outcome
from ..positions import game_position, game_variant
from ..services import game_analysis, mistakes_by_side, move_hint, move_takeback
from .answers import game_state, load_game
from .errors import ERRORS
from .schemas import AnalysisOut, GameOut, HintOut

router = Router(tags=["games"])


@router.post("/games/{int:game_id}/hint", response={200: HintOut, **ERRORS}, summary="Suggest a move")
def hint(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """On your turn, in a running game without another player: the move the hard level would play (up to
    about a second of thought); it is not played. ``hints`` counts them. Against another player:
    ``409 hint_refused``; not your turn: ``409 not_your_turn``."""
    game, move = move_hint(game=load_game(request, game_id), player=request.auth)
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


@router.get("/games/{int:game_id}/analysis", response={200: AnalysisOut, **ERRORS}, summary="What each move did")
def analysis(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """A finished game on one board of at most 16 cells (classic, 4 x 4, small m,n,k): for each move, the mover's
    outcome with best play before and after it, whether it was a mistake, and the moves that kept the outcome
    (``best``, and ``best_names`` by cell name). A game still being played, or a bigger board:
    ``409 analysis_unavailable``."""
    game = load_game(request, game_id)
    verdicts = game_analysis(game)
    variant = game_variant(game)
    start = verdicts[0].before if verdicts else start_outcome(variant)
    name = variant.cell_name
    return {
        "outcome": "draw" if start == "draw" else "X" if start == "win" else "O",
        "mistakes": mistakes_by_side(verdicts),
        "moves": [
            {
                "ply": v.ply, "side": v.side, "move": v.move, "name": name(v.move), "label": name(v.move),
                "before": v.before, "after": v.after, "mistake": v.mistake,
                "best": list(v.best), "best_names": [name(m) for m in v.best],
            }
            for v in verdicts
        ],
    }
