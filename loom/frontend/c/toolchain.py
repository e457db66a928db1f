"""Run clang (the PyPI ``ziglang`` wheel's) on a C file with fixed flags: C semantics come from clang, not loom.

The flags are fixed (target triple, optimisation pipeline switched off, FP contraction off, math errno off,
value names kept, debug locations on) and the working directory's path is mapped to ``.`` in the debug info,
so the LLVM IR is byte-identical on every machine for the same input. clang's own errors come back as one
located ``CPL_C_CLANG`` error.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from loom.diagnostics import LoomError
from loom.ir.location import Location

ZIGLANG_PIN = "ziglang==0.17.1"  # clang 22; pinned in pyproject.toml
TARGET = "x86_64-linux-gnu"
# -O1 -Xclang -disable-llvm-passes: clang's -O1 front-end output (no optnone/noinline on every function, TBAA)
# with no LLVM pass run: loom runs its own fixed pipeline (passes.py), so the IR does not depend on clang's
# optimiser heuristics (no rotation, unrolling, vectorisation or strength reduction to undo).
FLAGS = ("-S", "-emit-llvm", "-O1", "-Xclang", "-disable-llvm-passes", "-g", "-gcolumn-info",
         "-fno-sanitize=all", "-ffp-contract=off", "-fno-math-errno", "-fno-discard-value-names",
         "-fno-unroll-loops", "-fno-vectorize", "-fno-slp-vectorize", "-fno-builtin-memset",
         "-w")
CXX_SUFFIXES = (".cpp", ".cc", ".cxx")
C_STD = ("-std=gnu11",)
# C++ (upstream's front-end tests are .cpp): no exceptions or RTTI, so no invoke/landingpad to raise
CXX_STD = ("-std=c++17", "-fno-exceptions", "-fno-rtti")
_DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$", re.M)


@dataclass(frozen=True)
class ClangOptions:
    """What the user passes through to clang: include directories and macro definitions."""

    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    extra: tuple[str, ...] = field(default=())


def clang_command(cxx: bool = False) -> list[str]:
    """The command that runs clang, or a CPL_C_TOOL_MISSING error naming how to install it."""
    try:
        import ziglang  # noqa: F401  (the wheel that ships clang)
    except ImportError:
        raise LoomError(f"clang is not installed: run `python -m pip install '{ZIGLANG_PIN}'`",
                        code="CPL_C_TOOL_MISSING") from None
    return [sys.executable, "-m", "ziglang", "c++" if cxx else "cc"]  # c++: libc++'s headers too


def compile_to_llvm(path: Path, opts: ClangOptions = ClangOptions()) -> str:
    """The LLVM IR text clang writes for C file ``path`` (as named on the command line)."""
    cwd = os.getcwd()
    cxx = str(path).endswith(CXX_SUFFIXES)
    std = CXX_STD if cxx else C_STD
    clang = clang_command(cxx)  # CPL_C_TOOL_MISSING first when the wheel is absent
    import ziglang

    zig_dir = os.path.dirname(os.path.abspath(ziglang.__file__))  # its libc headers: one name everywhere
    # the wheel's directory (maybe inside the working directory) before the working directory
    cmd = clang + ["-target", TARGET, *FLAGS, *std,
                                f"-fdebug-prefix-map={zig_dir}=/ziglang", f"-ffile-prefix-map={zig_dir}=/ziglang",
                                f"-fdebug-prefix-map={cwd}=.", f"-ffile-prefix-map={cwd}=."]
    cmd += [f"-I{d}" for d in opts.include_dirs] + [f"-D{d}" for d in opts.defines] + list(opts.extra)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZIG_VERBOSE")}
    with tempfile.TemporaryDirectory(prefix="loom-cc-") as tmp:
        out = Path(tmp) / "out.ll"
        try:
            proc = subprocess.run(cmd + [str(path), "-o", str(out)], capture_output=True, text=True, env=env,
                                  timeout=300)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise LoomError(f"cannot run clang ({e}): reinstall it with `python -m pip install '{ZIGLANG_PIN}'`",
                            loc=Location(str(path), 1, 1), code="CPL_C_TOOL_MISSING") from None
        if proc.returncode != 0 or not out.is_file():
            raise clang_error(proc.stderr, path)
        return out.read_text()


def clang_error(stderr: str, path: Path) -> LoomError:
    """clang's first error as a located CPL_C_CLANG error (its own file:line:col and message)."""
    m = _DIAG.search(stderr)
    if m:
        return LoomError(m["msg"], loc=Location(m["file"], int(m["line"]), int(m["col"])), code="CPL_C_CLANG")
    lines = [s for s in stderr.splitlines() if s.strip()]
    return LoomError(f"clang failed: {lines[-1] if lines else 'no output'}", loc=Location(str(path), 1, 1),
                     code="CPL_C_CLANG")
