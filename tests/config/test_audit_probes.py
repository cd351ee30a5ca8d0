"""Issue 20's audit probes, replayed as request sequences against the live test server (real HTTP, CSRF
enforced): each found a hole that is now closed. Throttling and unreadable bodies have theirs beside their
other tests (test_throttle.py, test_form_bodies.py)."""

from __future__ import annotations

import http.client
import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import pytest
from django.conf import settings


class Browser:
    """The smallest browser: keeps cookies, fills in the CSRF token of the form it last fetched."""

    def __init__(self, base_url: str) -> None:
        self.host = urlsplit(base_url)
        self.cookies: dict[str, str] = {}
        self.token = ""

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, dict, str]:
        conn = http.client.HTTPConnection(self.host.hostname, self.host.port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode({"csrfmiddlewaretoken": self.token, **form})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
        self.token = found.group(1) if found else self.token
        conn.close()
        return response.status, dict(response.headers), text

    def sign_up(self, username: str) -> tuple[int, str]:
        self.request("GET", "/accounts/signup/")
        password = "a-Str0ng-passphrase"
        status, _, text = self.request(
            "POST", "/accounts/signup/", {"username": username, "password1": password, "password2": password}
        )
        return status, text


@pytest.fixture
def browser(live_server) -> Browser:
    return Browser(live_server.url)


def test_a_2mb_username_cannot_fill_the_disk(browser):
    from axes.models import AccessAttempt

    browser.request("GET", "/accounts/login/")
    status, _, text = browser.request("POST", "/accounts/login/", {"username": "x" * 2_000_000, "password": "x"})
    assert status == 400 and "at most 150 characters" in text
    assert all(len(name) <= 150 for name in AccessAttempt.objects.values_list("username", flat=True))


def test_a_cookie_copied_before_logout_stops_working(browser, live_server):
    assert browser.sign_up("carol")[0] == 302
    copy = Browser(live_server.url)
    copy.cookies[settings.SESSION_COOKIE_NAME] = browser.cookies[settings.SESSION_COOKIE_NAME]
    assert copy.request("GET", "/games/")[0] == 200
    browser.request("GET", "/accounts/logout/")  # the confirmation page, for its CSRF token
    assert browser.request("POST", "/accounts/logout/", {})[0] == 302
    status, headers, _ = copy.request("GET", "/games/")
    assert status == 302 and headers["Location"].startswith("/accounts/login/")


def test_a_look_alike_name_is_refused(browser, live_server):
    assert browser.sign_up("alice")[0] == 302
    status, text = Browser(live_server.url).sign_up("\u0430lice")
    assert status == 400 and "too much like the existing player alice" in text


def test_health_readiness_and_headers(browser):
    for path, body in (("/healthz", "ok"), ("/readyz", '"status": "ok"')):
        status, headers, text = browser.request("GET", path)
        assert status == 200 and body in text
        assert "camera=()" in headers["Permissions-Policy"]
