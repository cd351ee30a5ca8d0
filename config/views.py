"""Site-wide views that belong to no app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness check for a load balancer, and the "trivial view" of the load benchmark.

    Touches neither the session nor the database: it measures what the server stack (gunicorn,
    middleware, URL routing) costs per request before any work of the site's own.
    """
    return HttpResponse("ok", content_type="text/plain")


def home(request: HttpRequest) -> HttpResponse:
    """The site's address: a player's games, or for a visitor the front door (the login page with its welcome,
    not "Please log in to see that page")."""
    return redirect("games:history" if request.user.is_authenticated else "login")


def _said(exception: Exception) -> str:
    """The message a view gave its exception for the player (Http404("No such game.")), or ""."""
    if isinstance(exception, Resolver404):  # an address nothing answers: its args are the URL patterns tried
        return ""
    message = exception.args[0] if exception.args else ""
    return message if isinstance(message, str) else ""


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 404 page (handler404): in the site's frame, with the view's own words when it gave some."""
    return render(request, "404.html", {"message": _said(exception)}, status=404)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The site's 403 page (handler403)."""
    return render(request, "403.html", {"message": _said(exception)}, status=403)
