"""A content-addressed cache of built RTL simulations (``loom sim --rtl``): Verilator's binary, iverilog's vvp.

A build depends only on the text of the files it compiles (the design's SV, the testbench, C libm), the simulator's
version and the command; a run's inputs and stall seed are read at run time (loom.hdl.rtlsim), so a later run
of the same design links the built files in and skips the compilation. ``LOOM_RTL_CACHE`` names the directory
(``off`` turns the cache off); by default ``$XDG_CACHE_HOME/loom/rtlsim`` (``~/.cache/loom/rtlsim``). Entries are
written under a temporary name and renamed into place, so concurrent runs (pytest workers) never see half of one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional

ENV = "LOOM_RTL_CACHE"
OFF = ("off", "0", "no", "false")
FORMAT = "loom-rtlsim-cache 1"  # bump when what an entry holds changes


def root() -> Optional[Path]:
    """The cache directory (``LOOM_RTL_CACHE``, else under ``XDG_CACHE_HOME``, else ``~/.cache``); None when off."""
    given = os.environ.get(ENV, "").strip()
    if given.lower() in OFF:
        return None
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg else Path.home() / ".cache") / "loom" / "rtlsim"


def key(simulator: str, version: str, command: list[str], files: dict[str, str]) -> str:
    """The entry name of a build: a SHA-256 of the simulator, its version, the command and every file (name and
    text) the build reads."""
    h = hashlib.sha256()
    for part in [FORMAT, simulator, version, "\0".join(command)]:
        h.update(part.encode() + b"\0\1")
    for name in sorted(files):
        h.update(name.encode() + b"\0" + files[name].encode() + b"\0\1")
    return h.hexdigest()


def lookup(cache: Path, name: str, artifacts: list[str]) -> Optional[Path]:
    """The entry ``name`` when it holds every artifact, else None."""
    entry = cache / name
    if all((entry / a).is_file() for a in artifacts):
        return entry
    return None


def link_into(entry: Path, workdir: Path, artifacts: list[str]) -> None:
    """Make each artifact of ``entry`` appear at its relative path in ``workdir`` (a symbolic link, else a copy)."""
    for a in artifacts:
        dst = workdir / a
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink((entry / a).resolve(), dst)
        except OSError:
            shutil.copy2(entry / a, dst)


def store(cache: Path, name: str, workdir: Path, artifacts: list[str]) -> None:
    """Copy the built ``artifacts`` from ``workdir`` into entry ``name``: written under a temporary name, then
    renamed (atomic); when another process stored it first, its entry stays. A cache that cannot be written
    is no error: the run goes on without it."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{name[:16]}-", dir=cache))
    except OSError:
        return
    try:
        for a in artifacts:
            (tmp / a).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(workdir / a, tmp / a)
        os.rename(tmp, cache / name)
    except OSError:
        pass  # another process renamed the same entry in first, or the disk is full: keep what is there
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
