"""The operator's machine configuration: ``config/machine.yaml``, validated at load.

Owns: the typed model of every machine setting (seats, denomination, coins, payout, limits,
times, device links and addresses, display, language, data directory, enabled games), and
reporting every error at once as ``file:line: path: message``. Unknown keys are refused, and so
are YAML 1.1 surprises (``no`` is not false here, duplicate keys are errors); a file must say
which devices it drives (no ``devices:``, or an empty file, is refused: never simulated devices
by default), every seat has a coin acceptor, and each coin's points (and the hopper coin's) at
``denomination_cents`` come to the coin's face value, which its ccTalk id names. There is no
default operator PIN: a file without ``operator_pin`` (or with the old ``operator_pin_sha256``)
is refused, saying how to set one. Never starts anything: the machine refuses to start on a
file that does not pass.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator, model_validator

from hardware import links

from machine import yamlio
from machine.core.cabinet import CabinetSettings
from machine.games.rules import Profile, RulesError
from machine.money.defaults import DEFAULT_HEAD_STORE, DEFAULT_KEY_FILE
from machine.money.memory import FileHeadStore, HeadStore, Memory, load_key
from machine.money.seatmoney import MoneySettings
from machine.operator import pin
from machine.operator.aftconfig import AftConfig, aft_problems
from machine.operator.noteconfig import default_notes, note_problems
from machine.operator.sasconfig import SasConfig, sas_problems
from machine.profiles import config_dir, load_profile

MIN_SECONDS = 1.0  # the shortest betting time or decision time a player can act in
MAX_HOPPER_LIMIT = 100_000  # points: a hopper of 2 000 coins of the largest coin at the largest denomination is less
MAX_CREDIT_LIMIT = 1_000_000  # points
MAX_PAYS = 10  # no pay, bonus or share of a game pays more than this times the bet (a real table's tops out near 3.5)
DEFAULT_MIN_RETURN = 80.0  # percent: the Dutch casino machines' floor (hall machines 60 %)
SYSTEM_DIRS = ("/proc", "/sys", "/dev")  # never a journal's folder
FACE_VALUE = re.compile(r"^[A-Z]{2}(\d{3})[A-Z]$")  # a ccTalk coin id: country, value in cents (pence...), issue
SAY_LINK = "a device path (/dev/ttyUSB0), a URL (socket://HOST:PORT), or sim for its simulator"
SAY_DEVICES = "write the devices the cabinet drives, e.g. `devices: {bus: sim, panel: sim}` for the simulators"


def face_value(coin_id: str) -> int | None:
    """The coin's value in hundredths of its currency, as its ccTalk id names it (``EU050A``:
    50 cents, ``EU200A``: 200); None for an id that does not name it so."""
    m = FACE_VALUE.match(coin_id)
    return int(m.group(1)) if m else None


class ConfigError(ValueError):
    """A configuration file that does not pass: ``problems`` are ``file:line: path: message``."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


CoinId = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9.]{1,6}$")]  # ccTalk coin ids: EU100A
BillId = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9.]{1,7}$")]  # ccTalk bill ids: EU0020A


class WindowPlace(_Model):
    """Where one seat's window opens (``layout: windows``): centred on a display (its index,
    0 the first), or with its top-left corner at ``x``, ``y`` of the desktop; nothing: the
    default tiling. ``fullscreen``: the whole of the display it is on."""

    display: Annotated[int, Field(ge=0, le=15)] | None = None
    x: Annotated[int, Field(ge=-32768, le=32767)] | None = None
    y: Annotated[int, Field(ge=-32768, le=32767)] | None = None
    fullscreen: bool = False

    @model_validator(mode="after")
    def _one_place(self) -> WindowPlace:
        if self.display is not None and (self.x is not None or self.y is not None):
            raise ValueError("a window goes on a display or at a position (x, y), not both")
        if (self.x is None) != (self.y is None):
            raise ValueError("a position needs both x and y")
        return self


class DisplayConfig(_Model):
    layout: Literal["tiles", "windows"] = "tiles"
    width: Annotated[int, Field(ge=320, le=7680)] = 1920
    height: Annotated[int, Field(ge=240, le=4320)] = 1080
    fullscreen: bool = False
    fps: Annotated[int, Field(ge=10, le=240)] = 60
    windows: list[WindowPlace] = Field(default_factory=list)  # one per seat, with layout: windows


