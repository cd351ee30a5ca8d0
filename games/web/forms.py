"""Forms of the games pages. Field names follow the web contract of DESIGN.md."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from ..engine import STRATEGIES, VARIANTS
from ..engine.clock import InvalidTimeControl, TimeControl
from ..engine.levels import LADDER
from ..models import Opponent
from ..selectors import RESULT_FILTERS

#: which option fields belong to which variant (the form shows only the chosen variant's)
OPTION_FIELDS = ("size", "rows", "cols", "k", "opening", "closed_boards", "random_start")


def _variant_choices() -> list[tuple[str, str]]:
    return [(key, cls.title) for key, cls in VARIANTS.items()]


def _strategy_choices() -> list[tuple[str, str]]:
    return [("", "By level (recommended)")] + [(name, name) for name in sorted(STRATEGIES)]


#: the opponents each field goes with; the form hides it for the others, and the server ignores it then
OPPONENT_FIELDS = {
    "invite": (Opponent.HUMAN,),
    "clock": (Opponent.HUMAN,),
    "clock_custom": (Opponent.HUMAN,),
    "strategy": (Opponent.EASY, Opponent.MEDIUM, Opponent.HARD, Opponent.WATCH),
    "level": (Opponent.EASY, Opponent.MEDIUM, Opponent.HARD, Opponent.WATCH),
    # on one screen the player takes both sides, and watches both computers: no side to choose
    "side": (Opponent.EASY, Opponent.MEDIUM, Opponent.HARD, Opponent.HUMAN),
}


class WholeNumberField(forms.IntegerField):
    """An IntegerField that takes ASCII digits only, as the API and the moves do: Django's also reads '5.0' and
    other scripts' digits ('٥')."""

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str) and value.strip() and not re.fullmatch(r"[+-]?[0-9]{1,9}", value.strip()):
            raise forms.ValidationError("Enter a whole number in digits 0-9.", code="invalid")
        return super().to_python(value)


#: the time controls the form offers (DESIGN.md "Clocks"): none, real time (minutes + seconds a move), custom,
#: correspondence (days per move)
CLOCK_CHOICES = [
    ("none", "No clock"),
    ("Real time (minutes + seconds added per move)", [
        ("1+0", "1+0 (bullet)"), ("3+2", "3+2 (blitz)"), ("5+3", "5+3 (blitz)"), ("10+5", "10+5 (rapid)"),
        ("15+10", "15+10 (rapid)"), ("custom", "Custom…"),
    ]),
    ("Correspondence", [("1d", "1 day per move"), ("3d", "3 days per move"), ("7d", "7 days per move")]),
]


VISIBILITY_CHOICES = [
    ("", "Default"),
    ("public", "Anyone signed in"),
    ("private", "Only the players"),
]
#: the default's label says what it comes to (the page's script keeps it in step while the form is filled in)
DEFAULT_VISIBILITY = {False: "Default: anyone", True: "Default: the two players"}


def default_is_private(*, opponent: str | None, invite: str | None) -> bool:
    """A challenge sent to a named player is private unless asked otherwise; every other game is public."""
    return opponent == Opponent.HUMAN and bool((invite or "").strip())


