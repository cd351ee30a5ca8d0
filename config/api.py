"""The JSON API's ``NinjaAPI``: its title, who may call it, and the routers of ``games.api`` (wiring only)."""

from __future__ import annotations

from ninja import NinjaAPI

from games.api import (
    arenas,
    assists,
    bots,
    catalogue,
    challenges,
    errors,
    games,
    moves,
    offers,
    puzzles,
    records,
    seeks,
    streams,
)
from games.api.auth import SignedInSession, TokenAuth
from games.api.parser import BoundedParser

api = NinjaAPI(
    title="Tic-tac-toe API",
    version="1.0",
    description=(
        "Play the site's tic-tac-toe variants over JSON. Sign in on the site (session + CSRF) or send a "
        "personal token made on your profile page as `Authorization: Bearer <token>`. Every move is named by "
        "its cell (`name`: a column letter from the left and a row number from the bottom, e.g. `b2`) beside "
        "the engine's number (`move`: `row * cols + col` on grids, `9 * board + cell` on ultimate and multi); "
        'a move may be sent as either. Errors are `{"code": ..., "message": ...}`. Reference: docs/api.md.'
    ),
    auth=[TokenAuth(), SignedInSession()],
    parser=BoundedParser(),  # bodies of more keys than a form may have fields are refused before parsing
    urls_namespace="api",
)

ROUTERS = (
    catalogue.router, games.router, moves.router, offers.router, challenges.router, assists.router, records.router,
    seeks.router, arenas.router, puzzles.router, bots.router, streams.router,
)
for router in ROUTERS:
    api.add_router("", router)

errors.install(api, ROUTERS)  # after every router: JSON refusals, JSON 405s, 404 for any other path
