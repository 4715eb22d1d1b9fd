"""The exact analysis's kernels compiled ahead of time: a C extension that imports without numba.

Owns: ``build`` (numba's ahead-of-time compiler, ``numba.pycc``, compiles ``exact_kernels``'
``dealer_dists`` and ``play_values`` with ``SIGNATURES`` into an extension module; the set-up's
step "blackjack exact" runs it), ``load`` (that module, or None) and ``kernels`` (the two
functions ``exact_fast`` calls: the module's when it serves, else numba's jit as before).

The module is the same source compiled once more, not a second copy of the kernels: each is
written once, in ``exact_kernels``. It is keyed to that source: its file name carries a digest
of ``exact_kernels.py``, ``exact_layout.py``, this file and numpy's version, and the module
holds the same digest (its ``source_digest()``), so an edited kernel never meets a stale module
(``load`` refuses one whose digest differs: numba's jit serves until the next set-up builds
again). It lives beside numba's cache of the same kernels (this package's ``__pycache__``, or
``CABINET_AOT_DIR``), never in the repository. ``CABINET_EXACT=jit`` skips it.

Never imports numba except to build: a process the module serves (``cabinet rtp``) starts in
a fraction of what numba's import and first dispatch cost.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

NAME = "exact_kernels_aot"  # the extension's module name (its PyInit_ symbol)
HERE = Path(__file__).parent
SOURCES = ("exact_kernels.py", "exact_layout.py", "exact_aot.py")  # what the module is compiled from

# The kernels' argument types as exact_fast passes them: "dtype/dimensions" of a C-contiguous
# array (the module would misread any other layout, and crash on another dtype: ``_checked``
# refuses both), or a scalar's dtype; a tuple is ``dl``. SIGNATURES, numba's notation, is read
# from them.
_DL = ("i8/1", "i8/1", "f8/1", "i8/2", "i8/1", "f8/1", "i8/2", "f8/2", "f8/1", "i8/1")
ARGUMENTS: dict[str, tuple[str, tuple[Any, ...]]] = {
    "dealer_dists": ("f8/2", ("i8/2", _DL)),
    "play_values": ("f8/1", (
        "i8/1", "i8/1", "i8/1", "i8/2", "i8/2", "f8/2", "f8/2", "f8/2", "i8", "i8", "i8", "f8", _DL,
        "f8/2", "i1/1", "f8/3", "i1/2", "f8/2", "f8/2", "f8/2", "b1/2", "b1")),
}
_NUMBA = {"i8": "int64", "i1": "int8", "f8": "float64", "b1": "boolean"}


def _numba_type(code: Any) -> str:
    if isinstance(code, tuple):
        return f"Tuple(({', '.join(map(_numba_type, code))}))"
    dtype, _, dims = code.partition("/")
    return _NUMBA[dtype] + (f"[{', '.join([':'] * (int(dims) - 1) + ['::1'])}]" if dims else "")


SIGNATURES = {name: f"{_numba_type(ret)}({', '.join(map(_numba_type, args))})" for name, (ret, args) in ARGUMENTS.items()}


def digest() -> str:
    """The digest the module of the current sources carries (hex)."""
    h = hashlib.sha256()
    for name in SOURCES:
        h.update(name.encode() + b"\0" + (HERE / name).read_bytes())
    h.update(np.__version__.encode())
    return h.hexdigest()[:15]  # 60 bits: an int64 the module returns


def folder() -> Path:
    """Where the module is built and looked for."""
    return Path(os.environ.get("CABINET_AOT_DIR") or HERE / "__pycache__")


def path(key: str | None = None) -> Path:
    """The module's file for the sources of digest ``key`` (default: the current ones)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return folder() / f"{NAME}-{key or digest()}{suffix}"


def load(where: Path | None = None) -> ModuleType | None:
    """The module built from the current sources, or None: none built, or one that does not
    carry the current digest (built from other sources), or one that does not load."""
    key = digest()
    file = where or path(key)
    if not file.is_file():
        return None
    try:
        spec = importlib.util.spec_from_file_location(NAME, file)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if module.source_digest() != int(key, 16):
            return None
    except (ImportError, OSError, AttributeError):
        return None
    return module


def _expected(code: Any) -> Any:
    """What ``_checked`` compares an argument with: (dtype, dimensions) of an array, None for a
    scalar, a list of those for a tuple."""
    if isinstance(code, tuple):
        return list(map(_expected, code))
    dtype, _, dims = code.partition("/")
    return (np.dtype(dtype), int(dims)) if dims else None


