"""Lint an emitted design: pyslang elaboration (zero diagnostics, both SVA backends) and Verilator ``-Wall``."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Optional, Sequence


def slang_diagnostics(files: dict[str, str], full: bool = True,
                      defines: tuple[str, ...] = ("LOOM_DFG_MONITORS",)) -> list[tuple[str, str]]:
    """pyslang errors and warnings of the design's SV files (``LOOM_ASSERTIONS`` on; ``LOOM_SVA_FULL`` if ``full``;
    ``defines`` on top: by default the DFG-level monitors of ``loom.hdl.monitors``; add ``LOOM_LIVENESS`` for the
    whole-run monitor of ``loom.hdl.formal.liveness``, leave them out with ``()``).

    The property header is inlined and the defines are prepended, so one compilation unit holds everything.
    The formal harness (``*_formal.sv``) is left out: it leaves every component input unconnected on purpose
    (SymbiYosys makes them free), which pyslang rightly reports; the design itself must have no diagnostic.
    """
    import pyslang

    head = ("`define LOOM_ASSERTIONS\n" + ("`define LOOM_SVA_FULL\n" if full else "")
            + "".join(f"`define {d}\n" for d in defines) + files["loom_props.svh"])
    out: list[tuple[str, str]] = []
    comp = pyslang.ast.Compilation()
    sources = [head]
    for name, text in files.items():
        if name.endswith(".sv") and not name.endswith("_formal.sv"):
            sources.append(f"// file {name}\n" + text.replace('`include "loom_props.svh"', ""))
    tree = pyslang.syntax.SyntaxTree.fromText("\n".join(sources), "design.sv")
    comp.addSyntaxTree(tree)
    for d in comp.getAllDiagnostics():
        text = pyslang.DiagnosticEngine.reportAll(tree.sourceManager, [d]).strip()
        out.append(("error" if d.isError() else "warning", text))
    return out


def verilator_lint(workdir: Path, sv_files: Sequence[str], defines: Sequence[str] = (),
                   top: Optional[str] = None) -> list[str]:
    """Verilator ``--lint-only -Wall`` over ``sv_files`` (in ``workdir``, include path ``.``): every warning and
    error line. With no ``top``, every uninstantiated module is a top (several designs linted at once)."""
    exe = shutil.which("verilator")
    if exe is None:
        raise FileNotFoundError("verilator")
    cmd = [exe, "--lint-only", "-Wall", "-Wno-fatal", "-I.", *(f"-D{d}" for d in defines)]
    cmd += ["--top-module", top] if top else ["-Wno-MULTITOP"]
    p = subprocess.run(cmd + list(sv_files), cwd=workdir, capture_output=True, text=True, timeout=600)
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.startswith("%")]
    if p.returncode != 0 and not lines:
        lines = [f"%Error: verilator exited {p.returncode}: {(p.stderr or p.stdout).strip()[:500]}"]
    return lines


def waivers(text: str) -> list[str]:
    """The Verilator warnings an SV text switches off (``/* verilator lint_off RULE */``), in order."""
    return re.findall(r"verilator\s+lint_off\s+(\w+)", text)
