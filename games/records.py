"""Games as records (RULES.md "Game records", like chess's PGN): one game's text, and a player's games streamed.

Reads only: ``game_record`` writes one game with the engine's ``write_record``; ``records_stream`` yields the
records of a queryset a chunk at a time (``QuerySet.iterator``), the moves of a chunk read in one query where
the games' move-list caches do not already give them, so that ten thousand games never sit in memory at once.
The caller has chosen the games (the one loader for one game, ``selectors.game_history`` for a list): only
games the viewer may see.

A game started from a position (the analysis board, ``Game.start_position``) cannot be read from the
standard start: the engine writes its record from that start, with a ``Position`` tag (the start's position
string); the importer refuses such records with that reason (games.services.records).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import QuerySet

from .engine import RESULT_TOKENS, RecordError, clean_tag_value, is_tag_name, write_record
from .models import Game, Move
from .positions import current_moves, game_variant, initial_state

#: games per chunk of a streamed export: one query for the games, at most one for their moves
RECORDS_CHUNK = 200

#: tags an imported game keeps from its record and writes back (the rest the game row says itself)
OWN_TAGS = ("Variant", "Options", "FirstBoard", "Result", "X", "O", "Position")


def game_result(game: Game) -> str:
    """The game's result as a record's token (the engine's ``RESULT_TOKENS``), '*' for a game not finished (or
    an imported one that was not)."""
    winners = {Game.Result.X: "X", Game.Result.O: "O", Game.Result.DRAW: None}
    if not game.is_finished or game.result not in winners:
        return "*"
    return RESULT_TOKENS[winners[game.result]]


def termination(game: Game) -> str:
    """How a finished game ended, in the words of a Termination tag ("" while it goes on)."""
    if game.imported:
        return game.termination
    if not game.is_finished:
        return ""
    loser = {"X": "O", "O": "X"}.get(game.result, "")
    reason = game.result_reason
    if reason == Game.Reason.RESIGNED:
        return f"{loser} resigned"
    if reason == Game.Reason.ABANDONED:
        return f"{loser} abandoned the game (stopped playing)"
    if reason == Game.Reason.TIME:
        return f"{loser} lost on time"
    if reason:
        return game.get_result_reason_display()  # line completed, board full, draw agreed, decided by the staff
    return "ended before the board decided it"


def game_tags(game: Game, *, site: str = "") -> dict[str, str]:
    """The tags of ``game``'s record after Variant and Options: players, date, site, how it ended; an imported
    game's own tags (Date, Site, Clock, any other) as its record had them. Every value is one the reader takes
    back (``clean_tag_value``): a game stored before values were checked (a TAB or ESC in a name) still exports."""
    return {name: clean_tag_value(value) for name, value in _tags(game, site=site).items()}


def _tags(game: Game, *, site: str) -> dict[str, str]:
    tags = {"X": game.seat_label("X"), "O": game.seat_label("O")}
    for side in ("X", "O"):
        player = game.seat_player(side) if not game.imported and game.seat_player_id(side) is not None else None
        if getattr(player, "is_bot", False):  # a bot: its name, and its title beside it (as chess records do)
            tags[side] = player.get_username()
            tags[f"{side}Title"] = "BOT"
    if game.imported:
        kept = {
            name: str(value) for name, value in (game.record_tags or {}).items()
            if name not in OWN_TAGS and is_tag_name(name)
        }
        return tags | kept
    tags["Date"] = game.created.strftime("%Y.%m.%d") if game.created else ""
    if site:
        tags["Site"] = site
    if game.clock:
        tags["Clock"] = game.clock
    if game.start_position:
        tags["Position"] = game.start_position
    ended = termination(game)
    if ended:
        tags["Termination"] = ended
    return tags


def game_record(game: Game, moves: list[int] | None = None, *, site: str = "") -> str:
    """``game`` as a record (text ending with a newline); ``moves``: its moves if the caller has them (else read
    from the game's cache or its Move rows). Written by the engine's ``write_record``, from the game's start
    position when it has one."""
    if moves is None:
        moves = current_moves(game)
    tags = game_tags(game, site=site)
    token = game_result(game)
    variant = game_variant(game)
    start = {"start": initial_state(game)} if game.start_position else {"start_board": game.start_board}
    try:
        return write_record(variant, moves, result=token, tags=tags, **start)
    except RecordError:
        # a result the stored board does not back (a staff decision on a full board...): say so, never fail
        tags["Termination"] = tags.get("Termination") or "decided off the board"
    try:
        return write_record(variant, moves, result=token, tags=tags, **start)
    except RecordError:
        # the board decides otherwise than the stored result: the board's result, the stored one in words
        tags["Termination"] = f"{tags['Termination']}; the site's result is {token}"
        return write_record(variant, moves, result=None, tags=tags, **start)


def _cached_moves(game: Game) -> list[int] | None:
    """The moves from the row's move-list cache when it is exact (its length is the ply), else None."""
    text = game.move_list
    if not text:
        return [] if game.ply == 0 else None
    try:
        moves = [int(m) for m in text.split(",")]
    except ValueError:
        return None
    return moves if len(moves) == game.ply else None


def _chunk_records(games: list[Game], site: str) -> Iterator[str]:
    moves = {game.pk: _cached_moves(game) for game in games}
    missing = [pk for pk, found in moves.items() if found is None]
    if missing:  # one query for the chunk's games whose cache is stale
        for pk in missing:
            moves[pk] = []
        rows = Move.objects.filter(game_id__in=missing).order_by("game_id", "ply").values_list("game_id", "move")
        for pk, move in rows:
            moves[pk].append(move)
    for game in games:
        try:
            yield game_record(game, moves[game.pk], site=site) + "\n"
        except RecordError as err:  # a game whose stored moves the engine refuses: said, and the download goes on
            yield f"{{game {game.pk} cannot be written as a record: {str(err).replace('}', ')')}}}\n\n"


def records_stream(games: QuerySet[Game], *, site: str = "", chunk_size: int = RECORDS_CHUNK) -> Iterator[str]:
    """The records of ``games``, one after another with a blank line between them (``read_records`` reads the
    whole text back), a chunk of ``chunk_size`` games at a time."""
    batch: list[Game] = []
    for game in games.iterator(chunk_size=chunk_size):
        batch.append(game)
        if len(batch) >= chunk_size:
            yield from _chunk_records(batch, site)
            batch = []
    if batch:
        yield from _chunk_records(batch, site)
