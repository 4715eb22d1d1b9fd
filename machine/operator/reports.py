"""The journal's reports as people read them: meters, game recall and tournaments in text and CSV.

Owns: how ``cabinet audit``'s reports read (``as_text``, ``as_csv``, ``verify_report``), how a
recall record reads as text (``game_lines``, ``place_text``, ``move_text``: a game of places has
no dealer, every place and move instead), and the tournaments report: every eenendertigen
tournament since the last RAM clear with its ranking and each participant's round scores
(``gather_tournaments``, ``tournaments_text``, ``tournaments_csv``), the open one's seed left
out. Reads the journal only through ``machine/money/audit.py`` (read-only); never writes and
never decides a meter: it formats what the money layer gathered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from machine.core.tourstages import stage_of
from machine.games.eenendertigen.rules import score_value
from machine.games.eenendertigen.standings import display_name, ranking
from machine.money.audit import tournament_rows, verify_result
from machine.money.meters import CABINET_METERS, GAME_METERS, SEAT_METERS


def _is_game_meter(name: str) -> bool:
    return name.partition(":")[0] in GAME_METERS and ":" in name


def _meter_lines(title: str, lifetime: dict[str, int], period: dict[str, int]) -> list[str]:
    names = [n for n in SEAT_METERS + CABINET_METERS if n in lifetime or n in period]
    names += sorted(n for n in lifetime if n not in names and not _is_game_meter(n))
    out = [title, f"  {'meter':<28}{'lifetime':>12}{'period':>12}"]
    out += [f"  {n:<28}{lifetime.get(n, 0):>12}{period.get(n, 0):>12}" for n in names]
    return out


def move_text(m: dict[str, Any]) -> str:
    """One move of a game of places as a short line: "P3 swap:1:2 took AS gave 7S", "P2 passed", "P1 31!"."""
    who = f"P{m.get('place', '?')}"
    if m["kind"] == "move":
        return f"{who} {m['action']} took {' '.join(m['took'])} gave {' '.join(m['gave'])}"
    if m["kind"] == "pass":
        by = m.get("by", "pass")
        return f"{who} passed" + ("" if by == "pass" else f" ({'fifth swap' if by == 'swaps' else by})")
    if m["kind"] == "knock":
        return f"{who} 31!"
    return f"{who} {m['kind']}"


def place_text(p: dict[str, Any], winners: list[int]) -> str:
    """One place's end of a game of places: "P1 seat 1: AH QH KH 31 31! WIN 7", "P3 computer: 7C 8C JC 25"."""
    who = "computer" if p["seat"] is None else f"seat {p['seat']}"
    won = p["place"] in winners
    result = (f" WIN {p['returned']}" if p["seat"] is not None else " WIN") if won else (" lose" if p["seat"] is not None else "")
    flags = (" 31!" if p.get("knocked") else "") + (" passed" if p.get("passed") else "")
    return f"P{p['place']} {who}: {' '.join(p['cards'])} {p['score']}{flags}{result}"


def game_lines(g: dict[str, Any]) -> tuple[str, list[str]]:
    """What a recall record dealt, for any game: its house part ("dealer AS 7H (18)", or "" for a
    game of places) and its hands (a seat's hands, or every place of a game of places)."""
    if "places" in g and "dealer" not in g:
        return "", [place_text(p, g.get("winners", [])) for p in g["places"]]
    seat = g["seat"]
    dealer = f"dealer {' '.join(g['dealer']['cards'])} ({g['dealer']['total']})" if "dealer" in g else ""
    hands = [f"{' '.join(h['cards'])} ({h['total']}, {h['result']} {h['returned']})" for h in seat.get("hands", [])]
    return dealer, hands


