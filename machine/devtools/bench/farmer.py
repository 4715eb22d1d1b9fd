"""Eric Farmer's exact engine beside ours (``cabinet bench farmer``).

Owns: building Farmer's strategy program from the checkout ``FARMER_BLACKJACK`` names, running
it on the anchor rules, and the comparison with ours, in one process and as whole commands (with
what a new process of ours spends before it computes). Prints figures; asserts nothing.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time
from pathlib import Path

from machine.devtools.bench.common import ANCHOR_RULES, CABINET, bench, child_env, last_line, set_env
from machine.devtools.bench.gamemath import forget_exact

FARMER_VARIABLE = "FARMER_BLACKJACK"  # the path of a checkout of github.com/possibly-wrong/blackjack
# what strategy.cpp links against (its main, the engine, and the two it calls for the pdf of a round)
FARMER_SOURCES = ("src/strategy.cpp", "src/blackjack.cpp", "src/indices.cpp", "src/pdf/blackjack_pdf.cpp")
FARMER_FLAGS = ("-O2", "-Isrc", "-Isrc/pdf")
# strategy's prompts, in order: decks; dealer hits soft 17; double on any total; double on soft
# hands; double after a hit; double after a split; resplit; resplit aces; CDZ- post-split
# strategy; late surrender; blackjack payoff; the output file; then "0 0" ends the hand prompt
FARMER_ANSWERS = "6\nn\ny\ny\nn\ny\ny\nn\ny\nn\n1.5\nout.txt\n0 0\n"


class FarmerUnavailable(Exception):
    """Farmer's engine cannot be built or run here (one line for the report)."""


