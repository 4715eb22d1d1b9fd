"""Game recall step by step (issue 23, item 6): every game's round read back from the journal in
words, each decision with who made it, the stakes, the returns and the credit before and after;
``cabinet audit recall --steps`` and ``--png DIR``; the journal's own keeping keeps the rounds'
events of the games it keeps."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest

from machine.cli import main
from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.i18n import Words
from machine.money.recalled import recalled
from machine.operator.recall import recall_of, recall_text
from machine.profiles import load_profile

from .cabinet_helpers import TEST_KEY, memory, stacked_shoes


def boot(tmp, name, *tops, over=None):
    p = load_profile(name)
    if over:
        p = dataclasses.replace(p, rules=p.rules.with_overrides(over))
    return open_cabinet(tmp / "journal.sqlite", p, CabinetSettings(seats=2), lambda q: make_game(q, auto_for(q.engine)),
                        stacked_shoes(*tops), memory(tmp), create=True)


def play(cab, script, now=0.0):
    """Both seats in (20 points each, 10 to the club); seat 1 presses ``script``, seat 2 Auto."""
    for n in (1, 2):
        if cab.seats[n].money.credit < 10:
            assert cab.coin(n, "EU200A", now)
        assert cab.press(n, "+2", now)
    for n in (1, 2):
        cab.press(n, "start", now + 1)
    script, t = list(script), now + 2
    while cab.round is not None:
        d = cab.round.pending
        assert cab.press(d.seat, script.pop(0) if d.seat == 1 and script else "auto", t), (d.kind, d.seat)
        t += 3  # past the reveal hold (machine/core/reveal.py) an ochko 21 or bust puts on play


def steps(cab, seat=1):
    g = recalled(cab.journal, seat, 1)[-1]
    return recall_text(recall_of(g, Words("en")))


def body(lines):
    """The recall without its title, round line and rules (they are checked apart)."""
    rules, first = lines.index("  Rules in force:"), next(i for i, line in enumerate(lines) if line.startswith("    1. "))
    return [line for line in lines[1:rules] + lines[first:] if not line.startswith("  Round ")]


def test_blackjack_with_a_split_insurance_and_auto_at_the_other_seat(tmp_path):
    cab = boot(tmp_path, "casino-blackjack", "8S 9S AH 8D 6H 5D 3C 2C KD 4H")
    play(cab, ["insurance", "split", "draw", "stand", "stand"])
    lines = steps(cab)
    assert lines[0] == "RECALL - seat 1 - game 1 of the last 1"
    assert lines[4] == "  Rules in force:" and "dealer takes a closed second card: yes" in lines[5] + lines[6] + lines[7]
    assert body(lines) == [
        "  Game: Casino Blackjack",
        "  Credit before: credit 10, club 10 (points)",
        "    1. Seat 1, hand 1 receives 8♠",
        "    2. Dealer receives A♥",
        "    3. Seat 1, hand 1 receives 8♦",
        "    4. Dealer receives a closed card (5♦)",
        "    5. Seat 1: insurance 1 (player)",
        "    6. Dealer looks at the closed card: no blackjack",
        "    7. Seat 1, hand 1: split (player)",
        "    8. Seat 1, hand 1 receives 3♣",
        "    9. Seat 1, hand 1: draw (player)",
        "   10. Seat 1, hand 1 receives 2♣",
        "   11. Seat 1, hand 1: stand (player)",
        "   12. Seat 1, hand 2 receives K♦",
        "   13. Seat 1, hand 2: stand (player)",
        "   14. Dealer turns the closed card over: 5♦",
        "   15. Dealer receives 5♠",
        "   16. Seat 1, hand 1: lost, 0 returned",
        "   17. Seat 1, hand 2: lost, 0 returned",
        "   18. Seat 1: insurance returns 0",
        "   19. Round over",
        "  Dealer: A♥ 5♦ 5♠ (21)",
        "  8♠ 3♣ 2♣  Hand 1: 13: lost, stake 2, returned 0",
        "  8♦ K♦  Hand 2: 18: lost, stake 2, returned 0",
        "  Staked 5, returned 0 (stakes included), net -5",
        "  insurance 1",
        "  Credit after: credit 10, club 5 (points)",
    ]
    from machine.operator.recall import dealt_at

    rc = recall_of(recalled(cab.journal, 1, 1)[-1], Words("en"))
    assert rc.house is not None
    used: set[int] = set()  # the picture numbers each final card with the step that dealt it
    assert [dealt_at(rc, "house", rc.house[1], used)] + [dealt_at(rc, "seat", cards, used) for cards, _ in rc.hands] \
        == [[2, 4, 15], [1, 8, 10], [3, 12]]
    other = steps(cab, 2)  # Auto decided at seat 2: its recall says so, and shows none of seat 1's cards
    assert "    5. Seat 2: no insurance (Auto)" in other and not any("8♠" in line for line in other)
    assert body(other)[8:] == ["    7. Seat 2: draw (Auto)", "    8. Seat 2 receives 4♥", "    9. Seat 2: stand (Auto)",
                               "   10. Dealer turns the closed card over: 5♦", "   11. Dealer receives 5♠",
                               "   12. Seat 2: lost, 0 returned", "   13. Round over", "  Dealer: A♥ 5♦ 5♠ (21)",
                               "  9♠ 6♥ 4♥  19: lost, stake 2, returned 0",
                               "  Staked 2, returned 0 (stakes included), net -2", "  Credit after: credit 10, club 8 (points)"]


def test_an_early_surrender_declined_is_a_decision_before_the_dealer_looks(tmp_path):
    cab = boot(tmp_path, "casino-blackjack", "TS 9S KH 6S 6H 5D 3C", over={"surrender": "early"})
    play(cab, ["stand", "stand"])
    assert body(steps(cab))[2:8] == [
        "    1. Seat 1 receives 10♠", "    2. Dealer receives K♥", "    3. Seat 1 receives 6♠",
        "    4. Dealer receives a closed card (5♦)", "    5. Seat 1: no surrender, play on (player)",
        "    6. Dealer looks at the closed card: no blackjack"]
    assert "    7. Seat 1: stand (player)" in steps(cab)


def test_random_blackjack_a_bust(tmp_path):
    cab = boot(tmp_path, "random-blackjack", "TS 9S 7H 8S 6H 5D 3C")
    play(cab, ["draw"])
    lines = steps(cab)
    assert body(lines)[2:] == [
        "    1. Seat 1 receives 10♠", "    2. Dealer receives 7♥", "    3. Seat 1 receives 8♠",
        "    4. Seat 1: draw (player)", "    5. Seat 1 receives 5♦", "    6. Seat 1 is bust",
        "    7. Dealer receives 3♠", "    8. Dealer receives 3♠", "    9. Dealer receives J♣",  # the shoe's seeded rest
        "   10. Seat 1: lost, 0 returned", "   11. Round over", "  Dealer: 7♥ 3♠ 3♠ J♣ (23)",
        "  10♠ 8♠ 5♦  23: lost, stake 2, returned 0",
        "  Staked 2, returned 0 (stakes included), net -2", "  Credit after: credit 10, club 8 (points)"]


def test_ochko_the_stake_the_bank_and_a_win(tmp_path):
    cab = boot(tmp_path, "ochko", "TS 9S 7H 8S QS KH 6H TC")
    play(cab, ["start", "draw", "stand"])
    assert body(steps(cab)) == [
        "  Game: Ochko", "  Credit before: credit 10, club 10 (points)", "  Bank before: 100",
        "    1. Bank opened with 100", "    2. Seat 1 receives 10♠", "    3. Bank receives 7♥",
        "    4. Seat 1: stake 2 (player)", "    5. Seat 1 receives 8♠", "    6. Seat 1: draw (player)",
        "    7. Seat 1 receives Q♠", "    8. Seat 1: win, 4 returned", "    9. Bank -2, now 98",
        "   10. Bank receives 10♣", "   11. Bank -2, now 96", "   12. Round over",
        "  Bank: 7♥ 10♣ (17)", "  10♠ 8♠ Q♠  21: win, stake 2, returned 4",
        "  Staked 2, returned 4 (stakes included), net +2", "  Bank after: 96", "  Credit after: credit 10, club 12 (points)"]


def test_the_returns_as_money_are_named_returned_not_set_after_the_net(tmp_path):
    """The menu writes what came back as money too: "(returned €0.40)" for 4 points back, which
    read as the net's worth when it stood bare after "net +2"."""
    cab = boot(tmp_path, "ochko", "TS 9S 7H 8S QS KH 6H TC")
    play(cab, ["start", "draw", "stand"])
    g = recalled(cab.journal, 1, 1)[-1]
    assert recall_of(g, Words("en"), cents=10).result[0] == (
        "Staked 2, returned 4 (stakes included), net +2  (returned \u20ac0.40)")
    assert recall_of(g, Words("nl"), cents=10).result[0].endswith("(terug \u20ac\u00a00,40)")


