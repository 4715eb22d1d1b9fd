"""The words on the player screens in the configured language (``language`` in machine.yaml).

Owns: English to Dutch for every phrase the screens draw, exact phrases and a few patterns
with numbers in them. English is the source: a phrase without a translation is drawn as it is.
The button names stay as the Dutch manual (seed 003) writes them on the panel: Repeat Bet,
Max Bet, Draw, Stand, Auto, Collect.
"""

from __future__ import annotations

import re

NL = {
    "Insurance?": "Verzekeren?", "Surrender?": "Opgeven?", "Your turn": "Uw beurt",
    "Handpay: call the attendant": "Handbetaling: roep de bediening",
    "Tilt: call the attendant": "Storing: roep de bediening",
    "Memory error: call the operator": "Geheugenfout: roep de exploitant",
    "Paying out": "Uitbetalen", "You win": "Gewonnen", "Push": "Gelijkspel",
    "Dealer wins": "Dealer wint", "Bank wins": "Bank wint", "Banker wins": "Bankier wint", "Press Start": "Druk op Start",
    "Waiting for the other seats": "Wachten op de andere spelers", "Place your bet": "Plaats uw inzet",
    "Insert coins": "Werp munten in", "INSERT COINS": "WERP MUNTEN IN",
    "Insure": "Verzeker", "Double": "Verdubbel", "Split": "Splits", "BET": "INZET",
    "Surrender": "Opgeven", "No insurance": "Geen verzekering", "Play on": "Speel door",
    "Call the attendant": "Roep de bediening", "Call the operator": "Roep de exploitant",
    "HANDPAY": "HANDBETALING", "TILT": "STORING", "MEMORY ERROR": "GEHEUGENFOUT",
    "Three sevens pay a bonus!": "Drie zevens geven een bonus!",
    "Five cards without busting win": "Vijf kaarten zonder dood te gaan winnen",
    "Draw / Stand: choose the game": "Draw / Stand: kies het spel",
    "Place bet": "Inzet plaatsen", "Minimum": "Minimum", "Buy": "Kopen", "Pass": "Passen",
    "Wash": "Vuile was", "Enough": "Genoeg", "Dark card": "Blinde kaart",
    "DEALER": "DEALER", "BANK": "BANK", "BANKER": "BANKIER",
    "Beat the bank: wins pay 1 to 1": "Versla de bank: winst betaalt 1 tegen 1",
    "Two aces count 20.5": "Twee azen tellen 20,5",
    "Three sevens beat every 21": "Drie zevens verslaan elke 21",
    "A 7 and an 8? Wash them for two new cards": "Een 7 en een 8? Vuile was: twee nieuwe kaarten",
    "Exactly 21 is paid at once: 1 to 1": "Precies 21 wordt meteen betaald: 1 tegen 1",
    "An open 21 is paid at once: 1 to 1": "Een open 21 wordt meteen betaald: 1 tegen 1",
    "Beat the banker: 1 to 1": "Versla de bankier: 1 tegen 1", "Two aces make 21!": "Twee azen zijn 21!",
    "Stuk: the last round of this bank": "Stuk: de laatste ronde van deze bank",
    "Stuk: the next round is the last of this bank": "Stuk: de volgende ronde is de laatste van deze bank",
    "Door open": "Deur open", "Panel offline": "Paneel niet verbonden", "Operator menu": "Exploitantmenu",
}
STATES_NL = {
    "idle": "vrij", "ready": "klaar", "betting": "zet in", "in round": "speelt", "paying": "uitbetaling",
    "handpay": "handbetaling", "tilt": "storing", "memory error": "geheugenfout",
}
PATTERNS_NL = [
    (re.compile(r"^Seat (\d+) is deciding$"), lambda m: f"Speler {m[1]} beslist"),
    (re.compile(r"^SEAT (\d+)$"), lambda m: f"SPELER {m[1]}"),
    (re.compile(r"^(> )?Seat (\d+): ([a-z ]+)(, bet (\d+))?$"),
     lambda m: f"{m[1] or ''}Speler {m[2]}: {STATES_NL.get(m[3], m[3])}{f', inzet {m[5]}' if m[5] else ''}"),
    (re.compile(r"^Insurance (\d+)(  pays (\d+))?$"), lambda m: f"Verzekering {m[1]}{f'  betaalt {m[3]}' if m[3] else ''}"),
    (re.compile(r"^(WIN|LOSE|PUSH|SURRENDER) (\d+)$"),
     lambda m: f"{ {'WIN': 'WINST', 'LOSE': 'VERLIES', 'PUSH': 'GELIJK', 'SURRENDER': 'OPGEGEVEN'}[m[1]]} {m[2]}"),
    (re.compile(r"soft (\d+)"), lambda m: f"zacht {m[1]}"),
    (re.compile(r"^Blackjack pays (\d+) to (\d+)$"), lambda m: f"Blackjack betaalt {m[1]} tegen {m[2]}"),
    (re.compile(r"^Bet (\d+) to (\d+) after seeing your open card$"),
     lambda m: f"Inzet {m[1]} tot {m[2]} na uw open kaart"),
    (re.compile(r"^Stake up to the bank: it opens at (\d+)$"), lambda m: f"Inzet tot de bank: die opent met {m[1]}"),
    (re.compile(r"^The bank closed: a new bank of (\d+) opens$"),
     lambda m: f"De bank is gesloten: een nieuwe bank van {m[1]} opent"),
    (re.compile(r"^BANK (\d+)$"), lambda m: f"BANK {m[1]}"),
]


def translate(text: str, language: str) -> str:
    if language != "nl":
        return text
    if text in NL:
        return NL[text]
    for rx, repl in PATTERNS_NL:
        if rx.search(text):
            return rx.sub(repl, text)
    return text