def as_text(report: dict[str, Any], what: str) -> str:
    lines: list[str] = []
    if report["problems"]:
        lines += ["JOURNAL PROBLEMS (memory error):"] + [f"  {p}" for p in report["problems"]]
    if what in ("meters", "all"):
        lines += _meter_lines("Cabinet", report["cabinet"].get("lifetime", {}), report["cabinet"].get("period", {}))
        if report["games"]:
            lines += ["Games", f"  {'game':<22}{'meter':<14}{'lifetime':>12}{'period':>12}"]
            for game, m in report["games"].items():
                lines += [f"  {game:<22}{name:<14}{m['lifetime'][name]:>12}{m['period'][name]:>12}" for name in GAME_METERS]
        for n, s in report["seats"].items():
            lock = f"  LOCKED: {s['lock']}" if s["lock"] else ""
            title = f"Seat {n}: credit {s['credit']}, club {s['club']}{lock}"
            lines += _meter_lines(title, s["meters"]["lifetime"], s["meters"]["period"])
    if what in ("recall", "all"):
        for n, games in report["recall"].items():
            lines.append(f"Seat {n}: last {len(games)} games")
            for g in games:
                seat = g["seat"]
                dealer, hands = game_lines(g)
                acts = ",".join(d["action"] for d in g["decisions"]) or "-"
                places = "places" in g and "dealer" not in g
                ended = f"  ended {g.get('ended', '?')}, winners {','.join(map(str, g.get('winners', [])))}" if places else ""
                lines.append(
                    f"  game {g['round_no']} ({g.get('game', '?')}): bet {seat['bet']}"
                    f"{'  ' + dealer if dealer else ''}"
                    f"  {'places' if places else 'hands'} {' | '.join(hands) if places else '  '.join(hands)}{ended}"
                    f"  decisions {acts}  staked {seat['staked']} returned {seat['returned']}"
                    f"  credit/club {g['before']['credit']}/{g['before']['club']} -> {g['after']['credit']}/{g['after']['club']}"
                )
                if "moves" in g:
                    lines.append("    moves: " + (", ".join(move_text(m) for m in g["moves"]) or "none"))
    if what in ("events", "all"):
        lines.append("Events")
        for e in report["events"]:
            detail = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("seq", "seat", "code", "event"))
            where = f"seat {e['seat']}" if e["seat"] else "cabinet"
            lines.append(f"  #{e['seq']:<6} {e['code']:>4} {e['event']:<20} {where:<8} {detail}")
    return "\n".join(lines)


def verify_report(journal_path: Path, key: bytes) -> tuple[str, bool]:
    """``cabinet audit verify``: the chain and the state rows, and where a break is."""
    result = verify_result(journal_path, key)
    problems, n = result["problems"], result["records"]
    if problems:
        return "\n".join(["JOURNAL BROKEN:"] + [f"  {p}" for p in problems]), False
    return (f"journal OK: {n} records, the authenticated chain unbroken, every state row what its records say", True)


def as_csv(report: dict[str, Any], what: str) -> str:
    """Meters, recall or events as CSV, one table (``cabinet audit all --csv`` prints the three,
    each with its header row, a blank line between)."""
    import csv
    import io

    out = io.StringIO()
    w = csv.writer(out)
    if what in ("meters", "all"):
        w.writerow(["scope", "meter", "lifetime", "period"])
        cab = report["cabinet"]
        for name in sorted(set(cab.get("lifetime", {})) | set(cab.get("period", {}))):
            w.writerow(["cabinet", name, cab["lifetime"].get(name, 0), cab["period"].get(name, 0)])
        for game, m in report["games"].items():
            for name in GAME_METERS:
                w.writerow([f"game {game}", name, m["lifetime"][name], m["period"][name]])
        for n, s in report["seats"].items():
            life, per = s["meters"]["lifetime"], s["meters"]["period"]
            for name in sorted(set(life) | set(per)):
                w.writerow([f"seat {n}", name, life.get(name, 0), per.get(name, 0)])
    elif what == "recall":
        w.writerow(["seat", "game", "bet", "dealer", "hands", "decisions", "staked", "returned",
                    "credit_before", "club_before", "credit_after", "club_after"])  # the moves: --json
        for n, games in report["recall"].items():
            for g in games:
                seat = g["seat"]
                if "dealer" in g:
                    dealer, hands = " ".join(g["dealer"]["cards"]), " | ".join(" ".join(h["cards"]) for h in seat["hands"])
                else:  # a game of places: every place's final hand, score and result in the hands column
                    dealer, hands = "", " | ".join(game_lines(g)[1])
                w.writerow([n, g["round_no"], seat["bet"], dealer, hands,
                            " ".join(d["action"] for d in g["decisions"]), seat["staked"], seat["returned"],
                            g["before"]["credit"], g["before"]["club"], g["after"]["credit"], g["after"]["club"]])
    else:
        w.writerow(["seq", "code", "event", "seat", "detail"])
        for e in report["events"]:
            detail = "; ".join(f"{k}={v}" for k, v in e.items() if k not in ("seq", "seat", "code", "event"))
            w.writerow([e["seq"], e["code"], e["event"], e["seat"] or "", detail])
    return out.getvalue()


