"""The one place that starts games, validates and records moves, and asks the computer to play.

Every state change is a function with keyword-only arguments whose writes run inside
``transaction.atomic``, so two simultaneous changes to one game never both apply. Most lock the
game row (``select_for_update``) before reading it: the second waits, then sees the new state.
Moves, the hot path, are optimistic: the game is read and the move judged (and the computer's reply
chosen) without a lock, then recorded only if the game's version is still the one read (a
compare-and-set); otherwise the move is judged again on the new state, and usually refused (not
your turn). Every change to a game moves its version on. So a move's transaction, which on SQLite
holds the one write lock of the whole database, is only its two writes (the unique (game, ply)
constraint backs this up).

A move costs a fixed number of SQL queries whatever the move number: read the game (its row
carries the move list, a cache kept exact here), update it if unchanged, insert the move. A
computer seat that answers in milliseconds (``answers_at_once``) replies in the same transaction,
so the player's move and the reply cost those same three queries.

Errors are ``GameError`` subclasses (themselves ``ValueError``) carrying the HTTP status a view
should answer with and a message meant for people.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from config.pk_lookup import get_by_pk, insert_rows, update_fields

from .engine import (
    IllegalMove,
    State,
    Strategy,
    Variant,
    difficulty,
    get_strategy,
    get_variant,
    shown,
    takeback_keeps,
)
from .engine.analysis import MAX_CELLS, MoveVerdict, analyse, can_analyse
from .models import LEVELS, SIDES, Game, Move, Opponent, Rating
from .rating import INITIAL_RATING, MIN_RATED_PLY, PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS, new_rating

# Errors ---------------------------------------------------------------------------------------


class GameError(ValueError):
    """A refused request; ``status_code`` is what a view answers with, ``str(err)`` the message."""

    status_code = 400


class InvalidGameSettings(GameError):
    status_code = 400


class InvalidInvitee(InvalidGameSettings):
    """The player named for a challenge (the new-game form shows it on that field)."""


class InvalidMove(GameError):
    """Not a move the rules allow here (the engine's reason is the message)."""

    status_code = 400


class NotSeated(GameError):
    status_code = 403


class GameNotFound(GameError):
    """No such game, or one this player may not see (pages answer 404 and give no hint which)."""

    status_code = 404


class NotYourTurn(GameError):
    status_code = 409


class GameFinished(GameError):
    status_code = 409


class GameNotStarted(GameError):
    status_code = 409


class NotComputerTurn(GameError):
    status_code = 409


class MoveConflict(GameError):
    """Another move was recorded at the same moment; nothing of this one was stored."""

    status_code = 409


# Challenges and rematches (issue 4); ``code`` is the API's error code.


class OwnChallenge(GameError):
    status_code = 400
    code = "own_challenge"


class NotInvited(GameError):
    status_code = 403
    code = "not_invited"


class NotCreator(GameError):
    status_code = 403
    code = "not_creator"


class ChallengeTaken(GameError):
    """The challenge was accepted by someone else first (or is no longer open)."""

    status_code = 409
    code = "challenge_taken"


class NotAChallenge(GameError):
    """The game was never a challenge: it is played against the computer or on one screen."""

    status_code = 409
    code = "not_a_challenge"


class ChallengeGone(GameError):
    """The challenge was cancelled meanwhile."""

    status_code = 404
    code = "challenge_gone"


class RematchRefused(GameError):
    status_code = 409
    code = "rematch_refused"


class DrawRefused(GameError):
    status_code = 409
    code = "draw_refused"


class ClaimRefused(GameError):
    status_code = 409
    code = "claim_refused"


class TakebackRefused(GameError):
    status_code = 409
    code = "takeback_refused"


class HintRefused(GameError):
    status_code = 409
    code = "hint_refused"


class GameNotOver(GameError):
    """Asked for something only a finished game gives (playing on from one of its positions)."""

    status_code = 409
    code = "game_not_over"


class AnalysisUnavailable(GameError):
    """Asked for the analysis of a game still being played, or of a board too big to solve exactly."""

    status_code = 409
    code = "analysis_unavailable"


# Rebuilding a position --------------------------------------------------------------------------


@dataclass
class Position:
    """A game with its engine state and the moves that led to it (ints, in order)."""

    game: Game
    state: State
    moves: list[int] = field(default_factory=list)


def game_variant(game: Game) -> Variant:
    return get_variant(game.variant, **(game.options or {}))


def initial_state(game: Game, variant: Variant | None = None) -> State:
    variant = variant or game_variant(game)
    if game.start_board is not None:
        return variant.new_game(start_board=game.start_board)
    return variant.new_game()


def state_after(game: Game, moves: list[int], upto: int | None = None) -> State:
    """The position after the first ``upto`` of ``moves`` (all of them by default)."""
    state = initial_state(game)
    for move in moves if upto is None else moves[:upto]:
        state = state.play(move)
    return state


def game_moves(game: Game) -> list[int]:
    """The moves of ``game`` in order from the Move rows (the record): one query."""
    return list(Move.objects.filter(game_id=game.pk).order_by("ply").values_list("move", flat=True))


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


def current_moves(game: Game) -> list[int]:
    """The moves of ``game`` in order: from the row's ``move_list`` cache, else (no query) from the Move rows."""
    text = game.move_list
    try:
        moves = [int(m) for m in text.split(",")] if text else []
    except ValueError:
        moves = None
    if moves is not None and len(moves) == game.ply:
        return moves
    return game_moves(game)


def game_position(game: Game) -> Position:
    """The position from the Move rows: exact even for a ``game`` object read before later moves."""
    moves = game_moves(game)
    return Position(game=game, state=state_after(game, moves), moves=moves)


def fresh_position(game: Game) -> Position:
    """The position of a ``game`` row just read from the database: from its move-list cache (no query)."""
    moves = current_moves(game)
    return Position(game=game, state=state_after(game, moves), moves=moves)


#: strategies that answer in a few milliseconds on every variant they support (engine bench: <= 2 ms on 19 x 19)
QUICK_STRATEGIES = frozenset({"random", "ring", "threats", "pairing"})


def answers_at_once(strategy: Strategy, variant: Variant) -> bool:
    """Whether ``strategy`` answers in milliseconds, so its reply can come back in the player's own request.

    ``random``, ``ring``, ``threats``, ``pairing``; ``perfect`` on boards of at most 9 cells (classic:
    well under 10 ms; on 4 x 4 its first move in a process solves the board, about 0.15 s); ``alphabeta``
    at depth 1 or 2 (easy and medium: about 2 ms even on 19 x 19 and the nested boards). Everything
    else (mcts, deeper alphabeta) thinks for up to a second: the page asks for it in a second request.
    """
    name = strategy.name
    if name in QUICK_STRATEGIES:
        return True
    if name == "perfect":
        return variant.cell_count <= 9
    if name == "alphabeta":
        return int(strategy.options.get("depth") or 99) <= 2
    return False


def seat_strategy(game: Game, side: str, variant: Variant | None = None) -> Strategy:
    """The computer player sitting on ``side`` (ValueError if that seat is not a computer)."""
    level, name = game.seat_computer(side)
    if name:
        return get_strategy(name)
    if level:
        return difficulty(variant or game_variant(game), level)
    raise ValueError(f"seat {side} of game {game.pk} is not a computer")


# Creating a game ------------------------------------------------------------------------------------


def _check_settings(
    *, variant: str, options: dict[str, Any] | None, opponent: str, side: str, strategy: str | None
) -> Variant:
    try:
        variant_obj = get_variant(variant, **(options or {}))
    except (ValueError, TypeError) as err:
        raise InvalidGameSettings(str(err)) from None
    if opponent not in Opponent.values:
        raise InvalidGameSettings(f"unknown opponent {shown(opponent)}; choose one of {', '.join(Opponent.values)}")
    if side not in ("X", "O", "random"):
        raise InvalidGameSettings(f"side must be X, O or random, not {side!r}")
    if strategy:
        if opponent in (Opponent.LOCAL, Opponent.HUMAN):
            raise InvalidGameSettings("a strategy can only be chosen for a computer opponent")
        try:
            chosen = get_strategy(strategy)
        except (ValueError, TypeError) as err:
            raise InvalidGameSettings(str(err)) from None
        if not chosen.supports(variant_obj):
            raise InvalidGameSettings(f"strategy {strategy!r} does not support {variant_obj.describe()}")
    return variant_obj


def game_create(
    *,
    player,
    variant: str,
    options: dict[str, Any] | None = None,
    opponent: str,
    side: str = "X",
    strategy: str | None = None,
    seed: int | None = None,
    invitee=None,
    private: bool | None = None,
) -> Game:
    """Start a game for ``player``.

    ``opponent``: easy/medium/hard (a computer at that level, or ``strategy`` if named), local
    (``player`` holds both seats), watch (computer against computer: ``strategy`` or medium on
    both seats), human (the other seat stays open; the game waits in status ``open``: a
    challenge, see ``challenge_accept``).
    ``side`` is the player's side: X, O or random.
    ``invitee`` (human only): a player or a username; only they may accept (a direct challenge).
    ``private``: only the players see the game. Default: private for a direct challenge, public
    (anyone signed in may watch) for everything else.
    """
    variant_obj = _check_settings(variant=variant, options=options, opponent=opponent, side=side, strategy=strategy)
    invitee = _resolve_invitee(invitee, player=player, opponent=opponent)
    if opponent == Opponent.HUMAN and invitee is None and private:
        # Nobody but its maker could see it, so nobody could accept it.
        raise InvalidInvitee(
            "a private challenge needs the name of the player who may accept it: name one, or let anyone watch"
        )
    rng = random.Random(seed)
    if side == "random":
        side = rng.choice(SIDES)
    other = "O" if side == "X" else "X"

    game = Game(
        variant=variant_obj.key, options=dict(variant_obj.options), opponent=opponent, created_by=player,
        invitee=invitee, private=(invitee is not None) if private is None else bool(private),
    )
    seats: dict[str, dict[str, Any]] = {"X": {}, "O": {}}
    if opponent in LEVELS:
        seats[side] = {"player": player}
        seats[other] = {"strategy": strategy} if strategy else {"level": opponent}
    elif opponent == Opponent.LOCAL:
        seats = {"X": {"player": player}, "O": {"player": player}}
    elif opponent == Opponent.WATCH:
        computer = {"strategy": strategy} if strategy else {"level": Opponent.MEDIUM.value}
        seats = {"X": dict(computer), "O": dict(computer)}
    else:  # human: the other seat waits for someone to accept (issue 4)
        seats[side] = {"player": player}
        game.status = Game.Status.OPEN
    for seat_side, seat in seats.items():
        prefix = seat_side.lower()
        setattr(game, f"{prefix}_player", seat.get("player"))
        setattr(game, f"{prefix}_level", seat.get("level", ""))
        setattr(game, f"{prefix}_strategy", seat.get("strategy", ""))

    # Computer seats must be able to play this variant (a level always can; check it exists).
    for seat_side in SIDES:
        if game.is_computer(seat_side):
            try:
                seat_strategy(game, seat_side, variant_obj)
            except ValueError as err:
                raise InvalidGameSettings(str(err)) from None

    if variant_obj.options.get("random_start"):
        first = variant_obj.new_game(seed=rng.randrange(2**31))
        game.start_board = first.active_boards[0]

    with transaction.atomic():
        game.save()
    return game


def computer_opening(*, game: Game) -> Game:
    """A new game against the computer where the computer moves first: if it answers in milliseconds, it
    plays its first move now, so the page opens with it instead of asking for it in a second request.
    A slow computer, and a watched game (stepped by its page at a watchable pace), are left to the page.
    Returns the game as it then stands.
    """
    if game.opponent not in LEVELS or game.ply or not game.is_computer(game.to_move):
        return game
    variant = game_variant(game)
    if answers_at_once(seat_strategy(game, game.to_move, variant), variant):
        return computer_move(game=game).game
    return game


def game_again(*, game: Game, player) -> Game:
    """A new game with the settings of ``game`` (variant, options, opponent, the player's side, the computer,
    private or not) for the player who started it: "Play again" (a quick computer that moves first has
    moved: ``computer_opening``). Against another player a rematch is offered instead (``rematch_offer``),
    since the other player has to agree."""
    if game.created_by_id != getattr(player, "pk", None):
        raise NotCreator("only the player who started this game can start it again")
    if game.opponent == Opponent.HUMAN:
        raise RematchRefused("a game against another player starts again by a rematch, which they accept")
    sides = game.sides_of(player)
    strategy = next((name for name in (game.x_strategy, game.o_strategy) if name), None)
    return computer_opening(game=game_create(
        player=player, variant=game.variant, options=game.options, opponent=game.opponent,
        side=sides[0] if len(sides) == 1 else "X", strategy=strategy, private=game.private,
    ))


def game_from_position(*, game: Game, ply: int | None, player, level: str) -> Game:
    """"Play on from here": a new game against the computer at ``level`` that starts from the position after
    the first ``ply`` moves of the finished ``game`` (the caller has checked that ``player`` may see it), with
    those moves in its move list; ``player`` takes the side to move there. Only finished games: in a running
    one it would hand a player the computer's help against their opponent. ``ply`` None: not given, or not
    a whole number."""
    if not game.is_finished:
        raise GameNotOver("a game can be played on from one of its positions once it is over")
    if ply is None:
        raise InvalidGameSettings("say after which move to play on: ply must be a whole number")
    if level not in LEVELS:
        raise InvalidGameSettings(f"unknown level {shown(level)}: choose one of {', '.join(LEVELS)}")
    moves = game_moves(game)
    if not 0 <= ply <= len(moves):
        raise InvalidGameSettings(f"there is no position after move {ply}: this game has {len(moves)} moves")
    state = state_after(game, moves, upto=ply)
    if state.is_over:
        raise InvalidGameSettings(f"the game is over after move {ply}: there is nothing to play on")
    with transaction.atomic():
        new = game_create(player=player, variant=game.variant, options=game.options, opponent=level, side=state.to_move)
        new.start_board = game.start_board  # multi's random first board: the one this game had
        if ply:
            insert_rows([Move(game=new, ply=n, move=move, side="X" if n % 2 == 1 else "O")
                         for n, move in enumerate(moves[:ply], start=1)])
        new.ply, new.move_list, new.version = ply, ",".join(map(str, moves[:ply])), 1
        new.played_on_from, new.played_on_ply = game, ply
        new.save(update_fields=["start_board", "ply", "move_list", "version", "played_on_from", "played_on_ply",
                                "updated"])
    return new


def _resolve_invitee(invitee, *, player, opponent: str):
    """The invited player (from a player or a username), checked; None for an open challenge."""
    if invitee is None or invitee == "":
        return None
    if opponent != Opponent.HUMAN:
        raise InvalidInvitee("only a game against another player can be sent to a named player")
    if isinstance(invitee, str):
        from django.contrib.auth import get_user_model

        if len(invitee) > 150 or "\x00" in invitee:  # no username is like that (and PostgreSQL refuses NUL)
            raise InvalidInvitee("there is no player with that name")
        found = get_user_model().objects.filter(username__iexact=invitee.strip(), is_active=True).first()
        if found is None:
            raise InvalidInvitee(f"there is no player called {invitee.strip()[:40]!r}")
        invitee = found
    if not getattr(invitee, "is_active", False):
        raise InvalidInvitee("that player cannot be challenged")
    if invitee.pk == player.pk:
        raise InvalidInvitee("you cannot challenge yourself; send the link to a friend instead")
    return invitee


def challenge_create(
    *,
    player,
    variant: str,
    options: dict[str, Any] | None = None,
    side: str = "X",
    invitee=None,
    private: bool | None = None,
    seed: int | None = None,
) -> Game:
    """A game against another person that waits (status ``open``) until someone accepts it.

    Open to anyone signed in, or to ``invitee`` only (a player or a username). See ``game_create``
    for ``private``.
    """
    return game_create(
        player=player, variant=variant, options=options, opponent=Opponent.HUMAN, side=side, seed=seed,
        invitee=invitee, private=private,
    )


# Moves ----------------------------------------------------------------------------------------------


def _lock(game: Game | int) -> Game:
    """The game row, locked until the transaction ends (``game``: a Game or its id)."""
    pk = game if isinstance(game, int) else game.pk
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("x_player", "o_player", "created_by", "invitee")
        .get(pk=pk)
    )


