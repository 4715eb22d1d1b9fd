"""The layer rules: which package may import which, checked on every import statement.

The game knows no serial port, screen, journal or meters; the drivers know no game or cabinet;
the display drives no device; money knows no screen; the product knows no development harness.
Each rule is a prefix of importing modules and prefixes of modules they must not import (with
exceptions). The checker reads every module with ``ast`` (imports inside functions included),
so a lazy import cannot slip through; a second test imports each layer in a fresh interpreter
and looks at what it really loaded (a package's ``__init__`` runs on import too).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

import pytest

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Rule:
    """Modules under ``importer`` (but not under ``exempt``) import nothing under ``forbidden``
    except what is under ``allowed``. Names are dotted module prefixes."""

    name: str
    importer: str
    forbidden: tuple[str, ...]
    allowed: tuple[str, ...] = ()
    exempt: tuple[str, ...] = ()

    def applies_to(self, module: str) -> bool:
        return _under(module, self.importer) and not any(_under(module, e) for e in self.exempt)

    def breaks(self, imported: str) -> bool:
        return any(_under(imported, f) for f in self.forbidden) and not any(_under(imported, a) for a in self.allowed)


# The arrows, as the code has them (an arrow points from the importer to what it may import):
#
#   games -> (nothing of the product; hardware.buttons)   profiles -> games (the files they read)
#   gamemath -> games          money -> (nothing of the product)
#   scripts -> games, gamemath, money
#   core -> games, gamemath, money
#   display -> core, games, operator (the menu's view), i18n
#   operator -> core, games, money, i18n
#   loop -> core, display, operator, games, gamemath, money, i18n, hardware, sas
#   sas -> core, operator, gamemath, money, hardware (the SAS bridge the loop steps; 1F's base %)
#   cli -> every layer;  devtools -> every layer but cli
#
# so games < gamemath < money < core < loop/operator/display < cli, with the scripts beside the
# core (the command line runs them). Each rule below forbids what would run back up.
RULES = (
    Rule(
        "the game knows no serial port, screen, journal, meters or cabinet",
        "machine.games",
        forbidden=(
            "machine.gamemath", "machine.money", "machine.core", "machine.loop", "machine.display",
            "machine.operator", "machine.devtools", "machine.scripts", "machine.cli", "machine.i18n",
            "machine.profiles", "machine.yamlio", "hardware", "serial", "pygame", "sqlite3",
        ),
        allowed=("hardware.buttons",),
    ),
    Rule("the drivers know no game or cabinet", "hardware", forbidden=("machine",)),
    Rule(
        "the display drives no device and knows no loop",
        "machine.display",
        forbidden=("hardware", "serial", "machine.loop", "machine.scripts", "machine.cli"),
        allowed=("hardware.buttons",),
    ),
    Rule("money knows no game, screen, loop, operator or cabinet core", "machine.money",
         forbidden=("machine.display", "pygame", "machine.loop", "machine.core", "machine.games", "machine.gamemath",
                    "machine.operator", "machine.scripts", "machine.cli")),
    Rule("the game math knows no money, cabinet, loop, screen or operator", "machine.gamemath",
         forbidden=("machine.money", "machine.core", "machine.loop", "machine.display", "machine.operator",
                    "machine.scripts", "machine.cli")),
    Rule("the cabinet core knows no loop, screen, operator, script, device or command line", "machine.core",
         forbidden=("machine.loop", "machine.display", "machine.operator", "machine.scripts", "machine.cli",
                    "hardware", "serial", "pygame"),
         allowed=("hardware.buttons", "hardware.clock")),
    Rule("the operator layer knows no loop, script or command line and draws nothing", "machine.operator",
         forbidden=("machine.loop", "machine.display", "machine.scripts", "machine.cli", "pygame", "serial")),
    Rule("the loop knows no script or command line", "machine.loop", forbidden=("machine.scripts", "machine.cli")),
    Rule("the SAS bridge knows no loop, screen, script or command line", "machine.sas",
         forbidden=("machine.loop", "machine.display", "machine.scripts", "machine.cli", "pygame")),
    Rule("the scripts know no cabinet, loop, screen, operator or device", "machine.scripts",
         forbidden=("machine.core", "machine.loop", "machine.display", "machine.operator", "machine.cli",
                    "hardware", "serial", "pygame", "sqlite3"),
         allowed=("hardware.buttons",)),
    Rule("nothing imports the command line", "machine", forbidden=("machine.cli",),
         exempt=("machine.cli", "machine.__main__")),
    # the command line's one door into the harness: the development commands and the simulators
    # that ``cabinet run`` reaches only when the configuration asks for them
    Rule("the product knows no development harness", "machine", forbidden=("machine.devtools",),
         exempt=("machine.devtools", "machine.cli.harness")),
)

# (rule name, importing module, imported module) that the code breaks today: each one reported,
# to be fixed where it lives. Empty when the layers hold.
KNOWN_VIOLATIONS: set[tuple[str, str, str]] = set()


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    line: int
    imported: str  # the module (or module.name) imported


def modules(root: Path, packages: tuple[str, ...] = ("machine", "hardware")) -> Iterator[tuple[str, Path]]:
    """Every module under ``root``'s packages, by dotted name."""
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def _type_checking(node: ast.AST) -> TypeGuard[ast.If]:
    t = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"))