def test_the_game_is_named_in_the_readers_language(tmp_path):
    """The recall's "Game:" line gives the game's title in the recall's language ("Ochko" stood
    in the Russian recall)."""
    cab = boot(tmp_path, "ochko", "TS 9S 7H 8S QS KH 6H TC")
    play(cab, ["start", "draw", "stand"])
    g = recalled(cab.journal, 1, 1)[-1]
    assert recall_of(g, Words("ru")).head[0] == "\u0418\u0433\u0440\u0430: \u041e\u0447\u043a\u043e"
    assert recall_of(g, Words("en")).head[0] == "Game: Ochko"


def test_eenentwintig_closed_cards_and_the_bank(tmp_path):
    cab = boot(tmp_path, "eenentwintig", "QS 9D AS 9H 8S JD AH TS JC QD")
    play(cab, ["start", "draw", "stand"])
    assert body(steps(cab))[2:] == [
        "    1. Seat 1 receives a closed card (Q♠)", "    2. Bank receives a closed card (A♠)", "    3. Seat 1 receives 9♥",
        "    4. Bank receives a closed card (J♦)", "    5. Seat 1: stake 2 (player)",
        "    6. Seat 1 turns the closed card over: Q♠", "    7. Seat 1: buy (player)", "    8. Seat 1 receives A♥",
        "    9. Seat 1: pass (player)", "   10. Bank turns the closed card over: A♠",
        "   11. Bank turns the closed card over: J♦", "   12. Bank receives J♣", "   13. Bank receives Q♦",
        "   14. Seat 1: lost, 0 returned", "   15. Round over", "  Bank: A♠ J♦ J♣ Q♦ (18)",
        "  Q♠ 9♥ A♥  13: lost, stake 2, returned 0", "  Staked 2, returned 0 (stakes included), net -2",
        "  Credit after: credit 10, club 8 (points)"]


