"""Game pages and their htmx partials. Thin: parse the request, call a service, render.

An htmx request gets the partial it swaps (``#play`` on the game page, ``#replay``,
``#history``); a plain request gets the full page or a redirect, so everything works without
JavaScript. A refused request answers 4xx with the message: for htmx it is retargeted into the
page's ``#game-error`` element, without htmx the whole page is shown with the message.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import (
    HttpResponseClientRedirect,
    push_url,
    replace_url,
    reswap,
    retarget,
    trigger_client_event,
)

from players.forms import focus_first_error

from .engine import VARIANTS
from .engine.analysis import MoveVerdict, can_analyse, outcome_words
from .errors import (
    AnalysisUnavailable,
    ChallengeGone,
    GameError,
    GameNotFound,
    InvalidGameSettings,
    InvalidInvitee,
    InvalidMove,
    MoveConflict,
    NotComputerTurn,
)
from .forms import HistoryFilterForm, NewGameForm
from .http_errors import http_error
from .models import LEVELS, Game, Opponent, Rating
from .positions import Position, fresh_position, game_moves, game_position, game_variant, state_after, takeback_keep
from .rating import INITIAL_RATING, PAIR_GAMES_LIMIT, PAIR_WINDOW_HOURS, PROVISIONAL_GAMES
from .selectors import (
    LEADERBOARD_SIZE,
    RESULT_FILTERS,
    can_view,
    challenges_for,
    count_waiting,
    game_for_page,
    game_history,
    is_involved,
    leaderboard,
    live_games,
    my_challenges,
    my_games_mark,
    open_challenges,
    rated_variants,
    variant_label,
    with_creator_rating,
)
from .services import (
    challenge_accept,
    challenge_cancel,
    challenge_decline,
    claim_win_after,
    computer_move,
    computer_opening,
    draw_accept,
    draw_decline,
    draw_offer,
    game_again,
    game_analysis,
    game_claim_win,
    game_create,
    game_from_position,
    game_resign,
    move_hint,
    move_play,
    move_takeback,
    rematch_accept,
    rematch_decline,
    rematch_offer,
)

HISTORY_PAGE_SIZE = 20
#: after a two-player game ends, its players' pages keep polling this long for a rematch offer
REMATCH_WINDOW = timedelta(minutes=10)
#: polling period while something can change now, and while only a rematch offer can
POLL_EVERY = "1s"
POLL_EVERY_FINISHED = "2s"
#: a player's page in a background tab still asks, less often, so that its title can say "Your turn"
POLL_HIDDEN = "10s"
COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRST"  # no I, as on go and gomoku boards; 19 letters


# Helpers ----------------------------------------------------------------------------------------


def _game_for(request: HttpRequest, pk: int) -> Game:
    """The game if the signed-in player may see it; 404 otherwise (no hint that it exists)."""
    game = game_for_page(pk, request.user)
    if game is None or not can_view(game, request.user):
        raise Http404("No such game.")
    return game


def _parse_move(raw: str | None) -> int:
    raw = (raw or "").strip()
    # ASCII digits only (int() also reads '٣'), as the API does; the engine says when it is out of range
    if not re.fullmatch(r"-?[0-9]{1,18}", raw):
        shown = raw[:20] or "nothing"
        raise InvalidMove(f"a move must be a cell number, not {shown!r}" if raw else "no move was sent")
    return int(raw)


def _parse_count(raw: str) -> int | None:
    """A whole number typed in ASCII digits (``ply``), else None: ``isdigit`` also passes '²', which int() refuses."""
    raw = raw.strip()
    return int(raw) if re.fullmatch(r"[0-9]{1,18}", raw) else None


@cache
def _game_url_format(name: str) -> str:
    """``reverse(name, args=[pk])`` as a format string: the move partial needs four game URLs per answer."""
    marker = 987654321
    return reverse(name, args=[marker]).replace(str(marker), "{}")


def game_urls(pk: int) -> dict[str, str]:
    return {key: _game_url_format(f"games:{name}").format(pk) for key, name in (
        ("move", "move"), ("computer", "computer_move"), ("resign", "resign"), ("poll", "poll"),
        ("draw", "draw"), ("draw_accept", "draw_accept"), ("draw_decline", "draw_decline"), ("claim", "claim"),
        ("takeback", "takeback"), ("again", "again"), ("hint", "hint"),
    )}


def _message(err: Exception) -> str:
    text = str(err)
    return text[:1].upper() + text[1:]


def cell_position(game: Game, move: int, cols: int) -> dict[str, Any]:
    """Human coordinates of a move: board/position for nested variants, a name for grid cells."""
    if game.variant in ("ultimate", "multi"):
        board, cell = divmod(move, 9)
        return {"board": board, "cell": cell, "name": f"board {board}, cell {cell}"}
    row, col = divmod(move, cols)
    if game.variant == "classic":
        name = str(move + 1)
    else:
        name = f"{COLUMN_LETTERS[col]}{row + 1}"
    return {"row": row + 1, "col": col + 1, "name": name}


def _cell_html(
    move: int, mark: str, playable: bool, last: bool, label: str, hint: bool = False, win: bool = False
) -> str:
    """One cell of the board, as the web contract has it (data-cell, data-mark; data-move only when playable).

    Built here rather than by a template include per cell (a 19 x 19 board has 361): everything in it
    is a number, a mark from the engine (X/O) or a fixed word, so there is nothing to escape.
    """
    if playable:
        if hint:  # the move a hint suggests
            return (f'<button type="submit" name="move" value="{move}" class="cell playable hint" data-cell="{move}" '
                    f'data-mark="" data-move="{move}" data-hint aria-label="{label}, suggested"></button>')
        return (f'<button type="submit" name="move" value="{move}" class="cell playable" data-cell="{move}" '
                f'data-mark="" data-move="{move}" aria-label="{label}"></button>')
    classes = "cell"
    if mark:
        classes += f" mark-{mark.lower()}"
    if last:
        classes += " last"
    if win:  # a cell of the line that won the game
        classes += " win"
        label += ", in the winning line"
    return (f'<span class="{classes}" data-cell="{move}" data-mark="{mark}" role="img" '
            f'aria-label="{label}">{mark}</span>')


def board_context(
    game: Game, state, *, player=None, interactive: bool = False, last: int | None = None, hint: int | None = None
) -> dict:
    """What ``_board.html`` needs: the cells' HTML (flat for grids, per board for nested variants); ``hint``: a
    playable cell to show as suggested."""
    variant = state.variant
    cells = state.cells
    playable: set[int] = set()
    if interactive and player is not None and game.status == Game.Status.ACTIVE and not state.is_over:
        if state.to_move in game.sides_of(player):
            playable = set(state.legal_moves())
    if last is None:
        last = getattr(state, "last_move", None)

    winning = set(state.winning_cells)

    def cell(move: int, label: str) -> str:
        mark = cells[move] or ""
        return _cell_html(
            move, mark, move in playable, move == last, f"{label}, {mark or 'empty'}", move == hint, move in winning
        )

    if variant.nested:
        active = set(state.active_boards)
        winners = state.board_winners
        winning_boards = set(state.winning_boards)
        boards = [
            {
                "index": b,
                "winner": winners[b] or "",
                "winning": b in winning_boards,
                "active": b in active and (not interactive or bool(playable)),
                # on the live page, for whoever is not to move (the opponent, a spectator, a watched game): where
                # the next move will be, shown without inviting a click
                "next": interactive and not playable and b in active and not state.is_over
                and game.status == Game.Status.ACTIVE,
                "cells_html": mark_safe("".join(cell(9 * b + c, f"Board {b}, cell {c}") for c in range(9))),
            }
            for b in range(9)
        ]
        score = {"x": winners.count("X"), "o": winners.count("O")}  # multi is won on it; ultimate shows it too
        return {"nested": True, "boards": boards, "interactive": bool(playable), "score": score}
    rows, cols = variant.rows, variant.cols
    classic = game.variant == "classic"
    # Named as the move list and the announcements name moves ("E5"), then where that is.
    grid = "".join(
        cell(m, f"Cell {m + 1}, row {m // cols + 1}, column {m % cols + 1}" if classic
             else f"{COLUMN_LETTERS[m % cols]}{m // cols + 1} (row {m // cols + 1}, column {m % cols + 1})")
        for m in range(variant.cell_count)
    )
    return {
        "nested": False,
        "cells_html": mark_safe(grid),  # numbers and X/O only, see _cell_html
        "rows": rows,
        "cols": cols,
        "size_class": "large" if max(rows, cols) > 10 else "medium" if max(rows, cols) > 5 else "small",
        "interactive": bool(playable),
        # the names the move list uses ("G5"), along the edges; classic names its cells 1-9 instead
        "col_labels": "" if classic else COLUMN_LETTERS[:cols],
        "row_labels": [] if classic else range(1, rows + 1),
    }


def move_rows(
    game: Game, moves: list[int], cols: int, *, replay_ply: int | None = None, verdicts: list[MoveVerdict] | None = None
) -> SafeString:
    """The rows of the move list (``_moves.html``): play no., player, board and position (nested) or position.

    Built here rather than by a template loop (a long game has hundreds of rows); everything in a row is
    a number, X/O or a cell name made of a column letter and a number, so there is nothing to escape.
    With ``replay_ply`` (the replay page) each play number links to that step and that row is current;
    with ``verdicts`` (a finished game's analysis) a mistake is marked "?".
    """
    nested = game.variant in ("ultimate", "multi")
    replay_url = reverse("games:replay", args=[game.pk]) if replay_ply is not None else ""
    rows = []
    for ply, move in enumerate(moves, start=1):
        side = "X" if ply % 2 else "O"
        name = "" if nested else cell_position(game, move, cols)["name"]  # nested: only the replay's links need it
        if nested:
            board, cell = divmod(move, 9)
            where = f"<td>{board}</td><td>{cell}</td>"
        else:
            where = f"<td>{name}{_verdict_mark(verdicts, ply)}</td>"
        if replay_ply is None:
            head, number = f'<tr data-ply="{ply}">', str(ply)
        else:
            current = ' class="current" aria-current="step"' if ply == replay_ply else ""
            head = f'<tr{current} data-ply="{ply}">'
            link = f"{replay_url}?ply={ply}"
            name = name or cell_position(game, move, cols)["name"]
            # an id, so that htmx gives the keyboard focus back to it after the swap
            number = (f'<a href="{link}" id="step-{ply}" aria-label="Move {ply}, {side} on {name}" hx-get="{link}" '
                      f'hx-target="#replay" hx-swap="outerHTML">{ply}</a>')
        rows.append(f'{head}<td>{number}</td><td><span class="mark-{side.lower()}">{side}</span></td>{where}</tr>')
    return mark_safe("\n".join(rows))


def _verdict_mark(verdicts: list[MoveVerdict] | None, ply: int) -> str:
    if not verdicts or not verdicts[ply - 1].mistake:
        return ""
    return ' <span class="verdict-mistake" title="A mistake">?<span class="visually-hidden"> (a mistake)</span></span>'


def analysis_context(game: Game, verdicts: list[MoveVerdict], ply: int, cols: int) -> dict[str, Any]:
    """The replay's words on the step shown (``ply``: after that move) and the count of mistakes."""
    mistakes = {side: sum(v.mistake for v in verdicts if v.side == side) for side in ("X", "O")}
    if ply == 0:
        start = outcome_words(verdicts[0].before, "X") if verdicts else ""
        text = f"With best play from both sides, this game is {start}." if verdicts else ""
        tone = ""
    else:
        v = verdicts[ply - 1]
        name = cell_position(game, v.move, cols)["name"]
        head = f"Move {ply}, {v.side} on {name}:"
        if v.mistake:
            names = [cell_position(game, m, cols)["name"] for m in v.best]
            best = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]
            text = (
                f"{head} a mistake. With best play this was {outcome_words(v.before, v.side)}; now it is "
                f"{outcome_words(v.after, v.side)}. Better: {best}."
            )
            tone = "mistake"
        elif v.before == "loss":
            text = f"{head} {'O' if v.side == 'X' else 'X'} wins whatever {v.side} plays."
            tone = ""
        else:
            text = f"{head} a good move. With best play this is {outcome_words(v.after, v.side)}."
            tone = "good"
    if not verdicts:
        summary = ""
    elif mistakes["X"] or mistakes["O"]:
        summary = f"Mistakes: X {mistakes['X']}, O {mistakes['O']}."
    else:
        summary = "No mistakes: both sides kept the best outcome they had."
    return {"text": text, "tone": tone, "summary": summary}


