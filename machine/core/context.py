"""What every job of the core works on: the state, the store, and the settings and game in force.

Owns: the cabinet's settings (``CabinetSettings``, and which of them the operator may change
at once), the settings and the ``Game`` in force (rebuilt from the profile whenever the game's
rules change, so the shoe, Auto and the rules never disagree; while a tournament is in force,
eenendertigen with the tournament's variant, the other games' settings kept as they were), and
``Core``, the one object the job modules (play, payouts, admin) receive, with ``tx``, the one
transaction of an input, in which the seats move only along the seat table
(machine/core/seats.py). Never decides what an input does.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from machine.core import seats
from machine.core.state import CabinetState
from machine.core.store import Snapshot, Store
from machine.core.tourstages import stage_of
from machine.games.blackjack.rules import Rules
from machine.games.interface import Game
from machine.games.rules import Profile
from machine.money.journal import Journal
from machine.money.seatmoney import MoneySettings

MONEY_SETTINGS = ("payout", "hopper_limit", "remainder")
MACHINE_SETTINGS = ("betting_time", "decision_timeout", "credit_limit", "sound_volume", "sound_muted")
# the AFT limits the operator may change (by the names of the configuration's ``aft:`` section), each
# the field of ``AftLimits`` it sets; in force at once, for the transfers asked after the change
AFT_SETTINGS = {"transfer_in_limit": "transfer_in", "daily_in_limit": "daily_in", "transfer_out_limit": "transfer_out",
                "registration_required": "registration_required"}
TOURNAMENT_ENGINE = "eenendertigen"  # the game a tournament plays (machine/core/tournament.py)

GameFactory = Callable[[Profile], Game]
"""Builds the game for a profile (its rules in force): ``lambda p: BlackjackGame(p, auto)``."""

Shuffler = Callable[[list[str], int], list[str]]
"""Puts a fresh shoe (the game's ``new_shoe()``) in dealing order for round ``n``. It may only
reorder the cards: the core refuses a shoe that is not the game's."""


@dataclass(frozen=True)
class AftLimits:
    """The operator's AFT limits in force (machine/operator/aftconfig.py; machine/core/aft.py
    applies them), in points."""

    transfer_in: int = 10_000
    daily_in: int = 50_000
    transfer_out: int = 10_000
    registration_required: bool = False


@dataclass(frozen=True)
class CabinetSettings:
    seats: int = 4
    money: MoneySettings = field(default_factory=MoneySettings)
    coin_values: dict[str, int] = field(default_factory=lambda: {"EU050A": 5, "EU100A": 10, "EU200A": 20})
    credit_limit: int = 10_000  # no coins accepted while the credit meter is at or above this
    note_values: dict[str, int] = field(default_factory=dict)  # bill id -> points (machine/core/notes.py)
    note_max: dict[int, int] = field(default_factory=dict)  # seat -> the largest note it takes, points
    vouchers: bool = False  # a ticket printer is fitted (machine/core/vouchers.py)
    cabinet_id: int = 1  # the cabinet's number on its vouchers
    betting_time: float = 20.0
    decision_timeout: float = 15.0
    reveal_hold: float = 2.0  # seconds a hand shown to every seat (ochko's 21 or bust) holds play (machine/core/reveal.py)
    recall_games: int = 100
    games: tuple[Profile, ...] = ()  # the other enabled games (the operator or a player may choose one)
    denomination_cents: int = 10  # a point's worth: the screens show the meters as money (never the core's sums)
    language: str = "en"  # the screens' language where a seat chose none
    sound_volume: int = 70  # the table's sounds, 0-100 (machine/display/sound.py); the menu sets it (PIN, journaled)
    sound_muted: bool = False
    aft: AftLimits | None = None  # cashless transfers with the host (machine/core/aft.py); None: AFT off


class Core:
    """The state, its store, and what is in force: settings, profile, rules and game."""

    def __init__(self, journal: Journal, profile: Profile, settings: CabinetSettings, game_for: GameFactory, shuffle: Shuffler):
        self.journal = journal
        self.store = Store(journal)
        self.config_profile = profile
        self.profiles: dict[str, Profile] = {profile.game: profile, **{p.game: p for p in settings.games}}
        self.base_profile = profile
        self.base_settings = settings
        self.game_for = game_for
        self.shuffle = shuffle
        self.settings = settings
        self.profile = profile
        self.rules: Rules = profile.rules
        self.game: Game = game_for(profile)
        self.state = CabinetState(seats={})
        self.last_round: Any = None  # for the screens only: results stay shown until the next bet
        # for the screens only: the last change of the game in force (game, seat or None for the
        # operator, at: when the screens began to announce it; None: not yet)
        self.game_shown: dict[str, Any] | None = None
        self.collected: set[int] = set()  # for the screens only: seats that collected since the last round ended
        # the wall clock minus the loop's clock, as the last tick said: the times a person reads
        # or sets (a tournament's start and end, when it opened and closed) survive a power cut
        # only on the wall clock; the loop's monotonic clock restarts with the machine
        self.wall_offset = 0.0

    def wall(self, now: float) -> float:
        """The wall-clock time (seconds since 1970, UTC) at the loop's ``now``."""
        return now + self.wall_offset

    @contextlib.contextmanager
    def tx(self, kind: str, data: dict[str, Any], seat: int | None = None) -> Iterator[None]:
        """Open the one transaction of an input; the seats move only along the seat table
        (``seats.check_moves``: a move off it undoes the whole input)."""
        before = seats.seat_states(self.state)
        with self.store.transaction(kind, data, seat, self.state, self._rollback):
            yield
            seats.check_moves(before, self.state)

    def _rollback(self, snap: Snapshot) -> None:
        self.state = CabinetState.from_data(snap, self.game.restore)
        cab = snap["cabinet"]
        self.apply_settings(cab["overrides"], cab["rule_overrides"])

    def profile_of_engine(self, engine: str) -> Profile:
        """The enabled profile played by ``engine`` (KeyError: none is enabled)."""
        for p in self.profiles.values():
            if p.engine == engine:
                return p
        raise KeyError(engine)

    def apply_settings(self, overrides: Mapping[str, Any], rule_overrides: Mapping[str, Any]) -> None:
        """Put machine settings and game rules in force; a change of rules rebuilds the game."""
        money = {k: v for k, v in overrides.items() if k in MONEY_SETTINGS}
        machine = {k: v for k, v in overrides.items() if k in MACHINE_SETTINGS}
        aft = self.base_settings.aft  # AFT off in the configuration: the journal's AFT values wait, unused
        if aft is not None:
            aft = dataclasses.replace(aft, **{AFT_SETTINGS[k]: v for k, v in overrides.items() if k in AFT_SETTINGS})
        self.settings = dataclasses.replace(
            self.base_settings, money=dataclasses.replace(self.base_settings.money, **money), aft=aft, **machine
        )
        self.state.row.overrides = dict(overrides)
        self.base_profile = self.profiles.get(self.state.row.game or "", self.config_profile)
        rules = self.base_profile.rules.with_overrides(rule_overrides)
        tournament = self.state.row.tournaments.get("open")
        if tournament is not None and stage_of(tournament).in_force:  # the tournament's game and variant, nothing else
            try:
                self.base_profile = self.profile_of_engine(TOURNAMENT_ENGINE)
            except KeyError:  # disabled in the configuration while it was open: its own defaults play it out
                from machine.games.catalog import rules_class

                defaults = rules_class(TOURNAMENT_ENGINE)()
                self.base_profile = Profile(TOURNAMENT_ENGINE, TOURNAMENT_ENGINE, "Eenendertigen", defaults)
            rules = self.base_profile.rules.with_overrides({"variant": tournament["variant"]})
        if rules != self.rules or self.profile.game != self.base_profile.game:
            self.rules = rules
            self.profile = dataclasses.replace(self.base_profile, rules=rules)
            self.game = self.game_for(self.profile)
        self.state.row.rule_overrides = dict(rule_overrides)