def test_eenendertigen_modern_a_take_and_its_discard_are_one_move_with_both_decisions(tmp_path):
    cab = boot(tmp_path, "eenendertigen", over={"variant": "modern"})
    play(cab, ["draw", "auto"])  # seat 1 draws from the stack, then Auto chooses the discard
    move = next(line for line in steps(cab) if line.startswith("   14. "))
    assert move == "   14. Place 1 (seat 1): draw from the stack, throw away card 2: took Q♥, gave 5♥ (player, Auto)"


def test_eenendertigen_every_place_and_move_with_the_others_cards_closed_until_the_end(tmp_path):
    cab = boot(tmp_path, "eenendertigen", "7H 9C 7S 7D 8C TC 8S 8D 9D JC 9S 9H AS KS QS")
    play(cab, ["double", "stand"])
    lines = body(steps(cab))
    assert lines[2:5] == ["    1. Place 1 (seat 1) receives 7♥", "    2. Place 2 (seat 2) receives a closed card",
                          "    3. Place 3 (computer) receives a closed card"]
    assert lines[14:] == [
        "   13. Table: A♠ laid open", "   14. Table: K♠ laid open", "   15. Table: Q♠ laid open",
        "   16. Place 1 (seat 1): swap hand card 1 for table card 1: took A♠, gave 7♥ (player)",
        "   17. Place 2 (seat 2): pass",
        "   18. Place 3 (computer): swap hand card 1 for table card 2: took K♠, gave 7♠",
        "   19. Place 4 (computer): swap hand card 2 for table card 1: took 7♥, gave 8♦",
        "   20. Place 1 (seat 1): pass (player)",
        "   21. Place 3 (computer): swap hand card 2 for table card 3: took Q♠, gave 8♠",
        "   22. Place 4 (computer): swap hand card 3 for table card 2: took 7♠, gave 9♥",
        "   23. Place 3 (computer): pass", "   24. Place 4 (computer): pass",
        "   25. Place 1 (seat 1) shows A♠ 8♣ 9♦: 11", "   26. Place 2 (seat 2) shows 9♣ 10♣ J♣: 29",
        "   27. Place 3 (computer) shows K♠ Q♠ 9♠: 29", "   28. Place 4 (computer) shows 7♦ 7♥ 7♠: 30.5, wins",
        "   29. Ended: every place passed",
        "  Place 1 (seat 1): A♠ 8♣ 9♦  11: loses", "  Place 2 (seat 2): 9♣ 10♣ J♣  29: loses",
        "  Place 3 (computer): K♠ Q♠ 9♠  29: loses", "  Place 4 (computer): 7♦ 7♥ 7♠  30.5: wins",
        "  Ended: every place passed", "  Staked 2, returned 0 (stakes included), net -2",
        "  Credit after: credit 10, club 8 (points)"]


