"""The cabinet's languages: a message catalog read with its fields filled in after the
translation, English as written, money and numbers by each language's locale (Babel)."""

from __future__ import annotations

import pytest

from machine.i18n import LANGUAGE_NAMES, LANGUAGES, Words


def test_a_message_is_translated_then_its_fields_filled_in():
    assert Words("nl")("Seat {seat} is deciding", seat=2) == "Speler 2 beslist"
    assert Words("en")("Seat {seat} is deciding", seat=2) == "Seat 2 is deciding"


def test_money_and_numbers_are_written_as_each_locale_writes_them():
    nbsp = "\u00a0"
    assert [Words(lang).money(12345, 10) for lang in LANGUAGES] == [
        "€1,234.50", f"€{nbsp}1.234,50", f"1{nbsp}234,50{nbsp}€", f"1{nbsp}234,50{nbsp}€"]
    assert [Words(lang).number(30.5) for lang in LANGUAGES] == ["30.5", "30,5", "30,5", "30,5"]
    assert Words("en").money(3, 10) == "€0.30" and Words("nl").money(7, 50) == f"€{nbsp}3,50"


def test_four_languages_each_named_in_its_own_words_and_no_other():
    assert LANGUAGE_NAMES == {"en": "English", "nl": "Nederlands", "nb": "Norsk", "ru": "Русский"}
    with pytest.raises(ValueError, match="^language must be one of en, nl, nb, ru, not 'de'$"):
        Words("de")


def test_a_message_in_two_parts_of_a_language_reads_the_same_in_both():
    # the catalogs of one language are merged: a message both the player screens and the
    # operator menu use (a button's name) must not read two ways
    from babel.messages.pofile import read_po

    from machine.i18n import LOCALE_DIR

    for lang in ("nl", "nb", "ru"):
        seen: dict[str, tuple[str, str]] = {}
        for po in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
            with po.open("rb") as f:
                for m in read_po(f):
                    if m.id and m.string:
                        first = seen.setdefault(str(m.id), (po.name, str(m.string)))
                        assert first[1] == m.string, (
                            f"{lang}: {m.id!r} reads {first[1]!r} in {first[0]}, {m.string!r} in {po.name}")