def status_context(game: Game, state, player) -> dict[str, Any]:
    """The words of ``#status`` and who is to move."""
    sides = game.sides_of(player)
    computer_to_move = False
    if game.is_finished:
        text = game.result_text()
        mine = game.result in sides and len(sides) == 1
        lost = len(sides) == 1 and game.result in ("X", "O") and not mine
        tone = "won" if mine else "lost" if lost else "over"
        # in the player's own words too, not only the colour
        text += " — you won" if mine else " — you lost" if lost else ""
        return {"text": text, "tone": tone, "computer_to_move": False}
    if game.status == Game.Status.OPEN:
        return {"text": _challenge_text(game, player), "tone": "waiting", "computer_to_move": False}
    side = state.to_move
    if game.is_computer(side):
        computer_to_move = True
        text = f"{side} to move: {game.seat_label(side)}"
    elif side in sides and len(sides) == 1:
        text = f"Your turn ({side})"
    elif side in sides:
        text = f"{side} to move"
    elif sides:  # the other player's turn
        text = f"Waiting for {game.seat_label(side)} ({side})"
    else:
        text = f"{side} to move: {game.seat_label(side)}"  # as a computer seat says it
    return {"text": text, "tone": "turn", "computer_to_move": computer_to_move}


def _challenge_text(game: Game, player) -> str:
    """An open challenge in the words of whoever looks at it: its maker, its invitee, or anyone else."""
    creator_side = "O" if game.open_side() == "X" else "X"
    pid = getattr(player, "pk", None)
    if pid == game.created_by_id and game.invitee_id:
        return f"Waiting for {game.invitee.get_username()} to accept"
    if pid == game.created_by_id:
        return "Waiting for an opponent to join"
    if pid == game.invitee_id:
        return f"{game.seat_label(creator_side)} challenges you"  # the panel under it says the rest
    if game.invitee_id is None:
        return f"Open challenge from {game.seat_label(creator_side)}"
    return "Waiting for the invited player to accept"