def game_for_page(pk: int, player) -> Game | None:
    """Game ``pk`` with its players (see ``attach_players``), unlocked; None if there is none."""
    game = get_by_pk(Game, pk)
    if game is not None:
        attach_players(game, player)
    return game


def attach_players(game: Game, player) -> None:
    """Fill the game's player relations (seats, creator, invitee): ``player`` (the one asking) where it is
    that person, the others read by a precompiled lookup each; cheaper than compiling a four-way join."""
    from django.contrib.auth import get_user_model

    pid = getattr(player, "pk", None)
    found: dict[int, Any] = {pid: player} if pid is not None else {}
    for name in ("x_player", "o_player", "created_by", "invitee"):
        other = getattr(game, f"{name}_id")
        if other is None:
            continue
        if other not in found:
            found[other] = get_by_pk(get_user_model(), other)
        if found[other] is not None:
            setattr(game, name, found[other])


def _visible(game: Game | int, player, *, missing_if_hidden: bool) -> Game:
    """The game row alone, as stored now, unlocked (the move paths, which record by compare-and-set); with
    ``missing_if_hidden`` a missing game, or one ``player`` may not see, is GameNotFound.

    No joins: compiling a query with four player rows cost more than the rest of the query. ``player``
    is attached to the seats it holds, another person's row is read by a precompiled lookup.
    """
    pk = game if isinstance(game, int) else game.pk
    row = get_by_pk(Game, pk)  # by a query compiled once: compiling the ORM's cost more than running it
    if row is None:
        if missing_if_hidden:
            raise GameNotFound("no such game")
        raise Game.DoesNotExist(f"no game {pk}")
    attach_players(row, player)
    if missing_if_hidden:
        from .selectors import can_view

        if not can_view(row, player):
            raise GameNotFound("no such game")
    return row


