"""Game recall as an inspector reads it: one game of one seat, step by step, in the operator's words.

Owns: ``recall_of`` (a recall record and its round's events, as ``machine/money/recalled.py``
gathers them, made into a ``Recall``: the game, the rules in force when it was dealt, the credit
before and after, every step in the order it happened with the cards it dealt and, for each
decision, who made it: the player, Auto or the time limit; the stakes and returns), and
``recall_text`` (a ``Recall`` as lines of text). Every game is covered: the cabinet's own seat
with the house's cards (blackjack, eenentwintig, ochko) and a game of places (eenendertigen).
Cards read as rank and suit (10♠, A♥), never as codes; decisions as words, never as action
codes. Pure text: no journal, no drawing (``machine/display/recallpic.py`` draws a ``Recall``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from machine.i18n import N_, Words
from machine.operator.recallwords import (
    ACTION_WORDS,
    BY_WORDS,
    ENDED_WORDS,
    GAME_ACTION_WORDS,
    HOUSE_WORDS,
    RESULT_WORDS,
    card_text,
    cards_text,
    rules_lines,
)

DECISION_EVENTS = ("action", "insurance", "surrender", "bet", "move", "knock")
TWO_STEP = ("take_open", "draw")  # eenendertigen modern: a take, then the discard makes the move


@dataclass
class Step:
    """One thing that happened, in words; ``decision``: a seat's decision (the picture marks it);
    ``gets``: the cards it gave a holder (``holder``: "house", "seat" or "place N"), so the
    picture can number each final card with the step that dealt it."""

    text: str
    decision: bool = False
    gets: tuple[str, ...] = ()
    holder: str = ""


@dataclass
class Recall:
    """One game of one seat, ready to read or draw."""

    seat: int
    title: str  # "RECALL - seat 1 - game 1 of the last 10"
    head: list[str]  # the game, the round and its time, the credit before
    rules: list[str]  # the rules in force, "name: value" each
    steps: list[Step]
    result: list[str]  # stakes, returns, credit after
    house: tuple[str, tuple[str, ...], str] | None  # title, cards, total (none in a game of places)
    hands: list[tuple[tuple[str, ...], str]] = field(default_factory=list)  # the seat's hands: cards, label
    places: list[tuple[str, tuple[str, ...], str]] = field(default_factory=list)  # a game of places: who, cards, label


def recall_of(g: dict[str, Any], _: Words, n: int = 1, count: int = 1, cents: int | None = None,
              when: str = "") -> Recall:
    """Game ``g`` (a recall record with its ``events``) as the ``n``-th newest of ``count``;
    ``cents``: a point's worth, to write the returns as money too (None: points only)."""
    seat = g["seat"]
    number = seat.get("seat") or _seat_of(g)
    places = "places" in g and "dealer" not in g
    title = _("RECALL - seat {seat} - game {n} of the last {count}", seat=number, n=n, count=count)
    head = [_("Game: {title}", title=_(str(g.get("title") or g.get("game", "?")))),  # the game's name in the reader's words
            _("Round {round}, {when}", round=g["round_no"], when=when or "-"),
            _("Credit before: credit {credit}, club {club} (points)", credit=_.number(g["before"]["credit"]),
              club=_.number(g["before"]["club"]))]
    if "bank_before" in g:
        head.append(_("Bank before: {bank}", bank=_.number(g["bank_before"])))
    if "tournament" in g:
        t = g["tournament"]
        head.append(_("Tournament {id}, participant {number}, round {round} (no stake)", id=t.get("id", "?"),
                      number=t.get("participant", "?"), round=t.get("round", "?")))
    steps = _steps(g, number, _) if g.get("events") else [
        Step(_("The round's steps are no longer in the journal (archived): its end is below"))]
    staked, returned = seat.get("staked", seat.get("bet", 0)), seat.get("returned", 0)
    result = [_("Staked {staked}, returned {returned} (stakes included), net {net}", staked=_.number(staked),
                returned=_.number(returned), net=_signed(returned - staked, _))
              + ("  " + _("(returned {money})", money=_.money(returned, cents)) if returned and cents else "")]
    for k, word in (("insurance", N_("insurance {n}")), ("bonus", N_("bonus {n}"))):
        if seat.get(k):
            result.append(_(word, n=_.number(seat[k])))
    if "bank_after" in g:
        result.append(_("Bank after: {bank}", bank=_.number(g["bank_after"])) + ("  " + _("(stuk)") if g.get("stuk") else ""))
    if g.get("void"):
        result.append(_("Void: every stake returned ({why})", why=g.get("why", "")))
    result.append(_("Credit after: credit {credit}, club {club} (points)", credit=_.number(g["after"]["credit"]),
                    club=_.number(g["after"]["club"])))
    rc = Recall(number, title, head, rules_lines(g.get("rules", {}), _), steps, result, None)
    if places:
        winners = g.get("winners", [])
        rc.places = [(_place_who(p, _), tuple(p["cards"]), _place_label(p, p["place"] in winners, _)) for p in g["places"]]
        rc.result.insert(0, _("Ended: {ended}", ended=_(ENDED_WORDS.get(g.get("ended", ""), g.get("ended", "?")))))
    else:
        house = str(g.get("dealer_title", "DEALER"))
        rc.house = (_(HOUSE_WORDS.get(house, N_("Dealer"))), tuple(g["dealer"]["cards"]), _total(g["dealer"]["total"], _))
        hands = seat.get("hands", [])
        rc.hands = [(tuple(h["cards"]), (_("Hand {hand}", hand=i) + ": " if len(hands) > 1 else "") + _hand_label(h, seat, _))
                    for i, h in enumerate(hands, 1)]
    return rc