def _poll_every(game: Game, player, sides: list[str], rematch_id: int | None) -> str:
    """How often this viewer's page asks for news ("" = never): only where someone else can change the game.

    Spectators (and the invitee of a challenge) while it is not finished; a player of a game
    between two people while it waits or runs, then for a while after the end for a rematch
    offer, and as long as one waits for its answer. Not in games against the computer or on one screen:
    the page itself makes every change.
    """
    if not sides:
        if game.is_finished:
            return ""
        if game.created_by_id == player.pk:
            return ""  # the creator of a watched game drives it from this page
        return POLL_EVERY
    if not (game.is_two_players or (game.status == Game.Status.OPEN and game.opponent == "human")):
        return ""
    if not game.is_finished:
        return POLL_EVERY
    if rematch_id is not None:
        return ""
    # an offer waiting for its answer keeps both pages listening, however late it was made
    waiting = game.rematch_offered_by_id is not None and not game.rematch_declined
    if waiting or (game.finished and timezone.now() - game.finished < REMATCH_WINDOW):
        return POLL_EVERY_FINISHED
    return ""


def _rematch_id(game: Game) -> int | None:
    if not game.is_finished or not game.is_two_players:
        return None
    return Game.objects.filter(rematch_of_id=game.pk).values_list("pk", flat=True).first()