def imports_of(module: str, path: Path, runtime: bool = False) -> Iterator[Import]:
    """Every import statement of a module, wherever it stands, as absolute names; ``runtime``:
    only those that run (not those under ``if TYPE_CHECKING:``, written for the type checker)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skipped = {id(n) for block in ast.walk(tree) if runtime and _type_checking(block)
               for stmt in block.body for n in ast.walk(stmt)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                # ``from a import b`` imports the module a.b or the name b of a: checking a.b
                # covers both (a rule forbids modules, and a name of a lies under a).
                yield Import(module, node.lineno, base if alias.name == "*" else f"{base}.{alias.name}")


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the product modules it imports when it runs (``from a import b`` counts as a.b
    when that is a module, else as a; a name inside a module counts as that module)."""
    found = dict(modules(root))
    graph: dict[str, set[str]] = {}
    for module, path in found.items():
        out = set()
        for imp in imports_of(module, path, runtime=True):
            target = imp.imported
            while target and target not in found:
                target = target.rpartition(".")[0]
            if target and target != module:
                out.add(target)
        graph[module] = out
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def violations(root: Path, rules: tuple[Rule, ...] = RULES) -> list[tuple[Rule, Import, Path]]:
    out = []
    for module, path in modules(root):
        applicable = [r for r in rules if r.applies_to(module)]
        for imp in imports_of(module, path):
            out += [(r, imp, path) for r in applicable if r.breaks(imp.imported)]
    return out


def describe(rule: Rule, imp: Import, path: Path, root: Path) -> str:
    return f"{path.relative_to(root)}:{imp.line}: {imp.module} imports {imp.imported}: breaks '{rule.name}'"


def test_every_import_keeps_the_layer_rules():
    found = violations(ROOT)
    new = [describe(r, i, p, ROOT) for r, i, p in found if (r.name, i.module, i.imported) not in KNOWN_VIOLATIONS]
    assert not new, "\n".join(new)
    fixed = KNOWN_VIOLATIONS - {(r.name, i.module, i.imported) for r, i, _ in found}
    assert not fixed, f"no longer broken, take them off KNOWN_VIOLATIONS: {sorted(fixed)}"


def _plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def test_the_checker_catches_a_planted_forbidden_import_wherever_it_stands(tmp_path):
    _plant(tmp_path, {
        "machine/__init__.py": "",
        "machine/games/__init__.py": "",
        "machine/games/fine.py": """
            from hardware.buttons import Button
            from machine.games import cards
            from . import rules
        """,
        "machine/games/lazy.py": """
            def draw():
                import pygame  # line 3: inside a function
                return pygame
        """,
        "machine/games/relative.py": "from ..money import journal\n",
        "machine/games/star.py": "from machine.core.cabinet import *\n",
        "machine/display/view.py": "from hardware.panel import PanelHost\nfrom hardware.buttons import Button\n",
        "machine/core/cabinet.py": "from machine.devtools.soak import soak\n",
        "machine/devtools/soak.py": "from machine.core.cabinet import Cabinet\n",
        "machine/cli/harness.py": "from machine.devtools import bench\n",
        "machine/cli/run.py": "def run():\n    from machine.devtools.soak import soak\n",
        "hardware/__init__.py": "",
        "hardware/sim/panel.py": "from machine.games.interface import Button\n",
    })
    got = sorted(describe(r, i, p, tmp_path) for r, i, p in violations(tmp_path))
    assert got == [
        "hardware/sim/panel.py:1: hardware.sim.panel imports machine.games.interface.Button: "
        "breaks 'the drivers know no game or cabinet'",
        "machine/cli/run.py:2: machine.cli.run imports machine.devtools.soak.soak: "
        "breaks 'the product knows no development harness'",
        "machine/core/cabinet.py:1: machine.core.cabinet imports machine.devtools.soak.soak: "
        "breaks 'the product knows no development harness'",
        "machine/display/view.py:1: machine.display.view imports hardware.panel.PanelHost: "
        "breaks 'the display drives no device and knows no loop'",
        "machine/games/lazy.py:3: machine.games.lazy imports pygame: "
        "breaks 'the game knows no serial port, screen, journal, meters or cabinet'",
        "machine/games/relative.py:1: machine.games.relative imports machine.money.journal: "
        "breaks 'the game knows no serial port, screen, journal, meters or cabinet'",
        "machine/games/star.py:1: machine.games.star imports machine.core.cabinet: "
        "breaks 'the game knows no serial port, screen, journal, meters or cabinet'",
    ]