def _seat_of(g: dict[str, Any]) -> int:
    return next((d["seat"] for d in g.get("decisions", [])), 0)


def _total(total: Any, _: Words) -> str:
    """A hand's total as the reader's language writes a number (eenentwintig's 20.5 is 20,5 in
    Dutch and Russian); a word (``bust``) as recorded."""
    return _.number(total) if isinstance(total, int | float) and not isinstance(total, bool) else str(total)


def _signed(points: int, _: Words) -> str:
    return ("+" if points > 0 else "") + _.number(points)


def _hand_label(h: dict[str, Any], seat: dict[str, Any], _: Words) -> str:
    stake = h.get("stake", seat.get("bet", 0))
    label = _("{total}: {result}, stake {stake}, returned {returned}", total=_total(h["total"], _),
              result=_(RESULT_WORDS.get(h.get("result", ""), h.get("result", "?"))), stake=_.number(stake),
              returned=_.number(h.get("returned", 0)))
    if h.get("washed"):  # eenentwintig: the cards washed away before these
        label += "  " + _("washed {cards}", cards=cards_text(h["washed"]))
    return label


def _place_who(p: dict[str, Any], _: Words) -> str:
    if p.get("seat") is None:
        return _("Place {place} (computer)", place=p["place"])
    return _("Place {place} (seat {seat})", place=p["place"], seat=p["seat"])


def _place_label(p: dict[str, Any], won: bool, _: Words) -> str:
    score = _.number(p["score"])
    if p.get("seat") is None:
        return _("{score}: wins", score=score) if won else _("{score}: loses", score=score)
    if won:
        return _("{score}: wins, returned {returned}", score=score, returned=_.number(p["returned"]))
    return _("{score}: loses", score=score)


def _steps(g: dict[str, Any], seat: int, _: Words) -> list[Step]:
    """The round's events that concern this seat and the house (or, a game of places, the whole
    table), each with the decision it answered and who made it."""
    decisions = list(g.get("decisions", []))
    game = str(g.get("game", ""))
    house = _(HOUSE_WORDS.get(str(g.get("dealer_title", "DEALER")), N_("Dealer")))
    places = "places" in g and "dealer" not in g
    hands = max(1, len(g["seat"].get("hands", [])))
    steps: list[Step] = []
    for e in g.get("events", []):
        mine = e.get("seat") == seat
        if not places and e.get("seat") is not None and not mine:
            continue  # another seat's game
        before = len(steps)
        who = _who(e, places, hands, g, _)
        decided = mine and (e["kind"] in DECISION_EVENTS or (e["kind"] == "pass" and e.get("by") == "pass"))
        if e["kind"] == "peek" or decided:
            while decisions and decisions[0]["action"] == "continue":  # an early surrender declined: no event says so
                steps.append(Step(_("{who}: {what} ({by})", who=_("Seat {seat}", seat=seat), what=_(ACTION_WORDS["continue"]),
                                    by=_(BY_WORDS.get(decisions[0]["by"], decisions[0]["by"]))), decision=True))
                decisions.pop(0)
        taken = _answered(e, decisions) if decided else []
        if taken:
            by = ", ".join(_(BY_WORDS.get(d["by"], d["by"])) for d in taken)
            what = _event_words(e, house, _, game=game)
            steps.append(Step(_("{who}: {what} ({by})", who=who, what=what, by=by), decision=True))
        elif e["kind"] == "deal" and not mine and e.get("place"):  # another place's cards stay closed until the end
            steps.append(Step(_("{who} receives a closed card", who=who)))
        elif e["kind"] in DECISION_EVENTS or (e["kind"] == "pass" and e.get("by") == "pass"):  # another place's move
            steps.append(Step(_("{who}: {what}", who=who, what=_event_words(e, house, _, who, game))))
        else:
            steps.append(Step(_event_words(e, house, _, who, game)))
        steps[-1].gets, steps[-1].holder = _gets(e, places) if len(steps) > before else ((), "")
    for d in decisions:  # decisions no event shows (none in the shipped games)
        steps.append(Step(_("{who}: {what} ({by})", who=_("Seat {seat}", seat=seat), what=action_words(d["action"], _, game),
                            by=_(BY_WORDS.get(d["by"], d["by"]))), decision=True))
    return steps