def play_context(
    request: HttpRequest, position: Position, *, error: str = "", hint: int | None = None, said: str = ""
) -> dict[str, Any]:
    game, state = position.game, position.state
    player = request.user
    status = status_context(game, state, player)
    sides = game.sides_of(player)
    is_open = game.status == Game.Status.OPEN
    mine = game.created_by_id == player.pk
    rematch_id = _rematch_id(game)
    two_players = game.is_two_players and bool(sides)
    offered_by = game.rematch_offered_by_id
    draw_by = game.draw_offered_by_id
    running = two_players and game.status == Game.Status.ACTIVE
    can_accept = is_open and not mine and not sides and game.invitee_id in (None, player.pk)
    alone = bool(sides) and game.status == Game.Status.ACTIVE and not game.is_two_players
    on_my_own = alone and not status["computer_to_move"]
    thinks_for_me = alone and status["computer_to_move"]
    has_takeback = alone and takeback_keep(game, position.moves, sides) is not None
    my_turn_alone = on_my_own and game.to_move in sides
    rematch_open = two_players and rematch_id is None
    declined = game.rematch_declined
    offers = {
        "draw_offered_by_me": running and draw_by == player.pk,
        "draw_offered_to_me": running and draw_by not in (None, player.pk),
        "rematch_offered_by_me": rematch_open and offered_by == player.pk and not declined,
        "rematch_offered_to_me": rematch_open and offered_by not in (None, player.pk) and not declined,
        "rematch_declined_by_them": rematch_open and offered_by == player.pk and declined,
        "rematch_declined_by_me": rematch_open and offered_by not in (None, player.pk) and declined,
    }
    if hint is None and my_turn_alone:
        hint = game.current_hint  # asked for earlier in this position: still shown (a reload does not lose it)
    return {
        "game": game,
        "urls": game_urls(game.pk),
        "state": state,
        "board": board_context(game, state, player=player, interactive=True, hint=hint),
        "hint_name": cell_position(game, hint, state.variant.cols)["name"] if hint is not None else "",
        "status": status,
        "moves": move_rows(game, position.moves, state.variant.cols),
        "nested": state.variant.nested,
        "variant_label": state.variant.describe(),
        # the tab's title says when the other player has moved (or joined), even from the background
        "page_title": f"{'Your turn · ' if running and game.to_move in sides else ''}Game {game.pk} · "
        f"{state.variant.describe()}",
        "my_sides": sides,
        # what a screen reader announces after an htmx answer: the latest move (or what was just done instead,
        # ``said``) and the status, then an offer waiting
        "announce": f"Hint: {cell_position(game, hint, state.variant.cols)['name']}." if hint is not None
        else _announcement(game, position, status["text"], said=said, offers=next(
            (words for flag, words in OFFER_WORDS.items() if offers[flag]), "")),
        "can_resign": bool(sides) and game.status == Game.Status.ACTIVE,
        # a finished game without another player: its creator may start one more with the same settings
        "can_play_again": game.is_finished and mine and game.opponent != Opponent.HUMAN,
        "analysable": game.is_finished and can_analyse(state.variant),
        # a game without another person: the player may take their latest move back (not while the computer
        # thinks), and ask for a hint on their turn
        "can_take_back": on_my_own and has_takeback,
        "can_hint": my_turn_alone and hint is None,
        # while the computer answers (or a hint is shown), the same buttons stay in place, disabled
        "computer_thinks_for_me": thinks_for_me,
        "hint_shown": hint is not None,
        "has_takeback": thinks_for_me and has_takeback,
        "watch": game.is_computer("X") and game.is_computer("O"),
        "error": error,
        "x_label": game.seat_label("X"),
        "o_label": game.seat_label("O"),
        "x_rating": game.rating_change("X"),
        "o_rating": game.rating_change("O"),
        # a running game between two players: each seat's rating as the game started
        "x_rating_now": game.rating_now("X"),
        "o_rating_now": game.rating_now("O"),
        # neither a player nor someone who may take the open seat
        "spectator": not is_involved(game, player) and not can_accept,
        "poll_every": (poll_every := _poll_every(game, player, sides, rematch_id)),
        "poll_hidden": POLL_HIDDEN if poll_every and sides and not game.is_finished else "",
        # challenges: only the controls that are this viewer's
        "can_accept": can_accept,
        "can_cancel": is_open and mine,
        "share_url": request.build_absolute_uri(reverse("games:detail", args=[game.pk])) if is_open and mine else "",
        "invitee_label": game.invitee.get_username() if game.invitee_id else "",
        "open_side": game.open_side() or "",
        # rematches: offer / accept / decline for the two players of a finished game
        "rematch_id": rematch_id,
        # after a declined offer, only the player who declined it may offer one
        "can_offer_rematch": two_players and game.is_finished and rematch_id is None
        and (offered_by is None or offers["rematch_declined_by_me"]),
        # draw offers: for the two players of a running game
        "can_offer_draw": running and draw_by is None and game.draw_offer_ply != game.ply,
        "draw_declined": running and draw_by is None and game.draw_offer_ply == game.ply,
        # draw and rematch offers waiting for an answer, by this player or to them
        **offers,
        # the opponent stopped playing: the player waiting may claim the win
        **_claim_context(game, sides),
    }


#: what the announcement adds for an offer waiting for an answer (play_context's flags)
OFFER_WORDS = {
    "draw_offered_to_me": "Your opponent offers a draw.",
    "draw_offered_by_me": "You offered a draw.",
    "rematch_offered_to_me": "Your opponent offers a rematch.",
    "rematch_offered_by_me": "You offered a rematch.",
    "rematch_declined_by_them": "Your opponent declined the rematch.",
    "rematch_declined_by_me": "You declined the rematch.",
}

#: endings the result's own words explain ("X wins (O resigned)"): the last move is not news then
NOT_ON_THE_BOARD = (Game.Reason.RESIGNED, Game.Reason.AGREED, Game.Reason.ABANDONED, Game.Reason.DECIDED)


def _announcement(game: Game, position: Position, status_text: str, *, said: str = "", offers: str = "") -> str:
    """"O played 5. Your turn (X)." — the latest move in the move list's words (or ``said``: what was just done
    instead, e.g. a take back), then the status line, then an offer waiting for an answer."""
    if said:
        head = said
    elif not position.moves or (game.is_finished and game.result_reason in NOT_ON_THE_BOARD):
        head = ""
    else:
        ply = len(position.moves)
        name = cell_position(game, position.moves[-1], position.state.variant.cols)["name"]
        head = f"{'X' if ply % 2 == 1 else 'O'} played {name}."
    status = f"{status_text.rstrip('.')}." if offers else status_text
    return " ".join(part for part in (head, status, offers) if part)


def _claim_context(game: Game, sides: list[str]) -> dict[str, Any]:
    """``can_claim_win`` now; else, for the player waiting, ``claim_poll_at``: the moment (epoch seconds)
    the page's poll asks for the page again, so the button appears without a reload."""
    after = claim_win_after(game) if sides and game.to_move not in sides else None
    if after is None:
        return {"can_claim_win": False, "claim_poll_at": None}
    due = timezone.now() >= after
    return {"can_claim_win": due, "claim_poll_at": None if due else int(after.timestamp()) + 1}


