"""The software's identity: a SHA-256 over the program files, and the release manifest.

Owns: which files make up the program (every ``.py`` under ``machine/`` and ``hardware/``, and
the shipped game profiles, named ``config/games/<game>.yaml`` as in the repository wherever
they are installed), the identity hash over them,
writing the manifest of a release (``MANIFEST.sha256``: one line per file, then the total; the
wheel carries it in the ``machine`` package) and checking the installed files against it. Never changes a file it checks.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # holds machine/ and hardware/: the checkout, or site-packages
MANIFEST = ROOT / "MANIFEST.sha256"


def manifest_path(root: Path = ROOT) -> Path:
    """Where the release manifest is: at the top of a checkout, or in the ``machine`` package of
    an installed wheel (package data; in a checkout ``machine/MANIFEST.sha256`` links to the top one)."""
    top = root / "MANIFEST.sha256"
    return top if top.exists() else root / "machine" / "MANIFEST.sha256"


def program_files(root: Path = ROOT) -> dict[str, Path]:
    """Each program file by its name in the manifest, in order.

    The game profiles are read where the program finds them (``machine/_config/games``: a link to
    the repository's ``config/games`` in a checkout, package data in a wheel) and named as in the
    repository, so an installed wheel has the same identity as the checkout it was built from.
    """
    files = {
        p.relative_to(root).as_posix(): p
        for d in ("machine", "hardware")
        for p in (root / d).rglob("*.py")
        if "__pycache__" not in p.parts
    }
    files.update({f"config/games/{p.name}": p for p in (root / "machine" / "_config" / "games").glob("*.yaml")})
    return dict(sorted(files.items()))


def file_hashes(root: Path = ROOT) -> dict[str, str]:
    return {name: hashlib.sha256(p.read_bytes()).hexdigest() for name, p in program_files(root).items()}


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
    path = manifest_path(root)
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
