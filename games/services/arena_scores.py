"""An arena game has ended: its points go to its two players' standings (``games.arena.scoring`` is the rule).

Called in the transaction that ends the game, with the game row locked, by every way a game ends: a move that
finishes it (``moves``), a resignation, a flag, a claim, a staff decision or the arena's end (``endings.end_game``)
and an abort (``timekeeping.abort``: no result, worth nothing). The pairing row is counted once (``counted``), and
each player is freed (``current_game`` cleared) in the same transaction, so the next pairing sees them free exactly
when the game is over. It imports nothing that starts games, so the services that end games can import it.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from ..arena.scoring import Outcome, score
from ..live import arena_changed
from ..models import ArenaPairing, ArenaPlayer, Game


def outcome_for(game: Game, side: str) -> Outcome:
    """A finished game's outcome for ``side``: "win", "draw", "loss", or "none" (aborted: no result)."""
    if game.result == Game.Result.DRAW:
        return "draw"
    if game.result in ("X", "O"):
        return "win" if game.result == side else "loss"
    return "none"


def own_moves(game: Game, side: str) -> int:
    """Moves ``side`` made in ``game`` (arena games start from the empty board, X first)."""
    return (game.ply + 1) // 2 if side == "X" else game.ply // 2


def arena_game_over(locked: Game, *, now: datetime | None = None) -> None:
    """``locked`` (an ended game, its row locked, in the caller's transaction) counts in its arena, if it is an
    arena game not yet counted: each player's points, streak and games, and both are free to be paired again."""
    if locked.arena_id is None:
        return
    # the pairing's row alone (of=self): locking the arena's too would queue every game's end behind the pairing
    pairing = (ArenaPairing.objects.select_for_update(of=("self",)).filter(game_id=locked.pk, counted__isnull=True)
               .order_by("pk").first())
    if pairing is None:
        return
    now = now or timezone.now()
    entries = {
        entry.pk: entry
        for entry in ArenaPlayer.objects.select_for_update()
        .filter(pk__in=(pairing.x_entry_id, pairing.o_entry_id))
        .order_by("pk")
    }
    x_entry, o_entry = entries[pairing.x_entry_id], entries[pairing.o_entry_id]
    for side, entry, other in (("X", x_entry, o_entry), ("O", o_entry, x_entry)):
        outcome = outcome_for(locked, side)
        scored = score(
            outcome, streak=entry.streak, berserk=pairing.berserk_of(side), own_moves=own_moves(locked, side)
        )
        entry.score += scored.points
        entry.streak = scored.streak
        if outcome != "none":
            entry.games += 1
            entry.wins += outcome == "win"
        entry.last_opponent_id = other.player_id
        if entry.current_game_id == locked.pk:
            entry.current_game = None
            entry.free_since = now
            entry.seen = max(entry.seen, now)  # they were playing until now: present
        entry.save(update_fields=[
            "score", "streak", "games", "wins", "last_opponent", "current_game", "free_since", "seen",
        ])
        setattr(pairing, f"{side.lower()}_points", scored.points)
    pairing.counted = now
    pairing.save(update_fields=["x_points", "o_points", "counted"])
    arena_changed(locked.arena_id, x_entry.player_id, o_entry.player_id)
