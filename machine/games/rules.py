"""The rule settings of a blackjack-family game, and the game profiles that hold them.

Owns: the named settings of section 9 of ``random-blackjack.md`` as one frozen value
(``Rules``), their validation (every bad setting is reported at once, by name), and loading a
profile ``config/games/<name>.yaml`` with a script's ``rules:`` overrides on top. Never deals a
card: the engine reads these settings, the analysis prices them.
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, Self

from machine import yamlio

SURRENDER = ("none", "late", "early")
NO_HOLE_CARD_LOSES = ("all", "original")


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
                v = _ratio_text(v)
            elif isinstance(v, frozenset):
                v = sorted(v)
            elif v is None and f.name in ("double_hard", "double_soft"):
                v = "any"
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
class Rules(TableRules):
    """Every rule setting of a blackjack-family game. Defaults are Random Blackjack's."""

    decks: int = 6
    hole_card: bool = False
    dealer_hits_soft_17: bool = False
    blackjack_pays: Fraction = Fraction(3, 2)
    insurance_pays: Fraction = Fraction(2)
    double_hard: frozenset[int] | None = frozenset({9, 10, 11})  # None: any total
    double_soft: frozenset[int] | None = frozenset({19, 20, 21})  # None: any total
    double_after_split: bool = True
    double_makes_aces_hard: bool = True
    max_splits_and_doubles: int | None = 3
    max_hands: int = 4
    split_aces_one_card: bool = True
    resplit_aces: bool = True
    surrender: str = "none"
    three_sevens_bonus: Fraction = Fraction(1)
    five_card_charlie: bool = False
    no_hole_card_loses: str = "all"  # a dealer blackjack without a hole card takes every stake, or the original bet
    dealer_wins_ties: frozenset[int] = frozenset()  # totals on which a tie loses instead of pushing
    spanish_deck: bool = False  # the rank T (not J Q K) taken out of every deck: 48-card decks
    player_21_wins: bool = False  # a player's 21 beats a dealer's 21 that is not a blackjack
    min_bet: int = 2
    max_bet: int = 500
    bet_step: int = 2

    # -- the questions the engine and the analysis ask -------------------------------------

    def may_double_total(self, total: int, soft: bool) -> bool:
        """Whether a two-card hand of this total may double. "any" is every total but 21: a
        hand of 21 stands by itself unless its list names 21 (Random Blackjack's soft 21)."""
        allowed = self.double_soft if soft else self.double_hard
        return total != 21 if allowed is None else total in allowed


def totals_mask(totals: frozenset[int]) -> int:
    """A set of totals as the bit mask the settlement rule reads (bit t: total t)."""
    mask = 0
    for t in totals:
        mask |= 1 << t
    return mask


# -- value parsers: each returns the typed value or raises ValueError with the reason ---------


def _bool(v: object) -> bool:
    if not isinstance(v, bool):
        raise ValueError(f"must be true or false, not {v!r}")
    return v


def _int_range(lo: int, hi: int | None):
    def parse(v: object) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"must be a whole number, not {v!r}")
        if v < lo or (hi is not None and v > hi):
            raise ValueError(f"must be {lo} to {hi}, not {v}" if hi is not None else f"must be at least {lo}, not {v}")
        return v

    return parse


def _optional(parse):
    def inner(v: object):
        return None if v is None else parse(v)

    return inner


def _ratio_text(r: Fraction) -> int | float | str:
    """A payout as a profile writes it: 2, 1.5, or "1:3" when no short decimal is exact."""
    if r.denominator == 1:
        return int(r)
    if Fraction(str(float(r))) == r:
        return float(r)
    return f"{r.numerator}:{r.denominator}"


def _ratio(v: object) -> Fraction:
    """A payout written as a number (1.5) or as odds ("3:2", "6:5")."""
    if isinstance(v, bool):
        raise ValueError(f"must be a number like 1.5 or odds like 3:2, not {v!r}")
    try:
        if isinstance(v, str) and ":" in v:
            a, b = v.split(":")
            r = Fraction(int(a), int(b))
        elif isinstance(v, (int, float, str)):
            r = Fraction(str(v))
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"must be a number like 1.5 or odds like 3:2, not {v!r}") from None
    if r < 0:
        raise ValueError(f"must not be negative, not {v!r}")
    return r


def _totals(lo: int, hi: int):
    def parse(v: object) -> frozenset[int] | None:
        if v == "any":
            return None
        if not isinstance(v, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in v):
            raise ValueError(f'must be a list of totals or "any", not {v!r}')
        bad = [t for t in v if not lo <= t <= hi]
        if bad:
            raise ValueError(f"totals must be {lo} to {hi}, not {bad}")
        return frozenset(v)

    return parse