def _check_playable(game: Game) -> None:
    if game.is_finished:
        raise GameFinished(f"this game is over: {game.result_text()}")
    if game.status == Game.Status.OPEN:
        raise GameNotStarted("this game is waiting for an opponent to join")


class _Stale(Exception):
    """The game changed between reading it and recording a move computed from it: read it again."""


# Tries of read, compute, compare-and-set before a move is refused as a conflict: a game has at most two
# players, so a second try almost always finds the move refused (not their turn) or stored.
RECORD_TRIES = 5


def _record(game: Game, moves: list[int], played: list[int], state: State) -> Position:
    """Store ``played`` after ``moves`` (already checked by the engine: ``state`` is the position after them),
    in the caller's transaction, if ``game`` (as read, unlocked) is still the stored version: else _Stale.

    The UPDATE of the game (ply, move list, version, result) is a compare-and-set on its version, and
    comes first so the game's row lock is taken before any rating row's (as on every other path); then
    one INSERT for the Move rows. The SQL is built once (config.pk_lookup): building it through the ORM
    cost more than running it. Only this transaction holds SQLite's write lock, not the reading and the
    engine's work before it.
    """
    first = len(moves) + 1
    all_moves = [*moves, *played]
    seen = game.version
    game.ply = state.ply
    game.move_list = ",".join(map(str, all_moves))
    game.version += 1
    fields = ["ply", "move_list", "version", "updated"]
    if game.is_two_players:
        game.turn_started = timezone.now()
        fields.append("turn_started")
    offered_by = game.draw_offered_by_id
    if offered_by is not None and (
        state.is_over
        # a move by the player the draw was offered to declines it
        or any(game.seat_player_id("X" if ply % 2 == 1 else "O") != offered_by for ply, _ in enumerate(played, first))
    ):
        game.draw_offered_by = None
        fields.append("draw_offered_by")
    if state.is_over:
        game.status = Game.Status.FINISHED
        game.finished = timezone.now()
        if state.winner is None:
            game.result, game.result_reason = Game.Result.DRAW, Game.Reason.FULL
        else:
            game.result = state.winner
            game.result_reason = Game.Reason.BOARDS if game.variant == "multi" else Game.Reason.LINE
        fields += ["status", "finished", "result", "result_reason"]
    if not update_fields(game, fields, unless_changed={"version": seen}):
        raise _Stale
    insert_rows([Move(game=game, ply=ply, move=move, side="X" if ply % 2 == 1 else "O")
                 for ply, move in enumerate(played, start=first)])
    if state.is_over and (rated := _rate(game)):
        update_fields(game, rated)
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
    (``answers_at_once``) and ``reply`` or ``quick_reply`` is set; with ``reply`` a slower one
    thinks after the commit and its move follows (the caller waits for it). With ``missing_if_hidden``
    (the pages) a game ``player`` may not see raises GameNotFound rather than NotSeated.

    Raises NotSeated, GameFinished, GameNotStarted, NotYourTurn, InvalidMove (the engine's
    reason) or MoveConflict; in every case nothing is stored.
    """
    if isinstance(move, bool) or not isinstance(move, int):
        raise InvalidMove(f"a move must be a whole number (a cell index), not {move!r}")
    for _ in range(RECORD_TRIES):
        # Read and think without a lock; the record is a compare-and-set on the version read here.
        seen = _visible(game, player, missing_if_hidden=missing_if_hidden)
        sides = seen.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game")
        _check_playable(seen)
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
        slow_reply = False
        if (reply or quick_reply) and not after.is_over and seen.is_computer(after.to_move):
            strategy = seat_strategy(seen, after.to_move, variant)
            if answers_at_once(strategy, variant):
                choice = strategy.choose(after)
                after = after.play(choice)
                played.append(choice)
            else:
                slow_reply = reply
        try:
            with transaction.atomic():
                position = _record(seen, moves, played, after)
        except _Stale:
            continue  # another request changed the game meanwhile: judge the move again on what it is now
        except IntegrityError:
            break
        if slow_reply:
            try:
                return computer_move(game=position.game)
            except (MoveConflict, NotComputerTurn, GameFinished):
                return game_position(Game.objects.get(pk=position.game.pk))  # someone else made that move
        return position
    raise MoveConflict("another move was recorded at the same moment; reload the game")


def _moves_words(count: int) -> str:
    return "1 move" if count == 1 else f"{count} moves"


def _check_computer_turn(game: Game, player) -> None:
    if player is not None and getattr(player, "pk", None) not in (
        game.x_player_id, game.o_player_id, game.created_by_id
    ):
        raise NotSeated("you are not playing in this game")
    _check_playable(game)
    side = game.to_move
    if not game.is_computer(side):
        raise NotComputerTurn(f"it is not the computer's turn: {side} ({game.seat_label(side)}) is to move")


def computer_move(*, game: Game | int, player=None, missing_if_hidden: bool = False) -> Position:
    """Let the computer seat whose turn it is play one move (``game``: a Game or its id).

    The strategy thinks on the game as read, outside any transaction (a slow one up to about a second);
    the move is recorded only if the game has not moved on meanwhile. If it has, a strategy that answers
    in milliseconds thinks again on the new position; a slow one's move is refused (MoveConflict).
    With ``player`` (a request from the web or the API) only a player of the game or its creator
    (a watched game) may trigger it: spectators cannot drive someone else's game. With
    ``missing_if_hidden`` (the pages) a game ``player`` may not see raises GameNotFound.
    """
    for _ in range(RECORD_TRIES):
        # Read and think without a lock (a slow strategy up to about a second); record only if unchanged.
        seen = _visible(game, player, missing_if_hidden=missing_if_hidden)
        _check_computer_turn(seen, player)
        variant = game_variant(seen)
        strategy = seat_strategy(seen, seen.to_move, variant)
        moves = current_moves(seen)
        state = state_after(seen, moves)
        choice = strategy.choose(state)
        try:
            with transaction.atomic():
                return _record(seen, moves, [choice], state.play(choice))
        except _Stale:
            # A quick strategy thinks again on the new position; a slow one's thinking is spent.
            if not answers_at_once(strategy, variant):
                break
        except IntegrityError:
            break
    raise MoveConflict("the game moved on while the computer was thinking")


def game_resign(*, game: Game, player) -> Game:
    """``player`` gives up; the other side wins. With both seats (local play) the side to move resigns."""
    with transaction.atomic():
        locked = _lock(game)
        sides = locked.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game, so you cannot resign it")
        _check_playable(locked)
        loser = locked.to_move if len(sides) == 2 else sides[0]
        _end(locked, "O" if loser == "X" else "X", Game.Reason.RESIGNED)
    return locked


def _end(locked: Game, result: str, reason: str) -> Game:
    """Finish a running game otherwise than by a move (resigned, agreed, abandoned, decided by the staff); a
    pending draw offer goes."""
    locked.status = Game.Status.FINISHED
    locked.result, locked.result_reason = result, reason
    locked.finished = timezone.now()
    locked.draw_offered_by = None
    locked.version += 1
    locked.save(
        update_fields=[
            "status", "result", "result_reason", "finished", "draw_offered_by", "version", "updated", *_rate(locked)
        ]
    )
    return locked


def _rate(locked: Game) -> list[str]:
    """A game between two players has just ended (``result`` set, in the caller's transaction): move both
    players' ratings in its variant and note them on the game. Returns the game's fields it set (none for a
    game without another player; only ``unrated_reason`` for one that ended before each player moved, or when
    the pair has played ``PAIR_GAMES_LIMIT`` rated games of the variant lately).

    The two rating rows are created if missing (without a conflict when another game creates one at the
    same moment), then locked in the order of the players' ids, so two games ending at once cannot deadlock.
    """
    if not locked.is_two_players:
        return []
    if locked.ply < MIN_RATED_PLY:  # said on the page, so that nobody looks for the points
        locked.unrated_reason = "too_short"
        return ["unrated_reason"]
    x_id, o_id = locked.x_player_id, locked.o_player_id
    Rating.objects.bulk_create(
        [Rating(player_id=pid, variant=locked.variant) for pid in sorted((x_id, o_id))], ignore_conflicts=True
    )
    rows = {
        row.player_id: row
        for row in Rating.objects.select_for_update().filter(variant=locked.variant, player_id__in=(x_id, o_id))
        .order_by("player_id")
    }
    # Counted under the lock of both rating rows: two games of the pair ending at once queue here.
    since = timezone.now() - timedelta(hours=PAIR_WINDOW_HOURS)
    pair = Q(x_player_id=x_id, o_player_id=o_id) | Q(x_player_id=o_id, o_player_id=x_id)
    recent = Game.objects.filter(pair, variant=locked.variant, x_rating_after__isnull=False, finished__gte=since)
    if recent.count() >= PAIR_GAMES_LIMIT:
        locked.unrated_reason = "pair_limit"
        return ["unrated_reason"]
    x, o = rows[x_id], rows[o_id]
    x_score = {Game.Result.X: 1.0, Game.Result.O: 0.0}.get(locked.result, 0.5)
    locked.x_rating_before, locked.o_rating_before = x.rating, o.rating
    locked.x_rating_after = new_rating(x.rating, o.rating, x_score, x.games)
    locked.o_rating_after = new_rating(o.rating, x.rating, 1.0 - x_score, o.games)
    for row, after, score in ((x, locked.x_rating_after, x_score), (o, locked.o_rating_after, 1.0 - x_score)):
        row.rating = after
        row.games += 1
        outcome = "won" if score == 1.0 else "lost" if score == 0.0 else "drawn"
        setattr(row, outcome, getattr(row, outcome) + 1)
        row.save(update_fields=["rating", "games", outcome, "updated"])
    return ["x_rating_before", "x_rating_after", "o_rating_before", "o_rating_after"]


# Taking a move back ---------------------------------------------------------------------------------


def takeback_keep(game: Game, moves: list[int], sides) -> int | None:
    """How many of ``moves`` stay when ``sides`` take a move back (the engine's ``takeback_keeps``), or None:
    nothing to take back. A game played on from another starts with that game's moves, which stay."""
    keep = takeback_keeps(moves, sides)
    if keep is None or keep < (game.played_on_ply or 0):
        return None
    return keep


def move_takeback(*, game: Game | int, player) -> Game:
    """Take back ``player``'s latest move (the engine's ``takeback_keeps``) in a running game with no other
    person in it: against the computer, or two people on one screen. Against another player it would need their consent,
    so it is refused there, as it is in a finished game. The Move rows after the kept ones are deleted;
    ``takebacks`` counts how often it happened, and the game page and the API show it.
    """
    with transaction.atomic():
        locked = _lock(game)
        sides = locked.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game")
        if locked.is_two_players:
            raise TakebackRefused("moves cannot be taken back in a game against another player")
        _check_playable(locked)
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
    locked = Game.objects.select_related("x_player", "o_player", "created_by").get(pk=pk)  # read now, not locked
    sides = locked.sides_of(player)
    if not sides:
        raise NotSeated("you are not playing in this game")
    if locked.is_two_players:
        raise HintRefused("hints are for games against the computer or on one screen, not against another player")
    _check_playable(locked)
    if locked.to_move not in sides:
        raise NotYourTurn(f"it is not your turn: {locked.to_move} ({locked.seat_label(locked.to_move)}) is to move")
    if locked.current_hint is not None:
        return locked, locked.current_hint
    variant = game_variant(locked)
    state = state_after(locked, current_moves(locked))
    suggestion = difficulty(variant, "hard").choose(state)
    with transaction.atomic():
        again = _lock(locked)
        if again.version != locked.version:
            if again.ply == locked.ply and again.current_hint is not None:
                return again, again.current_hint  # a second request for the same hint, answered first
            raise MoveConflict("the game moved on while the hint was being worked out; ask again")
        again.hints += 1
        again.hint_move, again.hint_ply = suggestion, again.ply
        again.version += 1
        again.save(update_fields=["hints", "hint_move", "hint_ply", "version", "updated"])
    return again, suggestion


# An opponent who stopped playing ---------------------------------------------------------------------


def claim_win_after(game: Game) -> datetime | None:
    """When the player waiting in a running two-player game may claim the win (None for other games); games from
    before ``turn_started`` count from their last change."""
    if not game.is_two_players or game.status != Game.Status.ACTIVE:
        return None
    return (game.turn_started or game.updated) + settings.GAME_ABANDON_AFTER


def game_claim_win(*, game: Game, player) -> Game:
    """The player waiting for a move wins a two-player game the opponent has left for GAME_ABANDON_AFTER.

    Only a move starts the time again (``Game.turn_started``): a draw offer, its answer or a withdrawal does
    not, or the player who keeps the other waiting could put the claim off for ever without playing.
    """
    with transaction.atomic():
        locked = _lock(game)
        sides = locked.sides_of(player)
        if not sides:
            raise NotSeated("you are not playing in this game")
        if not locked.is_two_players:
            raise ClaimRefused("only a game against another player can be won because the other stopped playing")
        _check_playable(locked)
        if locked.to_move in sides:
            raise ClaimRefused("it is your turn: your opponent is waiting for you")
        after = claim_win_after(locked)
        if timezone.now() < after:
            raise ClaimRefused(
                f"your opponent still has time to move: you may claim the win after {after:%d %b %Y, %H:%M} UTC"
            )
        _end(locked, sides[0], Game.Reason.ABANDONED)
    return locked


# A result decided by the staff -----------------------------------------------------------------------


def game_decide(*, game: Game | int, result: str) -> Game:
    """The staff end a running game with ``result`` (X, O or draw), e.g. after a dispute: it is finished and rated
    as if it had been played to that end, and says "decided by the staff". The admin's change form calls it."""
    if result not in Game.Result.values or not result:
        raise InvalidGameSettings(f"a decided game needs a result of X, O or draw, not {shown(result)}")
    with transaction.atomic():
        locked = _lock(game)
        _check_playable(locked)
        _end(locked, result, Game.Reason.DECIDED)
    return locked


# Draw offers ---------------------------------------------------------------------------------------


def _check_draw(locked: Game, player) -> None:
    if not locked.sides_of(player):
        raise NotSeated("you are not playing in this game")
    if not locked.is_two_players:
        raise DrawRefused("a draw is offered to another player; this game has no other player to agree")
    _check_playable(locked)


def draw_offer(*, game: Game, player) -> Game:
    """``player`` offers a draw in a running game between two players; the opponent's page shows it.

    If the opponent had offered one already, this agrees: the game ends drawn. Offering again is a
    no-op. After a declined offer, neither player offers again before the next move.
    """
    with transaction.atomic():
        locked = _lock(game)
        _check_draw(locked, player)
        offered_by = locked.draw_offered_by_id
        if offered_by is not None and offered_by != player.pk:
            return _end(locked, Game.Result.DRAW, Game.Reason.AGREED)
        if offered_by is None:
            if locked.draw_offer_ply == locked.ply:
                raise DrawRefused("a draw was just declined; it can be offered again after the next move")
            locked.draw_offered_by = player
            locked.draw_offer_ply = locked.ply
            locked.version += 1
            locked.save(update_fields=["draw_offered_by", "draw_offer_ply", "version", "updated"])
    return locked


def draw_accept(*, game: Game, player) -> Game:
    """The opponent of the player who offered a draw agrees: the game ends drawn ("Draw (agreed)")."""
    with transaction.atomic():
        locked = _lock(game)
        _check_draw(locked, player)
        if locked.draw_offered_by_id is None:
            raise DrawRefused("no draw has been offered")
        if locked.draw_offered_by_id == player.pk:
            raise DrawRefused("you offered this draw; your opponent has to accept it")
        return _end(locked, Game.Result.DRAW, Game.Reason.AGREED)


def draw_decline(*, game: Game, player) -> Game:
    """Decline the opponent's draw offer, or withdraw your own; the game goes on. A declined offer is not made
    again before the next move; a withdrawn one declined nothing, so either player may offer again."""
    with transaction.atomic():
        locked = _lock(game)
        _check_draw(locked, player)
        if locked.draw_offered_by_id is None:
            raise DrawRefused("no draw has been offered")
        if locked.draw_offered_by_id == player.pk:
            locked.draw_offer_ply = None
        locked.draw_offered_by = None
        locked.version += 1
        locked.save(update_fields=["draw_offered_by", "draw_offer_ply", "version", "updated"])
    return locked


# Challenges ----------------------------------------------------------------------------------------


def _lock_challenge(game: Game) -> Game:
    try:
        return _lock(game)
    except Game.DoesNotExist:
        raise ChallengeGone("this challenge was cancelled") from None


def challenge_accept(*, game: Game, player) -> Game:
    """``player`` takes the open seat of a challenge; the game starts.

    Under the row lock, so of two simultaneous acceptors exactly one wins; the other gets
    ChallengeTaken. Refused for your own challenge (OwnChallenge) and for a direct challenge sent
    to someone else (NotInvited).
    """
    with transaction.atomic():
        locked = _lock_challenge(game)
        _check_challenge(locked)
        if locked.status != Game.Status.OPEN:
            raise ChallengeTaken("this challenge has already been accepted")
        if getattr(player, "pk", None) in (locked.created_by_id, locked.x_player_id, locked.o_player_id):
            raise OwnChallenge("you cannot accept your own challenge")
        if locked.invitee_id is not None and locked.invitee_id != player.pk:
            raise NotInvited("this challenge was sent to another player")
        side = locked.open_side()
        if side is None:  # pragma: no cover - an open game always has an open seat
            raise ChallengeTaken("this challenge has no free seat")
        setattr(locked, f"{side.lower()}_player", player)
        locked.status = Game.Status.ACTIVE
        locked.turn_started = timezone.now()
        locked.version += 1
        locked.save(
            update_fields=[
                f"{side.lower()}_player", "status", "turn_started", "version", "updated", *_note_ratings(locked)
            ]
        )
    return locked


def _note_ratings(game: Game) -> list[str]:
    """A game between two players starts: note each seat's rating in the variant as it stands now, so the
    page shows who plays whom. ``_rate`` writes the ratings the game was actually rated from when it ends.
    Returns the game's fields it set."""
    found = dict(
        Rating.objects.filter(
            variant=game.variant, player_id__in=(game.x_player_id, game.o_player_id), games__gt=0
        ).values_list("player_id", "rating")
    )
    game.x_rating_before = found.get(game.x_player_id, INITIAL_RATING)
    game.o_rating_before = found.get(game.o_player_id, INITIAL_RATING)
    return ["x_rating_before", "o_rating_before"]


def _check_challenge(game: Game) -> None:
    if game.opponent != Opponent.HUMAN:
        raise NotAChallenge(f"game {game.pk} is not a challenge: it is not played against another player")


def challenge_cancel(*, game: Game, player) -> None:
    """The creator withdraws a challenge nobody has accepted yet; it is deleted (it has no moves)."""
    with transaction.atomic():
        locked = _lock_challenge(game)
        _check_challenge(locked)
        if locked.created_by_id != getattr(player, "pk", None):
            raise NotCreator("only the player who made this challenge can cancel it")
        if locked.status != Game.Status.OPEN:
            raise ChallengeTaken("this challenge has already been accepted; resign instead")
        locked.delete()


def challenge_decline(*, game: Game, player) -> None:
    """The player a challenge was sent to turns it down; it is deleted, as a cancelled one is (its maker's page
    says it is no longer available)."""
    with transaction.atomic():
        locked = _lock_challenge(game)
        _check_challenge(locked)
        if locked.invitee_id is None or locked.invitee_id != getattr(player, "pk", None):
            raise NotInvited("only the player this challenge was sent to can decline it")
        if locked.status != Game.Status.OPEN:
            raise ChallengeTaken("this challenge has already been accepted; resign instead")
        locked.delete()


# Rematches -----------------------------------------------------------------------------------------


def _check_rematch(locked: Game, player) -> None:
    if not locked.sides_of(player):
        raise NotSeated("you are not playing in this game")
    if not locked.is_two_players:
        raise RematchRefused("a rematch is for games between two players; start a new game instead")
    if not locked.is_finished:
        raise RematchRefused("the game is not over yet")
    if Game.objects.filter(rematch_of=locked).exists():
        raise RematchRefused("the rematch has already been agreed")


def _start_rematch(locked: Game) -> Game:
    """The new game: same variant and options, sides swapped, linked to the old one."""
    new = Game(
        variant=locked.variant, options=dict(locked.options or {}), opponent=Opponent.HUMAN,
        created_by=locked.rematch_offered_by or locked.x_player, x_player=locked.o_player,
        o_player=locked.x_player, status=Game.Status.ACTIVE, private=locked.private, rematch_of=locked,
        turn_started=timezone.now(),
    )
    _note_ratings(new)
    variant_obj = game_variant(locked)
    if variant_obj.options.get("random_start"):
        new.start_board = variant_obj.new_game(seed=random.randrange(2**31)).active_boards[0]
    new.save()
    locked.rematch_offered_by = None
    locked.rematch_declined = False
    locked.version += 1
    locked.save(update_fields=["rematch_offered_by", "rematch_declined", "version", "updated"])
    return new


def _offer_rematch(locked: Game, player) -> None:
    locked.rematch_offered_by = player
    locked.rematch_declined = False
    locked.version += 1
    locked.save(update_fields=["rematch_offered_by", "rematch_declined", "version", "updated"])


def rematch_offer(*, game: Game, player) -> Game | None:
    """``player`` proposes a rematch of a finished two-player game.

    If the opponent had already proposed one, this agrees to it: the new game is returned.
    Otherwise the offer is recorded (the opponent's page shows it) and None is returned. After a declined
    offer, only the player who declined may offer (a new offer of theirs): the other is not let to insist.
    """
    with transaction.atomic():
        locked = _lock(game)
        _check_rematch(locked, player)
        offered_by = locked.rematch_offered_by_id
        if locked.rematch_declined:
            if offered_by == player.pk:
                raise RematchRefused("your opponent declined the rematch")
            _offer_rematch(locked, player)
        elif offered_by is not None and offered_by != player.pk:
            return _start_rematch(locked)
        elif offered_by is None:
            _offer_rematch(locked, player)
    return None


def rematch_accept(*, game: Game, player) -> Game:
    """The opponent of the player who offered a rematch agrees: the new game (sides swapped)."""
    with transaction.atomic():
        locked = _lock(game)
        _check_rematch(locked, player)
        if locked.rematch_offered_by_id is None:
            raise RematchRefused("no rematch has been offered")
        if locked.rematch_declined:
            raise RematchRefused("the rematch has been declined")
        if locked.rematch_offered_by_id == player.pk:
            raise RematchRefused("you offered this rematch; your opponent has to accept it")
        return _start_rematch(locked)


def rematch_decline(*, game: Game, player) -> Game:
    """Decline the opponent's rematch offer (the offerer's page says so), or withdraw your own."""
    with transaction.atomic():
        locked = _lock(game)
        _check_rematch(locked, player)
        if locked.rematch_offered_by_id is None:
            raise RematchRefused("no rematch has been offered")
        if locked.rematch_declined:
            raise RematchRefused("the rematch has already been declined")
        if locked.rematch_offered_by_id == player.pk:
            locked.rematch_offered_by = None  # withdrawn: as if never offered
        else:
            locked.rematch_declined = True
        locked.version += 1
        locked.save(update_fields=["rematch_offered_by", "rematch_declined", "version", "updated"])
    return locked
