"""Email on the account (sign-up, profile) and password reset by email with the site's own pages."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from players.models import Player

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "An0ther-long-passphrase"


def _link(message) -> str:
    found = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_signup_keeps_an_optional_email(client, password):
    client.post(reverse("signup"), {"username": "alice", "email": "alice@example.com",
                                    "password1": password, "password2": password})
    assert Player.objects.get(username="alice").email == "alice@example.com"
    client.post(reverse("logout"))
    response = client.post(reverse("signup"), {"username": "bob", "password1": password, "password2": password})
    assert response.status_code == 302
    assert Player.objects.get(username="bob").email == ""


def test_signup_refuses_a_malformed_email(client, password):
    response = client.post(reverse("signup"), {"username": "carol", "email": "not an address",
                                               "password1": password, "password2": password})
    assert response.status_code == 400
    assert "valid email address" in response.content.decode()
    assert not Player.objects.filter(username="carol").exists()


def test_reset_form_refuses_a_malformed_address_with_400(client, make_player):
    make_player("alice", email="alice@example.com")
    response = client.post(reverse("password_reset"), {"email": "not an address"})
    assert response.status_code == 400
    assert "valid email address" in response.content.decode()
    assert mail.outbox == []


def test_login_page_links_to_the_reset(client):
    page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in page and "Forgot your password?" in page


def test_the_whole_reset_by_email(client, make_player, password):
    alice = make_player("alice", email="alice@example.com")
    page = client.get(reverse("password_reset"))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'class="site-header"' in text and "Django site admin" not in text

    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    done = client.get(response["Location"]).content.decode()
    assert "Check your email" in done and "at most one link every 15 minutes" in done
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"] and message.subject == "Your Tic-tac-toe password"
    assert "alice" in message.body

    response = client.get(_link(message))  # Django moves the token into the session, then shows the form
    assert response.status_code == 302
    form_url = response["Location"]
    assert "Choose a new password" in client.get(form_url).content.decode()
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_complete")
    assert "Your password is changed" in client.get(response["Location"]).content.decode()

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD) and not alice.check_password(password)
    # The link works once.
    again = client.get(_link(message), follow=True).content.decode()
    assert "This link does not work" in again


def test_reset_form_errors_change_nothing(client, make_player, password):
    alice = make_player("alice", email="alice@example.com")
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    form_url = client.get(_link(mail.outbox[0]))["Location"]
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"})
    assert response.status_code == 400 and "didn" in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(password)


def test_unknown_address_looks_the_same_and_sends_nothing(client, make_player):
    make_player("alice", email="alice@example.com")
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_forged_link_is_refused_in_words(client, make_player):
    make_player("alice", email="alice@example.com")
    response = client.get("/accounts/reset/MQ/abc-123/", follow=True)
    assert response.status_code == 400
    assert "This link does not work" in response.content.decode()


def test_owner_sets_changes_and_removes_the_email(player_client, player):
    profile = reverse("profile", args=[player.username])
    page = player_client.get(profile).content.decode()
    assert 'id="email-form"' in page and "cannot be reset by email" in page
    url = reverse("email_change", args=[player.username])

    response = player_client.post(url, {"email": "alice@example.com"})
    assert response.status_code == 302 and response["Location"] == profile
    player.refresh_from_db()
    assert player.email == "alice@example.com"
    assert "Password-reset links will go to alice@example.com." in player_client.get(profile).content.decode()

    response = player_client.post(url, {"email": "nonsense"})
    assert response.status_code == 400
    assert "valid email address" in response.content.decode()
    player.refresh_from_db()
    assert player.email == "alice@example.com"

    player_client.post(url, {"email": ""})
    player.refresh_from_db()
    assert player.email == ""


def test_nobody_else_sees_or_changes_the_email(player_client, make_player):
    bob = make_player("bob", email="bob@example.com")
    page = player_client.get(reverse("profile", args=["bob"])).content.decode()
    assert "bob@example.com" not in page and 'id="email-form"' not in page
    response = player_client.post(reverse("email_change", args=["bob"]), {"email": "mallory@example.com"})
    assert response.status_code == 403
    bob.refresh_from_db()
    assert bob.email == "bob@example.com"


def test_one_reset_email_per_account_per_interval(client, make_player, settings):
    alice = make_player("alice", email="alice@example.com")
    for _ in range(3):
        response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
        assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1  # the same answer each time, one email
    # The interval over, the next request sends again; the first link still works meanwhile.
    Player.objects.filter(pk=alice.pk).update(
        password_reset_sent_at=timezone.now() - settings.PASSWORD_RESET_INTERVAL - timedelta(seconds=1)
    )
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert len(mail.outbox) == 2
    assert client.get(_link(mail.outbox[0])).status_code == 302


def test_the_throttle_is_per_account(client, make_player):
    make_player("alice", email="shared@example.com")
    make_player("bob", email="shared@example.com")
    client.post(reverse("password_reset"), {"email": "shared@example.com"})
    assert sorted(m.body.split(",")[0] for m in mail.outbox) == ["Hello alice", "Hello bob"]
    make_player("carol", email="carol@example.com")
    client.post(reverse("password_reset"), {"email": "carol@example.com"})
    assert len(mail.outbox) == 3
