"""Recall's words: how a card, a decision, who made it, a result and the rules in force read.

Owns: the tables of words the recall uses (decisions, who decided, results, how a game of
places ended, the house's titles, the rules' human names) marked with ``N_`` for the operator
catalogs, ``card_text`` (TS -> 10♠) and ``rules_lines`` (a round's rules as "name: value").
Pure data and text: no journal, no state, no drawing.
"""

from __future__ import annotations

from typing import Any

from machine.i18n import N_, Words

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
BY_WORDS = {"player": N_("player"), "auto": N_("Auto"), "timeout": N_("time limit")}
ACTION_WORDS = {
    "hit": N_("draw"), "draw": N_("draw from the stack"), "stand": N_("stand"), "double": N_("double"),
    "split": N_("split"), "surrender": N_("surrender"), "continue": N_("no surrender, play on"), "insure": N_("insurance"),
    "no_insurance": N_("no insurance"), "wash": N_("wash"), "dark": N_("draw face down"), "pass": N_("pass"),
    "swap_all": N_("swap all three"), "take_open": N_("take the open card"), "knock": N_("knock: 31!"),
}
# Where a game names a decision otherwise (its buttons' words): eenentwintig buys and passes,
# ochko says enough; every other game reads ACTION_WORDS.
GAME_ACTION_WORDS = {"eenentwintig": {"hit": N_("buy"), "stand": N_("pass")}, "ochko": {"stand": N_("enough")}}
RESULT_WORDS = {"win": N_("win"), "lose": N_("lost"), "push": N_("push"), "blackjack": N_("blackjack"),
                "surrender": N_("surrendered"), "void": N_("void")}
ENDED_WORDS = {"31": N_("a knock with 31"), "stack empty": N_("the stack ran out"), "swaps": N_("the fifth swap"),
               "all passed": N_("every place passed"), "swap_all": N_("swapped all three"), "stuk": N_("stuk"),
               "broken": N_("the bank is broken")}
HOUSE_WORDS = {"DEALER": N_("Dealer"), "BANKER": N_("Bank"), "BANK": N_("Bank"), "TABLE": N_("Table")}
RULE_WORDS = {
    "variant": N_("variant"), "decks": N_("decks"), "hole_card": N_("dealer takes a closed second card"),
    "dealer_hits_soft_17": N_("dealer draws to soft 17"), "blackjack_pays": N_("blackjack pays"),
    "insurance_pays": N_("insurance pays"), "double_hard": N_("double on hard totals"),
    "double_soft": N_("double on soft totals"), "double_after_split": N_("double after a split"),
    "double_makes_aces_hard": N_("a double counts aces as 1"),
    "max_splits_and_doubles": N_("most splits and doubles"), "max_hands": N_("most hands"),
    "split_aces_one_card": N_("split aces get one card"), "resplit_aces": N_("aces split again"),
    "surrender": N_("surrender"), "three_sevens_bonus": N_("three sevens bonus"),
    "five_card_charlie": N_("five cards without a bust win"), "no_hole_card_loses": N_("to a dealer's blackjack lose"),
    "dealer_wins_ties": N_("dealer wins ties on"), "spanish_deck": N_("Spanish deck (no tens)"),
    "player_21_wins": N_("a player's 21 always wins"), "min_bet": N_("smallest bet"), "max_bet": N_("largest bet"),
    "bet_step": N_("bet step"), "two_aces_21": N_("two aces are 21"), "dark_draw": N_("drawing face down"),
    "opening_bank": N_("opening bank"), "two_aces_twenty_and_a_half": N_("two aces are 20½"),
    "three_sevens_beat_21": N_("three sevens beat 21"), "win_pays": N_("a win pays"),
}
VALUE_WORDS = {"none": N_("none"), "any": N_("any"), "all": N_("all"), "classic": N_("classic"), "modern": N_("modern"),
               "early": N_("early"), "late": N_("late"), "bet": N_("the bet"), "original": N_("the first bet")}


def card_text(card: str) -> str:
    """A card as people write it: ``TS`` -> ``10♠``, ``AH`` -> ``A♥`` (anything else as recorded)."""
    if len(card) != 2 or card[1] not in SUITS:
        return card
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def cards_text(cards: Any) -> str:
    return " ".join(card_text(c) for c in cards) or "-"


def value_text(value: Any, _: Words) -> str:
    """A rule's value in words: yes / no, a number as the locale writes it, a list, a word."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("no limit")
    if isinstance(value, int | float):
        return _.number(value)
    if isinstance(value, list | tuple):
        return ", ".join(value_text(v, _) for v in value) if value else _("none")
    return _(VALUE_WORDS[value]) if value in VALUE_WORDS else str(value)


def rules_lines(rules: dict[str, Any], _: Words, per_line: int = 4) -> list[str]:
    """The rules in force as lines: "Rules in force:" then "name: value; ..." ``per_line`` each."""
    parts = [f"{_(RULE_WORDS[k]) if k in RULE_WORDS else k}: {value_text(v, _)}" for k, v in rules.items()]
    lines = [_("Rules in force:")]
    lines += ["; ".join(parts[i:i + per_line]) for i in range(0, len(parts), per_line)]
    return lines if parts else [_("Rules in force:") + " -"]
