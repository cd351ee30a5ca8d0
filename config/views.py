"""Site-wide views that belong to no app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness check for a load balancer, and the "trivial view" of the load benchmark.

    Touches neither the session nor the database: it measures what the server stack (gunicorn,
    middleware, URL routing) costs per request before any work of the site's own.
    """
    return HttpResponse("ok", content_type="text/plain")
