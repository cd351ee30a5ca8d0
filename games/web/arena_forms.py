"""Forms of the arena and puzzle pages: a new arena (the board as the new-game form asks it), joining with a
password, the puzzles' board."""

from __future__ import annotations

from typing import Any

from django import forms

from ..arena import MAX_MINUTES, MAX_PASSWORD, MIN_MINUTES
from ..engine import VARIANTS
from .forms import OPTION_FIELDS, NewGameForm, WholeNumberField

ARENA_CLOCKS = [
    ("1+0", "1+0 (bullet)"), ("2+1", "2+1 (bullet)"), ("3+0", "3+0 (blitz)"), ("3+2", "3+2 (blitz)"),
    ("5+0", "5+0 (blitz)"), ("5+3", "5+3 (blitz)"), ("10+0", "10+0 (rapid)"), ("10+5", "10+5 (rapid)"),
]
STARTS = [("0", "Now"), ("60", "In 1 minute"), ("300", "In 5 minutes"), ("600", "In 10 minutes"),
          ("1800", "In 30 minutes"), ("3600", "In an hour")]


def _options(form: forms.Form, data: dict[str, Any]) -> None:
    """The chosen variant's options as the services take them (the others' fields, hidden, are left out)."""
    cls = VARIANTS.get(data.get("variant") or "")
    if cls is None:
        return
    for name in OPTION_FIELDS:
        if name not in cls.option_spec:
            form.errors.pop(name, None)
    data["options"] = {
        name: bool(data.get(name)) if kind is bool else (default if data.get(name) is None else data[name])
        for name, (kind, default, _low, _high) in cls.option_spec.items()
    }


class ArenaForm(forms.Form):
    name = forms.CharField(
        required=False, max_length=100, label="Name", help_text="Optional: the board and clock by default"
    )
    variant = NewGameForm.base_fields["variant"]
    size = NewGameForm.base_fields["size"]
    rows = NewGameForm.base_fields["rows"]
    cols = NewGameForm.base_fields["cols"]
    k = NewGameForm.base_fields["k"]
    closed_boards = NewGameForm.base_fields["closed_boards"]
    random_start = NewGameForm.base_fields["random_start"]
    clock = forms.ChoiceField(choices=ARENA_CLOCKS, initial="3+2", label="Clock")
    minutes = WholeNumberField(
        min_value=MIN_MINUTES, max_value=MAX_MINUTES, initial=30, label="Length (minutes)",
        help_text=f"{MIN_MINUTES} to {MAX_MINUTES} minutes",
    )
    starts_in = forms.TypedChoiceField(choices=STARTS, coerce=int, initial="300", label="Starts")
    rated = forms.ChoiceField(
        choices=[("rated", "Rated"), ("casual", "Casual")], initial="rated", widget=forms.RadioSelect,
        label="Rated or casual",
    )
    berserk = forms.BooleanField(required=False, initial=True, label="Berserk allowed")
    password = forms.CharField(
        required=False, max_length=MAX_PASSWORD, label="Password", widget=forms.PasswordInput(render_value=True),
        help_text="Optional: only players who know it may join",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        _options(self, data)
        data["rated"] = data.get("rated") != "casual"
        return data


class JoinForm(forms.Form):
    password = forms.CharField(required=False, max_length=MAX_PASSWORD, widget=forms.PasswordInput, label="Password")


class PuzzleBoardForm(forms.Form):
    """Which board's puzzles: a variant and its options (the puzzles page's menu)."""

    variant = NewGameForm.base_fields["variant"]
    size = NewGameForm.base_fields["size"]
    rows = NewGameForm.base_fields["rows"]
    cols = NewGameForm.base_fields["cols"]
    k = NewGameForm.base_fields["k"]
    closed_boards = NewGameForm.base_fields["closed_boards"]
    random_start = NewGameForm.base_fields["random_start"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        _options(self, data)
        return data
