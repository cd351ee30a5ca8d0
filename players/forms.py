"""Forms of the players app: Django's own, bound to the custom user model."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm

from .models import Player


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username",)
