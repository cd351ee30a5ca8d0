"""Slow computer work goes through the task queue: a request enqueues, a worker plays, exactly once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from games.management.commands.worker import mark_lost_tasks
from games.models import Game, Move
from games.services import computer_move, game_create, game_resign, move_play, move_takeback
from games.services.moves import SWEEP_GRACE, play_computer_turn, sweep_computer_turns
from games.services.queue import LOST_AFTER

pytestmark = pytest.mark.django_db


def run_tasks() -> list[str]:
    """Run every task that is ready, in this process, as a worker would; their return values."""
    from unittest import mock

    # the worker closes stale connections between tasks: not the test's own, which holds its transaction
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        _worker().run()
    return [row.return_value for row in DBTaskResult.objects.filter(status="SUCCESSFUL").order_by("finished_at")]


def _worker() -> Worker:
    return Worker(
        queue_names=["computer", "assist"], interval=0, batch=True, backend_name="default", startup_delay=False,
        max_tasks=None, worker_id="test", excluded_queue_names=[],
    )


def slow_game(player, **kwargs) -> Game:
    # mcts on ultimate: the hard level, about a second a move; a few iterations here
    return game_create(player=player, variant="ultimate", opponent="hard", strategy="mcts", **kwargs)


def test_a_move_against_a_slow_computer_answers_at_once_and_a_worker_replies(player, monkeypatch):
    game = slow_game(player)
    position = move_play(game=game, player=player, move=40, reply=True)
    assert position.moves == [40]  # the player's move alone: nobody thought inside the request
    task = DBTaskResult.objects.get()
    assert task.queue_name == "computer"
    assert task.args_kwargs["kwargs"] == {"game_id": game.pk, "version": 1, "player_id": player.pk}
    assert run_tasks() == ["played"]
    stored = Game.objects.get(pk=game.pk)
    assert stored.ply == 2 and Move.objects.filter(game=game).count() == 2


def test_duplicate_tasks_store_one_reply(player):
    game = slow_game(player)
    move_play(game=game, player=player, move=40)
    task = DBTaskResult.objects.get()
    task.pk = None  # the same task enqueued twice (a retry, a sweep that came early)
    task.save()
    assert sorted(run_tasks()) == ["played", "stale"]
    assert Move.objects.filter(game=game).count() == 2


@pytest.mark.parametrize("then", ["takeback", "resign"])
def test_a_task_whose_position_is_gone_does_nothing(player, then):
    game = game_create(player=player, variant="classic", opponent="hard", strategy="mcts")
    move_play(game=game, player=player, move=4)
    if then == "takeback":
        move_takeback(game=game, player=player)
    else:
        game_resign(game=game, player=player)
    assert run_tasks() == ["stale"]
    assert Move.objects.filter(game=game).count() == (0 if then == "takeback" else 1)


def test_a_quick_computer_still_replies_in_the_request(player):
    game = game_create(player=player, variant="classic", opponent="easy")
    position = move_play(game=game, player=player, move=4, quick_reply=True)
    assert len(position.moves) == 2 and not DBTaskResult.objects.exists()


def test_a_slow_computer_that_moves_first_is_enqueued_at_creation(player):
    game = slow_game(player, side="O")
    kwargs = DBTaskResult.objects.get().args_kwargs["kwargs"]
    assert kwargs == {"game_id": game.pk, "version": 0, "player_id": player.pk}
    assert run_tasks() == ["played"] and Game.objects.get(pk=game.pk).ply == 1


def test_a_watched_game_plays_itself_at_a_watchable_pace(player):
    game = game_create(player=player, variant="classic", opponent="watch", strategy="random")
    first = DBTaskResult.objects.get()
    assert first.run_after > timezone.now() + timedelta(seconds=0.5)  # not at once: people follow it
    assert play_computer_turn(game_id=game.pk, version=0) == "played"
    following = DBTaskResult.objects.exclude(pk=first.pk).get()
    assert following.args_kwargs["kwargs"] == {"game_id": game.pk, "version": 1, "player_id": player.pk}
    assert following.run_after > timezone.now() + timedelta(seconds=0.5)
    for version in range(1, 9):  # to the end, whoever opens the page
        if play_computer_turn(game_id=game.pk, version=version) != "played":
            break
    assert Game.objects.get(pk=game.pk).is_finished


def test_one_players_many_games_do_not_queue_another_players_move_behind_them(player, other_player, monkeypatch):
    """Issue 29: 16 moves against the hard computer queued by one player took another's reply from 1 s to 8 s, the
    workers taking turns oldest first. Now each player's turns wait their turn: the other player's one move is
    taken right after the first player's first, and every turn is still played once, in each player's order."""
    from games import services

    many = [slow_game(player) for _ in range(16)]
    for game in many:
        move_play(game=game, player=player, move=40)
    one = slow_game(other_player)
    move_play(game=one, player=other_player, move=40)
    order: list[int] = []

    def play(*, game_id: int, version: int) -> str:  # the worker's order, without a second of thought each
        order.append(game_id)
        return "played"

    monkeypatch.setattr(services.moves, "play_computer_turn", play)
    assert run_tasks() == ["played"] * 17
    assert order.index(one.pk) <= 1, order
    assert [pk for pk in order if pk != one.pk] == [game.pk for game in many]  # the player's own order kept


def test_a_players_turns_step_down_the_queue_and_a_swept_up_turn_waits_its_turn_too(player, other_player):
    games = [slow_game(player) for _ in range(3)]
    for game in games:
        move_play(game=game, player=player, move=40)
    assert [t.priority for t in DBTaskResult.objects.order_by("enqueued_at")] == [0, -1, -2]
    lost = DBTaskResult.objects.get(args_kwargs__kwargs__game_id=games[0].pk)
    lost.delete()  # lost between a commit and a crash: the sweep enqueues it again, behind the player's others
    Game.objects.filter(pk=games[0].pk).update(updated=timezone.now() - SWEEP_GRACE - timedelta(seconds=1))
    assert sweep_computer_turns() == 1
    assert DBTaskResult.objects.get(args_kwargs__kwargs__game_id=games[0].pk).priority == -2
    other = slow_game(other_player)
    move_play(game=other, player=other_player, move=40)
    assert DBTaskResult.objects.get(args_kwargs__kwargs__game_id=other.pk).priority == 0
    assert sorted(run_tasks()) == ["played"] * 4
    assert all(Game.objects.get(pk=game.pk).ply == 2 for game in [*games, other])  # no turn lost


def test_a_spectator_or_a_stranger_cannot_drive_a_computer(player, other_player):
    game = slow_game(player, side="O")
    from games.errors import NotSeated

    with pytest.raises(NotSeated):
        computer_move(game=game.pk, player=other_player)


def test_the_sweep_gives_a_waiting_game_a_task_and_replaces_a_lost_one(player):
    game = slow_game(player)
    move_play(game=game, player=player, move=40)
    task = DBTaskResult.objects.get()
    past = timezone.now() - SWEEP_GRACE - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(updated=past)
    assert sweep_computer_turns() == 0  # its task is still waiting in the queue
    # a worker took it, then was killed mid-thought: it stays "running" for ever
    DBTaskResult.objects.filter(pk=task.pk).update(status="RUNNING", started_at=timezone.now() - LOST_AFTER * 2)
    assert mark_lost_tasks() == 1 and sweep_computer_turns() == 1
    lost = DBTaskResult.objects.get(pk=task.pk)
    assert lost.status == "FAILED" and "stopped before it finished" in lost.traceback  # staff see it in the admin
    assert run_tasks() == ["played"] and Game.objects.get(pk=game.pk).ply == 2


def test_the_sweep_leaves_games_without_a_computer_to_move_alone(player, other_player):
    game = game_create(player=player, variant="classic", opponent="local")
    Game.objects.filter(pk=game.pk).update(updated=timezone.now() - timedelta(hours=1))
    assert sweep_computer_turns() == 0 and not DBTaskResult.objects.exists()


def test_a_slow_hint_is_worked_out_by_a_worker_once(player):
    from games.services import move_hint

    game = game_create(player=player, variant="ultimate", opponent="easy", strategy="random")
    assert move_hint(game=game, player=player)[1] is None
    assert move_hint(game=game.pk, player=player)[1] is None  # asked again: the same request, not a second
    assert DBTaskResult.objects.filter(queue_name="assist").count() == 1
    assert run_tasks() == ["hinted"]
    stored = Game.objects.get(pk=game.pk)
    assert stored.hints == 1 and stored.current_hint is not None
    assert move_hint(game=game.pk, player=player)[1] == stored.current_hint  # shown again, not counted again
    assert Game.objects.get(pk=game.pk).hints == 1


def test_one_slow_request_per_player_at_a_time(player):
    from games.edge.http_errors import http_error
    from games.errors import Busy
    from games.services import move_hint

    first = game_create(player=player, variant="ultimate", opponent="easy", strategy="random")
    second = game_create(player=player, variant="ultimate", opponent="easy", strategy="random")
    assert move_hint(game=first, player=player)[1] is None
    with pytest.raises(Busy, match="still working on your last request") as busy:
        move_hint(game=second, player=player)
    assert http_error(busy.value).status == 429 and busy.value.retry_after > 0
    assert DBTaskResult.objects.count() == 1  # nothing enqueued for the second
    run_tasks()
    assert move_hint(game=second, player=player)[1] is None  # free again


def test_a_hint_for_a_position_taken_back_is_not_stored(player):
    from games.services import move_hint

    game = game_create(player=player, variant="ultimate", opponent="easy", strategy="random")
    move_play(game=game, player=player, move=40, quick_reply=True)
    assert move_hint(game=game, player=player)[1] is None
    move_takeback(game=game, player=player)
    assert run_tasks() == ["stale"]
    assert Game.objects.get(pk=game.pk).hints == 0


def test_a_four_by_four_game_is_analysed_by_a_worker_when_it_ends(player):
    from games.services import game_analysis

    game = game_create(player=player, variant="four", opponent="local")
    for move in (0, 4, 1, 5, 2, 6, 3):  # X completes the top row
        move_play(game=game, player=player, move=move)
    finished = Game.objects.get(pk=game.pk)
    assert finished.is_finished and finished.analysis is None
    assert game_analysis(finished, player=player) is None  # being worked out: not a second task
    assert DBTaskResult.objects.filter(task_path="games.services.assists.analyse_game").count() == 1
    assert run_tasks() == ["analysed"]
    verdicts = game_analysis(Game.objects.get(pk=game.pk))
    assert [v.move for v in verdicts] == [0, 4, 1, 5, 2, 6, 3] and verdicts[-1].after == "win"


def test_classic_is_analysed_at_once(player):
    from games.services import game_analysis

    game = game_create(player=player, variant="classic", opponent="local")
    for move in (0, 3, 1, 4, 2):
        move_play(game=game, player=player, move=move)
    verdicts = game_analysis(Game.objects.get(pk=game.pk))
    assert len(verdicts) == 5 and not DBTaskResult.objects.exists()
    assert Game.objects.get(pk=game.pk).analysis is not None  # stored: not worked out again