def test_a_knock_the_round_made_by_itself_on_31_is_no_decision(tmp_path):
    from machine.devtools.scenes import MENU_ON, MENU_SCENES, _menu

    cab, menu = _menu(tmp_path, *MENU_SCENES["menu-recall-eenendertigen"], on=MENU_ON["menu-recall-eenendertigen"])
    lines = menu.view().lines
    assert lines[lines.index("   16. Place 1 (seat 1): swap hand card 2 for table card 2: took Q♥, gave 8♣ (player)") + 1] \
        == "   17. Place 1 (seat 1): knock: 31!"
    cab.journal.close()


def test_a_decision_the_time_limit_made_says_so(tmp_path):
    cab = boot(tmp_path, "random-blackjack", "TS 9S 7H 8S 6H 5D 3C")
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    for n in (1, 2):
        cab.press(n, "start", 1)
    t = 2.0
    while cab.round is not None:
        t += 100.0
        cab.tick(t)
    lines = steps(cab)
    assert "    4. Seat 1: stand (time limit)" in lines


def journal_with_games(tmp_path, rounds=11):
    cab = boot(tmp_path, "random-blackjack")
    for r in range(rounds):
        play(cab, ["stand"] * 6, now=10.0 * r)
    cab.journal.close()
    key = tmp_path / "audit.key"
    key.write_text(TEST_KEY.hex())
    key.chmod(0o600)
    return ["--data", str(tmp_path), "--key", str(key)]