class HopperConfig(_Model):
    address: Annotated[int, Field(ge=3, le=10)] = 3
    seats: list[Annotated[int, Field(ge=1, le=8)]] = Field(default_factory=lambda: [1, 2, 3, 4])
    security: Literal["serial", "none"] = "serial"


def _expandable(v: str) -> str:
    """A path whose ``~`` or ``~user`` names a home folder this machine has."""
    try:
        Path(v).expanduser()
    except RuntimeError:  # ~nosuchuser: "Could not determine home directory"
        raise ValueError(f"{v!r}: {v.split('/')[0]} is no user's home folder on this machine") from None
    return v


class MemoryConfig(_Model):
    """Where the journal's trust rests, away from the data folder (``machine/money/memory.py``)."""

    key_file: Annotated[str, Field(min_length=1)] = DEFAULT_KEY_FILE
    head_stores: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)] = Field(
        default_factory=lambda: [DEFAULT_HEAD_STORE]
    )
    panel_head: bool = True  # also in the panel's own memory, where the panel supports it
    archive_at_mb: Annotated[int, Field(ge=1, le=1_000_000)] = 256  # the journal archives itself past this (MiB in use)
    archive_at_days: Annotated[int, Field(ge=1, le=3650)] = 90  # or once its oldest record is this old

    @field_validator("key_file")
    @classmethod
    def _a_key_path(cls, v: str) -> str:
        return _expandable(v)

    @field_validator("head_stores")
    @classmethod
    def _head_paths(cls, v: list[str]) -> list[str]:
        for p in v:
            _expandable(p)
        return v


# a device path, a URL a backend of hardware/links.py serves, or "sim" (the simulators)
Link = Annotated[str, Field(min_length=1)]


class DevicesConfig(_Model):
    """The links and devices the cabinet drives. No link has a default (a missing one is an
    error naming it): a cabinet never drives a simulator it was not told to, nor pairs a real
    bus with a simulated panel."""

    panel: Link
    bus: Link
    bus_echo: bool = False
    bus_checksum: Literal["sum8", "crc16"] = "sum8"
    acceptors: dict[int, Annotated[int, Field(ge=2, le=17)]] = Field(default_factory=lambda: {1: 2, 2: 11, 3: 12, 4: 13})
    hoppers: list[HopperConfig] = Field(default_factory=lambda: [HopperConfig()])
    validators: dict[int, Annotated[int, Field(ge=2, le=255)]] = Field(default_factory=dict)  # seat -> bill validator
    printer: Link | None = None  # the ticket printer's link (vouchers; machine/core/vouchers.py), or none

    @field_validator("panel", "bus", "printer")
    @classmethod
    def _a_link(cls, v: str | None) -> str | None:
        if v is not None:
            links.parse_link(v)  # LinkError is a ValueError: reported at the setting's line
        return v

    @field_validator("acceptors")
    @classmethod
    def _distinct_addresses(cls, v: dict[int, int]) -> dict[int, int]:
        seen: dict[int, int] = {}
        for seat, addr in v.items():
            if addr in seen:
                raise ValueError(f"seats {seen[addr]} and {seat} both use acceptor address {addr}")
            if addr in range(3, 11):
                raise ValueError(f"address {addr} is a hopper address (acceptors: 2 or 11-17)")
            seen[addr] = seat
        return v


