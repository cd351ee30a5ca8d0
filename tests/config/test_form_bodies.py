"""A form body that cannot be read is a 400 with a clear message on every form, never a 500 (issue 20, items 4
and 10): a charset other than UTF-8, bytes that are not UTF-8, a multipart body cut off before its end."""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import reverse

FORM = "application/x-www-form-urlencoded"
PAGES = ["/accounts/login/", "/accounts/signup/", "/accounts/password_reset/", "/games/new/"]


def post_raw(client: Client, path: str, body: bytes, content_type: str):
    return client.generic("POST", path, body, content_type=content_type)


@pytest.mark.parametrize("charset", ["utf8", "latin-1", "utf-16", "nonsense"])
@pytest.mark.parametrize("path", PAGES)
def test_a_form_in_another_charset_is_a_400_that_says_so(player_client, path, charset):
    response = post_raw(player_client, path, b"username=alice&password=x", f"{FORM}; charset={charset}")
    assert response.status_code == 400
    text = response.content.decode()
    assert "Forms must be sent as UTF-8" in text and f"charset=&#x27;{charset}&#x27;" in text


@pytest.mark.parametrize("body", [b"username=al%FFice&password=x", b"username=al\xffice&password=x", b"a%C3=1"])
@pytest.mark.parametrize("path", PAGES)
def test_bytes_that_are_not_utf8_are_a_400(player_client, path, body):
    response = post_raw(player_client, path, body, FORM)
    assert response.status_code == 400
    assert "not valid UTF-8" in response.content.decode()


def test_utf8_forms_still_work(db, make_player, password):
    make_player("élodie")
    client = Client()
    body = f"username=%C3%A9lodie&password={password}".encode()
    assert post_raw(client, reverse("login"), body, f"{FORM}; charset=UTF-8").status_code == 302


def multipart(data: dict[str, str]) -> bytes:
    return encode_multipart(BOUNDARY, data)


def test_a_whole_multipart_form_still_works(db, make_player, password):
    make_player("alice")
    body = multipart({"username": "alice", "password": password})
    assert post_raw(Client(), reverse("login"), body, MULTIPART_CONTENT).status_code == 302


def test_a_multipart_form_without_its_closing_boundary_is_a_400(db, make_player, password):
    make_player("alice")
    body = multipart({"username": "alice", "password": password})
    cut = body[: body.rindex(f"--{BOUNDARY}--".encode())]  # every part whole, the end missing
    client = Client()
    response = post_raw(client, reverse("login"), cut, MULTIPART_CONTENT)
    assert response.status_code == 400
    assert "arrived incomplete" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_cut_off_multipart_move_is_not_played(player_client, make_game):
    game = make_game()
    body = multipart({"move": "4"})
    cut = body[: body.rindex(f"--{BOUNDARY}--".encode())]
    response = post_raw(player_client, reverse("games:move", args=[game.pk]), cut, MULTIPART_CONTENT)
    assert response.status_code == 400
    game.refresh_from_db()
    assert game.ply == 0


def test_a_bad_body_under_the_api_is_json(player_client):
    response = post_raw(player_client, "/api/games", b"variant=classic", f"{FORM}; charset=latin-1")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_input"


def test_the_400_view_never_reads_the_body(rf, db):
    """Django's own handler400 (requires_csrf_token) parsed the form again, and raised again: a bare 500."""
    from django.contrib.auth.models import AnonymousUser
    from django.core.exceptions import BadRequest

    from config.views import bad_request

    request = rf.generic("POST", "/accounts/login/", b"username=a", content_type=f"{FORM}; charset=latin-1")
    request.COOKIES["csrftoken"] = "x" * 32
    request.user = AnonymousUser()
    response = bad_request(request, BadRequest("unreadable"))
    assert response.status_code == 400


@pytest.mark.parametrize(
    "content_type", [f"{FORM}; charset=utf8", f"{FORM}; charset=latin-1", f"{FORM}; charset=utf-16", FORM]
)
def test_raw_requests_to_the_live_server_get_400_not_500(live_server, content_type):
    """As the audit sent them: no CSRF token, so the CSRF check (and the error page) would read the body too."""
    body = b"username=al%FFice&password=x" if content_type == FORM else b"username=alice&password=x"
    for path in PAGES:
        conn = http.client.HTTPConnection(urlsplit(live_server.url).hostname, urlsplit(live_server.url).port)
        conn.request("POST", path, body=body, headers={"Content-Type": content_type, "Cookie": "csrftoken=" + "a" * 32})
        response = conn.getresponse()
        text = response.read().decode()
        conn.close()
        assert response.status == 400, (path, response.status)
        assert "UTF-8" in text


def test_a_multipart_form_without_a_boundary_is_a_400(db):
    response = post_raw(Client(), reverse("login"), b"username=alice", "multipart/form-data")
    assert response.status_code == 400
    assert "names no multipart boundary" in response.content.decode()
