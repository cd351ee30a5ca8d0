"""Draw offers between two players: the services' rules, the game page's controls and the JSON API."""

from __future__ import annotations

import pytest

from games.errors import DrawRefused, GameFinished, NotSeated
from games.models import Game
from games.services import draw_accept, draw_decline, draw_offer, game_resign, move_play


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_offer_then_accept_ends_the_game_drawn(duel, player, other_player):
    move_play(game=duel, player=player, move=4)
    before = fresh(duel).version
    offered = draw_offer(game=duel, player=player)
    assert offered.draw_offered_by_id == player.pk and offered.draw_offer_ply == 1
    assert offered.version == before + 1  # the opponent's poll picks the offer up
    draw_offer(game=duel, player=player)  # offering again changes nothing
    assert fresh(duel).version == before + 1

    game = draw_accept(game=duel, player=other_player)
    assert game.status == Game.Status.FINISHED
    assert (game.result, game.result_reason) == (Game.Result.DRAW, Game.Reason.AGREED)
    assert game.result_text() == "Draw (agreed)" and game.draw_offered_by_id is None
    assert fresh(duel).finished is not None
    with pytest.raises(GameFinished):
        move_play(game=duel, player=other_player, move=0)


def test_two_offers_agree(duel, player, other_player):
    draw_offer(game=duel, player=player)
    game = draw_offer(game=duel, player=other_player)
    assert game.is_finished and game.result_reason == Game.Reason.AGREED


def test_decline_and_withdraw_keep_the_game_going(duel, player, other_player):
    draw_offer(game=duel, player=player)
    game = draw_decline(game=duel, player=other_player)
    assert game.status == Game.Status.ACTIVE and game.draw_offered_by_id is None
    # Declined: no new offer, by either player, before the next move.
    for who in (player, other_player):
        with pytest.raises(DrawRefused, match="after the next move"):
            draw_offer(game=duel, player=who)
    move_play(game=duel, player=player, move=0)
    draw_offer(game=duel, player=other_player)
    game = draw_decline(game=duel, player=other_player)  # the one who offered withdraws it
    assert game.draw_offered_by_id is None and game.status == Game.Status.ACTIVE
    # A withdrawn offer declined nothing: the other player may offer at once (and the offer may be taken).
    assert draw_offer(game=duel, player=player).draw_offered_by_id == player.pk
    assert draw_offer(game=duel, player=other_player).result == Game.Result.DRAW


def test_a_move_by_the_other_player_declines_the_offer(duel, player, other_player):
    draw_offer(game=duel, player=player)  # alice offers on her own turn, then moves: it stands
    move_play(game=duel, player=player, move=4)
    assert fresh(duel).draw_offered_by_id == player.pk
    move_play(game=duel, player=other_player, move=0)  # bob plays on instead of answering
    game = fresh(duel)
    assert game.draw_offered_by_id is None and game.status == Game.Status.ACTIVE
    draw_offer(game=duel, player=other_player)  # a move was made: offers are open again


def test_the_end_of_the_game_clears_an_offer(duel, player, other_player):
    draw_offer(game=duel, player=player)
    game = game_resign(game=duel, player=other_player)
    assert game.draw_offered_by_id is None and game.result == "X"


@pytest.mark.parametrize(
    ("who", "error"),
    [("stranger", NotSeated), ("local", DrawRefused), ("computer", DrawRefused)],
)
def test_refusals(make_player, make_game, duel, who, error, player):
    if who == "stranger":
        game, by = duel, make_player("carol")
    elif who == "local":
        game, by = make_game(opponent="local"), player
    else:
        game, by = make_game(opponent="easy"), player
    with pytest.raises(error):
        draw_offer(game=game, player=by)
    assert fresh(game).draw_offered_by_id is None and fresh(game).status == Game.Status.ACTIVE


def test_nothing_to_accept_or_your_own_offer(duel, player, other_player):
    with pytest.raises(DrawRefused, match="no draw"):
        draw_accept(game=duel, player=other_player)
    with pytest.raises(DrawRefused, match="no draw"):
        draw_decline(game=duel, player=other_player)
    draw_offer(game=duel, player=player)
    with pytest.raises(DrawRefused, match="your opponent has to accept"):
        draw_accept(game=duel, player=player)
    assert fresh(duel).status == Game.Status.ACTIVE
