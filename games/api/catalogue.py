"""The catalogue (variants, strategies: public) and the players' side: who you are, the leaderboard."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.http import HttpRequest
from ninja import Query, Router
from ninja.errors import HttpError

from .. import selectors
from ..engine import STRATEGIES, VARIANTS, get_strategy, get_variant
from ..models import Rating
from ..rating.pools import LEGACY_SPEED, InvalidPool, Pool, pool_key
from .errors import ERRORS
from .schemas import ErrorOut, LeaderboardFilters, LeaderboardOut, MeOut, StrategyOut, VariantOut

router = Router()


def _type_name(kind: Any) -> str:
    names = {int: "integer", float: "number", str: "string", bool: "boolean"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return "|".join(names.get(k, getattr(k, "__name__", str(k))) for k in kinds)


def _supports(name: str, variant_key: str) -> bool:
    try:
        return get_strategy(name).supports(get_variant(variant_key))
    except Exception:  # noqa: BLE001 - a strategy that cannot be built or asked plays nothing
        return False


@lru_cache(maxsize=1)
def _catalogue() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(variants, strategies) as the API shows them; computed once (the registries are fixed at import)."""
    strategy_names = sorted(STRATEGIES)
    support = {(s, v): _supports(s, v) for s in strategy_names for v in VARIANTS}
    variants = []
    for key, cls in VARIANTS.items():
        options = [
            {"name": name, "type": "string", "default": default, "choices": list(low)} if kind is str else
            {"name": name, "type": "boolean" if kind is bool else "integer", "default": default,
             "minimum": low, "maximum": high}
            for name, (kind, default, low, high) in cls.option_spec.items()
        ]
        variants.append(
            {"key": key, "title": cls.title, "nested": cls.nested, "options": options,
             "default_cells": get_variant(key).cell_count,
             "strategies": [s for s in strategy_names if support[(s, key)]]}
        )
    strategies = [
        {
            "name": name,
            "options": [
                {"name": opt, "type": _type_name(kind), "default": default}
                for opt, (kind, default) in STRATEGIES[name].option_spec.items()
            ],
            "variants": [v for v in VARIANTS if support[(name, v)]],
        }
        for name in strategy_names
    ]
    return variants, strategies


@router.get("/variants", auth=None, response=list[VariantOut], tags=["catalogue"], summary="Variants and their options")
def list_variants(request: HttpRequest) -> list[dict[str, Any]]:
    """Every variant with its options (type, default, limits) and the strategies that play it."""
    return _catalogue()[0]


@router.get("/strategies", auth=None, response=list[StrategyOut], tags=["catalogue"], summary="Computer players")
def list_strategies(request: HttpRequest) -> list[dict[str, Any]]:
    """Every registered strategy with the variants it plays (checked with ``supports`` at default options)."""
    return _catalogue()[1]


@router.get(
    "/me", response={200: MeOut, 401: ErrorOut}, tags=["players"], summary="Who you are signed in as, and your ratings"
)
def me(request: HttpRequest) -> dict[str, Any]:
    history = selectors.rating_history(request.auth)
    ratings = {
        row.pool: {
            "rating": round(row.rating),
            "deviation": round(row.deviation),
            "provisional": row.provisional,
            "label": row.label,
            "games": row.games,
            "won": row.won,
            "lost": row.lost,
            "drawn": row.drawn,
            "history": history.get(row.pool, []),
        }
        for row in Rating.objects.filter(player=request.auth, games__gt=0).order_by("pool")
    }
    return {
        "id": request.auth.pk, "username": request.auth.get_username(), "bot": request.auth.is_bot, "ratings": ratings,
    }


@router.get(
    "/leaderboard", response={200: LeaderboardOut, **ERRORS}, tags=["players"], summary="The best-rated players"
)
def leaderboard(request: HttpRequest, filters: Query[LeaderboardFilters]) -> dict[str, Any]:
    """Ratings (Glicko-2, one per pool: board and speed) come from finished games between two players; see the
    site's leaderboard. ``pool`` names the pool; without it, ``variant``'s untimed pool at its default board.
    People and bots are listed apart: ``bots=true`` for the bots'."""
    try:
        pool = Pool.parse(filters.pool or pool_key(filters.variant, {}, LEGACY_SPEED))
    except InvalidPool as err:
        raise HttpError(400, str(err)) from None
    rows = [
        {
            "rank": row.rank,
            "username": row.player.get_username(),
            "bot": row.player.is_bot,
            "rating": round(row.rating),
            "deviation": round(row.deviation),
            "provisional": row.provisional,
            "games": row.games,
            "won": row.won,
            "lost": row.lost,
            "drawn": row.drawn,
        }
        for row in selectors.leaderboard(pool.key, bots=filters.bots)
    ]
    return {"variant": pool.game[0], "pool": pool.key, "label": pool.label, "bots": filters.bots, "rows": rows}