def _total_list(lo: int, hi: int):
    def parse(v: object) -> frozenset[int]:
        if not isinstance(v, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in v):
            raise ValueError(f"must be a list of totals, not {v!r}")
        bad = [t for t in v if not lo <= t <= hi]
        if bad:
            raise ValueError(f"totals must be {lo} to {hi}, not {bad}")
        return frozenset(v)

    return parse


def _choice(options: tuple[str, ...]):
    def parse(v: object) -> str:
        if v not in options:
            raise ValueError(f"must be one of {', '.join(options)}, not {v!r}")
        return str(v)

    return parse


_PARSERS = {
    "decks": _int_range(0, 8),
    "hole_card": _bool,
    "dealer_hits_soft_17": _bool,
    "blackjack_pays": _ratio,
    "insurance_pays": _ratio,
    "double_hard": _totals(4, 21),
    "double_soft": _totals(12, 21),
    "double_after_split": _bool,
    "double_makes_aces_hard": _bool,
    "max_splits_and_doubles": _optional(_int_range(0, None)),
    "max_hands": _int_range(1, 16),
    "split_aces_one_card": _bool,
    "resplit_aces": _bool,
    "surrender": _choice(SURRENDER),
    "three_sevens_bonus": _ratio,
    "five_card_charlie": _bool,
    "no_hole_card_loses": _choice(NO_HOLE_CARD_LOSES),
    "dealer_wins_ties": _total_list(17, 21),
    "spanish_deck": _bool,
    "player_21_wins": _bool,
    "min_bet": _int_range(1, None),
    "max_bet": _int_range(1, None),
    "bet_step": _int_range(1, None),
}
Rules.PARSERS = _PARSERS

# the settings every game shares, for the other games' parser tables
TABLE_PARSERS = {k: _PARSERS[k] for k in ("min_bet", "max_bet", "bet_step")}


# -- game profiles ----------------------------------------------------------------------------


def shipped_config_dir() -> Path:
    """The configuration shipped with the program: ``machine/_config``, package data.

    In a checkout and in an editable install ``machine/_config`` is a symbolic link to the
    repository's ``config/``; in a wheel it is a copy of it. Either way the package finds it.
    """
    folder = importlib.resources.files("machine") / "_config"
    if not isinstance(folder, Path):  # e.g. a zipped install: there is no folder to read
        raise RulesError("config", [f"the shipped configuration is not a folder on disk ({folder})"])
    return folder


def config_dir() -> Path:
    """The configuration folder: ``$CABINET_CONFIG``, else the shipped one."""
    env = os.environ.get("CABINET_CONFIG")
    return Path(env) if env else shipped_config_dir()


@dataclass(frozen=True)
class Profile:
    """A game profile: the game's name, its rules module (``engine``) and its settings."""

    game: str
    engine: str
    title: str
    rules: Any  # the engine's settings class (a TableRules; blackjack: Rules)


MAX_GAME_NAME = 64  # a profile file name; a longer one would be an OS error, not "no such game"


def load_profile(game: str, overrides: Mapping[str, Any] | None = None) -> Profile:
    """Load ``config/games/<game>.yaml`` and apply ``overrides`` to its rules."""
    if not isinstance(game, str) or not game or "/" in game or game.startswith("."):
        raise RulesError("game", [f"{game!r} is not a game profile name"])
    if len(game) > MAX_GAME_NAME:
        raise RulesError("game", [f"a game name of {len(game)} characters is not a game profile name "
                                  f"(at most {MAX_GAME_NAME})"])
    path = config_dir() / "games" / f"{game}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in (config_dir() / "games").glob("*.yaml"))
        raise RulesError("game", [f"no game profile {game!r} (known: {', '.join(known) or 'none'})"])
    data = yamlio.load(path)
    if not isinstance(data, dict):
        raise RulesError(str(path), ["a profile must be a mapping with game: and rules:"])
    extra = set(data) - {"game", "engine", "title", "rules"}
    if extra:
        raise RulesError(str(path), [f"{k}: unknown key (known: game, engine, title, rules)" for k in sorted(extra)])
    if data.get("game") != game:
        raise RulesError(str(path), [f"game: says {data.get('game')!r}, but the file is named for {game!r}"])
    from machine.games.catalog import rules_class  # the catalog imports every game, which import this

    engine = str(data.get("engine", "blackjack"))
    try:
        cls = rules_class(engine)
    except RulesError as exc:
        raise RulesError(str(path), exc.problems) from None
    rules = cls().with_overrides(data.get("rules") or {}, f"{path}: rules")
    rules = rules.with_overrides(overrides, "rules")
    return Profile(game=game, engine=engine, title=str(data.get("title", game)), rules=rules)
