"""Every change to a game, one module per concern (HackSoft's "services write"):

- ``create``: starting games (against the computer, on one screen, watched, challenges, again, from a position);
- ``moves``: a player's move and the computer's;
- ``endings``: resigning, claiming a win, a result decided by the staff;
- ``ratings``: ratings noted at the start and moved at the end of a game between two players;
- ``offers``: draw and rematch offers between two players;
- ``challenges``: accepting, cancelling and declining challenges;
- ``assists``: takebacks and hints in games without another person, a finished game's analysis;
- ``timekeeping``: the server's clocks between people (charging moves, flags, the sweep) and aborting a game;
- ``bots``: an account becoming a bot, challenges a bot leaves unanswered (taken as declined);
- ``seeks``: quick pairing (a seek, its pings, the pairing itself, cancelling, playing someone's seek);
- ``records``: a game record imported as a game, a new game from a position string (the analysis board);
- ``arenas``, ``arena_pairing``, ``arena_scores``: arena tournaments (making, joining, withdrawing, pings, berserk,
  the site's schedule; pairing and the end, in the workers; a game's points when it ends);
- ``puzzles``: puzzles cut from analysed games, served near the player's puzzle rating, each try a rated game;
- ``computer`` and ``common``: which strategy sits on a seat, the row lock;
- ``queue``: the task queue as the services use it (each task is defined beside the service it runs:
  ``moves.computer_turn``, ``assists.hint_for``, ``assists.analyse_game``, ``assists.evaluate_position``).

Every function takes keyword-only arguments and writes inside ``transaction.atomic``, so two simultaneous
changes to one game never both apply: most lock the game row (``select_for_update``) before reading it, moves
record by a compare-and-set on the game's version. Refusals are ``games.errors`` (ValueErrors with a message
for people); reads live in ``games.selectors`` and ``games.positions``.

The names below are the public face: ``from games.services import move_play``.
"""

from __future__ import annotations

from .arena_pairing import end_arena, pair_arena, sweep_arenas
from .arenas import arena_berserk, arena_create, arena_join, arena_ping, arena_withdraw, schedule_arenas
from .assists import game_analysis, mistakes_by_side, move_hint, move_takeback
from .bots import bot_upgrade, sweep_bot_challenges
from .challenges import challenge_accept, challenge_cancel, challenge_decline
from .computer import answers_at_once, seat_strategy
from .create import challenge_create, computer_opening, game_again, game_create, game_from_position
from .endings import game_claim_win, game_decide, game_resign
from .moves import ask_computer, computer_move, move_play
from .offers import draw_accept, draw_decline, draw_offer, rematch_accept, rematch_decline, rematch_offer
from .puzzles import cut_puzzles, puzzle_hint, puzzle_move, puzzle_next, puzzles_enable
from .records import game_from_position_string, game_import
from .seeks import seek_accept, seek_cancel, seek_create, seek_ping, sweep_seeks
from .timekeeping import can_abort, game_abort, settled, sweep_clocks, sweep_idle_games

__all__ = [
    "answers_at_once",
    "arena_berserk",
    "arena_create",
    "arena_join",
    "arena_ping",
    "arena_withdraw",
    "end_arena",
    "pair_arena",
    "schedule_arenas",
    "sweep_arenas",
    "can_abort",
    "ask_computer",
    "bot_upgrade",
    "challenge_accept",
    "challenge_cancel",
    "challenge_create",
    "challenge_decline",
    "computer_move",
    "cut_puzzles",
    "computer_opening",
    "draw_accept",
    "draw_decline",
    "draw_offer",
    "game_abort",
    "game_again",
    "game_analysis",
    "game_claim_win",
    "game_create",
    "game_decide",
    "game_from_position",
    "game_from_position_string",
    "game_import",
    "game_resign",
    "mistakes_by_side",
    "move_hint",
    "move_play",
    "move_takeback",
    "puzzle_hint",
    "puzzle_move",
    "puzzle_next",
    "puzzles_enable",
    "rematch_accept",
    "rematch_decline",
    "rematch_offer",
    "seat_strategy",
    "seek_accept",
    "seek_cancel",
    "seek_create",
    "seek_ping",
    "settled",
    "sweep_bot_challenges",
    "sweep_clocks",
    "sweep_idle_games",
    "sweep_seeks",
]
