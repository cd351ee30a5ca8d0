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


def raw(live_server, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None):
    host = urlsplit(live_server.url)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    text = response.read().decode("utf-8", "replace")
    conn.close()
    return response.status, text


@pytest.mark.parametrize("charset", ["utf8", "latin-1", "utf-16"])
def test_a_form_in_another_charset_is_a_clear_400(browser, live_server, charset):
    """Item 4: every form POST with a charset Django cannot parse was gunicorn's bare 500."""
    browser.request("GET", "/accounts/login/")
    cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    body = urlencode({"csrfmiddlewaretoken": browser.token, "username": "alice", "password": "x"}).encode()
    status, text = raw(live_server, "POST", "/accounts/login/", body, {
        "Content-Type": f"application/x-www-form-urlencoded; charset={charset}", "Cookie": cookie,
    })
    assert status == 400 and "500" not in text[:200]


def test_a_cut_off_multipart_body_is_a_400(browser, live_server):
    """Item 10: a multipart body without its closing boundary was read as a valid form."""
    browser.request("GET", "/accounts/login/")
    cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    body = (f'--b\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{browser.token}\r\n'
            '--b\r\nContent-Disposition: form-data; name="username"\r\n\r\nalice').encode()
    status, _ = raw(live_server, "POST", "/accounts/login/", body, {
        "Content-Type": "multipart/form-data; boundary=b", "Cookie": cookie,
    })
    assert status == 400


@pytest.mark.parametrize("path", ["/api/games/1.0", "/api/games/+1", "/api/games/1x", "/games/1.0/"])
def test_an_id_is_digits_only(browser, live_server, path):
    """Item 10: /api/games/1.0 and /api/games/+1 resolved to game 1."""
    from games.services import game_create
    from players.models import Player

    browser.sign_up("alice")
    game_create(player=Player.objects.get(username="alice"), variant="classic", opponent="easy")
    status, _, _ = browser.request("GET", path)
    assert status == 404


def test_acting_on_a_challenge_cancelled_meanwhile_is_a_404_not_a_500(browser, live_server):
    """Item 3: cancelling an open challenge while another action on it was in flight raised Game.DoesNotExist.
    Here the action comes after the cancel, on the page the player still has open."""
    from games.services import challenge_cancel, challenge_create
    from players.models import Player

    browser.sign_up("alice")
    alice = Player.objects.get(username="alice")
    game = challenge_create(player=alice, variant="classic")
    browser.request("GET", f"/games/{game.pk}/")  # the page, with its token
    challenge_cancel(game=game, player=alice)  # from another tab
    for action in ("resign", "draw", "draw/accept", "takeback", "claim", "rematch", "hint", "move"):
        status, _, text = browser.request("POST", f"/games/{game.pk}/{action}/", {"move": "4"})
        assert status == 404, (action, status, text[:200])


def test_one_account_cannot_keep_the_computer_busy(browser, live_server):
    """Item 6: hints in a loop held a web worker each; now a slow hint is a worker's task, one at a time per
    player: a second one elsewhere is a 429 with Retry-After."""
    from games.services import game_create
    from players.models import Player

    browser.sign_up("alice")
    alice = Player.objects.get(username="alice")
    first, second = (game_create(player=alice, variant="ultimate", opponent="easy", strategy="random")
                     for _ in range(2))
    browser.request("GET", f"/games/{first.pk}/")
    status, _, text = browser.request("POST", f"/games/{first.pk}/hint/", {})
    assert status == 200 and "Working out a hint" in text
    status, headers, text = browser.request("POST", f"/games/{second.pk}/hint/", {})
    assert status == 429 and int(headers["Retry-After"]) > 0 and "still working on your last request" in text
