"""What every computer player is: the ``Strategy`` base class, the registry of strategies by name (seed 004's
plugins) and ``get_strategy``. The package's ``__init__`` imports every strategy's module, which registers it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from ..core import State, Variant, shown

STRATEGIES: dict[str, type[Strategy]] = {}

S = TypeVar("S", bound="type[Strategy]")

#: who plays the own moves of an opening rule (games.engine.swap2), by the rule's name: registered by the module that
#: plays them (games.engine.strategies.openings), so that every strategy plays an opening alike
OPENING_PLAYERS: dict[str, Callable[[State, Strategy], int]] = {}


def register(cls: S) -> S:
    STRATEGIES[cls.name] = cls
    return cls


class Strategy(ABC):
    """Base class: subclasses set ``name``, ``option_spec`` and implement ``supports`` and ``_choose``."""

    name: ClassVar[str] = ""
    #: option name -> (type or tuple of types, default)
    option_spec: ClassVar[dict[str, tuple[Any, Any]]] = {}

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.option_spec))
        if unknown:
            allowed = ", ".join(sorted(self.option_spec)) or "none"
            raise ValueError(
                f"unknown option {', '.join(shown(u) for u in unknown[:5])} for strategy {self.name!r} "
                f"(options it takes: {allowed})"
            )
        self.options = {name: options.get(name, default) for name, (_, default) in self.option_spec.items()}
        for name, (kind, _) in self.option_spec.items():
            value = self.options[name]
            if value is not None and (not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool)):
                raise ValueError(f"option {name!r} of strategy {self.name!r} has a wrong type: {value!r}")

    def supports(self, variant: Variant) -> bool:
        return True

    def choose(self, state: State) -> int:
        if not self.supports(state.variant):
            raise ValueError(f"strategy {self.name!r} does not support variant {state.variant.key!r}")
        if state.is_over:
            raise ValueError("the game is over: there is no move to choose")
        board = getattr(state, "board", None)
        if board is not None:  # a game with an opening rule (Swap2): its opening, then the stones' own game
            if not state.opening_done:  # type: ignore[attr-defined]
                return OPENING_PLAYERS[state.opening](state, self)  # type: ignore[attr-defined]
            return self._choose(board)
        return self._choose(state)

    @abstractmethod
    def _choose(self, state: State) -> int: ...

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items() if v is not None)
        return f"<{type(self).__name__} {self.name}({opts})>"


def get_strategy(name: str, **options: Any) -> Strategy:
    """The strategy ``name`` with ``options`` (see RULES.md); ValueError names what is wrong."""
    try:
        cls = STRATEGIES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown strategy {shown(name)}; choose one of {', '.join(sorted(STRATEGIES))}") from None
    return cls(**options)
