"""Every username field is bounded on the server (150 characters, as the model), and so is what axes stores."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.test import Client
from django.urls import reverse

HUGE = "x" * 2_000_000  # the audit's 2 MB username


def stored_usernames() -> list[str]:
    from axes.models import AccessAttempt, AccessLog

    return [name for model in (AccessAttempt, AccessLog) for name in model.objects.values_list("username", flat=True)]


def test_a_2mb_username_at_the_login_page_is_refused_and_not_stored(db):
    response = Client().post(reverse("login"), {"username": HUGE, "password": "whatever"})
    assert response.status_code == 400
    assert "at most 150 characters" in response.content.decode()
    assert all(len(name) <= 150 for name in stored_usernames())


def test_the_admin_login_bounds_the_username_too(db):
    response = Client().post(reverse("admin:login"), {"username": HUGE, "password": "whatever"})
    assert response.status_code == 200  # the admin's own login page, with its error
    assert "at most 150 characters" in response.content.decode()
    assert all(len(name) <= 150 for name in stored_usernames())


def test_axes_stores_at_most_150_characters_whoever_calls_authenticate(db, rf):
    """A login that skips the forms (another view, a future API login) still stores a bounded username: on
    PostgreSQL more than 255 characters would be a 500 (varchar(255))."""
    from axes.models import AccessAttempt

    request = rf.post("/accounts/login/", REMOTE_ADDR="203.0.113.9")
    assert authenticate(request, username="y" * 300, password="wrong") is None
    assert [len(name) for name in AccessAttempt.objects.values_list("username", flat=True)] == [150]


def test_a_username_of_150_characters_still_logs_in(make_player, password):
    name = "z" * 150
    make_player(name)
    client = Client()
    assert client.post(reverse("login"), {"username": name, "password": password}).status_code == 302


def test_signup_bounds_the_username(db):
    form = {"username": "n" * 151, "password1": "a-Str0ng-passphrase", "password2": "a-Str0ng-passphrase"}
    response = Client().post(reverse("signup"), form)
    assert response.status_code == 400
    assert "at most 150 characters" in response.content.decode()
