"""Forms of the players app: Django's own, bound to the custom user model."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm

from .models import Player
from .services import password_reset_claim

EMAIL_HELP = "Used only to send you a link if you forget your password; nobody else sees it."


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username", "email")
        labels = {"email": "Email (optional)"}
        help_texts = {"email": EMAIL_HELP}


class EmailForm(forms.ModelForm):
    """The player's own email address, for password resets; empty removes it."""

    class Meta:
        model = Player
        fields = ("email",)
        labels = {"email": "Email for password resets"}
        help_texts = {"email": EMAIL_HELP}


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending to each account at most once per PASSWORD_RESET_INTERVAL.

    The page after it reads the same either way, as it does for an unknown address.
    """

    def get_users(self, email: str) -> list[Player]:
        return [player for player in super().get_users(email) if password_reset_claim(player=player)]
