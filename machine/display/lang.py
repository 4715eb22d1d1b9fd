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
    # eenendertigen ("31!" stays "31!": the screen's call, not the Dutch "kloppen")
    "TABLE": "TAFEL", "You lose": "Verloren", "Discard a card": "Leg een kaart af", "passed": "gepast",
    "Hand card": "Handkaart", "Table card": "Tafelkaart", "Swap": "Ruilen", "Swap all three": "Alle drie ruilen",
    "Draw from the stack": "Van de stapel", "Take the open card": "Open kaart nemen", "Discard": "Afleggen",
    "31 knocks: everyone else has one more turn": "31!: alle anderen hebben nog \u00e9\u00e9n beurt",
}
# a tournament (machine/display/tournament.py)
NL.update({
    "TOURNAMENT": "TOERNOOI", "TOURNAMENT RESULT": "UITSLAG TOERNOOI", "ENTER YOUR NAME": "VOER UW NAAM IN",
    "Rank": "Plaats", "Name": "Naam", "Score": "Score", "Rounds": "Rondes", "No participants yet": "Nog geen deelnemers",
    "Press Start to enter": "Druk op Start om mee te doen", "A tournament is on": "Er loopt een toernooi",
    "Opens soon: the cabinet plays as usual until then": "Begint straks: tot dan wordt gewoon gespeeld",
    "Ten participants: the tournament is full": "Tien deelnemers: het toernooi is vol",
    "Draw/Stand: character": "Draw/Stand: teken", "Double: take it": "Double: nemen", "Split: erase": "Split: wissen",
    "Start: done": "Start: klaar", "Auto: give up": "Auto: stoppen",
    "An empty name plays as the next participant number": "Zonder naam speelt u als het volgende deelnemersnummer",
    "Next": "Volgende", "Previous": "Vorige", "Take": "Nemen", "Erase": "Wissen", "Done": "Klaar", "Give up": "Stoppen",
    "Enter": "Meedoen", "Next round": "Volgende ronde",
})
DOT = "  \u00b7  "  # between the parts of a line
ENDED_NL = {"31!": "31!", "Everyone passed": "Iedereen heeft gepast", "Five swaps": "Vijf keer geruild",
            "The stack is empty": "De stapel is op"}
VARIANT_NL = {"classic": "klassiek", "modern": "modern", "32 cards, 7 to ace": "32 kaarten, 7 tot aas", "52 cards": "52 kaarten"}
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
    (re.compile(r"^Place (\d+) \u00b7 (Computer|Seat (\d+))$"),
     lambda m: f"Plaats {m[1]} \u00b7 {'Computer' if m[3] is None else f'Speler {m[3]}'}"),
    (re.compile(r"^Place (\d+)(  \u00b7  bet (\d+))?(  \u00b7  ([\d.]+))?$"),
     lambda m: f"Plaats {m[1]}" + (f"{DOT}inzet {m[3]}" if m[3] else "") + (f"{DOT}{m[5].replace('.', ',')}" if m[5] else "")),
    (re.compile(r"^(\d+)\.5$"), lambda m: f"{m[1]},5"),
    (re.compile(r"^swaps (\d+)(/\d+)?$"), lambda m: f"geruild {m[1]}{m[2] or ''}"),
    (re.compile(r"^Stack (\d+)$"), lambda m: f"Stapel {m[1]}"),
    (re.compile(r"^31! Place (\d+) knocked: one more turn each$"),
     lambda m: f"31! Plaats {m[1]} heeft 31: iedereen nog \u00e9\u00e9n beurt"),
    (re.compile(r"^(31!|Everyone passed|Five swaps|The stack is empty) · (Place (\d+) wins|Places ([\d, ]+) share the win)$"),
     lambda m: f"{ENDED_NL[m[1]]} · " + (f"plaats {m[3]} wint" if m[3] else f"plaatsen {m[4]} delen de winst")),
    (re.compile(r"^Eenendertigen \((classic|modern), (32 cards, 7 to ace|52 cards)\): the best hand of four wins$"),
     lambda m: f"Eenendertigen ({VARIANT_NL[m[1]]}, {VARIANT_NL[m[2]]}): de beste hand van de vier wint"),
    (re.compile(r"^Seat (\d+) is (entering a name|playing: (.*), round (\d+) of (\d+) - score ([\d.]+))$"),
     lambda m: f"Speler {m[1]} " + ("voert een naam in" if m[3] is None else
                                    f"speelt: {m[3]}, ronde {m[4]} van {m[5]} - score {m[6].replace('.', ',')}")),
    (re.compile(r"^(.*): Round (\d+) of (\d+) - score ([\d.]+)$"),
     lambda m: f"{m[1]}: ronde {m[2]} van {m[3]} - score {m[4].replace('.', ',')}"),
    (re.compile(r"^Tournament (\d+): (classic|modern), entry (\d+), prizes (.*)$"),
     lambda m: f"Toernooi {m[1]}: {VARIANT_NL[m[2]]}, inleg {m[3]}, prijzen {'geen' if m[4] == 'none' else m[4]}"),
    (re.compile(r"^Tournament (\d+) \((classic|modern)\): final ranking$"),
     lambda m: f"Toernooi {m[1]} ({VARIANT_NL[m[2]]}): eindstand"),
    (re.compile(r"^The entry is (\d+) points: credit (\d+), insert coins$"),
     lambda m: f"De inleg is {m[1]} punten: krediet {m[2]}, werp munten in"),
    (re.compile(r"^A win pays ([\d.]+) x the bet, shared between tied winners$"),
     lambda m: f"Winst betaalt {m[1].replace('.', ',')} x de inzet, gedeeld bij gelijke winnaars"),
]


MOVES_NL = {"swapped": "ruilde", "swapped all three": "ruilde alle drie", "took the open card": "nam de open kaart",
            "drew": "trok van de stapel", "passed": "paste"}
MOVE_RX = re.compile(r"^Place (\d+) (swapped all three|swapped|took the open card|drew|passed)$")


def translate(text: str, language: str) -> str:
    if language != "nl":
        return text
    if text in NL:
        return NL[text]
    parts = [MOVE_RX.match(part) for part in text.split(" · ")]
    if all(parts):  # what the other places did: "Place 2 swapped · Place 3 passed"
        return " · ".join(f"Plaats {m[1]} {MOVES_NL[m[2]]}" for m in parts if m)
    for rx, repl in PATTERNS_NL:
        if rx.search(text):
            return rx.sub(repl, text)
    return text
