"""Every answer carries a strict Content-Security-Policy for scripts (issue 20; possible since issue 18 moved every
script into static files)."""

from __future__ import annotations

import pytest
from django.urls import reverse


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/rules/", "/healthz", "/api/docs", "/no-such-page/"])
def test_every_answer_has_a_strict_script_policy(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval', no other host
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


@pytest.mark.django_db
def test_signed_in_pages_too(player_client, make_game):
    game = make_game()
    for url in (reverse("games:history"), reverse("games:detail", args=[game.pk]), reverse("games:new")):
        assert "script-src 'self'" in player_client.get(url)["Content-Security-Policy"]


# config.csp builds the header once; what django-csp would build per answer must come out the same, and the
# answers that change the policy (a view's decorator, a nonce) still go through django-csp.


def _middleware(response):
    from config.csp import CSPMiddleware

    return CSPMiddleware(lambda request: response)


def test_the_built_once_header_is_django_csps(rf, settings):
    from csp.utils import build_policy
    from django.http import HttpResponse

    response = _middleware(HttpResponse("ok"))(rf.get("/"))
    assert response["Content-Security-Policy"] == build_policy()
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'self'"], "img-src": ["'self'", "data:"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"script-src": ["'none'"]}}
    response = _middleware(HttpResponse("ok"))(rf.get("/"))  # new settings: built again, not the old string
    assert response["Content-Security-Policy"] == build_policy()  # its directives in django-csp's (hash) order
    assert set(response["Content-Security-Policy"].split("; ")) == {"default-src 'self'", "img-src 'self' data:"}
    assert response["Content-Security-Policy-Report-Only"] == build_policy(report_only=True)
    assert "script-src 'none'" in response["Content-Security-Policy-Report-Only"]


def test_a_views_own_policy_and_a_nonce_go_through_django_csp(rf, settings):
    from csp.constants import NONCE
    from csp.decorators import csp_update
    from django.http import HttpResponse

    view = csp_update({"img-src": ["https://example.com"]})(lambda request: HttpResponse("ok"))
    request = rf.get("/")
    response = _middleware(None)
    response.get_response = view
    assert "img-src 'self' data: https://example.com" in response(request)["Content-Security-Policy"]

    def with_nonce(request):
        str(request.csp_nonce)  # a template asking for the nonce
        return HttpResponse("ok")

    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": ["'self'", NONCE]}}
    middleware = _middleware(None)
    middleware.get_response = with_nonce
    request = rf.get("/")
    policy = middleware(request)["Content-Security-Policy"]
    assert f"script-src 'self' 'nonce-{request._csp_nonce}'" in policy
    middleware.get_response = lambda request: HttpResponse("ok")  # the next answer, without a nonce: none
    assert "nonce" not in middleware(rf.get("/"))["Content-Security-Policy"]