class MachineConfig(_Model):
    seats: Annotated[int, Field(ge=1, le=8)] = 4
    denomination_cents: Annotated[int, Field(ge=1, le=10000)] = 10
    game: str = "random-blackjack"
    games_enabled: list[str] = Field(default_factory=lambda: ["random-blackjack"])
    allow_player_edge: list[str] = Field(default_factory=list)  # games offered although best play returns >= 100 %
    min_return: Annotated[float, Field(ge=0, le=100)] = DEFAULT_MIN_RETURN  # percent: config check refuses a game below
    coins: Annotated[dict[CoinId, Annotated[int, Field(ge=1, le=100000)]], Field(min_length=1)] = Field(
        default_factory=lambda: {"EU050A": 5, "EU100A": 10, "EU200A": 20}
    )
    notes: dict[BillId, Annotated[int, Field(ge=1, le=100000)]] | None = None  # None: EUR 5 to 50 (noteconfig.py)
    note_max: dict[int, Annotated[int, Field(ge=1, le=MAX_CREDIT_LIMIT)]] = Field(default_factory=dict)  # seat -> points
    payout: Literal["hopper", "handpay", "voucher"] = "hopper"
    cabinet_id: Annotated[int, Field(ge=1, le=9999)] = 1  # the cabinet's number on its vouchers
    hopper_coin: Annotated[int, Field(ge=1, le=100000)] = 10
    hopper_limit: Annotated[int, Field(ge=1, le=MAX_HOPPER_LIMIT)] = 1000
    remainder: Literal["keep", "handpay"] = "keep"
    credit_limit: Annotated[int, Field(ge=10, le=MAX_CREDIT_LIMIT)] = 10000
    betting_time: Annotated[float, Field(ge=MIN_SECONDS, le=600)] = 20.0
    decision_timeout: Annotated[float, Field(ge=MIN_SECONDS, le=600)] = 15.0
    data_dir: Annotated[str, Field(min_length=1)] = "data"
    language: Literal["en", "nl", "nb", "ru"] = "en"
    operator_language: Literal["en", "nl", "nb", "ru"] | None = None  # the operator menu's; None: as language
    operator_pin: str  # scrypt with its parameters and salt (machine/operator/pin.py); no default: never a silent PIN
    require_manifest: bool = False  # a release sets true: refuse to start on changed program files
    memory: MemoryConfig = Field(default_factory=MemoryConfig)
    display: DisplayConfig = Field(default_factory=DisplayConfig)
    devices: DevicesConfig
    sas: SasConfig = Field(default_factory=SasConfig)  # the casino's host, per seat (machine/operator/sasconfig.py)
    aft: AftConfig = Field(default_factory=AftConfig)  # its cashless transfers (machine/operator/aftconfig.py)

    @field_validator("betting_time", "decision_timeout", "min_return", mode="before")
    @classmethod
    def _seconds(cls, v: Any) -> Any:
        return float(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @field_validator("operator_pin")
    @classmethod
    def _a_stored_pin(cls, v: str) -> str:
        pin.parse(v)  # PinError is a ValueError: reported at the setting's line
        return v

    @field_validator("data_dir")
    @classmethod
    def _a_folder(cls, v: str) -> str:
        p = Path(_expandable(v)).expanduser()
        try:
            real = str(p.resolve())
            exists, folder = p.exists(), p.is_dir()
        except (OSError, RuntimeError) as exc:
            raise ValueError(f"{v!r} cannot be a folder: {exc}") from None
        if any(real == d or real.startswith(d + "/") for d in SYSTEM_DIRS):
            raise ValueError(f"{v!r} is a system path ({real}), not a folder for the journal")
        if exists and not folder:
            raise ValueError(f"{v!r} exists and is not a folder")
        return v

    def consistency(self) -> list[tuple[tuple[Any, ...], str]]:
        """Rules across fields, each with the path of the field it is about."""
        out: list[tuple[tuple[Any, ...], str]] = []
        if self.game not in self.games_enabled:
            out.append((("game",), f"game {self.game!r} is not in games_enabled"))
        for i, game in enumerate(self.games_enabled):
            if game in self.games_enabled[:i]:
                out.append((("games_enabled", i), f"{game!r} is listed twice"))
        for i, game in enumerate(self.allow_player_edge):
            if game not in self.games_enabled:
                out.append((("allow_player_edge", i), f"{game!r} is not in games_enabled"))
        for seat in self.devices.acceptors:
            if not 1 <= seat <= self.seats:
                out.append((("devices", "acceptors", seat), f"names seat {seat}, but the cabinet has {self.seats} seats"))
        if self.display.windows and self.display.layout != "windows":
            out.append((("display", "windows"), "places the seats' windows of layout: windows (layout is tiles here)"))
        elif self.display.windows and len(self.display.windows) != self.seats:
            out.append((("display", "windows"), f"one entry per seat: {len(self.display.windows)} given for "
                        f"a cabinet of {self.seats} seats"))
        addresses: dict[int, int] = {}
        for i, hopper in enumerate(self.devices.hoppers):
            if hopper.address in addresses:
                out.append((("devices", "hoppers", i, "address"), f"hoppers {addresses[hopper.address] + 1} and {i + 1} "
                            f"both use address {hopper.address}"))
            addresses.setdefault(hopper.address, i)
            for j, seat in enumerate(hopper.seats):
                if seat > self.seats:
                    out.append((("devices", "hoppers", i, "seats", j), f"names seat {seat}, but the cabinet has "
                                f"{self.seats} seats"))
        data = os.path.abspath(Path(self.data_dir).expanduser())
        for field, text in [(("memory", "key_file"), self.memory.key_file),
                            *((("memory", "head_stores", i), t) for i, t in enumerate(self.memory.head_stores))]:
            where = os.path.abspath(Path(text).expanduser())
            if where == data or where.startswith(data + os.sep):
                out.append((field, f"{text!r} is inside data_dir {self.data_dir!r}: a copy of the data folder would carry "
                            "it along (keep it on another path)"))
        for seat in range(1, self.seats + 1):
            if seat not in self.devices.acceptors:
                out.append((("devices", "acceptors"), f"seat {seat} has no coin acceptor (every seat takes its coins "
                            "through its own: seat -> address)"))
        out += self._denomination()
        if self.payout == "voucher" and self.devices.printer is None:
            out.append((("payout",), "voucher needs a ticket printer: devices.printer (sim for its simulator)"))
        taken = {a: "coin acceptor" for a in self.devices.acceptors.values()}
        taken.update({h.address: "hopper" for h in self.devices.hoppers})
        out += note_problems(self.notes, self.denomination_cents, self.devices.validators, self.seats, self.note_max, taken)
        out += sas_problems(self.sas, self.seats)
        out += aft_problems(self.aft, [x.seat for x in self.sas.links], self.seats)
        served = [s for h in self.devices.hoppers for s in h.seats]
        for seat in range(1, self.seats + 1):
            if self.payout == "hopper" and served.count(seat) != 1:
                out.append((("devices", "hoppers"), f"seat {seat} must be paid by exactly one hopper"))
        return out

    def _denomination(self) -> list[tuple[tuple[Any, ...], str]]:
        """Each coin's points times ``denomination_cents`` is the coin's face value (a changed
        denomination with the coins' points left as they were would credit the wrong money),
        and the hopper pays a coin the cabinet takes: ``hopper_coin`` points are one of them."""
        out: list[tuple[tuple[Any, ...], str]] = []
        cents = self.denomination_cents
        faces = {}
        for coin, points in self.coins.items():
            face = face_value(coin)
            if face is None:
                continue
            faces[coin] = face
            if points * cents != face:
                should = f"{face // cents} points" if face % cents == 0 else "no whole number of points"
                out.append((("coins", coin), f"{points} points x denomination_cents {cents} = {points * cents} cents, "
                            f"but {coin} is a {face} cent coin: {should} at this denomination"))
        if self.payout == "hopper" and faces and self.hopper_coin * cents not in faces.values():
            out.append((("hopper_coin",), f"{self.hopper_coin} points x denomination_cents {cents} = "
                        f"{self.hopper_coin * cents} cents, which is none of the coins "
                        f"({', '.join(f'{c} {v}' for c, v in faces.items())} cents)"))
        return out

    def cabinet_settings(self) -> CabinetSettings:
        return CabinetSettings(
            seats=self.seats,
            money=MoneySettings(
                payout=self.payout, hopper_coin=self.hopper_coin, hopper_limit=self.hopper_limit, remainder=self.remainder
            ),
            coin_values=dict(self.coins),
            note_values=self.note_values(),
            note_max=dict(self.note_max),
            vouchers=self.devices.printer is not None,
            cabinet_id=self.cabinet_id,
            credit_limit=self.credit_limit,
            betting_time=self.betting_time,
            decision_timeout=self.decision_timeout,
            denomination_cents=self.denomination_cents,
            language=self.language,
            aft=self.aft.limits() if self.aft.enabled else None,
        )

    def note_values(self) -> dict[str, int]:
        """The notes the validators take: bill id -> points (EUR 5 to 50 unless ``notes`` says)."""
        return dict(self.notes) if self.notes is not None else default_notes(self.denomination_cents)

    def data_path(self, base: Path) -> Path:
        return _path(self.data_dir, base)

    def journal_path(self, base: Path) -> Path:
        return self.data_path(base) / "journal.sqlite"

    def key_path(self, base: Path) -> Path:
        return _path(self.memory.key_file, base)

    def head_paths(self, base: Path) -> list[Path]:
        return [_path(p, base) for p in self.memory.head_stores]

    def machine_memory(self, base: Path, more: Sequence[HeadStore] = ()) -> Memory:
        """The key and the head stores this configuration names (``more``: the panel's)."""
        journal = self.journal_path(base)
        heads = [FileHeadStore(p, journal) for p in self.head_paths(base)]
        return Memory(load_key(self.key_path(base)), (*heads, *more))


def _path(text: str, base: Path) -> Path:
    p = Path(text).expanduser()
    return p if p.is_absolute() else base / p


def _line_map(text: str) -> dict[tuple[Any, ...], int]:
    """Every path in the YAML document to the line (1-based) where its value starts."""
    out: dict[tuple[Any, ...], int] = {}
    try:
        root = yaml.compose(text, Loader=yamlio._StrictLoader)  # same resolvers as the data
    except yaml.YAMLError:
        return out

    def walk(node: yaml.Node, path: tuple[Any, ...]) -> None:
        out[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                key: Any = k.value
                if k.tag.endswith(":int"):
                    key = int(key)
                out[path + (key,)] = k.start_mark.line + 1
                walk(v, path + (key,))
                out[path + (key,)] = k.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                walk(v, path + (i,))

    if root is not None:
        walk(root, ())
    return out


def _where(lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int:
    for n in range(len(loc), -1, -1):
        key = tuple(int(x) if isinstance(x, str) and x.isdigit() else x for x in loc[:n])
        if key in lines:
            return lines[key]
        if loc[:n] in lines:
            return lines[loc[:n]]
    return 1


def parse_config(text: str, name: str) -> MachineConfig:
    """Validate configuration text; raise ``ConfigError`` listing every problem."""
    try:
        data = yamlio.loads(text, name)
    except yamlio.YamlError as exc:
        raise ConfigError([str(exc)]) from None
    if data is None:
        raise ConfigError([f"{name}:1: the configuration is empty: {SAY_DEVICES}"])
    if not isinstance(data, dict):
        raise ConfigError([f"{name}:1: the configuration must be a mapping of settings"])
    lines = _line_map(text)
    missing = [] if "devices" in data else [f"{name}:1: devices: missing: {SAY_DEVICES}"]
    try:
        cfg = MachineConfig.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            path = ".".join(str(x) for x in loc) or "(top)"
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = "unknown setting"
            if loc == (pin.OLD_FIELD,):
                msg = (f"the old one-round SHA-256 PIN hash is no longer accepted: remove this line and set a new PIN "
                       f"with `cabinet config pin {name}`")
            elif loc == ("devices",) and err["type"] == "missing":
                continue  # said once, with how to say it (``missing`` above)
            elif loc[:1] == ("devices",) and len(loc) == 2 and err["type"] == "missing":
                msg = f"missing: name the link (there is no default device): {SAY_LINK}"
            elif loc == (pin.FIELD,) and err["type"] == "missing":
                if pin.OLD_FIELD in data:
                    continue  # said once, at the old setting's line
                msg = f"no operator PIN is set (there is no default PIN): set one with `cabinet config pin {name}`"
            problems.append(f"{name}:{_where(lines, loc)}: {path}: {msg}")
        raise ConfigError(missing + problems) from None
    problems = missing + [f"{name}:{_where(lines, loc)}: {'.'.join(map(str, loc))}: {msg}" for loc, msg in cfg.consistency()]
    if cfg.require_manifest:  # a released cabinet: never the shipped PIN, never a weaker hash
        problems += [f"{name}:{_where(lines, (pin.FIELD,))}: {line} (require_manifest: true)"
                     for line in pin.weaknesses(cfg.operator_pin)]
    for game in dict.fromkeys(cfg.games_enabled):
        try:
            profile = load_profile(game)
        except (RulesError, yamlio.YamlError) as exc:
            problems.append(f"{name}:{_where(lines, ('games_enabled',))}: games_enabled: {exc}")
            continue
        problems += _play_problems(profile, cfg.seats)
        problems += _limit_problems(profile)
    if problems:
        raise ConfigError(problems)
    return cfg


def fewest_decks(profile: Profile, seats: int) -> int:
    """The fewest decks ``profile`` may deal on a cabinet of ``seats`` seats (config check, and
    the operator menu's Decks setting): two for a game whose settings class names the seats
    from which one deck is too few (``SEATS_FOR_TWO_DECKS``: blackjack's five) on that many seats or
    more, else one."""
    most = profile.rules.SEATS_FOR_TWO_DECKS
    return 2 if most is not None and seats >= most else 1


def _play_problems(profile: Profile, seats: int) -> list[str]:
    """What a profile allows that a cabinet cannot deal, named at the profile's own line.

    ``decks: 0`` (an infinite deck) prices a game in ``cabinet rtp`` but deals no shoe. A
    blackjack-family game on a cabinet of ``SEATS_FOR_TWO_DECKS`` seats or more needs two
    decks at least (seed 002: "six or more at the table, mix two decks"; with one deck a full
    table can run out of cards in a round).
    """
    decks = profile.rules.decks
    if decks >= 2 or (decks == 1 and fewest_decks(profile, seats) == 1):
        return []
    path = config_dir() / "games" / f"{profile.game}.yaml"
    line = _where(_line_map(path.read_text(encoding="utf-8")), ("rules", "decks"))
    if decks == 1:
        return [f"{path}:{line}: rules.decks: 1 deck is too few for a cabinet of {seats} seats: a blackjack game on "
                f"{profile.rules.SEATS_FOR_TWO_DECKS} seats or more needs decks: 2 or more"]
    return [f"{path}:{line}: rules.decks: 0 is an infinite deck, which can be priced (cabinet rtp) but not dealt: "
            "a cabinet plays 1 to 8 decks"]


def _limit_problems(profile: Profile) -> list[str]:
    """What a profile's rules allow beyond its seed, named at the profile's own line: the
    settings class's defaults are the seed's limits (Random Blackjack: bets from 2, at most
    500, in steps of 2; eenentwintig: 2 to 10, even; the others 2 to 500, even), a pay or bonus
    above ``MAX_PAYS`` times the bet, and a pay that some allowed bet turns into a fraction
    (3:2 on an odd bet; a 6:5 table bets in steps of 10)."""
    seed, rules = type(profile.rules)(), profile.rules
    out: list[tuple[str, str]] = []
    if rules.min_bet < seed.min_bet:
        out.append(("min_bet", f"{rules.min_bet} is below the seed's minimum bet of {seed.min_bet}"))
    if rules.max_bet > seed.max_bet:
        out.append(("max_bet", f"{rules.max_bet} is above the seed's absolute maximum bet of {seed.max_bet}"))
    if rules.bet_step % seed.bet_step:
        out.append(("bet_step", f"{rules.bet_step}: the seed's bets go in steps of {seed.bet_step} (a multiple of it)"))
    for f in dataclasses.fields(rules):
        pays = getattr(rules, f.name)
        if not isinstance(pays, Fraction):
            continue
        if pays > MAX_PAYS:
            out.append((f.name, f"{float(pays):g} times the bet is more than any table pays (at most {MAX_PAYS})"))
        elif (pays * rules.min_bet).denominator != 1 or (pays * rules.bet_step).denominator != 1:
            bet = rules.min_bet if (pays * rules.min_bet).denominator != 1 else rules.min_bet + rules.bet_step
            out.append((f.name, f"{float(pays):g} x a bet of {bet} is not a whole number of points: choose bet_step "
                        "(and min_bet) so that every bet pays whole points"))
    if not out:
        return []
    path = config_dir() / "games" / f"{profile.game}.yaml"
    lines = _line_map(path.read_text(encoding="utf-8"))
    return [f"{path}:{_where(lines, ('rules', name))}: rules.{name}: {msg}" for name, msg in out]


def load_config(path: str | Path | None = None) -> MachineConfig:
    """Load ``path`` (default ``config/machine.yaml``); raise ``ConfigError`` on any problem."""
    p = Path(path) if path else config_dir() / "machine.yaml"
    try:
        text = yamlio.read_text(p)
    except yamlio.YamlError as exc:
        raise ConfigError([str(exc)]) from None
    return parse_config(text, str(p))
