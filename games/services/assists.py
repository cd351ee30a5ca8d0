"""Help in games without another person in them: taking a move back, a hint; and a finished game's analysis."""

from __future__ import annotations

from dataclasses import asdict

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from ..engine import PositionError, State, difficulty, parse_position
from ..engine.analysis import MoveVerdict, can_analyse
from ..engine.evaluation import analyse_moves, evaluate
from ..errors import (
    AnalysisUnavailable,
    Busy,
    GameNotFound,
    HintRefused,
    MoveConflict,
    NotSeated,
    NotYourTurn,
    TakebackRefused,
)
from ..live import changed
from ..models import SIDES, Game, Move
from ..positions import current_moves, game_variant, initial_state, state_after, takeback_keep
from ..selectors import game_for_viewer
from .common import check_playable
from .computer import answers_at_once
from .puzzles import missed_win_moves, puzzles_when_analysed
from .queue import ASSIST_QUEUE, LOST_AFTER, pending, task


def move_takeback(*, game: Game | int, player) -> Game:
    """Take back ``player``'s latest move (the engine's ``takeback_keeps``) in a running game with no other
    person in it: against the computer, or two people on one screen. Against another player it would need their consent,
    so it is refused there, as it is in a finished game. The Move rows after the kept ones are deleted;
    ``takebacks`` counts how often it happened, and the game page and the API show it.
    """
    with transaction.atomic():
        locked = game_for_viewer(game, None, visible_only=False, for_update=True)
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
        locked.save(update_fields=[
            "ply", "move_list", "takebacks", "hint_move", "hint_ply", "version", "updated", *locked.note_turn()
        ])
        changed(locked)
    return locked


def move_hint(*, game: Game | int, player) -> tuple[Game, int | None]:
    """A move for ``player`` to consider: what the hard level would play here. Only in a running game with no
    other person in it (a hint against another player would be help they do not get), on the player's turn.
    ``hints`` counts them, and the game's version moves on so an open page shows it.

    Returns the game and the suggested move; or None for the move while a worker works it out (a strategy that
    thinks for up to a second never does it inside a request): the page and the API show it when it is stored.
    Asked again in the same position, the same move (or the same pending request) comes back and is not counted
    again. A player has at most one slow request (hint or analysis) waiting at a time: another is ``Busy``.
    """
    seen = game_for_viewer(game, player, visible_only=False)  # read now, not locked
    sides = seen.sides_of(player)
    if not sides:
        raise NotSeated("you are not playing in this game")
    if seen.is_two_players:
        raise HintRefused("hints are for games against the computer or on one screen, not against another player")
    check_playable(seen)
    if seen.to_move not in sides:
        raise NotYourTurn(f"it is not your turn: {seen.to_move} ({seen.seat_label(seen.to_move)}) is to move")
    if seen.current_hint is not None:
        return seen, seen.current_hint
    variant = game_variant(seen)
    strategy = difficulty(variant, "hard")
    if not answers_at_once(strategy, variant):
        if not pending(seen.assist_task, ready_for=LOST_AFTER, game_id=seen.pk, ply=seen.ply):
            check_fair_use(player)
            result = hint_for.enqueue(game_id=seen.pk, ply=seen.ply, player_id=player.pk)
            _note_assist(result.id, game=seen, player=player)
        return seen, None
    suggestion = strategy.choose(state_after(seen, current_moves(seen)))
    return store_hint(game_id=seen.pk, ply=seen.ply, move=suggestion, seen_version=seen.version)


def store_hint(*, game_id: int, ply: int, move: int, seen_version: int | None = None) -> tuple[Game, int]:
    """Store a hint worked out for the position after ``ply`` moves, if the game is still there (and, with
    ``seen_version``, unchanged since it was read); MoveConflict otherwise."""
    with transaction.atomic():
        again = game_for_viewer(game_id, None, visible_only=False, for_update=True)
        if again.ply == ply and again.current_hint is not None:
            return again, again.current_hint  # a second request for the same hint, answered first
        if again.ply != ply or (seen_version is not None and again.version != seen_version):
            raise MoveConflict("the game moved on while the hint was being worked out; ask again")
        again.hints += 1
        again.hint_move, again.hint_ply = move, again.ply
        again.version += 1
        again.save(update_fields=["hints", "hint_move", "hint_ply", "version", "updated"])
        changed(again)
    return again, move


@task(queue_name=ASSIST_QUEUE)
def hint_for(game_id: int, ply: int, player_id: int) -> str:
    """The hard level's move for the position after ``ply`` moves, stored as the game's hint (``player_id``: who
    asked)."""
    return work_out_hint(game_id=game_id, ply=ply)


