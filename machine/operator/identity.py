"""The software's identity: a SHA-256 over the program files, and the release manifest.

Owns: which files make up the program (every ``.py`` under ``machine/`` and ``hardware/``, and
the game profiles under ``config/games/``, in a fixed order), the identity hash over them,
writing the manifest of a release (``MANIFEST.sha256``: one line per file, then the total) and
checking the installed files against it. Never changes a file it checks.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "MANIFEST.sha256"


def program_files(root: Path = ROOT) -> list[Path]:
    files = [p for d in ("machine", "hardware") for p in (root / d).rglob("*.py") if "__pycache__" not in p.parts]
    files += list((root / "config" / "games").glob("*.yaml"))
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def file_hashes(root: Path = ROOT) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in program_files(root)}


def identity(hashes: dict[str, str]) -> str:
    h = hashlib.sha256()
    for name in sorted(hashes):
        h.update(f"{hashes[name]}  {name}\n".encode())
    return h.hexdigest()


def software_id(root: Path = ROOT) -> str:
    return identity(file_hashes(root))


def write_manifest(root: Path = ROOT) -> str:
    hashes = file_hashes(root)
    total = identity(hashes)
    lines = [f"{v}  {k}" for k, v in sorted(hashes.items())] + [f"{total}  TOTAL"]
    (root / "MANIFEST.sha256").write_text("\n".join(lines) + "\n")
    return total


def check_manifest(root: Path = ROOT) -> list[str]:
    """Differences between the installed files and the release manifest (empty: they match)."""
    path = root / "MANIFEST.sha256"
    if not path.exists():
        return ["no release manifest (MANIFEST.sha256)"]
    want: dict[str, str] = {}
    for line in path.read_text().splitlines():
        digest, _, name = line.partition("  ")
        if name != "TOTAL":
            want[name] = digest
    have = file_hashes(root)
    problems = [f"{n}: changed" for n in sorted(want) if n in have and have[n] != want[n]]
    problems += [f"{n}: missing" for n in sorted(want) if n not in have]
    problems += [f"{n}: not in the manifest" for n in sorted(have) if n not in want]
    return problems
