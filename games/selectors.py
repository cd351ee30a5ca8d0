"""Read-only queries over games: who may see a game, a player's history, per-variant stats, ratings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Case, Count, F, Func, Max, OuterRef, Q, QuerySet, Subquery, Sum, Value, When, Window
from django.db.models.functions import Coalesce, Mod, NullIf, RowNumber

from .engine import VARIANTS
from .errors import GameNotFound
from .models import LEVELS, ChallengeEnd, Game, Opponent, Rating, Seek
from .rating.matchmaking import SEEK_TTL

#: history filter on the result from the player's point of view
RESULT_FILTERS = {
    "won": "Won",
    "lost": "Lost",
    "drawn": "Drawn",
    "unfinished": "Not finished",
    "your_turn": "Your turn",
}


def variant_label(key: str) -> str:
    cls = VARIANTS.get(key)
    return cls.title if cls is not None else key


def _involves(player) -> Q:
    return Q(x_player=player) | Q(o_player=player) | Q(created_by=player)


def can_view(game: Game, player) -> bool:
    """The one rule for who may open a game (pages, polls and the API all ask it).

    Its players, its creator and the invitee of a direct challenge always; anyone else signed in
    only when the game is public (``private`` False): spectators watch read-only.
    """
    if not getattr(player, "is_authenticated", True):
        return False
    return is_involved(game, player) or not game.private


def is_involved(game: Game, player) -> bool:
    """Seated, creator or invitee: someone the game belongs to rather than a spectator."""
    pid = getattr(player, "pk", None)
    return pid is not None and pid in (game.x_player_id, game.o_player_id, game.created_by_id, game.invitee_id)


# Loading one game --------------------------------------------------------------------------------


#: the largest id a game can have (a 64-bit key): anything larger is no game, not an overflow
MAX_ID = 2**63 - 1
#: what a missing game is refused with, whatever the reason (never was, cancelled or declined meanwhile, or one this
#: viewer may not see: the three look the same from outside)
NOT_FOUND = "no such game (it may have been cancelled or declined)"


def game_for_viewer(
    game: Game | int, viewer, *, visible_only: bool = True, for_update: bool = False, fields: Sequence[str] = (),
) -> Game:
    """The one loader of a game: ``game`` (a Game or its id) as stored now, with its players; GameNotFound when there
    is none or ``viewer`` may not see it. Pages, polls, the API and the services all load a game through it.

    - ``visible_only=False``: also a game ``viewer`` may not see (the services, which refuse by seat in their own
      words, and the workers);
    - ``for_update``: the row locked until the transaction ends (a service about to change it), its players read
      in the same query;
    - ``fields``: only these columns, and no players (the poll's cheap look).

    Otherwise the players are attached as ``attach_players`` does (the viewer's own object where it is them)."""
    pk = game.pk if isinstance(game, Game) else game
    if not isinstance(pk, int) or isinstance(pk, bool) or not 1 <= pk <= MAX_ID:
        raise GameNotFound(NOT_FOUND)
    games = Game.objects.all()
    if for_update:
        games = games.select_for_update(of=("self",)).select_related("x_player", "o_player", "created_by", "invitee")
    if fields:
        games = games.only(*fields)
    row = games.filter(pk=pk).first()
    if row is None or (visible_only and not can_view(row, viewer)):
        raise GameNotFound(NOT_FOUND)
    if not for_update and not fields:
        attach_players(row, viewer)
    return row


def attach_players(game: Game, player) -> None:
    """Fill the game's player relations (seats, creator, invitee): ``player`` (the one asking) where it is
    that person (the request's own object), the others read by their ids."""
    pid = getattr(player, "pk", None)
    found: dict[int, Any] = {pid: player} if pid is not None else {}
    for name in ("x_player", "o_player", "created_by", "invitee"):
        other = getattr(game, f"{name}_id")
        if other is None:
            continue
        if other not in found:
            found[other] = get_user_model().objects.filter(pk=other).first()
        if found[other] is not None:
            setattr(game, name, found[other])



def claim_win_after(game: Game) -> datetime | None:
    """When the player waiting in a running two-player game may claim the win (None for other games); games from
    before ``turn_started`` count from their last change. Not in a game with a clock: there the clock decides
    (services.timekeeping), and a correspondence game's days per move may be longer than this."""
    if not game.is_two_players or game.status != Game.Status.ACTIVE or game.clock:
        return None
    return (game.turn_started or game.updated) + settings.GAME_ABANDON_AFTER


def rematch_id(game: Game) -> int | None:
    """The rematch of a finished game between two players, if one was agreed (the pages and the API ask it)."""
    if not game.is_finished or not game.is_two_players:
        return None
    return Game.objects.filter(rematch_of_id=game.pk).values_list("pk", flat=True).first()


# The lobby -------------------------------------------------------------------------------------

LOBBY_LIMIT = 50


def _lobby_qs() -> QuerySet[Game]:
    return Game.objects.filter(status=Game.Status.OPEN).select_related("x_player", "o_player", "created_by", "invitee")


def open_challenges(player) -> QuerySet[Game]:
    """Public open challenges of other players that anyone may accept, newest first."""
    return (
        _lobby_qs().filter(private=False, invitee__isnull=True).exclude(created_by=player)
        .order_by("-created", "-id")[:LOBBY_LIMIT]
    )


def challenges_for(player) -> QuerySet[Game]:
    """Direct challenges sent to ``player`` and still open (public or private)."""
    return _lobby_qs().filter(invitee=player).order_by("-created", "-id")[:LOBBY_LIMIT]


def my_challenges(player) -> QuerySet[Game]:
    """``player``'s own challenges nobody has accepted yet."""
    return _lobby_qs().filter(created_by=player).order_by("-created", "-id")[:LOBBY_LIMIT]


def live_games(player, limit: int = 10) -> QuerySet[Game]:
    """Public games between two players in progress, which ``player`` does not play in: to watch."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, private=False, opponent="human")
        .exclude(x_player=player).exclude(o_player=player)
        .select_related("x_player", "o_player", "created_by")
        .order_by("-updated", "-id")[:limit]
    )


def games_visible_to(player) -> QuerySet[Game]:
    return Game.objects.filter(_involves(player)).select_related("x_player", "o_player", "created_by", "invitee")


def _as_x_only(player) -> Q:
    return Q(x_player=player) & ~Q(o_player=player)


def _as_o_only(player) -> Q:
    return Q(o_player=player) & ~Q(x_player=player)


def _won(player) -> Q:
    return (_as_x_only(player) & Q(result="X")) | (_as_o_only(player) & Q(result="O"))


def _lost(player) -> Q:
    return (_as_x_only(player) & Q(result="O")) | (_as_o_only(player) & Q(result="X"))


def game_history(player, *, variant: str | None = None, result: str | None = None) -> QuerySet[Game]:
    """Games ``player`` played, created or watched, newest first; optional filters. Aborted games (ended without
    a result before the first moves, or left against the computer for a day: games.services.timekeeping) are not
    among them: they still open by their address.

    ``result``: won / lost / drawn / unfinished, from the player's side (won and lost need the
    player on exactly one side); your_turn: games against other players waiting for this player's move.
    """
    qs = games_visible_to(player).exclude(result_reason=Game.Reason.ABORTED)
    if variant:
        qs = qs.filter(variant=variant)
    if result == "won":
        qs = qs.filter(_won(player))
    elif result == "lost":
        qs = qs.filter(_lost(player))
    elif result == "drawn":
        qs = qs.filter(result=Game.Result.DRAW)
    elif result == "unfinished":
        qs = qs.exclude(status=Game.Status.FINISHED)
    elif result == "your_turn":
        qs = qs.filter(pk__in=games_to_move(player).values("pk"))
    return qs.order_by("-created", "-id")


def my_games_mark(player) -> tuple[Any, ...]:
    """What changes whenever one of ``player``'s running games against another person changes (a move, its
    end, a new one): their number, the sum of their versions and the latest change. One query."""
    mark = Game.objects.filter(
        _involves(player), opponent=Opponent.HUMAN, status=Game.Status.ACTIVE
    ).aggregate(n=Count("id"), versions=Sum("version"), latest=Max("updated"))
    return mark["n"], mark["versions"], mark["latest"]


def recent_games(player, *, viewer, limit: int = 10) -> list[Game]:
    """The latest finished games in which ``player`` held a seat that ``viewer`` may open (``can_view``:
    public games, and private ones the viewer took part in), newest first."""
    qs = Game.objects.filter(Q(x_player=player) | Q(o_player=player), status=Game.Status.FINISHED).exclude(
        result_reason=Game.Reason.ABORTED
    )
    if viewer.pk != player.pk:
        qs = qs.filter(Q(private=False) | _involves(viewer) | Q(invitee=viewer))
    return list(qs.select_related("x_player", "o_player").order_by("-finished", "-pk")[:limit])


_ALL = Q()  # an empty condition: no filter


def _tally(player, among: Q = _ALL) -> dict[str, Count]:
    """played / won / lost / drawn counts of ``player``'s one-seat games (``among`` them only)."""
    return {
        "played": Count("id", filter=among),
        "won": Count("id", filter=_won(player) & among),
        "lost": Count("id", filter=_lost(player) & among),
        "drawn": Count("id", filter=Q(result=Game.Result.DRAW) & among),
    }


