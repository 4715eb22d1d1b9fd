"""The operator PIN as it is stored: a slow, salted scrypt hash in one configuration string.

Owns: the stored form ``scrypt:N:r:p:<salt hex>:<hash hex>`` (``operator_pin`` in
``config/machine.yaml``), making one for a new PIN with a random salt from the OS random source,
checking a PIN against it (with the string's own parameters, compared in constant time), what a
PIN may be (4 to 8 digits: the menu's keypad enters digits), and writing a new one into a
configuration file changing only its ``operator_pin`` line (``cabinet config pin``).

Why scrypt: it is in the standard library (``hashlib.scrypt``) and memory-hard: N=16384, r=8
takes 16 MiB and about 0.1 s per check on the cabinet's PC (``cabinet bench pin``), so the
10 000 PINs of 4 digits cost a copied configuration's reader some 20 minutes of one core instead
of the old single SHA-256's milliseconds (PBKDF2 at the same time buys a GPU far more guesses).
The check is in the menu's press, in the loop: one frame late by that much per PIN, no more.
The salt (16 random bytes) differs on every machine, so two machines with the same PIN store
different strings and no table of hashes fits them all.

The lockout after wrong PINs is the core's (``machine/core/pinlock.py``): this module never
counts tries, reads a clock or journals anything.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import tempfile
from pathlib import Path

import yaml

from machine import yamlio

FIELD = "operator_pin"
OLD_FIELD = "operator_pin_sha256"  # one SHA-256 with a fixed salt: refused, a new PIN is set instead
SCRYPT_N, SCRYPT_R, SCRYPT_P = 16384, 8, 1  # about 0.1 s and 16 MiB a check (cabinet bench pin)
SALT_BYTES = 16
HASH_BYTES = 32
MAX_MEMORY = 64 * 1024 * 1024  # a stored string asking for more is refused (it would never check)
PIN_FORMAT = re.compile(r"^[0-9]{4,8}$")
STORED = re.compile(r"^scrypt:([0-9]{1,7}):([0-9]{1,3}):([0-9]{1,3}):([0-9a-f]{32,128}):([0-9a-f]{64})$")
HOW_TO_SET = "set one with `cabinet config pin FILE`"


class PinError(ValueError):
    """A PIN, stored PIN or configuration file that cannot be used: one line saying why."""


def check_format(pin: str) -> str:
    """``pin`` if it is 4 to 8 digits, else ``PinError``."""
    if not PIN_FORMAT.match(pin):
        raise PinError("a PIN is 4 to 8 digits (0-9), the digits the menu's keypad enters")
    return pin


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=2 * MAX_MEMORY, dklen=HASH_BYTES)


def hash_pin(pin: str, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P, salt: bytes | None = None) -> str:
    """The stored form of ``pin`` with a fresh random salt (``salt`` only for a test that needs
    a fixed string). Lower ``n`` only where a cheap check is wanted (tests, screenshots)."""
    check_format(pin)
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    stored = f"scrypt:{n}:{r}:{p}:{salt.hex()}:{_scrypt(pin, salt, n, r, p).hex()}"
    parse(stored)
    return stored


def parse(stored: str) -> tuple[int, int, int, bytes, bytes]:
    """The parameters, salt and hash of a stored PIN; ``PinError`` when it is not one."""
    m = STORED.match(stored)
    if not m:
        raise PinError('not a stored PIN: expected "scrypt:N:r:p:<salt hex>:<hash hex>" as '
                       "`cabinet config pin` writes it")
    n, r, p = int(m[1]), int(m[2]), int(m[3])
    if n < 2 or n & (n - 1) or r < 1 or p < 1 or 128 * n * r * p > MAX_MEMORY:
        raise PinError(f"scrypt parameters N={n} r={r} p={p} are out of range (N a power of 2 from 2, r and p "
                       f"from 1, at most {MAX_MEMORY // 2**20} MiB)")
    return n, r, p, bytes.fromhex(m[4]), bytes.fromhex(m[5])


SHIPPED_PIN = "1234"  # the PIN of the shipped configuration: a released cabinet refuses it


def weaknesses(stored: str) -> list[str]:
    """What makes a stored PIN unfit for a released cabinet: the shipped PIN, a hash weaker
    than the shipped parameters (N=16384, r=8: a copied configuration's PIN found that much
    faster). ``config check`` warns of each; ``require_manifest: true`` refuses them."""
    n, r, p, _, _ = parse(stored)
    out = []
    if check(SHIPPED_PIN, stored):
        out.append(f"operator_pin: the PIN is the shipped {SHIPPED_PIN}: set your own with `cabinet config pin FILE`")
    if n < SCRYPT_N or r < SCRYPT_R or p < SCRYPT_P:
        out.append(f"operator_pin: scrypt N={n} r={r} p={p} is weaker than the shipped N={SCRYPT_N} r={SCRYPT_R} "
                   f"p={SCRYPT_P}: set the PIN again with `cabinet config pin FILE`")
    return out


def check(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the PIN of ``stored`` (its own parameters; constant-time compare)."""
    n, r, p, salt, digest = parse(stored)
    return hmac.compare_digest(_scrypt(pin, salt, n, r, p), digest)


# -- cabinet config pin: one line of the file changed -------------------------------------------


def _pin_line(text: str, name: str) -> tuple[int, int, int] | None:
    """Where the top-level ``operator_pin`` (or the old ``operator_pin_sha256``) setting is:
    (line index, column of the key, column after the value), or None when there is none."""
    try:
        root = yaml.compose(text, Loader=yamlio._StrictLoader)
    except yaml.YAMLError as exc:
        raise PinError(f"{name}: not a YAML file: {str(exc).splitlines()[0]}") from None
    if root is None:
        return None
    if not isinstance(root, yaml.MappingNode):
        raise PinError(f"{name}:1: the configuration must be a mapping of settings")
    found = [(k, v) for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value in (FIELD, OLD_FIELD)]
    if len(found) > 1:
        raise PinError(f"{name}:{found[1][0].start_mark.line + 1}: {found[1][0].value}: a second PIN setting "
                       f"(keep one {FIELD} line)")
    if not found:
        return None
    key, value = found[0]
    if not isinstance(value, yaml.ScalarNode) or value.start_mark.line != key.start_mark.line or \
            value.end_mark.line != key.start_mark.line:
        raise PinError(f"{name}:{key.start_mark.line + 1}: {key.value}: must be one line (a string), to be replaced")
    return key.start_mark.line, key.start_mark.column, value.end_mark.column


def set_in_file(path: Path, stored: str) -> None:
    """Write ``stored`` as ``operator_pin`` into the configuration at ``path``: the setting's
    line replaced (the old ``operator_pin_sha256`` too), or appended; every other line and
    comment kept. The file is replaced at once (a power cut leaves the old or the new file)."""
    parse(stored)
    try:
        text = yamlio.read_text(path)
        data = yamlio.loads(text, str(path))
    except yamlio.YamlError as exc:
        raise PinError(str(exc)) from None
    if data is None:  # an empty file (or comments only): no configuration a PIN can go into
        raise PinError(f"{path}:1: not a machine configuration (it is empty): nothing changed")
    where = _pin_line(text, str(path))
    setting = f"{FIELD}: {stored}"
    if where is None:
        new = text + ("" if text.endswith("\n") or not text else "\n") + setting + "\n"
    else:
        lines = text.splitlines(keepends=True)
        i, start, end = where
        lines[i] = lines[i][:start] + setting + lines[i][end:]
        new = "".join(lines)
    mode = path.stat().st_mode & 0o777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
