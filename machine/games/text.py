"""A text a game writes for the screens, as a message id with its fields.

Owns: ``Text``, the one way a game writes a line with numbers or words in it (a notice, an
attract line, a hand's total): the English message id (``"Place {place} swapped"``) and its
fields (``place=2``). A ``Text`` *is* its English rendering (a ``str``: ``"Place 2 swapped"``),
so ``cabinet round``, the recall and every comparison read it as before; the screens translate
it by its message id through the catalogs (``machine/display/gamewords.py``), never by reading
the English back. ``Text.joined`` keeps the parts of a line that several notices make. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class Text(str):
    """``Text("Blackjack pays {a} to {b}", a=3, b=2)`` is the str "Blackjack pays 3 to 2" that
    knows its message id and fields; ``parts``/``sep`` are set on a joined line instead."""

    msgid: str
    fields: Mapping[str, Any]
    parts: tuple[str, ...]
    sep: str

    def __new__(cls, msgid: str, **fields: Any) -> Text:
        self = super().__new__(cls, msgid.format(**fields) if fields else msgid)
        self.msgid, self.fields, self.parts, self.sep = msgid, dict(fields), (), ""
        return self

    @classmethod
    def joined(cls, sep: str, parts: Iterable[str]) -> Text:
        """One line of several texts: ``sep.join(parts)``, each part translated on its own."""
        kept = tuple(parts)
        self = super().__new__(cls, sep.join(kept))
        self.msgid, self.fields, self.parts, self.sep = "", {}, kept, sep
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.msgid, self.fields, self.parts, self.sep))


def _rebuild(msgid: str, fields: Mapping[str, Any], parts: tuple[str, ...], sep: str) -> Text:
    return Text.joined(sep, parts) if parts else Text(msgid, **fields)


def N_(msgid: str) -> str:
    """Mark a message id written apart from its ``Text`` (a table of them) for the catalogs."""
    return msgid


SEP = " \u00b7 "  # the separator of the parts of a notice: "Place 2 swapped · Place 3 passed"
