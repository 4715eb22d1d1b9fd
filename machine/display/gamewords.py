"""The games' and the core's English words on the player screens, in the seat's language.

Owns: ``say(words, text)``, the one translation of what a game or the core writes for the
screens (``notice``, ``total_text``, button labels, ``attract_lines``, the dealer's title, a
tilt's detail, a tournament entry's note). A game writes a line with fields as a
``machine.games.text.Text``: its message id and fields, translated here through the catalogs
with the fields as the language writes them (numbers by locale, a field that is itself a known
word translated), a joined line part by part; the message ids are marked where the game writes
them. A plain word (a button label, a title) is its own message id, named here (``WORDS``). The
core writes its notices as ``Text`` too (a tilt's or a lock's detail, a tournament entry's note,
a participant without a name, the banner's silent device); the drivers give codes (a hopper's
fault) that the core puts in as fields. What comes back from the journal is English, as the
journal keeps it (an event's reason in the operator's recall, a lock's detail restored after a
power cut): that alone is read back by a template (``TEMPLATES``, the same message ids the core
writes). A text neither knows is drawn as written (a test
checks every scene's texts are known). The games stay pure and English (``cabinet round`` prints
them as they are); the translation happens only here, at drawing time. Never draws, never
reads the cabinet's state.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cache

from machine.games.text import SEP, Text
from machine.i18n import N_, Words

__all__ = ["BAR", "SEP", "TEMPLATES", "WORDS", "field_text", "known", "say"]
BAR = " | "  # and the banner its parts (machine/display/screens.py)

WORDS = (  # a text exactly as the game writes it
    # the house's titles and the hands' words
    N_("DEALER"), N_("BANK"), N_("BANKER"), N_("TABLE"), N_("blackjack"),
    # button labels
    N_("Insure"), N_("No insurance"), N_("Surrender"), N_("Play on"), N_("Draw"), N_("Stand"), N_("Double"),
    N_("Split"), N_("Auto"), N_("Enough"), N_("Dark card"), N_("Buy"), N_("Pass"), N_("Wash"), N_("Hand card"),
    N_("Table card"), N_("Swap"), N_("Swap all three"), N_("Draw from the stack"), N_("Take the open card"),
    N_("Discard"), N_("Place bet"), N_("Minimum"),
    # a hopper's payout faults (hardware/cctalk/hopper.py PayoutFault), in a tilt's detail
    N_("empty"), N_("jam"), N_("fraud"), N_("power cut"), N_("extra coin"), N_("runaway"), N_("no reply"),
    N_("refused"), N_("security"), N_("hopper fault"), N_("count mismatch"), N_("unknown"),
    # the cabinet-wide banners (machine/display/screens.py)
    N_("Door open"), N_("Panel offline"), N_("Operator menu"),
    N_("Attendant key: Collect clears, Auto hand-pays the rest, Max Bet records a refill"),
    # attract lines and notices without numbers
    N_("Three sevens pay a bonus!"), N_("Five cards without busting win"), N_("Beat the bank: wins pay 1 to 1"),
    N_("Three sevens beat every 21"), N_("A 7 and an 8? Wash them for two new cards"),
    N_("An open 21 is paid at once: 1 to 1"), N_("Exactly 21 is paid at once: 1 to 1"), N_("Beat the banker: 1 to 1"),
    N_("Two aces make 21!"), N_("31 knocks: everyone else has one more turn"),
    N_("Stuk: the next round is the last of this bank"), N_("Stuk: the last round of this bank"),
    N_("31!"), N_("Everyone passed"), N_("your 21 always wins"), N_("Five swaps"), N_("The stack is empty"),
    # eenendertigen's variants and decks, tournament entry keys
    N_("classic"), N_("modern"), N_("32 cards, 7 to ace"), N_("52 cards"),
    N_("Draw/Stand: character"), N_("Double: take it"), N_("Split: erase"), N_("Start: done"), N_("Auto: give up"),
    N_("Next"), N_("Previous"), N_("Take"), N_("Erase"), N_("Done"), N_("Give up"), N_("Next round"), N_("Enter"),
    # the bill validators' tilts (machine/core/notes.py)
    N_("bill validator: a note was pulled back"), N_("bill validator: a note is jammed"),
    N_("bill validator: the cash box was removed"), N_("bill validator: the cash box is full"),
)

TEMPLATES = (  # the core's Text message ids, to read back their English from the journal; most specific first
    N_("Player {number}"),  # a tournament participant who entered no name (the core's standings)
    N_("The entry is {entry} points: credit {credit}, insert coins"),
    N_("handpay of {amount} points"),
    N_("coin acceptor: {count} event(s) lost between polls"), N_("coin acceptor: {name} (code {code})"),
    N_("hopper paid {extra} coin(s) more than asked"), N_("hopper: {fault}; {unpaid} coin(s) owed"),
    N_("hopper {fault}: {coins} coin(s) paid out unasked"),
    N_("self-audit failed before {when}: {problem}"),
    N_("voucher of {amount} points: printing"),
    N_("bill validator: fraud attempt (code {code})"), N_("bill validator: fault (code {code})"),
    N_("bill validator: a note of unknown value was stacked (type {type})"),
    N_("bill validator {address}: event counter {last} -> {now}: nothing credited"),
)

NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    rx = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(f"^{rx}$")


def field_text(words: Words, value: object) -> str:
    """A field as the language writes it: a number by locale, a known word translated."""
    text = str(value)
    if NUMBER.match(text):
        return words.number(Decimal(text))
    if ", " in text and all(NUMBER.match(p) for p in text.split(", ")):  # "2, 3": the places sharing a win
        return ", ".join(words.number(int(p)) for p in text.split(", "))
    return say(words, text)


def known(text: str) -> bool:
    """Whether ``text`` is a game's ``Text``, a message here, a number, or parts or a template
    of them (a test checks every text the scenes show is; another that the catalogs hold every
    message id the games mark)."""
    if isinstance(text, Text):
        return all(known(part) for part in text.parts) if text.parts else bool(text.msgid)
    if not text or text in WORDS or NUMBER.match(text):
        return True
    for sep in (SEP, BAR):
        if sep in text:
            return all(known(part) for part in text.split(sep))
    return any(_pattern(t).match(text) for t in TEMPLATES)


def say(words: Words, text: str) -> str:
    """``text`` (a game's or the core's English) in ``words``' language."""
    if not text:
        return text
    if isinstance(text, Text):
        if text.parts:
            return text.sep.join(say(words, part) for part in text.parts)
        return words(text.msgid, **{k: field_text(words, v) for k, v in text.fields.items()})
    if text in WORDS:
        return words(text)
    if NUMBER.match(text):
        return words.number(Decimal(text))
    for sep in (SEP, BAR):
        if sep in text:
            return sep.join(say(words, part) for part in text.split(sep))
    for template in TEMPLATES:
        m = _pattern(template).match(text)
        if m:
            return words(template, **{k: field_text(words, v) for k, v in m.groupdict().items()})
    return words(text)