def _gets(e: dict[str, Any], places: bool) -> tuple[tuple[str, ...], str]:
    """The cards event ``e`` put in a hand, and whose hand."""
    kind = e["kind"]
    if places:
        place = e.get("place")
        if kind == "deal" and place:
            return (e["card"],), f"place {place}"
        if kind == "move":
            return tuple(e.get("took", ())), f"place {place}"
        return (), ""
    if kind in ("card", "closed_card", "dark_card"):
        return (e["card"],), "seat"
    if kind == "dealer_card":
        return (e["card"],), "house"
    return (), ""


def dealt_at(rc: Recall, holder: str, cards: tuple[str, ...], used: set[int]) -> list[int | None]:
    """For each of ``holder``'s final ``cards``, the number of the step that put it there, or
    None; ``used``: the steps already given to a card (several decks hold a card twice). In a
    game of places a card can leave a hand and come back: the latest step counts."""
    out: list[int | None] = []
    for c in cards:
        at = [i for i, st in enumerate(rc.steps, 1) if st.holder == holder and c in st.gets and i not in used]
        step = (at[-1] if holder.startswith("place") else at[0]) if at else None
        if step is not None and not holder.startswith("place"):
            used.add(step)
        out.append(step)
    return out


def _answered(e: dict[str, Any], decisions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The decisions (taken off the front of ``decisions``) that event ``e`` carried out: none
    when the round did it by itself (a knock on reaching 31, a stand on 21)."""
    if not decisions:
        return []
    action, kind = decisions[0]["action"], e["kind"]
    verb = str(e.get("action", "")).split(":")[0]
    if kind == "move" and action in TWO_STEP and action == verb and len(decisions) > 1:
        return [decisions.pop(0), decisions.pop(0)]  # the take, then the discard
    fits = {"action": action == e.get("action"), "move": action == e.get("action"), "knock": action == "knock",
            "pass": action == "pass", "bet": action.startswith("bet"), "surrender": action == "surrender",
            "insurance": decisions[0].get("kind") == "insurance"}
    return [decisions.pop(0)] if fits.get(kind) else []


def _who(e: dict[str, Any], places: bool, hands: int, g: dict[str, Any], _: Words) -> str:
    if places:
        if e.get("place") is None or e.get("place") == 0:
            return _("Table")
        p = next((p for p in g.get("places", []) if p["place"] == e["place"]), {"place": e["place"], "seat": e.get("seat")})
        return _place_who(p, _)
    if e.get("seat") is None:
        return _(HOUSE_WORDS.get(str(g.get("dealer_title", "DEALER")), N_("Dealer")))
    if hands > 1 and "hand" in e:
        return _("Seat {seat}, hand {hand}", seat=e["seat"], hand=e["hand"] + 1)
    return _("Seat {seat}", seat=e["seat"])


def action_words(action: str, _: Words, game: str = "") -> str:
    """A decision in words: "draw", "stake 2", "swap hand card 1 for table card 2"; ``game``'s
    own word where it has one (eenentwintig's "buy")."""
    verb, *args = action.split(":")
    if verb == "bet" and args:
        return _("stake {points}", points=args[0])
    if verb == "swap" and len(args) == 2:
        return _("swap hand card {hand} for table card {table}", hand=args[0], table=args[1])
    if verb == "discard" and args:
        return _("throw away card {card}", card=args[0])
    if verb in ("take_open", "draw") and args:
        return _(ACTION_WORDS[verb]) + ", " + _("throw away card {card}", card=args[0])
    words = {**ACTION_WORDS, **GAME_ACTION_WORDS.get(game, {})}
    return _(words[action]) if action in words else action


def _event_words(e: dict[str, Any], house: str, _: Words, who: str = "", game: str = "") -> str:
    k = e["kind"]
    if k in ("card", "deal") and e.get("place") == 0:
        return _("Table: {card} laid open", card=card_text(e["card"]))
    if k in ("card", "deal"):
        return _("{who} receives {card}", who=who, card=card_text(e["card"]))
    if k in ("closed_card", "dark_card") or (k == "dealer_card" and e.get("face_down")):
        return _("{who} receives a closed card ({card})", who=who, card=card_text(e["card"]))
    if k == "dealer_card":
        return _("{who} receives {card}", who=who, card=card_text(e["card"]))
    if k in ("card_turned", "dark_reveal", "dealer_reveal"):
        return _("{who} turns the closed card over: {card}", who=who, card=card_text(e["card"]))
    if k == "action":
        return action_words(e["action"], _, game)
    if k == "insurance":
        return _("insurance {points}", points=_.number(e["amount"])) if e["amount"] else _(ACTION_WORDS["no_insurance"])
    if k == "surrender":
        return _(ACTION_WORDS["surrender"])
    if k == "bet":
        return _("stake {points}", points=_.number(e["amount"]))
    if k == "move":
        took, gave = cards_text(e.get("took", ())), cards_text(e.get("gave", ()))
        return _("{what}: took {took}, gave {gave}", what=action_words(e["action"], _), took=took, gave=gave)
    if k == "pass":
        if e.get("by") == "pass":
            return _("pass")
        return _("{who} passes ({why})", who=who, why=_(ENDED_WORDS.get(e["by"], e["by"])))
    if k == "knock":
        return _("knock: 31!")
    if k == "bust":
        return _("{who} is bust", who=who)
    if k == "peek":
        return (_("{who} looks at the closed card: blackjack", who=who) if e.get("result") == "blackjack"
                else _("{who} looks at the closed card: no blackjack", who=who))
    if k == "charlie":
        return _("{who}: five cards without a bust", who=who)
    if k == "bonus":
        return _("{who}: bonus {points} paid", who=who, points=_.number(e["amount"]))
    if k == "insurance_settle":
        return _("{who}: insurance returns {points}", who=who, points=_.number(e["amount"]))
    if k == "settle":
        return _("{who}: {result}, {points} returned", who=who, result=_(RESULT_WORDS.get(e["result"], e["result"])),
                 points=_.number(e["amount"]))
    if k == "wash":
        return _("{who} washes away {cards}", who=who, cards=cards_text(e.get("cards", ())))
    if k == "reveal":
        score = _.number(e["score"])
        if e.get("won"):
            return _("{who} shows {cards}: {score}, wins", who=who, cards=cards_text(e["cards"]), score=score)
        return _("{who} shows {cards}: {score}", who=who, cards=cards_text(e["cards"]), score=score)
    if k == "end":
        return _("Ended: {ended}", ended=_(ENDED_WORDS.get(e.get("ended", ""), e.get("ended", "?"))))
    if k == "round_end":
        return _("Round over")
    if k == "sit_out":
        return _("{who} sits out: the bank covers no more ({points} uncovered)", who=who, points=_.number(e["uncovered"]))
    if k == "bank":
        return _("Bank {change}, now {bank}", change=_signed(e["amount"], _),
                 bank=_.number(e["bank"]))
    if k == "bank_open":
        return _("Bank opened with {bank}", bank=_.number(e["bank"]))
    if k == "stuk":
        return _("Stuk: the whole bank ({bank}) at stake", bank=_.number(e["bank"]))
    if k == "bank_closed":
        return _("Bank closed at {bank} ({why})", bank=_.number(e["bank"]), why=_(ENDED_WORDS.get(e["why"], e["why"])))
    return k


def recall_text(rc: Recall) -> list[str]:
    """A ``Recall`` as lines: the title, the game and credit before, the rules, the numbered
    steps, the final hands, the result and the credit after."""
    lines = [rc.title, *("  " + h for h in rc.head), "  " + rc.rules[0], *("    " + r for r in rc.rules[1:])]
    lines += [f"  {i:>3}. {s.text}" for i, s in enumerate(rc.steps, 1)]
    if rc.house:
        lines.append(f"  {rc.house[0]}: {cards_text(rc.house[1])} ({rc.house[2]})")
    lines += [f"  {cards_text(cards)}  {label}" for cards, label in rc.hands]
    lines += [f"  {who}: {cards_text(cards)}  {label}" for who, cards, label in rc.places]
    lines += ["  " + r for r in rc.result]
    return lines
