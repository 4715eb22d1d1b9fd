"""The cabinet core: every seat's money, the shared round and the journal, joined.

Owns: the ONE entry point of the core (``Cabinet``, its read side and its inputs gathered from
``queries``, ``play_inputs``, ``device_inputs`` and ``operator_inputs``), and the boot: the
journal opened and checked, every meter, the round and the payouts restored, or the machine
locked (``open_cabinet``, ``Cabinet.boot``). Each input (a coin, a button press, the clock moving
on, a hopper report, the attendant key, an operator's change) opens ONE journal transaction
and hands the work to the module whose job it is: ``play`` (rounds), ``payouts`` (coins in,
Collect, the hopper's ledger, handpays, tilts, the attendant), ``admin`` (settings, RAM clear,
period reset, pauses, the self-audit), ``tournament`` (eenendertigen tournaments: a mode in
which the cabinet plays only the tournament), ``pinlock`` (the lockout after wrong operator
PINs); ``lamps`` answers what is live, ``state`` holds the typed state and ``store`` the
transaction machinery.

Never opens a serial port, draws a frame or reads a clock: time comes in as ``now``
arguments, the shoe's order from an injected shuffler, the game through the ``Game``
interface (``machine/games/interface.py``); the hopper is driven by whoever owns it through
``payouts_owed`` and the chunk ledger (``chunk_begin`` ... ``chunk_end``, see
machine/loop/payout.py) or the hopper test's (``hopper_test_begin`` ... ``hopper_test_end``),
and the devices' counters are handed in (``hopper_counter_check`` at start-up and after each
payout, ``acceptor_moved_while_down``) for the core to compare with the journal's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from machine.core import admin
from machine.core.admin import fresh_seat
from machine.core.aft_inputs import AftInputs
from machine.core.context import AFT_SETTINGS, MACHINE_SETTINGS, MONEY_SETTINGS, CabinetSettings, Core, GameFactory, Shuffler
from machine.core.device_inputs import DeviceInputs
from machine.core.note_inputs import NoteInputs
from machine.core.operator_inputs import OperatorInputs
from machine.core.payouts import POWER_CUT
from machine.core.play_inputs import PlayInputs
from machine.core.state import CabinetRow, CabinetState, Payout, SeatState
from machine.core.voucher_inputs import VoucherInputs
from machine.games.cards import RandomSource, shuffle
from machine.games.rules import Profile
from machine.money.journal import Journal, JournalError
from machine.money.memory import Memory, UntrustedMemory, open_journal

__all__ = [
    "AFT_SETTINGS", "MACHINE_SETTINGS", "MONEY_SETTINGS", "POWER_CUT", "Cabinet", "CabinetLocked", "CabinetSettings",
    "MemoryLocked", "GameFactory", "Shuffler", "open_cabinet", "random_shuffle", "stacked_shuffle",
]


class CabinetLocked(RuntimeError):
    """The cabinet must not play: its memory cannot be trusted (``MemoryLocked``), or its
    program files do not match the release."""


class MemoryLocked(CabinetLocked):
    """The journal failed its start-up check: a memory error (its text starts so)."""


def open_cabinet(
    path: str | Path,
    profile: Profile,
    settings: CabinetSettings,
    game_for: GameFactory,
    shuffle_for_round: Shuffler,
    memory: Memory,
    step_hook: Callable[[str], None] | None = None,
    create: bool = False,
) -> Cabinet:
    """Open the journal at ``path`` and boot the cabinet from it; any doubt locks the machine.

    ``memory`` holds the machine key and the head stores the journal must reach; ``create``
    starts a journal where there is none and no head store knows one (``cabinet init``, a
    temporary journal); anywhere else a missing journal is a memory error. ``game_for`` builds
    the game from the profile with the rules in force (again whenever a RAM clear changes them);
    ``shuffle_for_round`` puts each round's fresh shoe in order.
    """
    try:
        journal = open_journal(path, memory, step_hook=step_hook, create=create)
    except UntrustedMemory as exc:
        raise MemoryLocked(f"memory error: {exc}") from None
    try:
        return Cabinet.boot(journal, profile, settings, game_for, shuffle_for_round)
    except BaseException:
        journal.close()
        raise


def random_shuffle(rng: RandomSource) -> Shuffler:
    """The cabinet's shuffler: a fresh random order of the game's shoe for every round."""
    return lambda cards, round_no: shuffle(cards, rng)


def stacked_shuffle(shoes: Callable[[int], list[str]]) -> Shuffler:
    """A shuffler that deals prepared shoes, round by round (tests, scenes, the crash test).

    Each prepared shoe must still be the game's shoe in some order: the core checks it.
    """
    return lambda cards, round_no: list(shoes(round_no))


class Cabinet(PlayInputs, DeviceInputs, NoteInputs, VoucherInputs, OperatorInputs, AftInputs):
    """The controller of one cabinet. Build with ``Cabinet.boot`` (or ``open_cabinet``).

    Its read side is ``CabinetQueries`` (machine/core/queries.py); its inputs, each one journal
    transaction, are ``PlayInputs`` (buttons, touches, the clock, pauses), ``DeviceInputs``
    (coins, the hopper, the devices' counters, the attendant) and ``OperatorInputs``; this class
    boots it from its journal.
    """

    def __init__(
        self, journal: Journal, profile: Profile, settings: CabinetSettings, game_for: GameFactory, shuffle_for_round: Shuffler
    ):
        self.core = Core(journal, profile, settings, game_for, shuffle_for_round)

    # -- start-up -------------------------------------------------------------------------------

    @classmethod
    def boot(
        cls, journal: Journal, profile: Profile, settings: CabinetSettings, game_for: GameFactory, shuffle_for_round: Shuffler
    ) -> Cabinet:
        """Check the journal, restore every meter, the round and the payouts; count a power-up."""
        if journal.problems:
            raise MemoryLocked("memory error: the journal failed its check: " + "; ".join(journal.problems))
        cab = cls(journal, profile, settings, game_for, shuffle_for_round)
        try:
            cab._restore()
        except (JournalError, KeyError, TypeError, ValueError) as exc:
            raise MemoryLocked(f"memory error: the journal's state cannot be restored: {exc}") from None
        with cab.core.tx("power_up", {}):
            admin.power_up(cab.core)
        return cab

    def _restore(self) -> None:
        core, j = self.core, self.core.journal
        cab = j.get("cabinet")
        if cab is None:
            core.state = CabinetState(seats={n: fresh_seat(core, n) for n in range(1, core.settings.seats + 1)})
            return
        core.state = CabinetState(seats={}, row=CabinetRow.from_dict(cab))
        core.apply_settings(core.state.row.overrides, core.state.row.rule_overrides)
        core.state.seats = {n: SeatState.from_dict(n, j.get(f"seat/{n}")) for n in range(1, cab["seats"] + 1)}
        rnd = j.get("round")
        if rnd is not None:
            core.state.round = core.game.restore(rnd["round"])
            core.state.round_meta = rnd["meta"]
            starts = j.records("round_start", last=1)
            core.state.round_shoe = list(starts[-1].data["shoe"]) if starts else []
        core.state.payouts = {int(k): Payout.from_dict(v) for k, v in (j.get("payouts") or {}).items()}
        self._check_money()

    def _check_money(self) -> None:
        """Each seat's credit and club meters as its last money move left them (since the last RAM
        clear): the seat rows recomputed from the move records."""
        j, since = self.core.journal, self.core.journal.last_of("ram_clear")
        for n, seat in self.core.state.seats.items():
            last = j.records("move", seat=n, last=1, since=since)
            if last and (seat.money.credit, seat.money.club) != (last[0].data["credit"], last[0].data["club"]):
                raise JournalError(f"seat {n}'s credit/club {seat.money.credit}/{seat.money.club} are not what its last "
                                   f"money move left ({last[0].data['credit']}/{last[0].data['club']}, record {last[0].seq})")

    def _audit(self, seat: SeatState, when: str) -> bool:
        return admin.audit(self.core, seat, when)
