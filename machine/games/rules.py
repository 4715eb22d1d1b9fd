"""What every game's settings share, and a game profile as a value.

Owns: ``RulesError`` (every bad setting reported at once, by name), ``TableRules`` (the base of
each game's frozen settings class: the table limits, plain data, validation of overrides) and
``Profile`` (a profile's game name, engine and settings). Each game's own settings class lives
in its package (``blackjack.rules.Rules``, ``ochko.rules.OchkoRules``, ...); the parsers are
``settings``'. Pure: reading a profile file is ``machine.profiles``', never the games'.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Self

from machine.games.settings import ratio_text


class RulesError(ValueError):
    """One or more bad settings; ``problems`` lists each as ``name: message``."""

    def __init__(self, where: str, problems: list[str]):
        self.where = where
        self.problems = problems
        super().__init__("; ".join(f"{where}: {p}" for p in problems))


class TableRules:
    """What every game's settings share: the table limits, plain data and validation.

    A game's settings are a frozen dataclass deriving from this, with ``PARSERS`` naming a
    parser for each of its fields (a parser returns the typed value or raises ValueError with
    the reason). Every game has ``decks``, ``min_bet``, ``max_bet`` and ``bet_step``.
    """

    PARSERS: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    # a setting whose None a profile writes as a word (blackjack's double totals: "any")
    NONE_WRITTEN: ClassVar[Mapping[str, str]] = {}
    # the seats from which one deck is too few for this game (a full table of the blackjack
    # family would run one deck dry); None: one deck serves any number of seats
    SEATS_FOR_TWO_DECKS: ClassVar[int | None] = None
    decks: int
    min_bet: int
    max_bet: int
    bet_step: int

    def bet_problem(self, bet: object) -> str | None:
        """Why ``bet`` breaks the table limits, or None when it keeps them."""
        if isinstance(bet, bool) or not isinstance(bet, int):
            return f"bet {bet!r} is not a whole number of points"
        if bet < self.min_bet:
            return f"bet {bet} is below the minimum of {self.min_bet}"
        if bet > self.max_bet:
            return f"bet {bet} is above the maximum of {self.max_bet}"
        if bet % self.bet_step:
            return f"bet {bet} is not a multiple of {self.bet_step}"
        return None

    def bets(self, top: int | None = None) -> list[int]:
        """Every bet the table allows, up to ``top`` when given (in steps of ``bet_step``)."""
        hi = self.max_bet if top is None else min(self.max_bet, top)
        return list(range(self.min_bet, hi + 1, self.bet_step))

    # -- plain data ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain data, in the form a profile file writes them."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if isinstance(v, Fraction):
                v = ratio_text(v)
            elif isinstance(v, frozenset):
                v = sorted(v)
            elif v is None and f.name in self.NONE_WRITTEN:
                v = self.NONE_WRITTEN[f.name]
            out[f.name] = v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "rules") -> Self:
        """Build from plain data; unknown names and bad values are reported all at once."""
        return cls().with_overrides(data, where)

    def with_overrides(self, data: Mapping[str, Any] | None, where: str = "rules") -> Self:
        if data is None:
            return self
        if not isinstance(data, Mapping):
            raise RulesError(where, [f"must be a mapping of setting names to values, not {data!r}"])
        names = {f.name for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        problems: list[str] = []
        changes: dict[str, Any] = {}
        for key, raw in data.items():
            if key not in names:
                problems.append(f"{key}: unknown setting (known: {', '.join(sorted(names))})")
                continue
            try:
                changes[key] = self.PARSERS[key](raw)
            except ValueError as exc:
                problems.append(f"{key}: {exc}")
        if not problems:
            candidate = dataclasses.replace(self, **changes)  # type: ignore[type-var]
            problems = candidate._consistency_problems()
            if not problems:
                return candidate
        raise RulesError(where, problems)

    def _consistency_problems(self) -> list[str]:
        out = []
        if self.min_bet > self.max_bet:
            out.append(f"min_bet: {self.min_bet} is above max_bet {self.max_bet}")
        if self.min_bet % self.bet_step:
            out.append(f"min_bet: {self.min_bet} is not a multiple of bet_step {self.bet_step}")
        return out


@dataclass(frozen=True)
class Profile:
    """A game profile: the game's name, its rules module (``engine``) and its settings."""

    game: str
    engine: str
    title: str
    rules: Any  # the engine's settings class (a TableRules; blackjack: Rules)
