"""Every refusal of the API as JSON ``{"code": ..., "message": ...}``: the error-to-JSON edge.

The domain's errors (``games.errors``) take their status and code from the one table, ``games.edge.http_errors``,
which the pages read too; the rest are the API's own: invalid input (400 ``invalid_input``, with ``details``),
no or a bad token (401 ``unauthenticated``), CSRF (403 ``csrf_failed``), a body too large (413 ``too_large``) or
of too many keys (400 ``invalid_input``),
a wrong method (405 ``method_not_allowed``, with ``Allow``), an unknown endpoint (404 ``not_found``) and our
own bugs (500 ``server_error``, logged). ``install(api)`` puts all of it on the ``NinjaAPI``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Router, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.signature.utils import get_path_param_names

from ..edge.http_errors import http_error
from ..errors import GameError
from .parser import TooManyKeys
from .schemas import ErrorOut

logger = logging.getLogger("games.api")

#: statuses a refusal may have, documented on every operation
ERRORS: dict[int, type[Schema]] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut}
#: and on the operations that ask the workers for slow computer work (hints, analyses): 429 ``busy``
BUSY: dict[int, type[Schema]] = {429: ErrorOut}

#: the codes of ninja's own HttpError by status
HTTP_CODES = {400: "invalid_input", 401: "unauthenticated", 403: "forbidden", 404: "not_found", 409: "conflict"}

ALL_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


def error_response(
    api: NinjaAPI, request: HttpRequest, status: int, code: str, message: str, **extra: Any
) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


def _loc(loc: Any) -> str:
    parts = [str(p) for p in (loc or [])]
    # ninja puts the parameter's name after the place ("body", "payload", "move"): keep what people know
    if len(parts) >= 2 and parts[0] == "body" and parts[1] == "payload":
        parts = ["body", *parts[2:]]
    return ".".join(parts)


def validation_details(exc: ValidationError) -> tuple[str, list[dict[str, str]]]:
    """(message, details) for input that does not match the schema: the first problem, and one entry each."""
    details = [
        {"loc": _loc(err.get("loc")), "message": str(err.get("msg", "invalid")), "type": str(err.get("type", ""))}
        for err in exc.errors
    ]
    first = details[0] if details else {"loc": "", "message": "invalid input"}
    message = f"{first['loc']}: {first['message']}" if first["loc"] else first["message"]
    if len(details) > 1:
        message += f" (and {len(details) - 1} more)"
    return message, details


def install(api: NinjaAPI, routers: Iterable[Router]) -> None:
    """Answer every refusal of ``api`` in JSON: exception handlers, a JSON 405 on every path of ``routers`` (the
    routers mounted on it), and a last router answering 404 ``not_found`` for any other path. Call it once, after
    ``add_router`` of every router."""

    def answer(request: HttpRequest, status: int, code: str, message: str, **extra: Any) -> HttpResponse:
        return error_response(api, request, status, code, message, **extra)

    def game_error(request: HttpRequest, exc: GameError) -> HttpResponse:
        status, code = http_error(exc)
        retry_after = getattr(exc, "retry_after", None)
        if retry_after is None:
            return answer(request, status, code, str(exc))
        response = answer(request, status, code, str(exc), retry_after=retry_after)
        response["Retry-After"] = str(retry_after)
        return response

    def invalid_input(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        message, details = validation_details(exc)
        return answer(request, 400, "invalid_input", message, details=details)

    def unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        message = "sign in, or send a valid personal token as 'Authorization: Bearer <token>'"
        return answer(request, 401, "unauthenticated", message)

    def ninja_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        if isinstance(exc.__cause__, TooManyKeys):  # ninja's "Cannot parse request body" would not say why
            return answer(request, 400, "invalid_input", str(exc.__cause__))
        if exc.status_code == 403 and "csrf" in str(exc).lower():
            message = "CSRF check failed: send the X-CSRFToken header with the cookie"
            return answer(request, 403, "csrf_failed", message)
        return answer(request, exc.status_code, HTTP_CODES.get(exc.status_code, "error"), str(exc))

    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return answer(request, 404, "not_found", str(exc) or "not found")

    def too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return answer(request, 413, "too_large", f"the request body is larger than the {limit:,} bytes the API reads")

    def unavailable(request: HttpRequest, exc: OperationalError) -> HttpResponse:
        # a read-only, missing or locked database: the pages answer 503 too (config.views.server_error)
        logger.warning("API: the database failed on %s %s: %s", request.method, request.path, exc)
        response = answer(request, 503, "unavailable", "the database is unavailable; try again in a minute")
        response["Retry-After"] = "30"
        return response

    def unexpected(request: HttpRequest, exc: Exception) -> HttpResponse:
        logger.exception("API error on %s %s", request.method, request.path)
        return answer(request, 500, "server_error", "something went wrong on our side; nothing was stored")

    for exc_class, handler in (
        (GameError, game_error),
        (ValidationError, invalid_input),
        (AuthenticationError, unauthenticated),
        (HttpError, ninja_http_error),
        (Http404, not_found),
        (RequestDataTooBig, too_big),
        (OperationalError, unavailable),
        (Exception, unexpected),
    ):
        api.add_exception_handler(exc_class, handler)

    for router in routers:
        _answer_other_methods_in_json(router, answer)
    api.add_router("", _unknown_endpoints(answer))


def _answer_other_methods_in_json(router: Router, answer: Any) -> None:
    """ninja answers a wrong method with a bare text 405; give each path a JSON one (kept out of the schema).

    On the path's own router: Django resolves a path to the first router that has it."""
    for path, view in list(router.path_operations.items()):
        allowed = sorted({method for op in view.operations for method in op.methods})
        missing = [m for m in ALL_METHODS if m not in allowed]
        if missing:
            view = _not_allowed_view(allowed, answer, path_params=get_path_param_names(path))
            router.api_operation(missing, path, auth=None, include_in_schema=False)(view)


