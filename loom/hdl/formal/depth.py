"""The depth of the bounded ``dfg`` task: enough clock cycles for a whole run at trip counts up to N.

Bound: until ``done``, every cycle of the RTL fires at least one rule of some
component (a cycle in which nothing fires changes no register, so every later
cycle is the same: a deadlock, which never reaches ``done``). A run therefore
completes within (its number of firings) + 2 cycles (reset, and the cycle
``done`` is seen). The number of firings is taken from the token simulator at
the largest arguments: every integer/index argument and every memref size N,
over a few memory fills (zeros, ones, a ramp, a descending ramp), the maximum
plus 25 % margin. Data-dependent loops (while loops, early exits) may need more
firings for other data: for them the depth covers the fills tried, no more.
"""

from __future__ import annotations

from typing import Any, Optional

from loom.hdl.buffers import DEFAULT_POLICY
from loom.ir.core import Operation
from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType, TupleType, Type
from loom.runtime import function_arg_names

DEFAULT_N = 3
# Without --rtl-bound, task dfg_mem covers whole runs with arguments and memref sizes in [0, n] for the largest
# n <= DEFAULT_N whose whole run fits in MEM_STEPS steps (``mem_bound``): one yices query over matmul's 100 steps
# (n = 3: 27 inner iterations) had no answer after 35 s of yices CPU; at n = 2 (8 iterations) it is 37 steps
# (specs/hdl.md, "Limits and time"). The report names the range, and a Z3 witness beyond it is "not reached (give
# --rtl-bound n)", never a pass.
MEM_STEPS = 70
FILLS = ("zeros", "ones", "ramp", "down")


def _fill(kind: str, k: int, t: Type) -> Any:
    v = {"zeros": 0, "ones": 1, "ramp": k, "down": -k}[kind]
    if isinstance(t, FloatType):
        return float(v)
    if isinstance(t, IntegerType) and t.width == 1:
        return v & 1
    return v


def _nested(shape: list[int], kind: str, t: Type, start: int = 0) -> Any:
    if len(shape) == 1:
        return [_fill(kind, start + i, t) for i in range(shape[0])]
    step = 1
    for s in shape[1:]:
        step *= s
    return [_nested(shape[1:], kind, t, start + i * step) for i in range(shape[0])]


def inputs_at(func: Operation, n: int, kind: str) -> dict[str, Any]:
    """Simulator inputs with every integer argument and memref size ``n`` and memory filled by ``kind``."""
    body = func.regions[0].entry
    out: dict[str, Any] = {}
    for name, a in zip(function_arg_names(func), body.args):
        t = a.type
        if isinstance(t, MemRefType):
            shape = [d if isinstance(d, int) and d >= 0 else n for d in t.shape]
            out[name] = _nested(shape, kind, t.element) if shape else _fill(kind, 0, t.element)
        elif isinstance(t, (IntegerType, IndexType, FloatType, TupleType)):
            out[name] = _scalar(t, n)
    return out


def _scalar(t: Type, n: int) -> Any:
    """The inputs-file value of a token argument of type ``t`` at bound ``n`` (a tuple: its elements', a none
    element null); None for a none token, which the inputs file leaves out."""
    if isinstance(t, TupleType):
        return [_scalar(x, n) for x in t.types]
    if isinstance(t, FloatType):
        return 1.0
    if isinstance(t, IntegerType) and t.width == 1:
        return 1
    if isinstance(t, (IntegerType, IndexType)):
        return n
    return None


