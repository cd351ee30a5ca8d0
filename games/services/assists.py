"""Help in games without another person in them: taking a move back, a hint; and a finished game's analysis."""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction

from ..engine import difficulty
from ..engine.analysis import MAX_CELLS, MoveVerdict, analyse, can_analyse
from ..errors import (
    AnalysisUnavailable,
    GameNotFound,
    HintRefused,
    MoveConflict,
    NotSeated,
    NotYourTurn,
    TakebackRefused,
)
from ..models import SIDES, Game, Move
from ..positions import (
    current_moves,
    game_variant,
    state_after,
    takeback_keep,
)
from .common import check_playable, lock_game


def move_takeback(*, game: Game | int, player) -> Game:
    """Take back ``player``'s latest move (the engine's ``takeback_keeps``) in a running game with no other
    person in it: against the computer, or two people on one screen. Against another player it would need their consent,
    so it is refused there, as it is in a finished game. The Move rows after the kept ones are deleted;
    ``takebacks`` counts how often it happened, and the game page and the API show it.
    """
    with transaction.atomic():
        locked = lock_game(game)
        sides = locked.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game")
        if locked.is_two_players:
            raise TakebackRefused("moves cannot be taken back in a game against another player")
        check_playable(locked)
        moves = current_moves(locked)
        keep = takeback_keep(locked, moves, sides)
        if keep is None:
            raise TakebackRefused("you have not made a move in this game yet, so there is none to take back")
        Move.objects.filter(game_id=locked.pk, ply__gt=keep).delete()
        locked.ply = keep
        locked.move_list = ",".join(map(str, moves[:keep]))
        locked.takebacks += 1
        locked.hint_ply = locked.hint_move = None  # the position may come back by other moves: no old hint then
        locked.version += 1
        locked.save(update_fields=["ply", "move_list", "takebacks", "hint_move", "hint_ply", "version", "updated"])
    return locked


def move_hint(*, game: Game | int, player) -> tuple[Game, int]:
    """A move for ``player`` to consider: what the hard level would play here (up to about a second of
    thought, outside any transaction). Only in a running game with no other person in it (a hint against
    another player would be help they do not get), on the player's turn. ``hints`` counts them, and the
    game's version moves on so an open page shows the count. Returns the game and the suggested move.
    Asked again in the same position, the same move comes back and is not counted again (a slow strategy
    need not agree with itself, and a reload must not cost a hint).
    """
    pk = game if isinstance(game, int) else game.pk
    # read now, not locked; a challenge cancelled meanwhile is no game
    locked = Game.objects.select_related("x_player", "o_player", "created_by").filter(pk=pk).first()
    if locked is None:
        raise GameNotFound("this game no longer exists: it was cancelled or declined")
    sides = locked.sides_of(player)
    if not sides:
        raise NotSeated("you are not playing in this game")
    if locked.is_two_players:
        raise HintRefused("hints are for games against the computer or on one screen, not against another player")
    check_playable(locked)
    if locked.to_move not in sides:
        raise NotYourTurn(f"it is not your turn: {locked.to_move} ({locked.seat_label(locked.to_move)}) is to move")
    if locked.current_hint is not None:
        return locked, locked.current_hint
    variant = game_variant(locked)
    state = state_after(locked, current_moves(locked))
    suggestion = difficulty(variant, "hard").choose(state)
    with transaction.atomic():
        again = lock_game(locked)
        if again.version != locked.version:
            if again.ply == locked.ply and again.current_hint is not None:
                return again, again.current_hint  # a second request for the same hint, answered first
            raise MoveConflict("the game moved on while the hint was being worked out; ask again")
        again.hints += 1
        again.hint_move, again.hint_ply = suggestion, again.ply
        again.version += 1
        again.save(update_fields=["hints", "hint_move", "hint_ply", "version", "updated"])
    return again, suggestion


def game_analysis(game: Game) -> list[MoveVerdict]:
    """What each move of a finished game did to its outcome with best play (engine.analysis), kept in the
    cache: a finished game no longer changes, and a 4 x 4 game takes up to about half a second to solve."""
    if not game.is_finished:
        raise AnalysisUnavailable("the analysis opens when the game is over (it would tell the players the best moves)")
    variant = game_variant(game)
    if not can_analyse(variant):
        raise AnalysisUnavailable(
            f"moves are analysed only on one board of at most {MAX_CELLS} cells, where best play is known exactly; "
            f"this game is {variant.describe()}"
        )
    moves = current_moves(game)
    # The verdicts depend on the board's shape and the moves only: games with the same moves share them.
    key = f"games:analysis:{variant.rows}x{variant.cols}k{variant.k}:{','.join(map(str, moves))}"
    verdicts = cache.get(key)
    if verdicts is None:
        verdicts = analyse(variant, moves)
        cache.set(key, verdicts, timeout=24 * 3600)
    return verdicts



def mistakes_by_side(verdicts: list[MoveVerdict]) -> dict[str, int]:
    """How many mistakes each side made in an analysed game (the replay and the API say it alike)."""
    return {side: sum(v.mistake for v in verdicts if v.side == side) for side in SIDES}
