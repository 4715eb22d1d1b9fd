"""The settings in force against the configured ones: what moves money or changes a rule.

Owns: which settings of ``config/machine.yaml`` and of the enabled games' profiles count (every
one that moves money or changes a game's rules: the denomination, the coins' values, the
payout, the hopper's coin and limit, the remainder, the credit limit, and every rule of every
enabled game, its table limits and pay table included), their snapshot as plain data (the
form the journal's ``in_force`` row keeps), and the differences between two snapshots, one
``Change`` per field with its old and new value. Pure: never reads a file, the journal or a
clock; ``machine/operator/applying.py`` holds the snapshot against the journal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ROW = "in_force"  # the journal's state row: the snapshot in force
MACHINE_FIELDS = ("denomination_cents", "coins", "payout", "hopper_coin", "hopper_limit", "remainder", "credit_limit")
MONEY_WORTH = ("denomination_cents", "coins")  # a change of these changes what a point on a meter is worth


@dataclass(frozen=True)
class Change:
    """One setting that differs: ``field`` as a path (``coins.EU100A``, ``games.ochko.max_bet``)."""

    field: str
    old: Any
    new: Any

    def line(self) -> str:
        return f"{self.field}: {_text(self.old)} -> {_text(self.new)}"

    @property
    def moves_worth(self) -> bool:
        """Whether it changes what the points already on a meter are worth."""
        return self.field.split(".")[0] in MONEY_WORTH

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "old": self.old, "new": self.new}


def snapshot(machine: Mapping[str, Any], games: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """The settings that count, as plain data: ``machine`` holds at least ``MACHINE_FIELDS``
    (a ``MachineConfig``'s fields), ``games`` each enabled game's name and rules as plain data
    (``rules.to_dict()``). The same data the journal's row reads back (JSON's own forms)."""
    data = {"machine": {f: machine[f] for f in MACHINE_FIELDS}, "games": {name: dict(rules) for name, rules in games}}
    return json.loads(json.dumps(data, sort_keys=True))


def differences(in_force: Mapping[str, Any], configured: Mapping[str, Any]) -> list[Change]:
    """Every field in which ``configured`` differs from ``in_force`` (two ``snapshot``s), in
    the order of the fields; a game enabled or no longer enabled is one change."""
    out: list[Change] = []
    old_m, new_m = in_force.get("machine", {}), configured.get("machine", {})
    for f in MACHINE_FIELDS:
        old, new = old_m.get(f), new_m.get(f)
        if isinstance(old, dict) and isinstance(new, dict):
            out += [Change(f"{f}.{k}", old.get(k), new.get(k)) for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
        elif old != new:
            out.append(Change(f, old, new))
    old_g, new_g = in_force.get("games", {}), configured.get("games", {})
    for game in sorted(set(old_g) | set(new_g)):
        if game not in new_g:
            out.append(Change(f"games.{game}", "enabled", "not enabled"))
        elif game not in old_g:
            out.append(Change(f"games.{game}", "not enabled", "enabled"))
        else:
            old, new = old_g[game], new_g[game]
            out += [Change(f"games.{game}.{k}", old.get(k), new.get(k)) for k in sorted(set(old) | set(new))
                    if old.get(k) != new.get(k)]
    return out


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    return json.dumps(value)
