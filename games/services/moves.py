"""Moves: a player's, and the computer's.

Moves, the hot path, are optimistic: the game is read and the move judged (and a quick computer's reply
chosen) without a lock, then recorded only if the game's version is still the one read (a compare-and-set);
otherwise the move is judged again on the new state, and usually refused (not your turn). Every change to a
game moves its version on. So a move's transaction, which on SQLite holds the one write lock of the whole
database, is only its two writes (the unique (game, ply) constraint backs this up).

A move costs a fixed number of SQL queries whatever the move number: read the game (its row carries the move
list), update it if unchanged, insert the move. A computer seat that answers in milliseconds
(``answers_at_once``) replies in the same transaction, so the player's move and the reply cost those same
three queries. A slower computer never thinks inside a request: its turn is a task for the workers
(``computer_turn``, defined here beside the service it runs: ``schedule_computer_move``), enqueued in the
transaction that stores the move before it; its id is kept on the game, so that the queue can be asked whether it
is still to come (``queue.pending``) and the workers' sweep replaces one that was lost. Once it has played, the
worker thinks on the person's time until they move or other work comes (``thinking``).
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from ..engine import IllegalMove, State
from ..engine.pondering import choose_in_game
from ..errors import (
    GameFinished,
    GameNotFound,
    InvalidMove,
    MoveConflict,
    NotComputerTurn,
    NotSeated,
    NotYourTurn,
)
from ..live import changed
from ..models import Game, Move
from ..positions import (
    Position,
    current_moves,
    game_variant,
    state_after,
)
from ..selectors import game_for_viewer, games_waiting_for_computer
from .arena_scores import arena_game_over
from .assists import analyse_when_over
from .common import check_playable
from .computer import WATCH_PACE, answers_at_once, fair_priority, game_owner_id, seat_strategy
from .queue import COMPUTER_QUEUE, pending, task
from .ratings import rate_game
from .thinking import ponder_after_move, seat_key
from .timekeeping import check_flag, clock_after_move


def save_if_unchanged(game: Game, fields: list[str], *, version: int) -> bool:
    """``game.save(update_fields=fields)`` only if the stored row is still at ``version`` (a compare-and-set):
    False, and nothing written, when another change came first. Fields are written as given (set ``updated``)."""
    values = {}
    for name in fields:
        attname = Game._meta.get_field(name).attname  # a foreign key by its id: no query for the related row
        values[attname] = getattr(game, attname)
    return Game.objects.filter(pk=game.pk, version=version).update(**values) == 1


class _Stale(Exception):
    """The game changed between reading it and recording a move computed from it: read it again."""


RECORD_TRIES = 5


def _record(game: Game, moves: list[int], played: list[int], state: State, now: datetime | None = None) -> Position:
    """Store ``played`` after ``moves`` (already checked by the engine: ``state`` is the position after them),
    in the caller's transaction, if ``game`` (as read, unlocked) is still the stored version: else _Stale.

    The UPDATE of the game (ply, move list, version, result) is a compare-and-set on its version
    (``filter(pk=..., version=seen).update(...)``), and comes first so the game's row lock is taken before any
    rating row's (as on every other path); then one INSERT for the Move rows (``bulk_create``). Only this
    transaction holds SQLite's write lock, not the reading and the engine's work before it. A game with a clock
    (between people: one move at a time) charges the mover at ``now``, the moment the move arrived (see
    ``clocks.clock_after_move``).
    """
    now = now or timezone.now()
    first = len(moves) + 1
    all_moves = [*moves, *played]
    seen = game.version
    game.ply = len(all_moves)  # not state.ply: a game from a position (start_position) has marks before its moves
    game.move_list = ",".join(map(str, all_moves))
    game.version += 1
    game.updated = now
    fields = ["ply", "move_list", "version", "updated", *game.note_turn()]
    if game.is_two_players:
        game.turn_started = now
        fields.append("turn_started")
    fields += clock_after_move(game, len(all_moves), now, over=state.is_over)
    offered_by = game.draw_offered_by_id
    if offered_by is not None and (
        state.is_over
        # a move by the player the draw was offered to declines it
        or any(game.seat_player_id(game.mover(ply)) != offered_by for ply, _ in enumerate(played, first))
    ):
        game.draw_offered_by = None
        fields.append("draw_offered_by")
    if state.is_over:
        game.status = Game.Status.FINISHED
        game.finished = now
        if state.winner is None:
            game.result, game.result_reason = Game.Result.DRAW, Game.Reason.FULL
        else:
            game.result = state.winner
            game.result_reason = Game.Reason.BOARDS if game.variant == "multi" else Game.Reason.LINE
        fields += ["status", "finished", "result", "result_reason"]
    if not save_if_unchanged(game, fields, version=seen):
        raise _Stale
    changed(game)
    Move.objects.bulk_create([Move(game=game, ply=ply, move=move, side=game.mover(ply))
                              for ply, move in enumerate(played, start=first)])
    if state.is_over:
        if rated := rate_game(game):
            game.save(update_fields=rated)
        arena_game_over(game, now=now)
        analyse_when_over(game)
    return Position(game=game, state=state, moves=all_moves)


def move_play(
    *, game: Game | int, player, move: int, reply: bool = False, quick_reply: bool = False,
    missing_if_hidden: bool = False, ply: int | None = None,
) -> Position:
    """Play ``move`` for ``player`` in ``game`` (a Game or its id).

    The move is for the position after ``ply`` moves (what the player's page showed), by default the one
    first read here: if another move was recorded meanwhile, it is refused (MoveConflict), even where it
    would be legal in the new position (against a quick computer it is the same player's turn again).
    The game is read and the move judged without a lock; it is recorded (with the reply below) only if
    the game is still the version read, else judged again on the new one (see ``_record``): a change
    that left the position alone (a draw offer) does not refuse it.
    A computer seat to move next replies in the same transaction when it answers in milliseconds
    (``answers_at_once``) and ``reply`` or ``quick_reply`` is set (the two mean the same now); otherwise
    its turn is a task for the workers, enqueued in the same transaction, and the answer comes back at once
    with the player's move alone. With ``missing_if_hidden``
    (the pages) a game ``player`` may not see raises GameNotFound rather than NotSeated.

    Raises NotSeated, GameFinished, GameNotStarted, NotYourTurn, InvalidMove (the engine's
    reason) or MoveConflict; in every case nothing is stored.
    """
    if isinstance(move, bool) or not isinstance(move, int):
        raise InvalidMove(f"a move must be a whole number (a cell index), not {move!r}")
    for _ in range(RECORD_TRIES):
        # Read and think without a lock; the record is a compare-and-set on the version read here.
        seen = game_for_viewer(game, player, visible_only=missing_if_hidden)
        sides = seen.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game")
        check_playable(seen)
        now = timezone.now()  # the move's time on the clock: when it arrived
        check_flag(seen, now)  # a move after the flag fell is refused, and the game ends on time
        to_move = seen.to_move
        if to_move not in sides:
            raise NotYourTurn(f"it is not your turn: {to_move} ({seen.seat_label(to_move)}) is to move")
        if ply is None:
            ply = seen.ply
        elif seen.ply != ply:
            raise MoveConflict(
                f"the game has moved on since your move was made: it was for the position after "
                f"{_moves_words(ply)}, and {seen.ply} have been played now; nothing was stored"
            )
        moves = current_moves(seen)
        variant = game_variant(seen)
        state = state_after(seen, moves)
        try:
            after = state.play(move)
        except IllegalMove as err:
            raise InvalidMove(f"illegal move: {err}") from None
        played = [move]
        if (reply or quick_reply) and not after.is_over and seen.is_computer(after.to_move):
            strategy = seat_strategy(seen, after.to_move, variant)
            if answers_at_once(strategy, variant):
                choice = strategy.choose(after)
                after = after.play(choice)
                played.append(choice)
        try:
            with transaction.atomic():
                position = _record(seen, moves, played, after, now)
                if not after.is_over and seen.is_computer(after.to_move):
                    schedule_computer_move(position.game)  # a slow computer answers from a worker
        except _Stale:
            continue  # another request changed the game meanwhile: judge the move again on what it is now
        except IntegrityError:
            break
        return position
    raise MoveConflict("another move was recorded at the same moment; reload the game")


def _moves_words(count: int) -> str:
    return "1 move" if count == 1 else f"{count} moves"


def _check_computer_turn(game: Game, player) -> None:
    if player is not None and getattr(player, "pk", None) not in (
        game.x_player_id, game.o_player_id, game.created_by_id
    ):
        raise NotSeated("you are not playing in this game")
    check_playable(game)
    side = game.to_move
    if not game.is_computer(side):
        raise NotComputerTurn(f"it is not the computer's turn: {side} ({game.seat_label(side)}) is to move")


def computer_move(
    *, game: Game | int, player=None, missing_if_hidden: bool = False, version: int | None = None
) -> Position:
    """Let the computer seat whose turn it is play one move (``game``: a Game or its id).

    The strategy thinks on the game as read, outside any transaction (a slow one up to about a second);
    the move is recorded only if the game has not moved on meanwhile. If it has, a strategy that answers
    in milliseconds thinks again on the new position; a slow one's move is refused (MoveConflict).
    With ``player`` (a request from the web or the API) only a player of the game or its creator
    (a watched game) may trigger it: spectators cannot drive someone else's game. With
    ``missing_if_hidden`` (the pages) a game ``player`` may not see raises GameNotFound. With ``version`` (a
    worker's task) nothing is played unless the game is still at that version (MoveConflict otherwise).
    After a move in a watched game, the other computer's turn is scheduled at a watchable pace.
    """
    for _ in range(RECORD_TRIES):
        # Read and think without a lock (a slow strategy up to about a second); record only if unchanged.
        seen = game_for_viewer(game, player, visible_only=missing_if_hidden)
        if version is not None and seen.version != version:
            raise MoveConflict("the game has moved on since the computer was asked to play")
        _check_computer_turn(seen, player)
        variant = game_variant(seen)
        strategy = seat_strategy(seen, seen.to_move, variant)
        moves = current_moves(seen)
        state = state_after(seen, moves)
        if version is None:
            choice = strategy.choose(state)
        else:  # a worker's task goes on from the tree its last search or pondering kept (mcts on ultimate)
            choice = choose_in_game(strategy, state, seat_key(seen, seen.to_move))
        after = state.play(choice)
        try:
            with transaction.atomic():
                position = _record(seen, moves, [choice], after)
                if not after.is_over and seen.is_computer(after.to_move):
                    # a watched game goes on by itself, at a pace people can follow; a computer that moves again
                    # (a Swap2 opening's stones) at once
                    watched = seen.is_computer("X") and seen.is_computer("O")
                    schedule_computer_move(position.game, after=WATCH_PACE if watched else None)
                return position
        except _Stale:
            # A quick strategy thinks again on the new position; a slow one's thinking is spent.
            if not answers_at_once(strategy, variant):
                break
        except IntegrityError:
            break
    raise MoveConflict("the game moved on while the computer was thinking")



def play_computer_turn(*, game_id: int, version: int) -> str:
    """A worker's task: the computer to move in game ``game_id`` plays, if the game is still at ``version``.
    Returns what happened in a word: "played", or why not ("stale": the game moved on, was taken back or
    ended meanwhile; "gone": it no longer exists)."""
    try:
        position = computer_move(game=game_id, version=version)
    except GameNotFound:
        return "gone"
    except (MoveConflict, NotComputerTurn, GameFinished):
        return "stale"
    ponder_after_move(position)  # the opponent's time, while the worker has nothing else to do
    return "played"


@task(queue_name=COMPUTER_QUEUE)
def computer_turn(game_id: int, version: int, player_id: int | None = None) -> str:
    """The computer to move in game ``game_id`` plays, if the game is still at ``version``; what happened, in a
    word (the admin shows it): played, stale, finished, gone. ``player_id``: whose game it is (the admin's list
    by player; the queue's order comes from ``computer.fair_priority``)."""
    return play_computer_turn(game_id=game_id, version=version)


def schedule_computer_move(game: Game, *, after: timedelta | None = None) -> None:
    """The computer to move in ``game`` will play in a worker: its task is enqueued in the caller's transaction
    (so it exists exactly when the change that made it the computer's turn is stored), for the game's version
    now, and its id kept on the game (``Game.computer_task``). A takeback, a resignation or another move in
    between leave that version behind: the task then does nothing. ``after``: not before then (a watched game's
    pace). The task waits its player's turn (``computer.fair_priority``): one player's many games do not queue
    everyone else's moves behind theirs."""
    turn = computer_turn.using(priority=fair_priority(game))
    if after:
        turn = turn.using(run_after=timezone.now() + after)
    result = turn.enqueue(game_id=game.pk, version=game.version, player_id=game_owner_id(game))
    game.computer_task = str(result.id)
    Game.objects.filter(pk=game.pk).update(computer_task=game.computer_task)


#: a game waiting this long for its computer without a live task is given one (the sweep)
SWEEP_GRACE = timedelta(seconds=float(os.environ.get("TASK_SWEEP_GRACE", "5")))
#: games the sweep looks at per round, oldest first
SWEEP_BATCH = 200


def sweep_computer_turns(*, now: datetime | None = None) -> int:
    """Make sure every game waiting for a computer has a live task: one lost with a worker killed mid-thought
    (running for longer than ``LOST_AFTER``), or between a commit and a crash, is replaced. Every worker runs
    this now and then; duplicates are harmless (each task checks the game's version, and moves are stored by
    compare-and-set). Returns the tasks enqueued."""
    now = now or timezone.now()
    enqueued = 0
    for game in games_waiting_for_computer(changed_before=now - SWEEP_GRACE)[:SWEEP_BATCH]:
        if not game.is_computer(game.to_move) or pending(game.computer_task, game_id=game.pk):
            continue  # (a Swap2 game waiting for its player is listed too)
        with transaction.atomic():
            schedule_computer_move(game)
        enqueued += 1
    return enqueued


def ask_computer(*, game: Game | int, player=None, missing_if_hidden: bool = False) -> Position:
    """Someone asks the computer to move now (a page or an API client that saw a computer to move): a quick one
    plays in this request; a slow one is left to the workers, with a task enqueued if none is waiting for it.
    Returns the game as it stands. NotComputerTurn, GameFinished and the like as ``computer_move``."""
    seen = game_for_viewer(game, player, visible_only=missing_if_hidden)
    _check_computer_turn(seen, player)
    variant = game_variant(seen)
    if answers_at_once(seat_strategy(seen, seen.to_move, variant), variant):
        return computer_move(game=seen.pk, player=player, missing_if_hidden=missing_if_hidden)
    if not pending(seen.computer_task, game_id=seen.pk, version=seen.version):
        with transaction.atomic():
            schedule_computer_move(seen)
    moves = current_moves(seen)
    return Position(game=seen, state=state_after(seen, moves), moves=moves)