def test_every_arrow_that_runs_back_up_the_layers_is_caught(tmp_path):
    back = {  # importer -> what it must not import (one arrow back up per layer)
        "machine/money/up.py": "machine.games.rules",
        "machine/gamemath/up.py": "machine.scripts.session",
        "machine/core/up.py": "machine.loop.app",
        "machine/operator/up.py": "machine.display.draw",
        "machine/loop/up.py": "machine.cli",
        "machine/scripts/up.py": "machine.core.cabinet",
        "machine/display/up.py": "machine.scripts.session",
        "machine/games/up.py": "machine.gamemath.engines",
    }
    _plant(tmp_path, {path: f"import {target}\n" for path, target in back.items()})
    _plant(tmp_path, {"machine/core/fine.py": "import machine.money.journal\nimport machine.games.cards\n",
                      "machine/loop/fine.py": "import machine.core.cabinet\nimport machine.display.view\n",
                      "machine/operator/fine.py": "import machine.core.cabinet\nimport machine.money.audit\n"})
    got = {str(p.relative_to(tmp_path)): i.imported for _, i, p in violations(tmp_path)}
    assert got == back


# -- what importing a layer really loads -------------------------------------------------------------

# layer -> modules it must not load, directly or through any package it imports
LOADS = {
    "machine.games": ("serial", "pygame", "sqlite3", "machine.money", "machine.core", "machine.loop",
                      "machine.display", "machine.operator", "machine.devtools", "machine.gamemath",
                      "machine.profiles", "machine.yamlio", "hardware.panel"),
    "machine.money": ("pygame", "serial", "machine.display", "machine.loop", "machine.core", "machine.games",
                      "machine.operator"),
    "machine.core": ("pygame", "serial", "machine.display", "machine.loop", "machine.operator", "machine.scripts",
                     "machine.devtools", "machine.cli"),
    "machine.cli": ("machine.devtools",),  # the harness only when a command asks for it, never on import
    "hardware": ("machine", "pygame"),
}

# layer -> modules it loads today though it must not, reported to be fixed where they are
KNOWN_LOADS: dict[str, set[str]] = {}


@pytest.mark.parametrize("layer", sorted(LOADS))
def test_importing_a_layer_loads_nothing_it_must_not_know(layer):
    names = [m for m, _ in modules(ROOT) if _under(m, layer) and not m.endswith("__main__")]
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy"})
    assert run.returncode == 0, run.stderr
    loaded = json.loads(run.stdout)
    bad = {f for f in LOADS[layer] if any(_under(m, f) for m in loaded)}
    assert bad == KNOWN_LOADS.get(layer, set()), f"{layer} loads {sorted(bad)}"


# -- no module imports itself round a circle -----------------------------------------------------------

# the import cycles the code has today, each with the branch of issue 22 that breaks it: a cycle
# found must lie inside one of these, and one that is gone must be taken off
KNOWN_CYCLES: dict[frozenset[str], str] = {
}


def test_no_module_of_the_product_imports_itself_round_a_circle():
    found = cycles(import_graph(ROOT))
    new = [sorted(c) for c in found if not any(c <= known for known in KNOWN_CYCLES)]
    assert not new, f"import cycles: {new}"
    gone = [f"{branch}: {sorted(known)}" for known, branch in KNOWN_CYCLES.items() if not any(c & known for c in found)]
    assert not gone, f"no longer a cycle, take them off KNOWN_CYCLES: {gone}"


def test_the_cycle_finder_counts_lazy_imports_and_not_the_type_checkers(tmp_path):
    _plant(tmp_path, {
        "machine/__init__.py": "",
        "machine/a.py": "from machine import b\n",
        "machine/b.py": "def later():\n    from machine.c import thing\n    return thing\n",
        "machine/c.py": "import machine.a\nthing = 1\n",
        "machine/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from machine.e import E\n",
        "machine/e.py": "from machine.d import TYPE_CHECKING\nE = 1\n",
        "hardware/__init__.py": "",
    })
    assert cycles(import_graph(tmp_path)) == [frozenset({"machine.a", "machine.b", "machine.c"})]
