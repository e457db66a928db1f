"""Writing what loom produces: output paths checked up front, file sets written all or none.

Every failure is a ``LoomError`` located at the path (``path: error: [CODE] message``), so the
CLI prints one line and exits 2; nothing half-written is ever left behind.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from loom.diagnostics import LoomError
from loom.ir.location import Location

OUTPUT_DIR = "IO_OUTPUT_DIR"
OUTPUT_FILE = "IO_OUTPUT_FILE"
OUTPUT_CLASH = "IO_OUTPUT_CLASH"


def output_error(path: Path, message: str, code: str) -> LoomError:
    """A located error about an output path."""
    return LoomError(message, Location(str(path), 0, 0), code)


def _reason(e: OSError) -> str:
    return (e.strerror or type(e).__name__).lower()


def _nearest_existing(path: Path) -> Path:
    p = Path(os.path.abspath(path))
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def check_directory(path: Path, what: str = "output directory") -> Path:
    """Fail early unless ``path`` is, or can be created as, a writable directory (nothing is left behind)."""
    if path.exists() and not path.is_dir():
        raise output_error(path, f"{what} is an existing file, not a directory", OUTPUT_DIR)
    base = _nearest_existing(path)
    if not base.is_dir():
        raise output_error(path, f"cannot create the {what}: '{base}' is a file", OUTPUT_DIR)
    why = _unwritable(base)
    if why:
        raise output_error(path, f"cannot create the {what}: '{base}' is not writable ({why})", OUTPUT_DIR)
    return path


def ensure_directory(path: Path, what: str = "output directory") -> Path:
    """``path`` as an existing directory (created with its parents if absent), or a located error."""
    check_directory(path, what)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise output_error(path, f"cannot create the {what}: {_reason(e)}", OUTPUT_DIR) from None
    return path


def check_output_file(path: Path, what: str = "output file") -> Path:
    """Fail early unless ``path`` can be written as a file: not a directory, its directory usable."""
    if path.is_dir():
        raise output_error(path, f"{what} names a directory", OUTPUT_FILE)
    base = _nearest_existing(path.parent)
    if not base.is_dir():
        raise output_error(path, f"cannot write the {what}: '{base}' is not a directory", OUTPUT_FILE)
    why = _unwritable(base)
    if why:
        raise output_error(path, f"cannot write the {what}: '{base}' is not writable ({why})", OUTPUT_FILE)
    return path


def _unwritable(directory: Path) -> str:
    """Why nothing can be created in ``directory`` ('' when it can): the permission bits do not tell for
    root, a read-only mount or /proc, so an empty probe directory is made and removed."""
    if not os.access(directory, os.W_OK | os.X_OK):
        return "permission denied"
    try:
        os.rmdir(tempfile.mkdtemp(dir=directory, prefix=".loom-probe-"))
    except OSError as e:
        return _reason(e)
    return ""


def write_into(outdir: Path, files: dict[str, str], what: str = "output file") -> None:
    """Write ``files`` (name -> text) into ``outdir``, all or none; a bad ``outdir`` is an IO_OUTPUT_DIR
    error at it, as for ``loom compile -o``."""
    check_directory(outdir)
    write_all([(outdir / name, text) for name, text in files.items()], what)


@dataclass(frozen=True)
class _Staged:
    """One file of a set: its temporary copy beside the target, and a backup of the old target if any."""

    target: Path
    tmp: str
    backup: str | None


def _stage(path: Path, data: str | bytes) -> str:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; give the mode open() would
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _umask() -> int:
    """The process's umask (reading it means setting it; it is put back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _unlink(p: str | None) -> None:
    if p is not None and os.path.lexists(p):
        os.unlink(p)


def _backup(path: Path) -> str | None:
    """A hard link to the current ``path`` (a file) so a failed set can put it back."""
    if not path.is_file():
        return None
    fd, b = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".bak")
    os.close(fd)
    try:
        os.unlink(b)
        os.link(path, b)
    except OSError:  # a file system without hard links: a copy does the same job
        shutil.copy2(path, b)
    return b


def write_all(files: Sequence[tuple[Path, str | bytes]], what: str = "output file") -> None:
    """Write every (path, text or bytes) or none of them; two entries for one path are an error, never an
    overwrite."""
    seen: dict[Path, int] = {}
    for i, (p, _) in enumerate(files):
        key = Path(os.path.abspath(p))
        if key in seen:
            raise output_error(p, f"two outputs would be written to this {what} (inputs with the same stem)",
                               OUTPUT_CLASH)
        seen[key] = i
    for p, _ in files:
        check_output_file(p, what)
    for p, _ in files:
        ensure_directory(p.parent, f"directory of the {what}")
    staged: list[_Staged] = []
    done: list[_Staged] = []
    current = files[0][0] if files else Path(".")
    try:
        for p, text in files:
            current = p
            staged.append(_Staged(p, _stage(p, text), _backup(p)))
        for s in staged:
            current = s.target
            os.replace(s.tmp, s.target)
            done.append(s)
    except OSError as e:
        for s in reversed(done):  # put the old files back
            if s.backup is not None:
                os.replace(s.backup, s.target)
            else:
                _unlink(str(s.target))
        for s in staged:
            _unlink(s.tmp)
            _unlink(s.backup)
        raise output_error(current, f"cannot write the {what}: {_reason(e)}; nothing was written",
                           OUTPUT_FILE) from None
    for s in staged:
        _unlink(s.backup)


def write_file(path: Path, text: str, what: str = "output file") -> None:
    """Write one file atomically (a temporary file renamed over it), or a located error."""
    write_all([(path, text)], what)
