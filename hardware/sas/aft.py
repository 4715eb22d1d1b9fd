"""SAS Advanced Funds Transfer, the machine side: 72 (transfer funds, interrogation), 73
(registration), 74 (lock and status), sans-I/O.

Owns: ``AftState``, one seat's registration, lock and transactions. A transfer the checks pass
becomes a record *pending* (status 40) and an ``AftTransfer`` event for the cabinet; nothing is
"completed" until the cabinet, having journaled the money, calls ``confirm`` (or ``refuse``).
Each accepted transaction is kept by its id: the same id again (a repeat, a replay, a host that
lost the answer) is answered with that transaction's record and changes nothing. After a
restart the cabinet gives back what its journal holds with ``restore``, and an id older than the
127 kept is looked up in the journal (``source.aft_transaction``); a transfer the journal never
recorded never happened, and the host's repeat of it is a new request. Amounts on the
wire are cents; the cabinet sees points (one SAS credit, ``source.denomination_cents()``).
Only cashable in-house transfers (types 00, to the seat, and 80, from it) are this cabinet's;
restricted and non-restricted amounts are refused (83). A seat whose source has AFT off answers
none of these polls (silence, as a machine without AFT). Never journals, never moves money,
never reads a clock: ``now`` is the caller's monotonic time, ``when`` the cabinet's date.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime

from hardware.sas.codec import bcd, from_bcd, with_crc
from hardware.sas.source import MeterSource

COMMANDS = frozenset({0x72, 0x73, 0x74})
HISTORY = 0x7F  # transactions kept (and the max buffer index 74 reports)

# transfer status codes (72)
FULL, PARTIAL, PENDING = 0x00, 0x01, 0x40
NOT_VALID_FUNCTION, BAD_AMOUNT, OVER_LIMIT, NOT_MULTIPLE = 0x82, 0x83, 0x84, 0x85
UNABLE, NOT_REGISTERED, KEY_MISMATCH, ASSET_MISMATCH, NOT_LOCKED, BAD_ID = 0x87, 0x88, 0x89, 0x93, 0x94, 0x95
IN_PROGRESS, UNSUPPORTED_CODE, NO_INFO = 0xC0, 0xC1, 0xFF
NO_RECEIPT = 0xFF
TO_SEAT, FROM_SEAT = 0x00, 0x80  # the in-house cashable transfer types
# registration status (73) and lock status (74)
REG_READY, REG_REGISTERED, REG_NOT = 0x00, 0x01, 0x80
LOCKED, LOCK_PENDING, NOT_LOCKED_STATUS = 0x00, 0x40, 0xFF
# exceptions AFT posts
EXC_TRANSFER_COMPLETE, EXC_REGISTRATION_ACK, EXC_REGISTRATION_CANCELLED, EXC_GAME_LOCKED = 0x69, 0x6D, 0x6E, 0x6F
FLAG_ONLY_IF_LOCKED = 0x40


@dataclass(frozen=True)
class AftRecord:
    """One transaction as the machine answers for it: ``points`` to move while pending, moved
    once done, of the host's ``requested``; ``when`` the cabinet's date of completion."""

    transaction_id: str
    transfer_type: int
    points: int
    status: int = PENDING
    flags: int = 0
    when: datetime | None = None
    partial_ok: bool = False
    requested: int = 0


@dataclass(frozen=True)
class AftTransfer:
    """72: the host asks to move ``points`` to the seat (``to_seat``) or from it. The cabinet
    journals it, then calls ``confirm`` (with the points moved: at most ``points``, fewer only
    when ``partial_ok``) or ``refuse``."""

    transaction_id: str
    to_seat: bool
    points: int
    partial_ok: bool


@dataclass(frozen=True)
class AftLock:
    """74 (or its expiry, or a completed transfer): the seat locked for AFT (no new round) or free."""

    locked: bool


@dataclass(frozen=True)
class AftRegistration:
    """73: the registration the cabinet keeps (journals) and gives back with ``restore``."""

    status: int
    asset: int
    key: bytes
    pos_id: int


AftEvent = AftTransfer | AftLock | AftRegistration


class AftState:
    """One seat's AFT: registration, lock and transactions by id."""

    def __init__(self, source: MeterSource) -> None:
        self.source = source
        self.registration = AftRegistration(REG_NOT, 0, bytes(20), 0)
        self.lock_status = NOT_LOCKED_STATUS
        self._lock_until = 0.0
        self._lock_conditions = 0
        self._records: OrderedDict[str, AftRecord] = OrderedDict()
        self._last: AftRecord | None = None  # the current (or most recent) transaction
        self.events: list[AftEvent] = []
        self.exceptions: list[int] = []

    # -- the cabinet's side ----------------------------------------------------------------
    def confirm(self, transaction_id: str, points: int, when: datetime) -> AftRecord:
        """The cabinet journaled the transfer: ``points`` moved at ``when``. Idempotent."""
        record = self._records[transaction_id]
        if record.status != PENDING:
            return record
        requested = max(record.requested, record.points)
        if points > record.points or (points < requested and not record.partial_ok) or points < 0:
            raise ValueError(f"AFT {transaction_id}: {points} points for a request of {record.points}")
        done = replace(record, points=points, when=when, status=FULL if points == requested else PARTIAL)
        self._keep(done)
        self.exceptions.append(EXC_TRANSFER_COMPLETE)
        self._unlock()
        return done

    def refuse(self, transaction_id: str, status: int = UNABLE) -> None:
        """The cabinet could not do the transfer (nothing moved): the id is free again."""
        record = self._records.get(transaction_id)
        if record is not None and record.status == PENDING:
            del self._records[transaction_id]
            self._last = replace(record, status=status)

    def restore(self, records: list[AftRecord], registration: AftRegistration | None = None) -> None:
        """After a restart: the completed transactions and the registration the journal holds."""
        for record in records:
            self._keep(record)
        if registration is not None:
            self.registration = registration

    def pending(self) -> AftRecord | None:
        last = self._last
        return last if last is not None and last.status == PENDING else None

    def tick(self, now: float) -> None:
        """A lock's expiry; a pending lock taken once the seat can be locked."""
        if self.lock_status != NOT_LOCKED_STATUS and now >= self._lock_until:
            self._unlock()
        elif self.lock_status == LOCK_PENDING and self._can_lock(self._lock_conditions):
            self._lock()

    # -- the host's side -------------------------------------------------------------------
    def answer(self, address: int, command: int, data: bytes, now: float) -> bytes | None:
        if not self.source.aft_enabled():
            return None
        head = bytes((address, command))
        if command == 0x72:
            return self._transfer(head, data)
        if command == 0x73:
            return self._register(head, data)
        return self._lock_poll(head, data, now)

    # 72 ---------------------------------------------------------------------------------
    def _transfer(self, head: bytes, data: bytes) -> bytes:
        if not data or data[0] != len(data) - 1 or len(data) < 3:
            return self._reply(head, None, NOT_VALID_FUNCTION)
        code, index = data[1], data[2]
        if code in (0xFE, 0xFF):
            return self._reply(head, self._at(index), None)
        if code == 0x80:  # a cancel cannot overtake a transfer the cabinet already holds
            return self._reply(head, self._last, None)
        if code not in (0x00, 0x01):
            return self._reply(head, None, UNSUPPORTED_CODE)
        request = _parse_request(data)
        if request is None:
            return self._reply(head, None, NOT_VALID_FUNCTION)
        points = request.cents // self.source.denomination_cents()
        request = replace(request, record=replace(request.record, points=points, requested=points))
        tid = request.record.transaction_id
        known = self._records.get(tid) or self.source.aft_transaction(tid)
        if known is not None:
            return self._reply(head, known, None)  # a repeat: the first result, nothing changes
        status = self._check(request, code == 0x01)
        if status is not None:
            return self._reply(head, request.record, status)
        record = replace(request.record, partial_ok=code == 0x01)
        if record.transfer_type == FROM_SEAT and record.partial_ok:
            record = replace(record, points=min(record.points, self.source.meter("credits")))
        self._keep(record)
        self.events.append(AftTransfer(record.transaction_id, record.transfer_type == TO_SEAT,
                                       record.points, record.partial_ok))
        return self._reply(head, record, None)

    def _check(self, request: _Request, partial_ok: bool) -> int | None:
        """The status that refuses ``request``, or None when it may go to the cabinet."""
        record, source = request.record, self.source
        cents = source.denomination_cents()
        to_seat, from_seat = source.aft_available()
        checks = (
            (not 1 <= len(record.transaction_id) <= 20, BAD_ID),
            (record.transfer_type not in (TO_SEAT, FROM_SEAT), NOT_VALID_FUNCTION),
            (request.other_cents != 0 or request.cents == 0, BAD_AMOUNT),
            (request.cents % cents != 0, NOT_MULTIPLE),
            (request.asset == 0 or request.asset != source.asset_number(), ASSET_MISMATCH),
            (any(request.key) and self.registration.status != REG_REGISTERED, NOT_REGISTERED),
            (any(request.key) and request.key != self.registration.key, KEY_MISMATCH),
            (bool(record.flags & FLAG_ONLY_IF_LOCKED) and self.lock_status != LOCKED, NOT_LOCKED),
            (self.pending() is not None, IN_PROGRESS),
            (not (to_seat if record.transfer_type == TO_SEAT else from_seat), UNABLE),
            (record.transfer_type == TO_SEAT and record.points > source.aft_limit_points(), OVER_LIMIT),
            (record.transfer_type == FROM_SEAT and not partial_ok
             and record.points > source.meter("credits"), BAD_AMOUNT),
            (record.transfer_type == FROM_SEAT and partial_ok and source.meter("credits") == 0, BAD_AMOUNT),
        )
        return next((status for failed, status in checks if failed), None)

    def _at(self, index: int) -> AftRecord | None:
        """Interrogation: 00 the current or most recent; 01-7F a history position (1 = the
        oldest kept); 81-FF relative (81 = the most recent)."""
        if index == 0:
            return self._last
        kept = self._history()
        if index < 0x80:
            return kept[index - 1] if index <= len(kept) else None
        back = index - 0x80
        return kept[-back] if back <= len(kept) else None

    def _history(self) -> list[AftRecord]:
        """The completed transactions kept, the oldest first."""
        return [r for r in self._records.values() if r.status in (FULL, PARTIAL)]

    def _keep(self, record: AftRecord) -> None:
        self._records[record.transaction_id] = record
        self._records.move_to_end(record.transaction_id)
        while len(self._records) > HISTORY:
            self._records.popitem(last=False)
        self._last = record

    def _reply(self, head: bytes, record: AftRecord | None, status: int | None) -> bytes:
        source = self.source
        cents = source.denomination_cents()
        if record is None:
            record = AftRecord("", 0, 0, NO_INFO)
        if status is not None:
            record = replace(record, status=status, when=None)
        # a completed transaction's place in the history; 0 for one pending or refused
        history = [r.transaction_id for r in self._history()]
        done = status is None and record.transaction_id in history
        position = history.index(record.transaction_id) + 1 if done else 0
        tid = record.transaction_id.encode("ascii", "replace")[:20]
        when = record.when
        body = bytes((position, record.status, NO_RECEIPT, record.transfer_type))
        body += bcd(record.points * cents, 5) + bcd(0, 5) + bcd(0, 5)
        body += bytes((record.flags,)) + (source.asset_number() & 0xFFFFFFFF).to_bytes(4, "little")
        body += bytes((len(tid),)) + tid
        body += bcd(int(when.strftime("%m%d%Y")), 4) + bcd(int(when.strftime("%H%M%S")), 3) if when else bytes(7)
        body += bcd(0, 4) + bytes(2)  # expiration, pool id: none for cashable in-house credit
        if record.status in (FULL, PARTIAL):
            meter = source.meter("aft_in" if record.transfer_type == TO_SEAT else "aft_out")
            body += bytes((5,)) + bcd(meter * cents, 5) + bytes((0, 0))
        else:
            body += bytes(3)
        return with_crc(head + bytes((len(body),)) + body)

    # 73 ---------------------------------------------------------------------------------
    def _register(self, head: bytes, data: bytes) -> bytes:
        if not data or data[0] != len(data) - 1 or data[0] not in (0x01, 0x1D):
            return bytes((head[0] | 0x80,))
        code, reg = data[1], self.registration
        if code == 0x00:
            reg = AftRegistration(REG_READY, self.source.asset_number(), bytes(20), 0)
        elif code == 0x01 and data[0] == 0x1D and reg.status in (REG_READY, REG_REGISTERED):
            asset = int.from_bytes(data[2:6], "little")
            pos = int.from_bytes(data[26:30], "little")
            if asset == self.source.asset_number() and asset != 0:
                reg = AftRegistration(REG_REGISTERED, asset, bytes(data[6:26]), reg.pos_id if pos == 0xFFFFFFFF else pos)
                self.exceptions.append(EXC_REGISTRATION_ACK)
        elif code == 0x80:
            if reg.status == REG_REGISTERED:
                self.exceptions.append(EXC_REGISTRATION_CANCELLED)
            reg = AftRegistration(REG_NOT, self.source.asset_number(), bytes(20), 0)
        if reg != self.registration:
            self.registration = reg
            self.events.append(reg)
        body = bytes((reg.status,)) + (reg.asset & 0xFFFFFFFF).to_bytes(4, "little") + reg.key
        body += (reg.pos_id & 0xFFFFFFFF).to_bytes(4, "little")
        return with_crc(head + bytes((len(body),)) + body)

    # 74 ---------------------------------------------------------------------------------
    def _lock_poll(self, head: bytes, data: bytes, now: float) -> bytes:
        code = data[0]
        if code == 0x00:
            try:
                timeout = from_bcd(data[2:4]) / 100
            except ValueError:
                return bytes((head[0] | 0x80,))
            if timeout > 0 and self.lock_status == NOT_LOCKED_STATUS:
                self._lock_until = now + timeout
                self._lock_conditions = data[1] & 0x0F
                self.lock_status = LOCK_PENDING
                if self._can_lock(self._lock_conditions):
                    self._lock()
        elif code == 0x80:
            self._unlock()
        elif code != 0xFF:
            return bytes((head[0] | 0x80,))
        return with_crc(head + self._status_body())

    def _status_body(self) -> bytes:
        source = self.source
        cents = source.denomination_cents()
        to_seat, from_seat = source.aft_available()
        available = (0x01 if to_seat else 0) | (0x02 if from_seat else 0)
        status = 0x02 | 0x10 | 0x80 | (0x08 if self.registration.status == REG_REGISTERED else 0)
        body = (source.asset_number() & 0xFFFFFFFF).to_bytes(4, "little")
        body += bytes((self.lock_status, available, 0x00, status, HISTORY))
        body += bcd(source.meter("credits") * cents, 5) + bcd(0, 5) + bcd(0, 5)
        body += bcd(source.aft_limit_points() * cents, 5) + bcd(0, 4) + bytes(2)
        return bytes((len(body),)) + body

    def _can_lock(self, conditions: int) -> bool:
        to_seat, from_seat = self.source.aft_available()
        if conditions & 0x01 and not to_seat or conditions & 0x02 and not from_seat:
            return False
        return self.source.lockable()

    def _lock(self) -> None:
        self.lock_status = LOCKED
        self.events.append(AftLock(True))
        self.exceptions.append(EXC_GAME_LOCKED)

    def _unlock(self) -> None:
        was = self.lock_status
        self.lock_status = NOT_LOCKED_STATUS
        if was == LOCKED:
            self.events.append(AftLock(False))


@dataclass(frozen=True)
class _Request:
    record: AftRecord
    cents: int
    other_cents: int
    asset: int
    key: bytes


def _parse_request(data: bytes) -> _Request | None:
    """72's transfer request: length, code, index, type, three 5-BCD amounts, flags, asset (4),
    registration key (20), transaction id (length, 1-20 ASCII), expiration (4 BCD), pool id (2); the
    receipt data and lock timeout after it are optional. None when it does not parse."""
    if len(data) < 45:
        return None
    end = 45 + data[44]
    if len(data) < end + 6:
        return None
    try:
        cents, restricted, nonrestricted = (from_bcd(data[i:i + 5]) for i in (4, 9, 14))
    except ValueError:
        return None
    tid = bytes(data[45:end])
    if not tid.isascii():
        return None
    record = AftRecord(tid.decode("ascii"), data[3], 0, PENDING, data[19])
    return _Request(record, cents, restricted + nonrestricted, int.from_bytes(data[20:24], "little"), bytes(data[24:44]))
