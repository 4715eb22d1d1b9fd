"""The wheel: built offline, installed into a fresh virtual environment, run outside the repository.

Pins that the program is installable: the wheel carries every program file and the shipped
configuration (game profiles and the default machine configuration), so ``cabinet rtp``,
``cabinet round`` and ``cabinet run --headless`` work from a folder that is not a checkout, with
no editable install of the project in sight, and the installed program has the identity of the
checkout it was built from.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from machine.operator import identity

ROOT = Path(__file__).resolve().parents[1]


def _build_tools_or_skip() -> None:
    try:
        from importlib.metadata import version

        major = int(version("setuptools").split(".")[0])
        version("wheel")
    except Exception:  # any missing piece means no offline build here
        major = 0
    if major < 68:
        pytest.skip("building the wheel offline needs setuptools>=68 and wheel (the 'test' extra)")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, Path]:
    """A wheel of a copy of this checkout, installed into a fresh venv; the folders involved."""
    _build_tools_or_skip()
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    junk = shutil.ignore_patterns("__pycache__", "*.pyc")
    for d in ("machine", "hardware", "config"):
        shutil.copytree(ROOT / d, src / d, symlinks=True, ignore=junk)  # machine/_config stays a link
    for f in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / f, src / f)
    identity.write_manifest(src)  # as a release does: the manifest of exactly these files
    dist = tmp / "dist"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(dist), str(src)],
        capture_output=True, text=True, timeout=300, env=env,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = dist.glob("cabinet-*.whl")

    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", str(wheel)],
        capture_output=True, text=True, timeout=300, env=env,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    # The dependencies come from this interpreter's site-packages, through a .pth line: a folder
    # named in a .pth file is searched, but its own .pth files (the editable install's) never run.
    site = Path(subprocess.check_output([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                        text=True).strip())
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    work = tmp / "elsewhere"  # not a checkout: no config/ here
    work.mkdir()
    return {"wheel": wheel, "venv": venv, "site": site, "work": work}


def run(installed: dict[str, Path], *args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CABINET_CONFIG", "VIRTUAL_ENV")}
    env.update(TMPDIR=str(installed["work"]), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(list(args), cwd=installed["work"], capture_output=True, text=True, input=stdin,
                          timeout=timeout, env=env)


def test_the_wheel_holds_the_program_and_the_shipped_configuration(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    want = {name if not name.startswith("config/") else f"machine/_config/{name.removeprefix('config/')}"
            for name in identity.program_files(ROOT)}
    assert want - names == set()
    assert "machine/_config/machine.yaml" in names


def test_the_wheel_carries_the_table_sounds(installed):
    from machine.display.sound import SOUNDS

    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    assert {f"machine/display/sounds/{n}.wav" for n in SOUNDS} - names == set()


def test_the_installed_program_is_the_wheel_not_the_checkout(installed):
    py = str(installed["venv"] / "bin" / "python")
    out = run(installed, py, "-c", "import machine, hardware, yaml; print(machine.__file__); print(hardware.__file__)")
    assert out.returncode == 0, out.stderr
    for line in out.stdout.splitlines():
        assert Path(line).is_relative_to(installed["site"]), line
    version = run(installed, str(installed["venv"] / "bin" / "cabinet"), "--version")
    assert f"software identity (SHA-256): {identity.software_id(ROOT)}" in version.stdout, version.stdout + version.stderr


def test_the_installed_cabinet_checks_itself_against_the_manifest_it_carries(installed):
    """Issue 24, finding 14: the wheel carries its release manifest, so an installed cabinet can
    verify its files (a released cabinet with ``require_manifest`` starts only so)."""
    assert "machine/MANIFEST.sha256" in zipfile.ZipFile(installed["wheel"]).namelist()
    cabinet = str(installed["venv"] / "bin" / "cabinet")
    version = run(installed, cabinet, "--version")
    assert version.stdout.splitlines()[-1] == "matches the release manifest", version.stdout + version.stderr
    changed = installed["site"] / "machine" / "yamlio.py"
    saved = changed.read_bytes()
    try:
        changed.write_bytes(saved + b"# changed\n")
        version = run(installed, cabinet, "--version")
        assert version.stdout.splitlines()[-1] == "does NOT match the release manifest (machine/yamlio.py: changed)"
    finally:
        changed.write_bytes(saved)


def test_cabinet_rtp_prices_a_shipped_game_profile(installed):
    # Ochko: a shipped profile whose exact return takes a second (Random Blackjack's takes the
    # soak's Auto tables again, ~15 s; its figure is pinned in test_analysis), and whose math the
    # program imports only when the game is asked for (machine.gamemath.engines).
    (installed["work"] / "ochko.yaml").write_text("game: ochko\n")
    out = run(installed, str(installed["venv"] / "bin" / "cabinet"), "rtp", "ochko.yaml")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:2] == [
        "Ochko (ochko), 1 deck of 36: exact, Auto's composition-dependent play",
        "RTP 95.46052 %   house edge 4.53948 %   (the same stake every round)",
    ]


def test_cabinet_round_plays_the_example_script(installed):
    shutil.copy(ROOT / "examples" / "round.yaml", installed["work"] / "round.yaml")
    out = run(installed, str(installed["venv"] / "bin" / "cabinet"), "round", "round.yaml")
    assert out.returncode == 0, out.stderr
    here = subprocess.run([sys.executable, "-m", "machine", "round", str(ROOT / "examples" / "round.yaml")],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    result = json.loads(out.stdout)
    assert result == json.loads(here.stdout)
    assert result["dealer"]["cards"] == ["AD", "8D"] and result["seats"][0]["hands"][0]["cards"] == ["9S", "5C", "6H"]


# slow: the installed wheel's `cabinet` console script as a new process (its kernels not yet compiled in the new
# venv), a headless round a seat on its simulators
def test_cabinet_run_headless_finds_the_shipped_configuration(installed):
    out = run(installed, str(installed["venv"] / "bin" / "cabinet"), "run", "--headless", "--rounds", "1", timeout=240)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1] == "every meter and coin accounted for"
    assert not (installed["work"] / "data").exists()  # the soak keeps its journal in a temporary folder


# -- the shipped configuration in a checkout ------------------------------------------------------


def test_the_shipped_configuration_is_the_repositorys_config_folder(monkeypatch, tmp_path):
    from machine.profiles import config_dir, shipped_config_dir

    monkeypatch.delenv("CABINET_CONFIG", raising=False)
    assert shipped_config_dir().resolve() == (ROOT / "config").resolve()
    assert config_dir() == shipped_config_dir()
    monkeypatch.setenv("CABINET_CONFIG", str(tmp_path))
    assert config_dir() == tmp_path


def test_the_identity_covers_the_shipped_game_profiles(tmp_path):
    root = tmp_path / "copy"
    for d in ("machine", "hardware"):  # machine/_config is copied as a folder: as in a wheel
        shutil.copytree(ROOT / d, root / d, ignore=shutil.ignore_patterns("__pycache__"))
    first = identity.write_manifest(root)
    assert "config/games/random-blackjack.yaml" in (root / "MANIFEST.sha256").read_text()
    profile = root / "machine" / "_config" / "games" / "random-blackjack.yaml"
    profile.write_text(profile.read_text().replace("decks: 6", "decks: 1"))
    assert identity.check_manifest(root) == ["config/games/random-blackjack.yaml: changed"]
    assert identity.software_id(root) != first