def dfg_depth(func: Operation, bound: Optional[int] = None) -> int:
    """Cycles that cover a whole run with trip-count arguments and memref sizes in [0, bound] (default 3)."""
    from loom.sim.engine import simulate

    n = DEFAULT_N if bound is None else bound
    most = 0
    for kind in FILLS:
        try:
            r = simulate(func, inputs_at(func, n, kind), max_steps=200_000)
        except Exception:  # noqa: BLE001 - a fill the program rejects (e.g. an out-of-bounds index) says nothing
            continue
        most = max(most, r.steps)
    return max(8, most + most // 4 + 2)


def rtl_cycles(func: Operation, inputs: dict[str, Any], simulator: Optional[str] = None,
               buffers: str = DEFAULT_POLICY) -> Optional[int]:
    """Clock cycles from reset until ``done`` in an RTL simulation on ``inputs`` (None: no simulator, or no done),
    with the channel FIFOs of buffer policy ``buffers`` (loom.hdl.buffers)."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from loom.hdl.emit import emit
    from loom.hdl.rtlsim import find_simulator, testbench

    sim = find_simulator(simulator or "iverilog")
    if sim != "iverilog":
        return None  # iverilog only: it compiles in seconds (Verilator takes minutes on a loaded machine)
    from loom.runtime import decode_inputs

    body = func.regions[0].entry
    names = function_arg_names(func)
    decoded = decode_inputs(names, [a.type for a in body.args], inputs, "<depth>", module=None)
    e = emit(func, "depth", monitors=False, buffers=buffers)
    bench = testbench(e, decoded, None, None, 100_000)
    wd = Path(tempfile.mkdtemp(prefix="loom-depth-"))
    try:
        for name, text in list(e.files.items()) + [("tb.sv", bench.text)] + list(bench.hex_files.items()):
            (wd / name).write_text(text)
        cmd = ["iverilog", "-g2012", "-I", ".", "-s", "tb", "-o", "sim.vvp"] + e.sv_files + ["tb.sv"]
        if subprocess.run(cmd, cwd=wd, capture_output=True, text=True).returncode != 0:
            return None
        out = subprocess.run(["vvp", "-n", "sim.vvp"], cwd=wd, capture_output=True, text=True).stdout
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    done = any(ln.split()[:3] == ["LOOM", "done", "1"] for ln in out.splitlines())
    ends = [ln.split() for ln in out.splitlines() if ln.startswith("LOOM end ")]
    idle = [ln.split() for ln in out.splitlines() if ln.startswith("LOOM idle ")]
    if not done or not ends or ends[-1][2] != "0" or not idle:
        return None
    # the bench counts cycles from the end of reset and stops some quiet cycles after the last transfer (200,
    # or 4 once nothing is held anywhere): the cycle of the last transfer is the end cycle minus the quiet ones
    return int(ends[-1][3]) - int(idle[-1][2])


def measured_depth(func: Operation, bound: Optional[int] = None, buffers: str = DEFAULT_POLICY) -> Optional[int]:
    """Task ``dfg``'s depth from RTL simulations at the largest arguments (every fill of ``FILLS``): the steps that
    contain a whole run, the last cycle with a transfer plus ``RUN_SLACK`` (the figure task ``dfg_ref`` checks
    covers every run in the bound); None without iverilog. It was that cycle plus reset plus 50 %: on ``dot`` 22
    steps instead of 17, and the solver's time per step doubles from step 13 on (specs/hdl.md, "Limits and
    time")."""
    n = DEFAULT_N if bound is None else bound
    got = [rtl_cycles(func, inputs_at(func, n, kind), buffers=buffers) for kind in FILLS]
    seen = [c for c in got if c is not None]
    if not seen:
        return None
    return max(seen) + RUN_SLACK


def trip_cycles(func: Operation, n: int, buffers: str = DEFAULT_POLICY) -> Optional[int]:
    """The cycle (from the end of reset) of the last transfer of a whole RTL run with every integer argument and
    memref size ``n``, the most over the fills of ``FILLS`` (memory answering in 2 cycles, no back-pressure);
    None without iverilog or when no fill's run reaches ``done``."""
    seen = [c for c in (rtl_cycles(func, inputs_at(func, n, kind), buffers=buffers) for kind in FILLS)
            if c is not None]
    return max(seen) if seen else None


# Steps a bounded task needs beyond the cycle T of a run's last transfer (counted from the end of reset): step 0
# is the reset, so T is step T + 1; the next step is quiet (the run is over, done seen), and a clocked check at
# step s reads step s - 1, so one more step shows it: T + 4 steps (task dfg_ref fails at T + 3 on dot).
RUN_SLACK = 4


def whole_run_depths(func: Operation, bounds: tuple[int, ...],
                     buffers: str = DEFAULT_POLICY) -> Optional[dict[int, int]]:
    """Per trip-count bound k: the steps that contain a whole run with every argument and memref size in [0, k]
    under the co-simulation memory (the latest last transfer over the sizes up to k and the fills of
    ``FILLS``, plus ``RUN_SLACK``); None without iverilog or when a run does not reach done. Task ``dfg_ref``
    checks that the depth holds for every value in the bound, not only the fills tried."""
    cycles = [trip_cycles(func, k, buffers) for k in range(max(bounds) + 1)]
    if any(c is None for c in cycles):
        return None
    return {k: max(cycles[: k + 1]) + RUN_SLACK for k in bounds}
