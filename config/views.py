"""Site-wide views that belong to no app."""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.db import DatabaseError, OperationalError, connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404, resolve
from django.views.decorators.http import require_safe

from config.middleware import API_PREFIX
from push.streams import transport_state

logger = logging.getLogger(__name__)

#: how long the readiness check waits for a database lock (ms): an answer within a load balancer's timeout
READY_LOCK_WAIT_MS = 2000


def _in_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX) or request.path_info == API_PREFIX.rstrip("/")


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness check for a load balancer, and the "trivial view" of the load benchmark.

    Touches neither the session nor the database: it measures what the server stack (gunicorn,
    middleware, URL routing) costs per request before any work of the site's own.
    """
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness check: 200 when the database answers a read and a write, else 503 saying which step failed; and
    how the live push's transport is (Redis down does not make a server unready: moves still play, sessions are
    read from the database and pages poll, so it is reported, not failed).

    The write (a no-op update of one row of Django's migrations table) is rolled back; it needs the write lock,
    so a database that is read-only, missing, or locked by someone else for more than two seconds is not ready.
    """
    step = "connect"
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":  # before BEGIN IMMEDIATE, which waits for the write lock
                cursor.execute(f"PRAGMA busy_timeout = {READY_LOCK_WAIT_MS}")
        step = "begin"
        with transaction.atomic():
            with connection.cursor() as cursor:
                if connection.vendor == "postgresql":
                    cursor.execute(f"SET LOCAL lock_timeout = {READY_LOCK_WAIT_MS}")
                    cursor.execute(f"SET LOCAL statement_timeout = {2 * READY_LOCK_WAIT_MS}")
                step = "read"
                cursor.execute("SELECT MIN(id) FROM django_migrations")
                (first,) = cursor.fetchone()
                step = "write"
                cursor.execute("UPDATE django_migrations SET applied = applied WHERE id = %s", [first])
            transaction.set_rollback(True)
    except DatabaseError as err:
        logger.warning("readiness: database %s failed: %s", step, err)
        body = {"status": "unavailable", "database": f"{step} failed ({type(err).__name__})",
                "push": transport_state()}
        return JsonResponse(body, status=503, headers={"Cache-Control": "no-store"})
    finally:
        _restore_lock_wait()
    return JsonResponse({"status": "ok", "database": "read and write", "push": transport_state()},
                        headers={"Cache-Control": "no-store"})


def _restore_lock_wait() -> None:
    """SQLite's busy timeout belongs to the connection, which the next request reuses: back to the settings'."""
    if connection.vendor != "sqlite" or connection.connection is None:
        return
    timeout_ms = int(float(settings.DATABASES["default"].get("OPTIONS", {}).get("timeout", 5)) * 1000)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {timeout_ms}")
    except DatabaseError:
        pass


def _said(exception: Exception) -> str:
    """The message a view gave its exception for the player (Http404("No such game.")), or ""."""
    if isinstance(exception, Resolver404):  # an address nothing answers: its args are the URL patterns tried
        return ""
    message = exception.args[0] if exception.args else ""
    return message if isinstance(message, str) else ""


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 404 page (handler404): in the site's frame, with the view's own words when it gave some; JSON
    under /api/. An address that exists with a slash at its end (only GET and HEAD are redirected there: a
    redirect would lose a POST's body) says so."""
    message = _said(exception)
    if _in_api(request):  # (its endpoints end without a slash)
        return JsonResponse(
            {"code": "not_found", "message": message or f"there is no API endpoint {request.path}; see /api/docs"},
            status=404,
        )
    path = request.path_info
    if not message and not path.endswith("/") and _resolves(f"{path}/"):
        message = f"This address needs a slash at its end: {request.path}/"
    return render(request, "404.html", {"message": message}, status=404)


def _resolves(path: str) -> bool:
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the site's "Form expired" page; JSON under /api/ (a session's POST without its token)."""
    if _in_api(request):
        return JsonResponse(
            {"code": "csrf_failed", "message": "a request signed in by the session needs the X-CSRFToken header "
             "(or use a token: Authorization: Bearer ...)"},
            status=403,
        )
    return render(request, "403_csrf.html", status=403)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 403 page (handler403)."""
    return render(request, "403.html", {"message": _said(exception)}, status=403)


# The error views below never read the request's body: the body may be what failed (Django's own handlers,
# through requires_csrf_token, parse the form again and fail a second time: a bare 500).


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 400 page (handler400); JSON under /api/."""
    if _in_api(request):
        return JsonResponse({"code": "invalid_input", "message": "the request could not be understood"}, status=400)
    return render(request, "400.html", status=400)


#: seconds a client is asked to wait when the database is unavailable
UNAVAILABLE_RETRY_AFTER = 30


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the site's 500 page, or a 503 when the database is what failed (read-only, missing, locked
    past the busy timeout, unreachable): nothing is wrong with the request, try again later. Rendered without
    the request, since it may be the request's session or user that needed the database."""
    if isinstance(sys.exc_info()[1], OperationalError):
        if _in_api(request):
            response: HttpResponse = JsonResponse(
                {"code": "unavailable", "message": "the database is unavailable; try again in a minute"}, status=503
            )
        else:
            response = HttpResponse(loader.render_to_string("503.html"), status=503)
        response["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER)
        return response
    if _in_api(request):
        return JsonResponse({"code": "server_error", "message": "the server failed; the error was logged"}, status=500)
    return HttpResponse(loader.render_to_string("500.html"), status=500)