def _render_play(
    request: HttpRequest, position: Position, *, error: str = "", status: int = 200, hint: int | None = None,
    new_page: bool = False, said: str = "",
) -> HttpResponse:
    """The game page, or for htmx its #play (with the players and the announcement out of band); ``new_page``:
    that #play replaces another game's (Play again), so it brings the page title too; ``said``: what the
    announcement says was done, when that was not a move."""
    context = play_context(request, position, error=error, hint=hint, said=said)
    if request.htmx:
        response = render(request, "games/partials/_play.html", {**context, "oob": True, "new_page": new_page},
                          status=status)
    else:
        response = render(request, "games/game.html", context, status=status)
    # The page drops a late answer older than what it already shows (a poll racing a move); versions
    # are compared within one game only (X-Game).
    response["X-Game"] = str(position.game.pk)
    response["X-Game-Version"] = str(position.game.version)
    if request.htmx and position.game.is_two_players:
        # A move, a resignation, a poll that brought the opponent's move: the badge of games waiting for
        # this player's move asks again (not for games against the computer, which it does not count).
        trigger_client_event(response, "my-turn")
    return response


def _refused(request: HttpRequest, game: Game | int, err: GameError) -> HttpResponse:
    """A 4xx that the page shows: retargeted into #game-error for htmx, the full page otherwise.

    ``game`` may be the game's id (the move views lock the row themselves): it is read here only
    for the full page.
    """
    if isinstance(err, (ChallengeGone, GameNotFound)):
        raise Http404(_message(err))
    message = _message(err)
    if request.htmx:
        response = render(request, "games/partials/_error.html", {"error": message}, status=http_error(err).status)
        return reswap(retarget(response, "#game-error"), "innerHTML")
    if isinstance(game, int):
        game = _game_for(request, game)
    return _render_play(request, game_position(game), error=message, status=http_error(err).status)


# Pages ------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                game = game_create(
                    player=request.user,
                    variant=data["variant"],
                    options=data["options"],
                    opponent=data["opponent"],
                    side=data["side"],
                    strategy=data["strategy"] or None,
                    invitee=data["invite"] or None,
                    private=data["private"],
                )
            except InvalidGameSettings as err:
                form.add_error("invite" if isinstance(err, InvalidInvitee) else None, _message(err))
            else:
                computer_opening(game=game)
                return redirect("games:detail", pk=game.pk)
        focus_first_error(form)  # the page opens on what to fix, in view on a phone too
        return render(request, "games/new.html", {"form": form}, status=400)
    initial = {"opponent": "human"} if request.GET.get("opponent") == "human" or request.GET.get("invite") else {}
    if request.GET.get("invite"):
        initial["invite"] = request.GET["invite"][:150]
    return render(request, "games/new.html", {"form": NewGameForm(initial=initial or None)})


@login_required
@require_safe
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_for(request, pk)
    return _render_play(request, fresh_position(game))


@login_required
@require_POST
def game_move(request: HttpRequest, pk: int) -> HttpResponse:
    """One move. The service locks the game row once and checks that this player may see it there.

    A computer that answers in milliseconds replies in this same request (one round trip); a slow
    one (mcts, deep alphabeta) is asked for by the page in a second htmx request, so the player's
    own move shows at once. Without htmx every computer answers here, before the redirect.
    """
    try:
        move = _parse_move(request.POST.get("move"))
        # the position the page showed (the board's form sends it): a move from a page left behind is refused
        ply = _parse_count(request.POST["ply"]) if "ply" in request.POST else None
        if ply is None and "ply" in request.POST:
            raise InvalidMove(f"the ply (moves played so far) must be a whole number, not {request.POST['ply'][:20]!r}")
    except GameError as err:
        return _refused(request, _game_for(request, pk), err)  # 404 first for a game not to be seen
    try:
        position = move_play(
            game=pk, player=request.user, move=move, reply=not request.htmx, quick_reply=True, missing_if_hidden=True,
            ply=ply,
        )
    except MoveConflict as err:
        # The page showed an older position (another tab, a double submit): it gets the game as it stands now.
        response = _render_play(request, game_position(_game_for(request, pk)), error=_message(err), status=409)
        return reswap(retarget(response, "#play"), "outerHTML") if request.htmx else response
    except GameError as err:
        return _refused(request, pk, err)
    if request.htmx:
        return _render_play(request, position)
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_computer_move(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        position = computer_move(game=pk, player=request.user, missing_if_hidden=True)
    except (NotComputerTurn, MoveConflict):
        # A second trigger for a move already made: show the game as it stands.
        if request.htmx:
            return _render_play(request, game_position(_game_for(request, pk)))
        return redirect("games:detail", pk=pk)
    except GameError as err:
        return _refused(request, pk, err)
    if request.htmx:
        return _render_play(request, position)
    return redirect("games:detail", pk=pk)


@login_required
@require_POST
def game_resign_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, game_resign)


@login_required
@require_safe
def game_poll(request: HttpRequest, pk: int) -> HttpResponse:
    """The cheap live check: 204 No Content while the game's ``version`` is still ``v``, else ``#play``.

    One indexed query on the game row (after the session and user lookups every signed-in page
    makes); htmx swaps nothing on 204, so a page can ask every second at almost no cost.
    """
    row = (
        Game.objects.filter(pk=pk)
        .only("version", "private", "x_player_id", "o_player_id", "created_by_id", "invitee_id", "status")
        .first()
    )
    if row is None or not can_view(row, request.user):
        # A cancelled challenge, or a game this player may not see: the same answer (no hint). It replaces #play,
        # so that no Accept button is left to press and the page stops asking.
        return reswap(retarget(render(request, "games/partials/_gone.html", status=404), "#play"), "outerHTML")
    if str(row.version) == request.GET.get("v") and not _claim_now_due(request.GET.get("c")):
        return HttpResponse(status=204)
    if row.is_finished and row.sides_of(request.user) and (rematch_id := _rematch_id(row)) is not None:
        # The opponent accepted this player's rematch offer while the page waited: both go to the new game, as
        # the one who accepted did. (A page opened after the rematch started has its version: no redirect.)
        return HttpResponseClientRedirect(reverse("games:detail", args=[rematch_id]))
    return _render_play(request, fresh_position(_game_for(request, pk)))


