"""What a ``cabinet`` command loads as a new process: what it needs, not what other commands do.

The command table names its handlers and imports one only when its command runs, the game
catalog imports a game's classes only when that game is asked for, and the simulators' runner
imports its process pool only to start one: so pricing a game (``cabinet rtp``, ``strategy``)
never loads the journal, SQLite, the cabinet, another game or multiprocessing, a round of one
game loads no other, and ``cabinet --help`` loads no game and no YAML. (That the priced
blackjack never imports numba where the ahead-of-time kernels serve: ``test_exact_aot.py``.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .newprocess import probe

ROOT = Path(__file__).resolve().parents[1]

# what no command that prices or plays a scripted round needs
NEVER_FOR_A_SCRIPT = (
    "machine.money.journal", "machine.money.memory", "sqlite3", "machine.core", "machine.operator", "machine.loop",
    "machine.display", "machine.devtools", "pygame", "serial", "pydantic", "babel",
    "machine.cli.audit", "machine.cli.run", "machine.cli.sas", "machine.cli.devices", "machine.cli.harness",
    "machine.cli.config", "importlib.resources",
)
OTHER_GAMES = {
    "random-blackjack": ("machine.games.ochko", "machine.games.eenentwintig", "machine.games.eenendertigen",
                         "machine.gamemath.ochko", "machine.gamemath.eenentwintig", "machine.gamemath.eenendertigen"),
    # ochko counts its cards with blackjack's scoring (machine.games.blackjack.scoring), and no more of it
    "ochko": ("machine.games.blackjack.round", "machine.games.blackjack.game", "machine.games.eenentwintig",
              "machine.games.eenendertigen", "machine.gamemath.blackjack", "machine.gamemath.eenentwintig",
              "machine.gamemath.eenendertigen"),
}


def env(tmp_path: Path) -> dict[str, str]:
    # the exact analysis in pure Python (no numba, compiled or not, in this process)
    return {"PYTHONPATH": str(ROOT), "CABINET_CACHE_DIR": str(tmp_path / "cache"), "PATH": os.defpath,
            "HOME": str(tmp_path), "CABINET_EXACT": "python"}


def test_pricing_blackjack_loads_no_journal_cabinet_other_game_or_process_pool(tmp_path):
    # (cabinet strategy takes the same road to the game's math, a second handler of machine/cli/games.py)
    script = tmp_path / "infinite.yaml"
    script.write_text("game: random-blackjack\nrules: {decks: 0}\n")  # the infinite deck: ~1 s in pure Python
    probed = probe(["rtp", str(script), "--json"], env(tmp_path), tmp_path)
    assert probed.done.returncode == 0, probed.done.stderr
    assert '"house_edge": 0.0110039378' in probed.done.stdout
    assert "machine.gamemath.blackjack.game" in probed.modules  # it did price the game
    unwanted = (*NEVER_FOR_A_SCRIPT, *OTHER_GAMES["random-blackjack"], "multiprocessing", "concurrent.futures.process")
    assert probed.loaded(*unwanted) == []


def test_a_round_of_ochko_loads_no_other_game(tmp_path):
    probed = probe(["round", str(ROOT / "examples" / "ochko.yaml")], env(tmp_path), tmp_path)
    assert probed.done.returncode == 0, probed.done.stderr
    assert '"game": "ochko"' in probed.done.stdout and "machine.games.ochko.round" in probed.modules
    assert probed.loaded(*NEVER_FOR_A_SCRIPT, *OTHER_GAMES["ochko"]) == []


def test_the_help_loads_no_game_no_yaml_and_no_handler(tmp_path):
    probed = probe(["--help"], env(tmp_path), tmp_path)
    assert probed.done.returncode == 0, probed.done.stderr
    assert probed.done.stdout.startswith("usage: cabinet [-h] [--version] COMMAND ...")
    assert probed.loaded("machine.games", "machine.gamemath", "machine.scripts", "machine.money.memory", "yaml",
                         "machine.cli.games", "machine.cli.audit", "machine.cli.run", "machine.cli.harness") == []


CATALOG = """
import sys
from machine.games import catalog
def games():
    return sorted({m.split(".")[2] for m in sys.modules if m.startswith("machine.games.") and m.count(".") >= 3})
before = sorted(m for m in sys.modules if m.startswith("machine.games."))
catalog.rules_class("ochko")
print(before, games())
"""


def test_the_game_catalog_imports_a_game_only_when_it_is_asked_for(tmp_path):
    done = subprocess.run([sys.executable, "-c", CATALOG], capture_output=True, text=True, env=env(tmp_path),
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    # the registry and the settings base (its RulesError) only; then ochko's settings, and no other game
    assert done.stdout == "['machine.games.catalog', 'machine.games.rules', 'machine.games.settings'] ['ochko']\n"