def player_stats(player) -> list[dict[str, Any]]:
    """Finished games where ``player`` held exactly one seat, per variant (in the engine's order).

    Each row: ``variant`` (key), ``label``, ``played``, ``won``, ``lost``, ``drawn`` (all those games), and
    ``players``: the same four counts for the games against other players only. Local games (both seats)
    and watched games count for nobody. Ratings are per pool: ``player_ratings``. One query.
    """
    one_seat = _as_x_only(player) | _as_o_only(player)
    human = Q(opponent=Opponent.HUMAN)
    rows = (
        Game.objects.filter(one_seat, status=Game.Status.FINISHED)
        .exclude(result_reason=Game.Reason.ABORTED)
        .order_by()
        .values("variant")
        .annotate(**_tally(player), **{f"players_{k}": v for k, v in _tally(player, human).items()})
    )
    order = {key: i for i, key in enumerate(VARIANTS)}
    result = [
        {
            "variant": row["variant"],
            "label": variant_label(row["variant"]),
            "played": row["played"],
            "won": row["won"],
            "lost": row["lost"],
            "drawn": row["drawn"],
            "players": {key: row[f"players_{key}"] for key in ("played", "won", "lost", "drawn")},
        }
        for row in rows
    ]
    result.sort(key=lambda row: order.get(row["variant"], len(order)))
    return result