def _claim_now_due(moment: str | None) -> bool:
    """The page said when its player may claim the win (``c``, epoch seconds): has that time come?"""
    try:
        return moment is not None and float(moment) <= timezone.now().timestamp()
    except ValueError:
        return False  # not a time: as if the page had not asked


def _after_action(request: HttpRequest, game: Game) -> HttpResponse:
    if request.htmx:
        return _render_play(request, game_position(game))
    return redirect("games:detail", pk=game.pk)


def _go_to(request: HttpRequest, game: Game) -> HttpResponse:
    """Open another game's page (a rematch): a client-side redirect for htmx, a 302 otherwise."""
    url = reverse("games:detail", args=[game.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _in_place(request: HttpRequest, game: Game) -> HttpResponse:
    """Open a new game of the same settings (Play again) where the finished one was: for htmx its #play,
    with the address bar moved to it (HX-Push-Url), one round trip and no page load; a 302 otherwise.
    The rest of the page (the variant's heading) is the same for the same settings."""
    if not request.htmx:
        return redirect("games:detail", pk=game.pk)
    return push_url(_render_play(request, fresh_position(game), new_page=True), reverse("games:detail", args=[game.pk]))


def _game_action(
    request: HttpRequest, pk: int, action: Callable[..., Game],
    then: Callable[[HttpRequest, Game], HttpResponse] = _after_action,
) -> HttpResponse:
    """Run a service ``action(game=..., player=...)`` on this game; ``then`` answers with the game it returns
    (by default: the game as it now stands)."""
    game = _game_for(request, pk)
    try:
        game = action(game=game, player=request.user)
    except GameError as err:
        return _refused(request, game, err)
    return then(request, game)


@login_required
@require_POST
def challenge_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, challenge_accept, then=_go_to)


@login_required
@require_POST
def challenge_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _challenge_gone(request, pk, challenge_cancel, "cancelled")


@login_required
@require_POST
def challenge_decline_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _challenge_gone(request, pk, challenge_decline, "declined")


def _challenge_gone(request: HttpRequest, pk: int, action: Callable[..., None], done: str) -> HttpResponse:
    """Cancel or decline a challenge (``action``), then back to My games and the lobby, saying so."""
    game = _game_for(request, pk)
    try:
        action(game=game, player=request.user)
    except GameError as err:
        return _refused(request, game, err)
    messages.success(request, f"Challenge #{pk} {done}.")
    url = reverse("games:history")
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def rematch_offer_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_for(request, pk)
    try:
        new = rematch_offer(game=game, player=request.user)
    except GameError as err:
        return _refused(request, game, err)
    return _go_to(request, new) if new is not None else _after_action(request, _game_for(request, pk))


@login_required
@require_POST
def rematch_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_for(request, pk)
    try:
        new = rematch_accept(game=game, player=request.user)
    except GameError as err:
        return _refused(request, game, err)
    return _go_to(request, new)


@login_required
@require_POST
def rematch_decline_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, rematch_decline)


@login_required
@require_POST
def draw_offer_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, draw_offer)


@login_required
@require_POST
def draw_accept_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, draw_accept)


@login_required
@require_POST
def draw_decline_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, draw_decline)


@login_required
@require_POST
def game_claim_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, game_claim_win)


@login_required
@require_POST
def game_again_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game_action(request, pk, game_again, then=_in_place)


