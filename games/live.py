"""What open pages hear of at once: the domain's side of the live push (the transport is the ``push`` app).

The services call ``changed(game)`` (or ``seeks_changed``, ``signed_out``) in the transaction of each change; the
notice goes out once it has committed, to the topics it concerns: ``game:<id>`` (the pages open on that game),
``player:<id>`` (that player's badges and lists), ``lobby`` (the lobby's lists) and ``arena:<id>`` (an arena's
standings). A page told that something
changed asks for its fragment through the usual views (the same version checks), so a notice carries nothing a
player could not see anyway, and a missed one costs nothing but speed.
"""

from __future__ import annotations

from push.publish import publish

from .models import Game, Opponent

LOBBY = "lobby"


def game_topic(pk: int) -> str:
    return f"game:{pk}"


def player_topic(pk: int) -> str:
    return f"player:{pk}"


def arena_topic(pk: int) -> str:
    return f"arena:{pk}"


def changed(game: Game, *, lobby: bool | None = None) -> None:
    """``game`` changed (or was deleted), in the caller's transaction: its pages hear of it, and for a game between
    people also its players' badges and the lobby. ``lobby``: override whether the lobby's lists change."""
    people = game.opponent == Opponent.HUMAN
    topics = [game_topic(game.pk)]
    if people:
        players = {game.x_player_id, game.o_player_id, game.invitee_id, game.created_by_id} - {None}
        topics += [player_topic(pk) for pk in players]
    if people if lobby is None else lobby:
        topics.append(LOBBY)
    publish(topics)


def arena_changed(arena_id: int, *player_ids: int) -> None:
    """An arena's standings or pairings changed (a join, a withdrawal, a pairing, a game's points, its end), in the
    caller's transaction: its pages hear it, and so do the players named (their next pairing's panel asks)."""
    publish([arena_topic(arena_id), *(player_topic(pk) for pk in player_ids)])


def seeks_changed(*player_ids: int) -> None:
    """Quick pairing's seeks changed (one made, cancelled, paired or dropped), in the caller's transaction: the
    lobby hears it, and so do the seekers' own pages."""
    publish([LOBBY, *(player_topic(pk) for pk in player_ids)])


def player_changed(player_id: int) -> None:
    """Something about the player changed (their account became a bot): their open pages and streams hear it."""
    publish([player_topic(player_id)])


def signed_out(player_id: int) -> None:
    """The player logged out: their other open pages hear it, ask for their badges, find no session and go to the
    login page (config.middleware), rather than showing a signed-out player's lists until their next poll."""
    publish([player_topic(player_id)])
