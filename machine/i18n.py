"""Every word a person reads on the cabinet, in its four languages, and money and numbers by locale.

Owns: the languages the cabinet speaks (``LANGUAGES``: English, Dutch, Norwegian bokmål,
Russian) and their names as each language writes its own; loading a language's gettext message
catalogs (every ``machine/locale/<lang>/LC_MESSAGES/*.po``: ``player.po`` for the player
screens, ``operator.po`` for the operator's side..., compiled in memory with Babel when first
asked, merged into one); and ``Words``, which translates a message (English is the source language: a
message without a translation reads as written) with its named fields filled in after the
translation, and writes money and numbers as the language's locale does (Babel).

Every call that translates is spelled ``_(...)`` (a ``Words`` bound to the name ``_``:
``_("Seat {seat} is deciding", seat=2)`` reads ``Speler 2 beslist`` in Dutch) or ``N_(...)``
where a message is named before it is shown, so Babel's extraction (keywords ``_`` and ``N_``)
finds every message and a test can check each catalog holds them all.
Never draws, never reads the cabinet's state.
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decimal import Decimal

LANGUAGES: tuple[str, ...] = ("en", "nl", "nb", "ru")
LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands", "nb": "Norsk", "ru": "Русский"}  # each in its own words
LOCALES = {"en": "en_GB", "nl": "nl_NL", "nb": "nb_NO", "ru": "ru_RU"}  # money and number formats
DOMAIN = "cabinet"
LOCALE_DIR = Path(__file__).parent / "locale"  # <lang>/LC_MESSAGES/<part>.po


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is named before it is shown."""
    return message


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The language's messages, every catalog of it merged (English, or a language without a
    catalog: the messages as written)."""
    files = sorted((LOCALE_DIR / language / "LC_MESSAGES").glob("*.po")) if language != "en" else []
    if not files:
        return gettext.NullTranslations()
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    merged = Catalog(locale=LOCALES[language], domain=DOMAIN)
    for po in files:
        with po.open("rb") as f:
            for message in read_po(f, locale=LOCALES[language]):
                if message.id and message.string:
                    merged[message.id] = message
    buf = io.BytesIO()
    write_mo(buf, merged)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@dataclass(frozen=True)
class Money:
    """A message's field that is an amount: written as money in the language of the screen."""

    points: int
    cents: int  # a point's worth in cents


class Words:
    """The words of one language: ``words(message, **fields)``, ``words.money(points, cents)``."""

    def __init__(self, language: str):
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
        self.language = language
        self.locale = LOCALES[language]
        self._catalog = catalog(language)

    def __call__(self, message: str, **fields: object) -> str:
        text = self._catalog.gettext(message) if message else message
        fields = {k: self.money(v.points, v.cents) if isinstance(v, Money) else v for k, v in fields.items()}
        return text.format(**fields) if fields else text

    def plural(self, singular: str, plural: str, n: int, **fields: object) -> str:
        return self._catalog.ngettext(singular, plural, n).format(n=n, **fields)

    def money(self, points: int, cents_per_point: int) -> str:
        """``points`` on the meters as money: ``€1.50`` (en), ``€ 1,50`` (nl), ``1,50 €`` (nb, ru)."""
        from decimal import Decimal  # here, beside Babel (which needs it too), not for every LANGUAGES reader

        from babel.numbers import format_currency

        return format_currency(Decimal(points * cents_per_point) / 100, "EUR", locale=self.locale)

    def number(self, value: int | float | Decimal) -> str:
        """A count or a score as the locale writes it: ``12,345`` (en), ``12.345`` (nl), ``30,5`` (nl)."""
        from babel.numbers import format_decimal

        return format_decimal(value, locale=self.locale)