def test_audit_recall_png_writes_the_last_ten_games_of_a_seat_and_steps_prints_them(tmp_path, capsys):
    args = journal_with_games(tmp_path)
    out = tmp_path / "pictures"
    assert main(["audit", "recall", *args, "--seat", "1", "--png", str(out), "--language", "nb"]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(f"seat1-game{k}.png" for k in range(1, 11))
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in out.iterdir())
    capsys.readouterr()
    assert main(["audit", "recall", *args, "--seat", "2", "--steps"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == "Seat 2: last 10 games, the newest first"
    titles = [line for line in text if line.startswith("RECALL")]
    assert titles == [f"RECALL - seat 2 - game {k} of the last 10" for k in range(1, 11)]
    assert "(Auto)" in "\n".join(text) and "Credit after: credit" in text[-1]


def test_the_existing_recall_output_is_unchanged_by_the_new_options(tmp_path, capsys):
    args = journal_with_games(tmp_path, rounds=2)
    assert main(["audit", "recall", *args, "--seat", "1"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == "Seat 1: last 2 games" and text[1].startswith("  game 1 (random-blackjack): bet 2  dealer ")


def test_audit_recall_png_prints_only_the_pictures_and_says_when_a_seat_has_none(tmp_path, capsys):
    """Standard output holds the pictures' names and nothing of pygame's (its banner came first), and
    a seat with no game says so instead of printing nothing."""
    args = journal_with_games(tmp_path, rounds=1)
    out = tmp_path / "pictures"
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    run = subprocess.run([sys.executable, "-m", "machine", "audit", "recall", *args, "--seat", "1", "--png", str(out)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0 and run.stdout.splitlines() == [str(out / "seat1-game1.png")], run.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    boot(empty, "random-blackjack").journal.close()
    assert main(["audit", "recall", "--data", str(empty), args[2], args[3], "--png", str(empty / "pictures")]) == 0
    assert capsys.readouterr().out.splitlines() == [f"Seat {n}: last 0 games, the newest first" for n in (1, 2)]


@pytest.mark.parametrize("extra, says", [
    (["meters", "--png", "x"], "--png: only with recall"),
    (["recall", "--steps", "--json"], "--steps draws the games for people; --json and --csv give the records"),
    (["recall", "--png", "FILE"], "a file is there, not a folder"),
    (["recall", "--png", "FILE/below"], "cannot make the folder"),
    (["recall", "--steps", "--seat", "7"], "--seat 7: no such seat (the cabinet has seats 1 to 2)"),
    (["recall", "--steps", "--language", "de"], "invalid choice: 'de'"),
])
def test_bad_arguments_give_one_line(tmp_path, capsys, extra, says):
    args = journal_with_games(tmp_path, rounds=1)
    (tmp_path / "FILE").write_text("not a folder")
    extra = [str(tmp_path / e) if e.startswith("FILE") else e for e in extra]
    with pytest.raises(SystemExit) if "--language" in extra else _no_raise():
        assert main(["audit", *extra, *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


class _no_raise:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_the_journal_keeps_the_round_events_of_the_oldest_game_it_keeps(tmp_path):
    from machine.money.archive import keep_from

    cab = boot(tmp_path, "random-blackjack")
    for r in range(5):
        play(cab, ["stand"] * 6, now=10.0 * r)
    oldest = cab.journal.records("game", seat=1, last=3)[0]
    start = [r for r in cab.journal.records("round_start") if r.seq < oldest.seq][-1]
    assert start.data["round_no"] == oldest.data["round_no"]
    assert keep_from(cab.journal, 2, games=3) < start.seq  # the round's start and events stay
    assert recalled(cab.journal, 1, 3)[0]["events"][0]["kind"] == "card"
    cab.journal.close()


def test_a_game_whose_round_events_were_archived_still_reads_its_end(tmp_path):
    cab = boot(tmp_path, "ochko", "TS 9S 7H 8S QS KH 6H TC")
    play(cab, ["start", "draw", "stand"])
    g = recalled(cab.journal, 1, 1)[-1] | {"events": []}  # as after an archive cut inside its round
    lines = recall_text(recall_of(g, Words("en")))
    assert "    1. The round's steps are no longer in the journal (archived): its end is below" in lines
    assert lines[-1] == "  Credit after: credit 10, club 12 (points)"
    cab.journal.close()


def test_each_game_names_its_decisions_with_its_own_words_in_every_language(tmp_path):
    """Eenentwintig buys and passes, ochko says enough (their buttons' words): the recall wrote
    blackjack's "draw" and "stand" for them."""
    cab = boot(tmp_path, "eenentwintig", "QS 9D AS 9H 8S JD AH TS JC QD")
    play(cab, ["start", "draw", "stand"])
    g = recalled(cab.journal, 1, 1)[-1]
    for language, buy, passes in (("en", "buy", "pass"), ("nl", "kopen", "passen"), ("nb", "kjøp", "pass"),
                                  ("ru", "купить", "пас")):
        lines = recall_text(recall_of(g, Words(language)))
        assert [line.split(": ", 1)[1] for line in lines if line.startswith(("    7. ", "    9. "))] == [
            f"{buy} ({Words(language)('player')})", f"{passes} ({Words(language)('player')})"], language
    cab = boot(tmp_path / "ochko", "ochko", "TS 9S 7H 8S QS KH 6H TC")
    play(cab, ["start", "stand"])  # 10 and 8: enough
    text = recall_text(recall_of(recalled(cab.journal, 1, 1)[-1], Words("en")))
    assert [line for line in text if ": enough (" in line or ": stand (" in line] == ["    6. Seat 1: enough (player)"]


def test_a_total_of_twenty_and_a_half_reads_as_the_language_writes_it(tmp_path):
    """Eenentwintig's two aces (20½) are recorded as 20.5: the Russian and Dutch recall wrote
    "20.5" where their readers write 20,5."""
    cab = boot(tmp_path, "eenentwintig", "AS 9C 8D AH TS 7H 9S JD QC KH")
    play(cab, ["start", "stand"])
    g = recalled(cab.journal, 1, 1)[-1]
    assert g["seat"]["hands"][0]["total"] == 20.5
    for language, written in (("ru", "20,5"), ("nl", "20,5"), ("en", "20.5")):
        text = "\n".join(recall_text(recall_of(g, Words(language))))
        assert f"    {written}: " in text or f" {written}: " in text, (language, text)
