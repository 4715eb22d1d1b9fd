"""Our driver of Hugues Hoppe's blackjack simulator (github hhoppe/blackjack), for ``cabinet bench hhoppe``.

Owns: loading that project's ``blackjack.py`` (a notebook saved as a script) without running its
experiments, and timing its one-core CPU simulator on a rule set given on the command line.
Never part of the cabinet: it runs as a subprocess under the interpreter that has that
project's dependencies (``HHOPPE_PYTHON``), imports nothing of ``machine``, and nothing of
that project is copied here: its file is read from ``HHOPPE_BLACKJACK`` at run time.

Their module's top level is a notebook: besides its definitions, it prints, draws and runs
tests and experiments (minutes of them). Only its imports, definitions and constant
assignments are executed, up to the CPU simulator (the CUDA and analysis parts after it are
not needed). Their ``EFFORT`` is 2 (their default: the simulator's hand routine is inlined).

Timed: ``monte_carlo_house_edge_cpu(rules, Strategy(), hands, parallel=False)`` -- their own
entry point, shuffling its shoes (numpy) and playing 36 hands a 6-deck shoe with their
total-dependent strategy on one process -- after a first, untimed run of the same call
(their tables and numba's compile). Prints a JSON line once warm, then plays a run for each
line read from standard input (the hands to play) and prints its JSON line (the hands
played, the seconds): the benchmark alternates these runs with ours.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
import types
from pathlib import Path

LAST = "test_monte_carlo_house_edge_cpu"  # their first definition not needed (a test of the CPU simulator)
KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)


def load(folder: Path) -> types.ModuleType:
    """Their ``blackjack.py``: its definitions executed, its experiments skipped."""
    path = folder / "blackjack.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    body: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == LAST:
            break
        if isinstance(node, KEEP) or (isinstance(node, ast.If) and ast.unparse(node.test) == "typing.TYPE_CHECKING"):
            body.append(node)  # (that ``if`` picks their enum base class)
    tree.body = body
    module = types.ModuleType("hhoppe_blackjack")
    module.__file__ = str(path)
    sys.path.insert(0, str(folder))  # their random32.py
    sys.modules[module.__name__] = module
    exec(compile(tree, str(path), "exec"), module.__dict__)  # noqa: S102 - the benchmark's subject
    return module


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="hhoppe_driver")
    ap.add_argument("folder", type=Path, help="an extracted checkout of hhoppe/blackjack")
    args = ap.parse_args(argv)
    bj = load(args.folder)
    # the anchor rule set in their terms: 6 decks, the dealer stands on soft 17, 3:2, original
    # bets only after the peek, no surrender, double any two cards and after a split, split to
    # 4 hands, aces once and one card each; their continuous shuffle (cut_card 0: 36 hands a shoe)
    rules = bj.Rules(
        num_decks=6, blackjack_payout=1.5, hit_soft17=False, obo=True, late_surrender=False, double_min_total=0,
        double_after_split=True, split_to_num_hands=4, resplit_aces=False, hit_split_aces=False,
        double_split_aces=False, cut_card=0,
    )
    strategy = bj.Strategy()
    t = time.perf_counter()
    bj.monte_carlo_house_edge_cpu(rules, strategy, 100_000, parallel=False, quiet=True)
    print(json.dumps({"warm_seconds": time.perf_counter() - t, "rules": str(rules)}), flush=True)
    for line in sys.stdin:  # a run for each line: the hands to play
        t = time.perf_counter()
        edge, hands, _sdv = bj.monte_carlo_house_edge_cpu(rules, strategy, int(line), parallel=False, quiet=True)
        print(json.dumps({"hands": int(hands), "seconds": time.perf_counter() - t, "house_edge": float(edge)}),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