class NewGameForm(forms.Form):
    variant = forms.ChoiceField(choices=_variant_choices, initial="classic")
    size = WholeNumberField(
        required=False, min_value=3, max_value=10, initial=5, label="Size (n x n)", help_text="3 to 10; n in a row wins"
    )
    rows = WholeNumberField(
        required=False, min_value=3, max_value=19, initial=15, label="Rows", help_text="3 to 19"
    )
    cols = WholeNumberField(
        required=False, min_value=3, max_value=19, initial=15, label="Columns", help_text="3 to 19"
    )
    k = WholeNumberField(
        required=False, min_value=3, max_value=19, initial=5, label="In a row to win (k)",
        help_text="3 up to the longer side",
    )
    opening = forms.ChoiceField(
        choices=[("freestyle", "Freestyle"), ("swap2", "Swap2")], required=False, initial="freestyle",
        label="Opening", help_text="Swap2 (five in a row on at least 15 x 15): X places three stones, O chooses a "
        "side or places two more and hands the choice back",
    )
    closed_boards = forms.BooleanField(required=False, label="Won boards are closed")
    random_start = forms.BooleanField(required=False, label="First board drawn at random")
    opponent = forms.ChoiceField(choices=Opponent.choices, initial=Opponent.MEDIUM, widget=forms.RadioSelect)
    level = forms.ChoiceField(
        choices=[("", "By the opponent's name (easy 2, medium 4, hard 8)")]
        + [(str(rung), f"Level {rung}") for rung in range(1, 9)],
        required=False,
        label="Computer level",
        help_text="Optional: a rung of the ladder, 1 (weakest) to 8 (strongest), instead of easy, medium or hard",
    )
    strategy = forms.ChoiceField(
        choices=_strategy_choices,
        required=False,
        label="Computer strategy",
        help_text="Optional: a named computer player instead of the level",
    )
    side = forms.ChoiceField(
        choices=[("X", "X (moves first)"), ("O", "O"), ("random", "Random")], initial="X", widget=forms.RadioSelect
    )
    invite = forms.CharField(
        required=False, max_length=150, label="Challenge a named player",
        help_text="Optional, for another player: their username; leave empty for an open challenge anyone may accept",
    )
    # Text, not a choice: any control the API takes is taken here too (the menu offers the usual ones)
    clock = forms.CharField(
        required=False, initial="none", label="Clock", widget=forms.Select(choices=CLOCK_CHOICES),
        help_text="Against another player only. The clock starts after both first moves; a side that does not make "
        "its first move in time (30 seconds in real time) aborts the game",
    )
    clock_custom = forms.CharField(
        required=False, max_length=16, label="Custom clock (minutes+seconds)", widget=forms.TextInput(
            attrs={"placeholder": "e.g. 4+2", "inputmode": "decimal", "autocomplete": "off"}
        ),
        help_text="With Custom: minutes each (0.25, 0.5, 0.75, 1.5 or 1 to 180) + seconds added per move (0 to 180)",
    )
    visibility = forms.ChoiceField(
        choices=VISIBILITY_CHOICES, required=False, initial="", label="Who may watch",
        widget=forms.Select(attrs={"data-default-public": DEFAULT_VISIBILITY[False],
                                   "data-default-private": DEFAULT_VISIBILITY[True]}),
        help_text="Default: anyone signed in, but only the two players for a challenge to a named player",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        source = self.data if self.is_bound else self.initial
        private = default_is_private(
            opponent=source.get("opponent", self.fields["opponent"].initial), invite=source.get("invite")
        )
        self.fields["visibility"].choices = [("", DEFAULT_VISIBILITY[private]), *VISIBILITY_CHOICES[1:]]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self._ignore_hidden_fields(data)
        # "" = the default: private for a challenge sent to a named player, public otherwise
        data["private"] = {"public": False, "private": True}.get(data.get("visibility") or "")
        data["invite"] = (data.get("invite") or "").strip()
        self._clean_clock(data)
        key = data.get("variant")
        cls = VARIANTS.get(key) if key else None
        if cls is None:
            return data
        options: dict[str, Any] = {}
        for name, (kind, default, _low, _high) in cls.option_spec.items():
            value = data.get(name)
            if kind is bool:
                options[name] = bool(value)
            else:
                options[name] = default if value in (None, "") else value
        try:
            cls(**options)
        except ValueError as err:
            text = str(err)
            # "k=9 cannot be larger than the board (7 x 5)...": shown on the field it names, which is marked
            named = next((name for name in cls.option_spec if text.startswith(f"{name}=")), None)
            if named in self.fields:
                self.add_error(named, text)
                return data
            raise forms.ValidationError(text[:1].upper() + text[1:]) from None
        data["options"] = options
        return data

    def _clean_clock(self, data: dict[str, Any]) -> None:
        """``clock``: the control as the services take it (``none`` when not given, or not for this opponent)."""
        chosen = (data.get("clock") or "").strip() or "none"
        field = "clock"
        if chosen == "custom":
            chosen, field = (data.get("clock_custom") or "").strip(), "clock_custom"
            if not chosen:
                self.add_error(field, "Write the custom clock as minutes+seconds, e.g. 4+2.")
                return
        try:
            data["clock"] = str(TimeControl.parse(chosen))
        except InvalidTimeControl as err:
            self.add_error(field, f"{str(err)[:1].upper()}{str(err)[1:]}.")

    def _ignore_hidden_fields(self, data: dict[str, Any]) -> None:
        """Fields of another variant or opponent than the chosen ones (hidden on the page, keeping what was typed
        before switching) are left out, errors and all: an error there would be one the player cannot see."""
        cls = VARIANTS.get(data.get("variant") or "")
        ignored = [name for name in OPTION_FIELDS if cls is not None and name not in cls.option_spec]
        opponent = data.get("opponent")
        if opponent:
            ignored += [name for name, opponents in OPPONENT_FIELDS.items() if opponent not in opponents]
        for name in ignored:
            self._errors.pop(name, None)
            data[name] = "X" if name == "side" else self.fields[name].to_python("")  # as if left empty


#: quick pairing's time controls: the presets, correspondence and none (DESIGN.md "Clocks")
SEEK_CLOCK_CHOICES = [
    ("none", "No clock"),
    ("Real time (minutes + seconds added per move)", [
        ("1+0", "1+0 (bullet)"), ("3+2", "3+2 (blitz)"), ("5+3", "5+3 (blitz)"), ("10+5", "10+5 (rapid)"),
        ("15+10", "15+10 (rapid)"),
    ]),
    ("Correspondence", [("1d", "1 day per move"), ("3d", "3 days per move"), ("7d", "7 days per move")]),
]


#: the computer of "Play on from here" and the analysis board's Play: the three names (hard first: the default),
#: then the ladder's rungs (games.services.create.computer_level)
COMPUTER_LEVEL_CHOICES = [(name, name) for name in ("hard", "medium", "easy")] + [
    (str(rung), f"level {rung}") for rung in LADDER
]


class SeekForm(forms.Form):
    """Quick pairing: the game sought (the new game form's variant and options), its clock, rated or casual. The
    options' limits are the engine's, checked by the service (``games.services.seeks``)."""

    variant = NewGameForm.base_fields["variant"]
    size = NewGameForm.base_fields["size"]
    rows = NewGameForm.base_fields["rows"]
    cols = NewGameForm.base_fields["cols"]
    k = NewGameForm.base_fields["k"]
    opening = NewGameForm.base_fields["opening"]
    closed_boards = NewGameForm.base_fields["closed_boards"]
    random_start = NewGameForm.base_fields["random_start"]
    clock = forms.ChoiceField(choices=SEEK_CLOCK_CHOICES, initial="none", label="Clock")
    rated = forms.ChoiceField(
        choices=[("rated", "Rated"), ("casual", "Casual")], initial="rated", widget=forms.RadioSelect,
        label="Rated or casual",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        cls = VARIANTS.get(data.get("variant") or "")
        if cls is not None:  # only the chosen variant's options; errors on the others' (hidden) fields dropped
            for name in OPTION_FIELDS:
                if name not in cls.option_spec:
                    self._errors.pop(name, None)
            data["options"] = {
                name: bool(data.get(name)) if kind is bool
                else (default if data.get(name) in (None, "") else data[name])
                for name, (kind, default, _low, _high) in cls.option_spec.items()
            }
        data["rated"] = data.get("rated") != "casual"
        return data


class HistoryFilterForm(forms.Form):
    variant = forms.ChoiceField(choices=lambda: [("", "All variants"), *_variant_choices()], required=False)
    result = forms.ChoiceField(choices=[("", "Any result"), *RESULT_FILTERS.items()], required=False)