def _checked(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` refusing an argument its signature does not describe (numba's jit would compile
    for it; the module would misread it, or crash). The check runs on every call (about two
    thousand for ``cabinet strategy``), so each argument's dtype, dimensions and C-contiguity are
    compared directly (a tuple's items told apart from an array's by the list ``_expected``
    makes), and an argument that is the very object this thread passed in the same place last
    time (the table's arrays, a play's memo: most of them) is taken as checked then: the
    arrays exact_fast passes are made once and never retyped or reshaped in place."""
    expected = _expected(ARGUMENTS[name][1])
    ndarray = np.ndarray
    last = threading.local()  # per thread: the arguments of its last call that passed
    unset = (None,) * len(expected)  # (no argument is None)

    def fits(x: Any, want: Any) -> bool:
        if want is None:
            return not isinstance(x, ndarray)
        if type(want) is list:
            return type(x) is tuple and len(x) == len(want) and all(map(fits, x, want))
        return isinstance(x, ndarray) and x.dtype == want[0] and x.ndim == want[1] and x.flags.c_contiguous

    def fits_again(x: Any, before: Any, want: Any) -> bool:
        return x is before or fits(x, want)

    def call(*args: Any) -> Any:
        if len(args) != len(expected) or not all(map(fits_again, args, getattr(last, "args", unset), expected)):
            raise TypeError(f"the ahead-of-time {name} takes C-contiguous arrays of its signature only: "
                            f"{SIGNATURES[name]}")
        last.args = args
        return fn(*args)

    call.__doc__ = fn.__doc__
    return call


def kernels() -> tuple[Callable[..., Any], Callable[..., Any], str]:
    """``(dealer_dists, play_values, which)``: the module's when it serves ("aot"), else
    numba's jit ("jit"; ImportError without numba)."""
    module = None if os.environ.get("CABINET_EXACT") == "jit" else load()
    if module is not None:
        return _checked("dealer_dists", module.dealer_dists), _checked("play_values", module.play_values), "aot"
    from machine.gamemath.blackjack.exact_kernels import dealer_dists, play_values

    return dealer_dists, play_values, "jit"


def build(report: Callable[[str], None] | None = None, where: Path | None = None) -> Path | None:
    """Build the module of the current sources into ``where`` (default: ``folder()``) unless it
    is there; its file, or None when it cannot be built here (no numba, no C compiler, a folder
    that cannot be written: ``report`` gets one line why). Older modules there are removed."""
    out = (where or folder()) / path().name
    if load(out) is not None:
        return out
    try:
        with warnings.catch_warnings():  # numba says pycc will go (a pending deprecation): not an error here
            warnings.simplefilter("ignore", PendingDeprecationWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            from numba.pycc import CC

        from machine.gamemath.blackjack import exact_kernels
    except ImportError as exc:
        if report:
            report(f"the exact analysis's ahead-of-time module not built: {exc}")
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="aot-", dir=out.parent))
    try:
        cc = CC(NAME)
        cc.output_dir = str(work)
        cc.output_file = out.name
        cc.target_cpu = "host"  # as the jit compiles (this machine's vector lanes)
        for name, sig in SIGNATURES.items():
            cc.export(name, sig)(getattr(exact_kernels, name).py_func)
        cc.export("source_digest", "int64()")(_constant(int(digest(), 16)))
        with _as_jitted():
            cc.compile()
        os.replace(work / out.name, out)
    except Exception as exc:  # noqa: BLE001 - a compiler's failure of any kind: the jit serves
        if report:
            report(f"the exact analysis's ahead-of-time module not built ({type(exc).__name__}: {exc}); numba's jit serves")
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for old in out.parent.glob(f"{NAME}-*"):
        if old != out and old.is_file():
            old.unlink(missing_ok=True)
    if report:
        report(f"the exact analysis's ahead-of-time module: {out}")
    return out if load(out) is not None else None


@contextlib.contextmanager
def _as_jitted() -> Iterator[None]:
    """pycc compiles with numba's default flags; the kernels' own options are ``njit``'s
    (``exact_kernels``: ``error_model="numpy"``, ``nogil=True``): the same while building, so
    that the module computes as the jit does and releases Python's lock (``game.Analysis``
    runs the up cards in threads). pycc has no option for them: its ``Flags`` is patched."""
    from numba.core.compiler import Flags
    from numba.pycc import compiler

    def flags() -> Flags:
        made = Flags()
        made.error_model = "numpy"
        made.release_gil = True
        return made

    saved = compiler.Flags
    compiler.Flags = flags
    try:
        yield
    finally:
        compiler.Flags = saved


def _constant(value: int) -> Callable[[], int]:
    """A function of no argument returning ``value`` (compiled into the module as its digest)."""
    def source_digest() -> int:
        return value

    return source_digest