def _not_allowed_view(allowed: list[str], answer: Any, *, path_params: set[str]) -> Any:
    def not_allowed(request: HttpRequest) -> HttpResponse:
        message = f"{request.method} is not allowed here; use {', '.join(allowed)}"
        response = answer(request, 405, "method_not_allowed", message)
        response["Allow"] = ", ".join(allowed)
        return response

    def not_allowed_for_game(request: HttpRequest, game_id: int) -> HttpResponse:
        return not_allowed(request)

    def not_allowed_for_seek(request: HttpRequest, seek_id: int) -> HttpResponse:
        return not_allowed(request)

    def not_allowed_for_game_move(request: HttpRequest, game_id: int, name: str) -> HttpResponse:
        return not_allowed(request)

    def not_allowed_for_arena(request: HttpRequest, arena_id: int) -> HttpResponse:
        return not_allowed(request)

    def not_allowed_for_puzzle(request: HttpRequest, puzzle_id: int) -> HttpResponse:
        return not_allowed(request)

    if path_params == {"game_id", "name"}:
        return not_allowed_for_game_move
    by_param = {
        "game_id": not_allowed_for_game, "seek_id": not_allowed_for_seek, "arena_id": not_allowed_for_arena,
        "puzzle_id": not_allowed_for_puzzle,
    }
    return next((view for name, view in by_param.items() if name in path_params), not_allowed)


def _unknown_endpoints(answer: Any) -> Router:
    """The last router: any other path under /api/, whatever the method, is 404 ``not_found``."""
    router = Router()

    @router.api_operation(list(ALL_METHODS), "/{path:rest}", auth=None, include_in_schema=False)
    def unknown_endpoint(request: HttpRequest, rest: str) -> HttpResponse:
        return answer(request, 404, "not_found", f"there is no API endpoint /api/{rest}; see /api/docs")

    return router