@login_required
@require_POST
def game_hint_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The game with a suggested move highlighted (the hard level's choice); the page, not a redirect."""
    game = _game_for(request, pk)
    try:
        game, move = move_hint(game=game, player=request.user)
    except GameError as err:
        return _refused(request, game, err)
    return _render_play(request, fresh_position(game), hint=move)


@login_required
@require_POST
def game_takeback_view(request: HttpRequest, pk: int) -> HttpResponse:
    def taken_back(request: HttpRequest, game: Game) -> HttpResponse:
        if request.htmx:
            return _render_play(request, game_position(game), said="Your last move was taken back.")
        return redirect("games:detail", pk=game.pk)

    return _game_action(request, pk, move_takeback, then=taken_back)


@login_required
@require_safe
def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    return _replay_page(request, _game_for(request, pk), request.GET.get("ply"))


def _replay_page(request: HttpRequest, game: Game, ply_text: str | None, *, error: str = "", status: int = 200):
    """The replay at the position after ``ply_text`` moves (the last one when missing). One that is not a number of
    moves of this game is refused (400) with the page at the nearest position (the end for what is not a
    number), saying so."""
    moves = game_moves(game)
    total = len(moves)
    ply = total if ply_text is None else _parse_count(ply_text)
    if ply is None or ply > total:
        if not error:  # (Play on's refusal says what was wrong with its own ply)
            error = (
                f"This game has {total} moves: there is no position after move {ply}, so its end is shown."
                if ply is not None
                else f"“{(ply_text or '')[:20]}” is not a number of moves, so the game's end is shown."
            )
            status = 400
        ply = total
    state = state_after(game, moves, upto=ply)
    try:
        verdicts = game_analysis(game)
    except AnalysisUnavailable:
        verdicts = None  # a running game, or a board too big to solve: the replay shows the moves only
    end = status_context(game, state, request.user) if game.is_finished and ply == total else None
    context = {
        "game": game,
        "ply": ply,
        "total": total,
        "first": 0,
        "back": max(0, ply - 1),
        "forward": min(total, ply + 1),
        "last": total,
        "board": board_context(game, state, last=moves[ply - 1] if ply else -1),
        "moves": move_rows(game, moves, state.variant.cols, replay_ply=ply, verdicts=verdicts),
        "analysis": analysis_context(game, verdicts, ply, state.variant.cols) if verdicts is not None else None,
        # "Play on from here": a finished game, at a position where the game was not over yet
        "play_on_label": f"Play on from here as {state.to_move}, against the computer:"
        if game.is_finished and not state.is_over else "",
        # the move shown was a mistake: play on from before it, as the side that made it
        "try_better_label": f"Try the better move as {verdicts[ply - 1].side}, from before move {ply}:"
        if game.is_finished and ply and verdicts and verdicts[ply - 1].mistake else "",
        "levels": [level.value for level in reversed(LEVELS)],  # hard first: the default
        "error": error,
        "nested": state.variant.nested,
        "variant_label": state.variant.describe(),
        "x_label": game.seat_label("X"),
        "o_label": game.seat_label("O"),
        "x_rating": game.rating_change("X"),
        "o_rating": game.rating_change("O"),
        # the end as the game page words and colours it ("X wins — you won", in green)
        "status_text": end["text"] if end else (
            f"After move {ply} of {total}" if ply else f"Start position ({total} moves in all)"
        ),
        "status_tone": end["tone"] if end else "",
    }
    if request.htmx:
        announce = _replay_announcement(
            game, moves, ply, state.variant.cols, context["analysis"], context["status_text"]
        )
        context.update(oob=True, announce=announce)
        response = render(request, "games/partials/_replay.html", context, status=status)
        # the address follows the step in place: Back leaves the replay, however many steps were taken
        return replace_url(response, f"{reverse('games:replay', args=[game.pk])}?ply={ply}")
    return render(request, "games/replay.html", context, status=status)


def _replay_announcement(
    game: Game, moves: list[int], ply: int, cols: int, analysis: dict[str, Any] | None, status_text: str
) -> str:
    """What a screen reader says at each step of the replay: the step, the move shown and its analysis, the result
    at the end as the status line words it ("X wins — you won"; the visible words are in the swapped part, which
    readers do not follow)."""
    total = len(moves)
    if ply == 0:
        words = f"Start position, {total} moves in all."
    else:
        side = "X" if ply % 2 else "O"
        name = cell_position(game, moves[ply - 1], cols)["name"]
        words = f"Move {ply} of {total}: {side} on {name}."
    if analysis and analysis["text"]:
        # past its head ("Move 6, O on 7:"), which the words above already say
        text = analysis["text"].split(": ", 1)[-1] if ply else analysis["text"]
        words += f" {text[0].upper()}{text[1:]}"
    if ply == total and game.is_finished:
        words += f" {status_text}."
    return words


@login_required
@require_POST
def game_play_on_view(request: HttpRequest, pk: int) -> HttpResponse:
    """A new game against the computer from a position of this finished game (``ply``, ``level``)."""
    game = _game_for(request, pk)
    ply_text = request.POST.get("ply", "")
    try:
        new = game_from_position(game=game, ply=_parse_count(ply_text),
                                 player=request.user, level=request.POST.get("level", ""))
    except GameError as err:
        return _replay_page(request, game, ply_text or None, error=_message(err), status=http_error(err).status)
    return _go_to(request, new)


@login_required
@require_safe
def history(request: HttpRequest) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    variant = result = None
    problems = []
    if form.is_bound:
        form.is_valid()
        # a filter that is not one of the choices (an old or hand-typed link) is named and left out; the others hold
        variant = form.cleaned_data.get("variant") or None
        result = form.cleaned_data.get("result") or None
        instead = {"variant": ("variant", "every variant is shown"), "result": ("result filter", "any result is shown")}
        problems = [
            f"There is no {instead[name][0]} called “{form.data.get(name, '')[:40]}”, so {instead[name][1]}."
            for name in form.errors
        ]
    games = game_history(request.user, variant=variant, result=result)
    paginator = Paginator(games, HISTORY_PAGE_SIZE)
    page_text = request.GET.get("page")
    asked = 1 if page_text is None else _parse_count(page_text)
    page = paginator.get_page(1 if asked is None else asked)  # the nearest page to what was asked
    # A typed or old link is told; the list refreshing itself (htmx) after games went away just shows the nearest.
    if asked != page.number and not request.htmx:
        problems.append(
            f"There is no page {asked} (pages 1 to {paginator.num_pages}), so page {page.number} is shown."
            if asked is not None else f"“{page_text[:20]}” is not a page number, so page {page.number} is shown."
        )
    rows = [history_row(game, request.user) for game in page.object_list]
    query = "&".join(f"{k}={v}" for k, v in (("variant", variant), ("result", result)) if v)
    context = {"form": form, "page": page, "rows": rows, "query": query, "result_filters": RESULT_FILTERS,
               "filter_error": " ".join(problems)}
    status = 400 if problems else 200
    if request.htmx:
        return render(request, "games/partials/_history.html", context, status=status)
    return render(request, "games/history.html", {**context, **lobby_context(request)}, status=status)


@require_safe
def rules_view(request: HttpRequest) -> HttpResponse:
    """How each variant is played, in players' words (RULES.md is the precise reading); open to everyone."""
    context = {
        "variants": [(key, cls.title) for key, cls in VARIANTS.items()],
        "abandon_hours": round(settings.GAME_ABANDON_AFTER.total_seconds() / 3600),
        "initial_rating": round(INITIAL_RATING),
        "pair_games_limit": PAIR_GAMES_LIMIT,
        "pair_window_hours": PAIR_WINDOW_HOURS,
    }
    return render(request, "rules.html", context)


@login_required
@require_safe
def leaderboard_view(request: HttpRequest) -> HttpResponse:
    """The best-rated players of one variant (``?variant=``; by default the first variant with rated games)."""
    rated = rated_variants()
    variant = request.GET.get("variant") or (rated[0] if rated else next(iter(VARIANTS)))
    context: dict[str, Any] = {"tabs": [(key, variant_label(key), key in rated) for key in VARIANTS]}
    if variant not in VARIANTS:
        context.update(variant="", error=f"There is no variant called “{variant[:40]}”: choose one above.")
        return render(request, "games/leaderboard.html", context, status=400)
    rows = leaderboard(variant, LEADERBOARD_SIZE)
    mine = Rating.objects.filter(player=request.user, variant=variant, games__gt=0).first()
    my_rank = None
    if mine is not None and not any(row.player_id == request.user.pk for row in rows):
        my_rank = Rating.objects.filter(
            variant=variant, player__is_active=True, games__gt=0, rating__gt=mine.rating
        ).count() + 1
    context.update(
        variant=variant, label=variant_label(variant), rows=rows, mine=mine, my_rank=my_rank,
        size=LEADERBOARD_SIZE, initial=round(INITIAL_RATING), provisional=PROVISIONAL_GAMES,
    )
    return render(request, "games/leaderboard.html", context)


LOBBY_POLL = "5s"  # how often an open history page asks whether the lobby changed


def lobby_live_context(request: HttpRequest) -> dict[str, Any]:
    """The lobby's lists: challenges to accept, mine (with a link to send), live games; and their version.

    ``lobby_version`` changes whenever a list gains or loses a game or one of its games changes (every
    change to a game bumps its ``version``): the page's poll sends it back and gets 204 while it holds.
    """
    player = request.user
    lists = [
        list(with_creator_rating(open_challenges(player))), list(with_creator_rating(challenges_for(player))),
        list(my_challenges(player)), list(live_games(player)),
    ]
    open_list, for_me, mine, live = lists

    def row(game: Game) -> dict[str, Any]:
        side = game.open_side() or "X"
        return {
            "game": game,
            "label": variant_label(game.variant),
            "detail": _variant_detail(game),
            "creator": game.created_by.get_username(),
            "creator_rating": round(game.creator_rating) if getattr(game, "creator_rating", None) else None,
            "their_side": "O" if side == "X" else "X",
            "your_side": side,
            "invitee": game.invitee.get_username() if game.invitee_id else "",
            "share_url": request.build_absolute_uri(reverse("games:detail", args=[game.pk])),
        }

    # ... and whenever one of this player's games against someone else moves on (the history's table)
    signature = repr([[[(g.pk, g.version) for g in games] for games in lists], my_games_mark(player)])
    return {
        "open_challenges": [row(g) for g in open_list],
        "challenges_for_me": [row(g) for g in for_me],
        "my_challenges": [row(g) for g in mine],
        "live_games": [
            {"game": g, "label": variant_label(g.variant), "x": g.seat_label("X"), "o": g.seat_label("O")}
            for g in live
        ],
        "lobby_version": hashlib.sha256(signature.encode()).hexdigest()[:16],
        "lobby_poll": LOBBY_POLL,
    }


def lobby_context(request: HttpRequest) -> dict[str, Any]:
    """The lobby above the history: its live lists and the form to challenge someone."""
    return {
        **lobby_live_context(request),
        "challenge_form": NewGameForm(initial={"opponent": "human"}, auto_id="challenge_%s"),
    }


@login_required
@require_safe
def my_turn(request: HttpRequest) -> HttpResponse:
    """The navigation's badges for their poll: 204 while ``n`` is still the number of games waiting for this
    player's move and ``c`` the number of challenges sent to them, else the badges. Opened as a page: the
    history's "Your turn" list."""
    if not request.htmx:
        return redirect(f"{reverse('games:history')}?result=your_turn")
    waiting = count_waiting(request.user)
    if request.GET.get("n") == str(waiting.moves) and request.GET.get("c") == str(waiting.challenges):
        return HttpResponse(status=204)
    return render(request, "games/partials/_my_turn.html", {"waiting": waiting})


@login_required
@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """The history page's lobby lists for its poll: 204 while ``v`` is still their version, else the lists."""
    if not request.htmx:
        return redirect("games:history")
    context = lobby_live_context(request)
    if request.GET.get("v") == context["lobby_version"]:
        return HttpResponse(status=204)
    # A challenge accepted, a game moved on: the badge of games waiting for this player and the history's
    # table ask again.
    response = trigger_client_event(render(request, "games/partials/_lobby_live.html", context), "my-turn")
    return trigger_client_event(response, "history-changed")


def history_row(game: Game, player) -> dict[str, Any]:
    """A row of the history (and of a profile's recent games): ``game`` from ``player``'s side."""
    sides = game.sides_of(player)
    if len(sides) == 1:
        me = sides[0]
        other = "O" if me == "X" else "X"
        opponent = game.seat_label(other)
        if game.status == Game.Status.OPEN and game.invitee_id:
            opponent = f"{game.invitee.get_username()} (invited)"
        if game.result == me:
            outcome = "Won"
        elif game.result == other:
            outcome = "Lost"
        elif game.result == Game.Result.DRAW:
            outcome = "Drawn"
        elif game.status == Game.Status.ACTIVE and game.is_two_players:
            outcome = "Your turn" if game.to_move == me else "Their turn"
        else:
            outcome = "In progress" if game.status == Game.Status.ACTIVE else "Waiting"
    else:
        me = "X and O" if sides else "watching"
        opponent = "two players, one screen" if sides else f"{game.seat_label('X')} vs {game.seat_label('O')}"
        # "Drawn", as in the player's own games; "X wins" says who did
        outcome = "Drawn" if game.result == Game.Result.DRAW else (
            game.result_text() or ("In progress" if game.status == Game.Status.ACTIVE else "Waiting")
        )
    return {
        "game": game,
        "label": variant_label(game.variant),
        "detail": _variant_detail(game),
        "side": me,
        "opponent": opponent,
        "outcome": outcome,
        "tone": outcome.split()[0].lower(),
        # a rated game: what it did to this player's rating ("+20", "−20")
        "rating_change": game.rating_change(sides[0]) if len(sides) == 1 else None,
    }


def _variant_detail(game: Game) -> str:
    opts = game.options or {}
    if game.variant == "nxn":
        return f"{opts.get('size')} x {opts.get('size')}"
    if game.variant == "mnk":
        return f"{opts.get('rows')} x {opts.get('cols')}, {opts.get('k')} in a row"
    if game.variant not in ("ultimate", "multi"):
        return ""
    # their options as the game page's heading (the engine's describe()) says them: "won boards closed"
    described = game_variant(game).describe()
    return described.split(", ", 1)[1] if ", " in described else ""