# -- tournaments ----------------------------------------------------------------------------------


def gather_tournaments(journal_path: Path, key: bytes) -> dict[str, Any]:
    """Every tournament since the last RAM clear (closed ones from their close records, the open
    one from the cabinet row): id, variant, state, times, entry, prizes, seed (once closed, else
    None), the ranking (rank, name, score, rounds) and each participant's round scores."""
    closed, open_, problems = tournament_rows(journal_path, key)
    out = [_tournament(t, closed=True) for t in closed]
    if open_:
        out.append(_tournament(open_, closed=False))
    return {"tournaments": out, "problems": problems}


def _tournament(t: dict[str, Any], closed: bool) -> dict[str, Any]:
    rows = t["ranking"] if closed else ranking(t["participants"])
    return {
        "id": t["id"], "variant": t["variant"], "state": "closed" if closed else ("playing" if stage_of(t).in_force else "open"),
        "opened": t["opened"], "closed": t.get("closed"), "start": t["start"], "end": t["end"],
        "entry": t["entry"], "prizes": list(t["prizes"]), "seed": t["seed"] if closed else None,
        "why_closed": t.get("why"),
        "ranking": [{k: r[k] for k in ("rank", "number", "name", "score", "rounds")} for r in rows],
        "participants": [{"number": p["number"], "name": display_name(p), "seat": p["seat"], "entry": p["entry"],
                          "round_scores": [score_value(s) for s in p["scores2"]]} for p in t["participants"]],
        "prizes_awarded": list(t.get("prizes_awarded", [])),
    }


def utc(seconds: float) -> str:
    """A wall-clock time (seconds since 1970) as the auditor reads it: ``2026-12-01 07:29:01 UTC``."""
    import datetime

    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def tournaments_text(report: dict[str, Any]) -> str:
    lines: list[str] = []
    if report["problems"]:
        lines += ["JOURNAL PROBLEMS (memory error):"] + [f"  {p}" for p in report["problems"]]
    if not report["tournaments"]:
        lines.append("no tournaments since the last RAM clear")
    for t in report["tournaments"]:
        closed = f", closed {utc(t['closed'])}" if t["closed"] is not None else ""
        window = "".join(f", {k} {utc(t[k])}" for k in ("start", "end") if t[k] is not None)
        lines.append(f"Tournament {t['id']} ({t['variant']}, {t['state']}): opened {utc(t['opened'])}{window}{closed}, "
                     f"entry {t['entry']}, prizes {'/'.join(map(str, t['prizes'])) or 'none'}")
        lines.append(f"  seed {t['seed'] or '(published when it closes)'}")
        lines.append(f"  {'rank':>4}  {'name':<12}  {'score':>6}  {'rounds':>6}")
        lines += [f"  {r['rank']:>4}  {r['name']:<12}  {r['score']!s:>6}  {r['rounds']:>6}" for r in t["ranking"]]
        for p in t["participants"]:
            lines.append(f"  {p['name']} (seat {p['seat']}): " + (" ".join(map(str, p["round_scores"])) or "no rounds yet"))
    return "\n".join(lines)


def tournaments_csv(report: dict[str, Any]) -> str:
    """One row per participant (a tournament without any: one row with its own columns only)."""
    import csv
    import io

    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["tournament", "variant", "state", "opened", "closed", "entry", "prizes", "seed",
                "rank", "number", "name", "score", "rounds", "round_scores"])
    for t in report["tournaments"]:
        head = [t["id"], t["variant"], t["state"], utc(t["opened"]), "" if t["closed"] is None else utc(t["closed"]), t["entry"],
                " ".join(map(str, t["prizes"])), t["seed"] or ""]
        scores = {p["number"]: p["round_scores"] for p in t["participants"]}
        for r in t["ranking"]:
            played = " ".join(map(str, scores[r["number"]]))
            w.writerow([*head, r["rank"], r["number"], r["name"], r["score"], r["rounds"], played])
        if not t["ranking"]:
            w.writerow(head + [""] * 6)
    return out.getvalue()
