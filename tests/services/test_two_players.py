"""Two people playing each other (issue 4): challenges, refusals, private games, spectators, live poll, rematch.

Services first (the rules), then the pages (only your own controls; the poll answers 204 while nothing
changed), then the JSON API over the same services.
"""

from __future__ import annotations

import pytest

from games.edge.http_errors import http_error
from games.errors import (
    ChallengeGone,
    ChallengeTaken,
    GameFinished,
    InvalidGameSettings,
    NotCreator,
    NotInvited,
    NotSeated,
    NotYourTurn,
    OwnChallenge,
    RematchRefused,
)
from games.models import Game, Move
from games.services import (
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    computer_move,
    game_resign,
    move_play,
    rematch_accept,
    rematch_decline,
    rematch_offer,
)


def finish(game: Game, x, o) -> Game:
    """X wins along the top row."""
    for move, who in ((0, x), (3, o), (1, x), (4, o), (2, x)):
        move_play(game=game, player=who, move=move)
    game.refresh_from_db()
    return game


def version(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def test_open_challenge_waits_then_starts_when_accepted(player, other_player):
    game = challenge_create(player=player, variant="nxn", options={"size": 4}, side="O")
    assert game.status == Game.Status.OPEN and game.open_side() == "X"
    assert game.private is False and game.invitee is None and game.opponent == "human"
    accepted = challenge_accept(game=game, player=other_player)
    assert accepted.status == Game.Status.ACTIVE
    assert accepted.x_player == other_player and accepted.o_player == player
    assert accepted.version == game.version + 1
    move_play(game=accepted, player=other_player, move=5)  # X moves first


def test_random_side_is_drawn_at_creation(player):
    sides = {challenge_create(player=player, variant="classic", side="random", seed=s).sides_of(player)[0]
             for s in range(12)}
    assert sides == {"X", "O"}


def test_accepting_your_own_challenge_is_refused(player):
    game = challenge_create(player=player, variant="classic")
    with pytest.raises(OwnChallenge) as err:
        challenge_accept(game=game, player=player)
    assert http_error(err.value).status == 400
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.is_open_seat("O")


def test_direct_challenge_only_for_its_invitee(player, other_player, third_player):
    game = challenge_create(player=player, variant="classic", invitee="BOB")  # usernames match case-insensitively
    assert game.invitee == other_player and game.private is True  # direct challenges default to private
    with pytest.raises(NotInvited) as err:
        challenge_accept(game=game, player=third_player)
    assert http_error(err.value).status == 403
    assert challenge_accept(game=game, player=other_player).o_player == other_player


def test_direct_challenge_can_be_public(player, other_player):
    game = challenge_create(player=player, variant="classic", invitee=other_player, private=False)
    assert game.private is False


@pytest.mark.parametrize("invitee", ["nobody", "alice", "x" * 200, "a\x00b"])
def test_direct_challenge_to_unknown_or_self_is_refused(player, invitee):
    with pytest.raises(InvalidGameSettings):
        challenge_create(player=player, variant="classic", invitee=invitee)
    assert not Game.objects.exists()


def test_inactive_player_cannot_be_challenged(player, make_player):
    make_player("gone", is_active=False)
    with pytest.raises(InvalidGameSettings):
        challenge_create(player=player, variant="classic", invitee="gone")


def test_invite_only_for_human_opponents(make_game, other_player):
    with pytest.raises(InvalidGameSettings):
        make_game(opponent="easy", invitee=other_player)


def test_accepting_twice_second_gets_taken(player, other_player, third_player):
    game = challenge_create(player=player, variant="classic")
    challenge_accept(game=game, player=other_player)
    with pytest.raises(ChallengeTaken) as err:
        challenge_accept(game=game, player=third_player)
    assert http_error(err.value).status == 409
    game.refresh_from_db()
    assert game.o_player == other_player


def test_cancel_only_by_creator_only_while_open(player, other_player):
    game = challenge_create(player=player, variant="classic")
    with pytest.raises(NotCreator):
        challenge_cancel(game=game, player=other_player)
    assert Game.objects.filter(pk=game.pk).exists()
    challenge_cancel(game=game, player=player)
    assert not Game.objects.filter(pk=game.pk).exists()
    with pytest.raises(ChallengeGone):
        challenge_accept(game=game, player=other_player)


def test_a_challenge_sent_by_name_may_be_declined_by_its_player_only(player, other_player, third_player):
    game = challenge_create(player=player, variant="classic", invitee=other_player)
    for who in (player, third_player):  # its maker cancels instead; nobody else has a say
        with pytest.raises(NotInvited, match="only the player this challenge was sent to can decline it"):
            challenge_decline(game=game, player=who)
    challenge_decline(game=game, player=other_player)
    assert not Game.objects.filter(pk=game.pk).exists()
    with pytest.raises(ChallengeGone):
        challenge_decline(game=game, player=other_player)
    open_one = challenge_create(player=player, variant="classic")
    with pytest.raises(NotInvited):  # an open challenge is simply left alone
        challenge_decline(game=open_one, player=other_player)
    taken = challenge_accept(game=challenge_create(player=player, variant="classic", invitee=other_player),
                             player=other_player)
    with pytest.raises(ChallengeTaken, match="resign instead"):
        challenge_decline(game=taken, player=other_player)


def test_cancel_after_acceptance_is_refused(duel, player):
    with pytest.raises(ChallengeTaken):
        challenge_cancel(game=duel, player=player)


def test_only_the_player_to_move_may_move(duel, player, other_player, third_player):
    with pytest.raises(NotYourTurn):
        move_play(game=duel, player=other_player, move=0)  # O before X
    with pytest.raises(NotSeated):
        move_play(game=duel, player=third_player, move=0)  # a spectator
    move_play(game=duel, player=player, move=0)
    with pytest.raises(NotYourTurn):
        move_play(game=duel, player=player, move=1)  # X twice
    assert list(Move.objects.values_list("move", flat=True)) == [0]


def test_resign_only_your_own_game(duel, player, other_player, third_player):
    with pytest.raises(NotSeated):
        game_resign(game=duel, player=third_player)
    game = game_resign(game=duel, player=other_player)  # O resigns (not on move): X wins
    assert game.result == "X" and game.result_reason == "resigned"
    with pytest.raises(GameFinished):
        game_resign(game=duel, player=player)


def test_spectator_cannot_drive_the_computer(make_game, other_player):
    game = make_game(opponent="watch", strategy="random")
    with pytest.raises(NotSeated):
        computer_move(game=game, player=other_player)
    assert computer_move(game=game).game.ply == 1  # the creator's page (or the CLI) may


def test_every_change_bumps_the_version(player, other_player):
    game = challenge_create(player=player, variant="classic")
    seen = [version(game)]
    challenge_accept(game=game, player=other_player)
    seen.append(version(game))
    move_play(game=game, player=player, move=4)
    seen.append(version(game))
    game_resign(game=game, player=other_player)
    seen.append(version(game))
    rematch_offer(game=game, player=player)
    seen.append(version(game))
    rematch_decline(game=game, player=other_player)
    seen.append(version(game))
    assert seen == sorted(set(seen)), seen


def test_rematch_offer_accept_swaps_sides(duel, player, other_player):
    game = finish(duel, player, other_player)
    assert rematch_offer(game=game, player=player) is None
    game.refresh_from_db()
    assert game.rematch_offered_by == player
    with pytest.raises(RematchRefused):
        rematch_accept(game=game, player=player)  # your own offer
    new = rematch_accept(game=game, player=other_player)
    assert new.x_player == other_player and new.o_player == player  # swapped
    assert new.status == Game.Status.ACTIVE and new.variant == game.variant and new.rematch_of == game
    game.refresh_from_db()
    assert game.rematch == new and game.rematch_offered_by is None
    with pytest.raises(RematchRefused):
        rematch_offer(game=game, player=player)  # only one rematch per game


def test_both_offering_agrees(duel, player, other_player):
    game = finish(duel, player, other_player)
    rematch_offer(game=game, player=other_player)
    new = rematch_offer(game=game, player=player)
    assert new is not None and new.rematch_of_id == game.pk


def test_rematch_refusals(duel, player, other_player, third_player, make_game):
    with pytest.raises(RematchRefused):
        rematch_offer(game=duel, player=player)  # not over
    game = finish(duel, player, other_player)
    with pytest.raises(NotSeated):
        rematch_offer(game=game, player=third_player)
    with pytest.raises(RematchRefused):
        rematch_accept(game=game, player=other_player)  # nothing offered
    with pytest.raises(RematchRefused):
        rematch_decline(game=game, player=other_player)
    vs_computer = make_game(opponent="easy", strategy="random")
    game_resign(game=vs_computer, player=player)
    with pytest.raises(RematchRefused):
        rematch_offer(game=vs_computer, player=player)


def test_rematch_decline_and_withdraw(duel, player, other_player):
    game = finish(duel, player, other_player)
    rematch_offer(game=game, player=player)
    rematch_decline(game=game, player=player)  # withdrawn
    game.refresh_from_db()
    assert game.rematch_offered_by is None
    assert not game.rematch_declined  # withdrawing is not declining
    rematch_offer(game=game, player=player)
    declined = rematch_decline(game=game, player=other_player)
    assert declined.rematch_offered_by == player and declined.rematch_declined


def test_declined_rematch_cannot_be_pressed_by_the_offerer(duel, player, other_player):
    game = finish(duel, player, other_player)
    rematch_offer(game=game, player=player)
    rematch_decline(game=game, player=other_player)
    before = version(game)
    # alice may not ask again, nor withdraw the answer away; bob cannot accept or decline what he declined
    for call, who, words in (
        (rematch_offer, player, "your opponent declined the rematch"),
        (rematch_decline, player, "already been declined"),
        (rematch_decline, other_player, "already been declined"),
        (rematch_accept, other_player, "has been declined"),
    ):
        with pytest.raises(RematchRefused, match=words):
            call(game=game, player=who)
    game.refresh_from_db()
    assert version(game) == before and game.rematch_declined and game.rematch_offered_by == player


def test_the_player_who_declined_may_offer_after_all(duel, player, other_player):
    game = finish(duel, player, other_player)
    rematch_offer(game=game, player=player)
    rematch_decline(game=game, player=other_player)
    assert rematch_offer(game=game, player=other_player) is None  # a new offer, not an agreement
    game.refresh_from_db()
    assert game.rematch_offered_by == other_player and not game.rematch_declined
    new = rematch_accept(game=game, player=player)
    game.refresh_from_db()
    assert new.rematch_of == game and not game.rematch_declined and game.rematch_offered_by is None