def farmer_build(checkout: Path) -> Path:
    """Farmer's ``strategy`` program built with ``g++ -O2`` from ``checkout``, in a folder of the
    user's cache folder (outside the repository) named by a digest of the sources, the flags and
    the compiler: built once, then found again while none of them changes."""
    import hashlib
    import shutil
    import subprocess

    src = checkout / "src"
    if not all((checkout / f).is_file() for f in FARMER_SOURCES):
        raise FarmerUnavailable(f"{checkout} is not a checkout of possibly-wrong/blackjack (no {FARMER_SOURCES[0]})")
    gxx = shutil.which("g++")
    if gxx is None:
        raise FarmerUnavailable("no g++ on the PATH to build Farmer's engine")
    version = subprocess.run([gxx, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    h = hashlib.sha256(repr((FARMER_SOURCES, FARMER_FLAGS, version)).encode())
    for f in sorted(p for p in src.rglob("*") if p.suffix in (".cpp", ".h", ".hpp")):
        h.update(f.relative_to(checkout).as_posix().encode() + b"\0" + f.read_bytes())
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cabinet"
    folder = home / f"farmer-strategy-{h.hexdigest()[:16]}"
    binary = folder / "strategy"
    if binary.is_file():
        return binary
    print(f"building Farmer's engine from {checkout} (g++ {' '.join(FARMER_FLAGS)}; about a minute, once) into {folder}",
          flush=True)
    home.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="farmer-build-", dir=home))
    try:
        objects = [work / (Path(source).stem + ".o") for source in FARMER_SOURCES]
        for source, obj in zip(FARMER_SOURCES, objects, strict=True):
            _compile([gxx, *FARMER_FLAGS, "-c", source, "-o", str(obj)], checkout)
        _compile([gxx, "-O2", *map(str, objects), "-o", str(work / "strategy")], checkout)
        for obj in objects:
            obj.unlink()
        with contextlib.suppress(OSError):  # whole or not at all (another run may have won the race)
            work.rename(folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not binary.is_file():
        raise FarmerUnavailable(f"the build left no {binary}")
    return binary


def _compile(cmd: list[str], cwd: Path) -> None:
    import subprocess

    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        last = last_line(done.stderr, "(no message)")
        raise FarmerUnavailable(f"g++ failed ({' '.join(cmd[1:])}): {last}")


def farmer_run(binary: Path) -> tuple[float, float]:
    """One run of Farmer's ``strategy`` on the anchor rules: (seconds, overall EV in %), the EV
    read from the ``Total |`` row of the file it writes."""
    import re
    import subprocess

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        done = subprocess.run([str(binary)], input=FARMER_ANSWERS, cwd=tmp, capture_output=True, text=True, timeout=900)
        seconds = time.perf_counter() - t
        out = Path(tmp) / "out.txt"
        text = out.read_text() if out.is_file() else ""
    found = re.search(r"^\s*Total \|\s*(-?\d+\.\d+)\s*(?:\+/-.*)?$", text, re.MULTILINE)
    if done.returncode != 0 or found is None:
        raise FarmerUnavailable(f"Farmer's strategy ended with code {done.returncode} and no overall EV in its file")
    return seconds, float(found.group(1))


def _times(label: str, times: list[float]) -> str:
    return f"{label}: best {min(times):.2f} s, median {statistics.median(times):.2f} s ({len(times)} runs)"


def _ratio(ours: float, theirs: float) -> str:
    """Best against best, as a factor of the faster side."""
    if ours < theirs:
        return f"{theirs / ours:.2f}x faster than Farmer's"
    return f"{ours / theirs:.2f}x slower than Farmer's"


@bench("farmer")
def farmer_bench(repeats: int = 3) -> None:
    """The anchor rule set's exact house edge, ours beside Eric Farmer's C++ engine
    (``strategy``, CDZ-) in one run: both figures and their difference (they agree to 1e-9 %),
    and each side's time (``repeats`` runs, best and median). Farmer's engine is built from the
    checkout named by ``FARMER_BLACKJACK`` (never part of this repository); without it, ours
    alone. Ours: ``game_rtp`` in this process with every cache cleared (after one call on other
    rules, so compiled kernels are loaded), and ``cabinet rtp`` as a new process each time, with
    which kernels served it (the ahead-of-time module, numba never imported, or numba's jit);
    then ``cabinet strategy`` (the chart and its RTP) as a new process each time."""
    import json
    import subprocess

    from machine.gamemath import blackjack
    from machine.gamemath.blackjack.exact_fast import KERNELS as kernels
    from machine.gamemath.blackjack.game import game_rtp
    from machine.profiles import load_profile

    farmer: tuple[list[float], float] | None = None
    checkout = os.environ.get(FARMER_VARIABLE)
    if not checkout:
        print(f"{FARMER_VARIABLE} is not set: export {FARMER_VARIABLE}=/path/to/a/checkout/of/github.com/possibly-wrong/"
              "blackjack to time Eric Farmer's engine beside ours; ours alone")
    else:
        try:
            binary = farmer_build(Path(checkout).expanduser())
            runs = [farmer_run(binary) for _ in range(repeats)]
            farmer = [s for s, _ in runs], runs[0][1]
        except (FarmerUnavailable, OSError, subprocess.SubprocessError) as exc:
            print(f"Farmer's engine not timed: {exc}; ours alone")

    rules = load_profile("random-blackjack", ANCHOR_RULES).rules
    game_rtp(load_profile("random-blackjack", blackjack.BENCH_WARM_UP).rules)  # warm-up: imports and kernels loaded
    ours: list[float] = []
    edge = 0.0
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder, set_env("CABINET_CACHE_DIR", folder):
            forget_exact("blackjack")
            t = time.perf_counter()
            edge = game_rtp(rules).house_edge
            ours.append(time.perf_counter() - t)
    command: list[float] = []
    script = "game: random-blackjack\nrules: " + json.dumps(ANCHOR_RULES) + "\n"
    base_env = child_env()
    base_env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps its byte code
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            env = dict(base_env, CABINET_CACHE_DIR=folder)
            t = time.perf_counter()
            done = subprocess.run([*CABINET, "rtp", "-", "--json"], input=script, capture_output=True, text=True, env=env)
            command.append(time.perf_counter() - t)
        if done.returncode != 0:
            print(f"cabinet rtp failed: {last_line(done.stderr)}")
            command = []
            break
        if abs(other := json.loads(done.stdout)["house_edge"] - edge) > 1e-12:
            print(f"cabinet rtp's house edge differs from game_rtp's by {other * 100:+.1e} %")

    line = f"ours {edge * 100:.9f} %"
    if farmer:
        gap = edge * 100 + farmer[1]  # Farmer prints the player's EV: minus the house edge
        line += (f", Farmer's {-farmer[1]:.9f} % (CDZ-): difference {gap:+.1e} % "
                 f"({'agree' if abs(gap) <= 1e-9 else 'DIFFER'} to 1e-9 %)")
    print(f"anchor rules (6 decks, S17, DOA, DAS, resplit to 4 hands, no RSA, peek, no surrender, 3:2): house edge {line}")
    if farmer:
        print(_times("Farmer's strategy (g++ -O2, a new process; its output file included)", farmer[0]))
    print(_times("ours, game_rtp in this process, every cache cleared", ours)
          + (f": {_ratio(min(ours), min(farmer[0]))}" if farmer else ""))
    if command:
        print(_times("ours, cabinet rtp --json as a new process (imports included), an empty cache folder", command)
              + (f": {_ratio(min(command), min(farmer[0]))}" if farmer else ""))
        parts = [("Python's start", "pass"), ("numpy's import", "import numpy"), ("numba's import", "import numba"),
                 ("the command's imports", "import machine.cli, machine.gamemath.blackjack.exact_fast")]
        if kernels == "aot":  # numba is never imported: its part is no part of the command
            parts.pop(2)
        print("  of which, as new processes: " + ", ".join(
            f"{label} {min(_child_seconds(code, base_env) for _ in range(repeats)):.2f} s" for label, code in parts)
            + ("; the kernels: the ahead-of-time module (exact_aot), numba not imported" if kernels == "aot" else
               "; the kernels: numba's jit (no ahead-of-time module of the current source: the set-up builds it)"))
    strategy = _strategy_command(script, base_env, repeats)
    if strategy:
        print(_times("ours, cabinet strategy as a new process (the chart and its RTP), an empty cache folder", strategy)
              + (f": {_ratio(min(strategy), min(farmer[0]))}" if farmer else ""))


def _strategy_command(script: str, env: dict[str, str], repeats: int) -> list[float]:
    """The wall times of ``cabinet strategy`` on ``script`` as a new process, each with an empty
    cache folder (empty: it failed, and the line printed says why)."""
    import subprocess

    times: list[float] = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            t = time.perf_counter()
            done = subprocess.run([*CABINET, "strategy", "-"], input=script, capture_output=True, text=True,
                                  env=dict(env, CABINET_CACHE_DIR=folder))
            times.append(time.perf_counter() - t)
        if done.returncode != 0 or "RTP with this chart" not in done.stdout:
            print(f"cabinet strategy failed: {last_line(done.stderr)}")
            return []
    return times


def _child_seconds(code: str, env: dict[str, str]) -> float:
    """The wall time of ``python -c code`` as a new process."""
    import subprocess
    import sys

    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True)
    return time.perf_counter() - t