def player_ratings(player) -> list[Rating]:
    """``player``'s ratings, one per pool they have a rated game in: most games first, then by pool key (each row
    has ``label``, ``display`` and ``provisional``). One query."""
    return list(Rating.objects.filter(player=player, games__gt=0).order_by("-games", "pool"))


def computer_stats(player) -> list[dict[str, Any]]:
    """Finished games of ``player`` against the computer, per variant and computer player: ``computer`` is
    its level (easy, medium, hard) or, when a strategy was chosen by name, that name.

    Each row: ``variant``, ``label``, ``computer``, ``played``, ``won``, ``lost``, ``drawn``; in the engine's
    order of variants, then levels from easy to hard, then strategies by name. One query.
    """
    def seat(side: str) -> Coalesce:
        return Coalesce(NullIf(f"{side}_level", Value("")), f"{side}_strategy")

    rows = (
        Game.objects.filter(_as_x_only(player) | _as_o_only(player), status=Game.Status.FINISHED)
        .exclude(opponent=Opponent.HUMAN).exclude(result_reason=Game.Reason.ABORTED)
        .annotate(computer=Case(When(_as_x_only(player), then=seat("o")), default=seat("x")))
        .order_by()
        .values("variant", "computer")
        .annotate(**_tally(player))
    )
    variants = {key: i for i, key in enumerate(VARIANTS)}
    levels = {str(level): i for i, level in enumerate(LEVELS)}
    result = [{"label": variant_label(row["variant"]), **row} for row in rows]
    result.sort(key=lambda row: (
        variants.get(row["variant"], len(variants)), levels.get(row["computer"], len(levels)), row["computer"] or ""
    ))
    return result


#: rated games per variant that the profile's rating history draws
HISTORY_GAMES = 50


def rating_history(player) -> dict[str, list[int]]:
    """Per pool, ``player``'s rating before the first of their latest ``HISTORY_GAMES`` rated games and
    after each of them, oldest first, in whole points. One query."""
    latest = Window(RowNumber(), partition_by=F("pool"), order_by=[F("finished").desc(), F("pk").desc()])
    rows = (
        Game.objects.filter(Q(x_player=player) | Q(o_player=player), x_rating_after__isnull=False)
        .annotate(recent=latest)
        .filter(recent__lte=HISTORY_GAMES)
        .order_by("finished", "pk")
        .values_list("pool", "x_player_id", "x_rating_before", "x_rating_after", "o_rating_before", "o_rating_after")
    )
    history: dict[str, list[int]] = {}
    for pool, x_id, x_before, x_after, o_before, o_after in rows:
        before, after = (x_before, x_after) if x_id == player.pk else (o_before, o_after)
        series = history.setdefault(pool, [round(before)])
        series.append(round(after))
    return history


