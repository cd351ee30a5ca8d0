"""Forms of the players app: Django's own, bound to the custom user model."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.validators import MaxLengthValidator

from .models import Player
from .services import password_reset_claim

EMAIL_HELP = "Used only to send you a link if you forget your password; nobody else sees it."


def focus_first_error(form: forms.BaseForm) -> None:
    """A form sent back with errors: its first field in error takes the focus, not the field Django's form
    autofocuses (the username), so that a keyboard or screen reader user lands on what to fix. Errors that
    belong to no field (a wrong login) leave the focus where it was."""
    first = next((name for name in form.fields if name in form.errors), None)
    if first is None:
        return
    for field in form.fields.values():  # each form has its own copies of its fields and widgets
        field.widget.attrs.pop("autofocus", None)
    form.fields[first].widget.attrs["autofocus"] = True


class BoundedUsernameMixin:
    """Django's login form only sets the HTML maxlength of the username: bound it on the server too, so that a
    2 MB username is a form error (no password hash, no throttling record) rather than a lookup."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]  # type: ignore[attr-defined]
        field.validators.append(MaxLengthValidator(field.max_length))


class LoginForm(BoundedUsernameMixin, AuthenticationForm):
    pass


class AdminLoginForm(BoundedUsernameMixin, AdminAuthenticationForm):
    pass


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


class PreferencesForm(forms.ModelForm):
    """A player's preferences (kept on the player, so in every browser): the boards' colours, when a move takes two
    clicks, premoves in games with a clock."""

    class Meta:
        model = Player
        fields = ["board_theme", "confirm_moves", "premove"]
        labels = {"board_theme": "Board colours", "confirm_moves": "Confirm moves", "premove": "Premoves"}
        help_texts = {
            "confirm_moves": "A move that takes two clicks (or taps) is never played by a slip of the hand.",
            "premove": "In games with a clock, click a cell while your opponent thinks: it is played as soon as "
            "it is your turn.",
        }
        widgets = {"board_theme": forms.RadioSelect, "confirm_moves": forms.RadioSelect}