def work_out_hint(*, game_id: int, ply: int) -> str:
    """A worker's task: the hard level's move for the position after ``ply`` moves of game ``game_id``, stored as
    its hint if the game is still there. What happened in a word: "hinted", "stale" or "gone"."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "gone"
    if game.ply != ply or game.status != Game.Status.ACTIVE:
        return "stale"
    state = state_after(game, current_moves(game))
    suggestion = difficulty(state.variant, "hard").choose(state)
    try:
        store_hint(game_id=game_id, ply=ply, move=suggestion)
    except (MoveConflict, GameNotFound):
        return "stale"
    return "hinted"


#: how long a player is asked to wait before asking again while a slow request of theirs is waiting
BUSY_RETRY_SECONDS = 5


def check_fair_use(player) -> None:
    """At most one slow request (a hint, an analysis, the analysis board's best move) per player waits for the
    workers at a time: one account asking in a loop would otherwise fill the queue before everyone else's. The
    player's latest one is kept on their row (``Player.assist_task``, by ``_note_assist``)."""
    latest = get_user_model().objects.filter(pk=player.pk).values_list("assist_task", flat=True).first()
    if latest and pending(latest, ready_for=LOST_AFTER):
        raise Busy(
            f"the computer is still working on your last request; ask again in {BUSY_RETRY_SECONDS} seconds",
            retry_after=BUSY_RETRY_SECONDS,
        )


def _note_assist(result_id: object, *, game: Game | None, player) -> None:
    """Keep the id of a slow request just enqueued: on its game (is this game's hint or analysis on its way?) and on
    the player who asked (``check_fair_use``)."""
    if game is not None:
        game.assist_task = str(result_id)
        Game.objects.filter(pk=game.pk).update(assist_task=game.assist_task)
    if player is not None:
        get_user_model().objects.filter(pk=player.pk).update(assist_task=str(result_id))


def game_analysis(game: Game, *, player=None) -> list[MoveVerdict] | None:
    """What each move of a finished game did (engine.evaluation.analyse_moves): exact outcomes with best play on
    the boards the solver knows, chances to win from a bounded search elsewhere; stored on the game once worked
    out. None while a worker works it out: asked for here the first time (``player``: who asks, held to one slow
    request at a time), or when the game ended (solved boards). Classic's is worked out at once (milliseconds)."""
    if not game.is_finished:
        raise AnalysisUnavailable("the analysis opens when the game is over (it would tell the players the best moves)")
    if game.analysis is not None:
        return read_analysis(game.analysis)
    variant = game_variant(game)
    if (can_analyse(variant) and variant.cell_count <= QUICK_ANALYSIS_CELLS) or not game.ply:  # milliseconds
        verdicts = analyse_moves(variant, current_moves(game), start=initial_state(game, variant))
        return store_analysis(game_id=game.pk, verdicts=verdicts)
    if not pending(game.assist_task, ready_for=LOST_AFTER, game_id=game.pk):
        if player is not None:
            check_fair_use(player)
        result = analyse_game.enqueue(game_id=game.pk, player_id=getattr(player, "pk", None))
        _note_assist(result.id, game=game, player=player)
    return None


def read_analysis(rows: list[dict]) -> list[MoveVerdict]:
    """The stored rows as verdicts. Rows stored before chances were kept (exact verdicts only) read the same."""
    return [MoveVerdict(**{**row, "best": tuple(row["best"])}) for row in rows]


#: boards this small are analysed inside the request (classic: a few milliseconds)
QUICK_ANALYSIS_CELLS = 9


def analyse_when_over(game: Game) -> None:
    """A game has just ended (in the caller's transaction): a board the solver knows, too big to analyse inside a
    request, is analysed by a worker now, so that its replay has it when the players open it. Bigger boards are
    analysed when their replay (or the API) first asks: a game nobody looks back on costs the workers nothing."""
    variant = game_variant(game)
    if can_analyse(variant) and variant.cell_count > QUICK_ANALYSIS_CELLS:
        result = analyse_game.enqueue(game_id=game.pk, player_id=None)
        _note_assist(result.id, game=game, player=None)


def store_analysis(*, game_id: int, verdicts: list[MoveVerdict]) -> list[MoveVerdict]:
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(analysis=[asdict(v) for v in verdicts])
        game = Game.objects.filter(pk=game_id).first()
        if game is not None:
            changed(game, lobby=False)  # an open replay shows it
            if missed_win_moves(verdicts):
                puzzles_when_analysed(game_id)  # a missed win may be a puzzle: the workers cut it
    return verdicts


def analysis_seconds(moves: int) -> float:
    """The search time per position of a game of ``moves`` moves: ``GAME_ANALYSIS_SECONDS``, less for a game so
    long that its positions would take more than ``GAME_ANALYSIS_TOTAL_SECONDS`` in all (kept below the time
    after which the workers' sweep takes a running task for lost, TASK_LOST_AFTER)."""
    return min(settings.GAME_ANALYSIS_SECONDS, settings.GAME_ANALYSIS_TOTAL_SECONDS / (moves + 1))


@task(queue_name=ASSIST_QUEUE)
def analyse_game(game_id: int, player_id: int | None = None) -> str:
    """A finished game's analysis, stored on it (``player_id``: who asked, or None when the game's end asked)."""
    return work_out_analysis(game_id=game_id)


def work_out_analysis(*, game_id: int) -> str:
    """A worker's task: the analysis of finished game ``game_id``, stored on it. "analysed", or "gone"."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return "gone"
    if game.analysis is not None:
        return "analysed"
    moves, variant = current_moves(game), game_variant(game)
    verdicts = analyse_moves(variant, moves, analysis_seconds(len(moves)), start=initial_state(game, variant))
    store_analysis(game_id=game_id, verdicts=verdicts)
    return "analysed"


# The analysis board: any position's best move and outcome --------------------------------------------------


def evaluate_state(state: State) -> dict[str, object]:
    """The analysis board's evaluation of ``state`` by the same code as a game's analysis (engine.evaluation, for
    ``POSITION_ANALYSIS_SECONDS`` where the board is too big to solve): the best move (``move``, None once the game
    is over), X's chance to win (``x_chance``, 0..1), the result with best play where it is proven (``proven``:
    X, O, draw; else None) and that result as the side to move's outcome (``outcome``: win, draw, loss; else
    None)."""
    found = evaluate(state, settings.POSITION_ANALYSIS_SECONDS)
    if state.is_over:
        return {"move": None, "outcome": None, "x_chance": found.x_chance, "proven": found.proven}
    proven, side = found.proven, state.to_move
    outcome = None if proven is None else "draw" if proven == "draw" else "win" if proven == side else "loss"
    return {"move": found.best, "outcome": outcome, "x_chance": round(found.x_chance, 3), "proven": proven}


def evaluation_is_quick(state: State) -> bool:
    """Whether the evaluation comes in milliseconds here (the exact solver on a small board; else a worker)."""
    variant = state.variant
    return can_analyse(variant) and variant.cell_count <= QUICK_ANALYSIS_CELLS


def position_evaluation(*, position: str, player) -> tuple[dict[str, object] | None, str | None]:
    """The analysis board's "best move": (the evaluation, None) when it is quick; else (None, the id of the task
    a worker works it out in: ask ``evaluation_result`` for it). A player has one slow request waiting at a
    time (Busy). AnalysisUnavailable for a string that is no position."""
    try:
        state = parse_position(position)
    except PositionError as err:
        raise AnalysisUnavailable(f"not a position: {err}") from None
    if state.is_over or evaluation_is_quick(state):
        return evaluate_state(state), None
    check_fair_use(player)
    result = evaluate_position.enqueue(position=position, player_id=player.pk)
    _note_assist(result.id, game=None, player=player)
    return None, str(result.id)


def evaluation_result(*, task_id: str, position: str) -> dict[str, object] | None:
    """The evaluation a worker worked out for ``position`` in task ``task_id``; None while it works.
    AnalysisUnavailable when there is no such task for this position, or it failed (ask again)."""
    try:
        result = evaluate_position.get_result(task_id)
    except Exception:  # no such task, a malformed id, another task's id: all the same to the asker
        raise AnalysisUnavailable("that request is not known (any more): ask for the best move again") from None
    if result.kwargs.get("position") != position:
        raise AnalysisUnavailable("that request was for another position: ask for the best move again")
    if not result.is_finished:
        return None
    try:
        return result.return_value
    except ValueError:
        raise AnalysisUnavailable("the computer could not work it out: ask again") from None


@task(queue_name=ASSIST_QUEUE)
def evaluate_position(position: str, player_id: int) -> dict:
    """The analysis board: the hard level's move and the exact outcome (where known) of a position string
    (``player_id``: who asked); the result is the task's return value."""
    return work_out_evaluation(position=position)


def work_out_evaluation(*, position: str) -> dict[str, object]:
    """A worker's task: ``evaluate_state`` of a position string."""
    return evaluate_state(parse_position(position))


def mistakes_by_side(verdicts: list[MoveVerdict]) -> dict[str, int]:
    """How many mistakes each side made in an analysed game (the replay and the API say it alike)."""
    return {side: sum(v.mistake for v in verdicts if v.side == side) for side in SIDES}