def games_to_move(player) -> QuerySet[Game]:
    """Running games against another player in which it is ``player``'s turn (X moves when the ply is even; in a
    Swap2 game, as its ``turn`` says)."""
    by_ply = Q(turn="")
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, x_player__isnull=False, o_player__isnull=False)
        .exclude(x_player=F("o_player"))
        .annotate(ply_parity=Mod("ply", 2))
        .filter(
            Q(x_player=player) & ((by_ply & Q(ply_parity=0)) | Q(turn="X"))
            | Q(o_player=player) & ((by_ply & Q(ply_parity=1)) | Q(turn="O"))
        )
    )


def your_turn_games(player, limit: int = 10) -> QuerySet[Game]:
    """The home page's "Your turn": ``player``'s running games against another player waiting for their move,
    the longest waiting first, with their players."""
    return games_to_move(player).select_related("x_player", "o_player").order_by("updated", "id")[:limit]


def count_games_to_move(player) -> int:
    """How many of ``player``'s running games against another player wait for their move."""
    return count_waiting(player).moves


class Waiting(NamedTuple):
    """What the navigation's badges count for a player."""

    moves: int  # running games against another player waiting for their move
    challenges: int  # open challenges sent to them by name


def _counted(games: QuerySet[Game]) -> Subquery:
    # Django's documented way to count inside a subquery: COUNT over the rows, no GROUP BY
    return Subquery(games.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")[:1])


def waiting_query(player) -> QuerySet:
    """Both badges' counts as one query of two counts (each planned by its own index), on the player's row."""
    challenges = Game.objects.filter(status=Game.Status.OPEN, invitee=player)
    return (
        get_user_model().objects.filter(pk=player.pk)
        .annotate(moves=_counted(games_to_move(player)), challenges=_counted(challenges))
        .values_list("moves", "challenges")
    )


def count_waiting(player) -> Waiting:
    """Both badges' counts in one query."""
    row = waiting_query(player).first()
    return Waiting(*row) if row is not None else Waiting(0, 0)


def with_creator_rating(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` with ``creator_rating`` and ``creator_deviation``: their creator's rating in the game's pool (None
    before a rated game there), in the same query."""
    rating = Rating.objects.filter(player=OuterRef("created_by"), pool=OuterRef("pool"), games__gt=0)
    return games.annotate(
        creator_rating=Subquery(rating.values("rating")[:1]),
        creator_deviation=Subquery(rating.values("deviation")[:1]),
    )


#: players shown on a leaderboard
LEADERBOARD_SIZE = 100


def leaderboard(pool: str, limit: int = LEADERBOARD_SIZE, *, bots: bool = False) -> list[Rating]:
    """The best-rated active players in ``pool`` (a pool key), best first (ties: more games, then the earlier
    to get there), with their player loaded; each row has ``rank`` (1 for the first). People and bots are listed
    apart (``bots``: the bot accounts' list). One query."""
    rows = list(
        Rating.objects.filter(pool=pool, player__is_active=True, player__is_bot=bots, games__gt=0)
        .select_related("player")
        .order_by("-rating", "-games", "updated", "player_id")[:limit]
    )
    for rank, row in enumerate(rows, start=1):
        row.rank = rank
    return rows


def rated_pools() -> list[str]:
    """Pools with at least one rated game: the most players first, then by key. One query."""
    # order_by(): Rating's default ordering would add its rating to the GROUP BY, one row per rating
    rows = (
        Rating.objects.filter(games__gt=0)
        .order_by()
        .values("pool")
        .annotate(players=Count("id"))
        .order_by("-players", "pool")
    )
    return [row["pool"] for row in rows]


def games_waiting_for_computer(*, changed_before=None, owner: int | None = None) -> QuerySet[Game]:
    """Running games whose side to move is a computer seat (X moves when the ply is even, unless the game started
    from a position with O to move: its ``start_position``'s third field is ``o``), oldest change first.
    ``changed_before``: unchanged since then (the workers' sweep makes sure each has a live task); ``owner``: the
    games whose computer turns are that player's (``services.computer.game_owner_id``: the creator, else a seat)."""
    def computer(side: str) -> Q:
        return Q(**{f"{side}_player__isnull": True}) & (~Q(**{f"{side}_level": ""}) | ~Q(**{f"{side}_strategy": ""}))

    o_first = Q(start_position__regex=r"^[^_]+_[^_]+_o")
    by_ply = Q(turn="")  # a Swap2 game says whose turn it is (``Game.turn``)
    x_to_move = by_ply & ((Q(ply_parity=0) & ~o_first) | (Q(ply_parity=1) & o_first)) | Q(turn="X")
    o_to_move = by_ply & ((Q(ply_parity=1) & ~o_first) | (Q(ply_parity=0) & o_first)) | Q(turn="O")
    games = Game.objects.filter(status=Game.Status.ACTIVE)
    if changed_before is not None:
        games = games.filter(updated__lt=changed_before)
    if owner is not None:
        games = games.filter(
            Q(created_by_id=owner)
            | Q(created_by__isnull=True, x_player_id=owner)
            | Q(created_by__isnull=True, x_player__isnull=True, o_player_id=owner)
        )
    return (
        games.annotate(ply_parity=Mod("ply", 2))
        .filter((computer("x") & x_to_move) | (computer("o") & o_to_move))
        .order_by("updated")
    )


# Quick pairing ---------------------------------------------------------------------------------------


def fresh_seeks(*, now) -> QuerySet[Seek]:
    """Seeks still waiting: not paired, and asked about by their seeker within
    ``games.rating.matchmaking.SEEK_TTL`` (older ones are as good as gone: the sweep deletes them)."""
    return Seek.objects.filter(game__isnull=True, seen__gte=now - timedelta(seconds=SEEK_TTL))


def rating_deviation(player_id: int, pool: str) -> float | None:
    """A player's rating deviation in ``pool``, None before their first rated game there (provisional: "?")."""
    rows = Rating.objects.filter(player_id=player_id, pool=pool, games__gt=0).values_list("deviation", flat=True)
    return rows.first()


def open_seeks(*, now, limit: int = LOBBY_LIMIT) -> list[Seek]:
    """The lobby's quick-pairing seeks, oldest first (the longest waiting), with their players and ``deviation``:
    the seeker's rating deviation in the seek's pool (None before a rated game there), for the "?"."""
    rating = Rating.objects.filter(player=OuterRef("player"), pool=OuterRef("pool"), games__gt=0)
    return list(
        fresh_seeks(now=now).select_related("player").annotate(deviation=Subquery(rating.values("deviation")[:1]))
        .order_by("created", "id")[:limit]
    )


# Bots and the accounts' event streams (issue 33) --------------------------------------------------------


def played_rated_game_against_person(player) -> bool:
    """Whether ``player`` has played a rated game against a person (not a bot): such an account stays a person."""
    against_person = Q(x_player=player, o_player__is_bot=False) | Q(o_player=player, x_player__is_bot=False)
    return Game.objects.filter(Q(x_rating_after__isnull=False) & against_person).exists()


def _seated(player, status: str) -> QuerySet[Game]:
    return Game.objects.filter(Q(x_player=player) | Q(o_player=player), status=status).select_related(
        "x_player", "o_player", "created_by", "invitee")


def pending_challenges(player) -> list[Game]:
    """Challenges still waiting that were sent to ``player`` or made by them, oldest first."""
    games = _lobby_qs().filter(Q(invitee=player) | Q(created_by=player))
    return list(games.order_by("created", "id")[:LOBBY_LIMIT])


def running_games(player) -> list[Game]:
    """The running games ``player`` sits in, oldest first."""
    return list(_seated(player, Game.Status.ACTIVE).order_by("created", "id"))


def games_finished_since(player, since: datetime) -> list[Game]:
    """``player``'s games that ended at ``since`` or later, oldest first."""
    return list(_seated(player, Game.Status.FINISHED).filter(finished__gte=since).order_by("finished", "id"))


def challenge_ends(game_ids: Sequence[int]) -> dict[int, str]:
    """Why the challenges ``game_ids`` went away (``ChallengeEnd.Reason`` values), for those that did."""
    return dict(ChallengeEnd.objects.filter(game_id__in=list(game_ids)).values_list("game_id", "reason"))


def challenges_unanswered_by_bots(*, before: datetime) -> QuerySet[Game]:
    """Challenges sent to a bot before ``before`` and still waiting (the sweep takes them as declined)."""
    return Game.objects.filter(status=Game.Status.OPEN, invitee__is_bot=True, created__lt=before).order_by("created")


def bots(*, limit: int = LOBBY_LIMIT) -> list[Any]:
    """The active bot accounts, by name: the lobby's list of bots to challenge."""
    return list(get_user_model().objects.filter(is_bot=True, is_active=True).order_by("username")[:limit])
