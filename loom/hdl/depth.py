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

from loom.ir.core import Operation
from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType, Type
from loom.runtime import function_arg_names

DEFAULT_N = 3
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
        elif isinstance(t, (IntegerType, IndexType)):
            out[name] = n if not (isinstance(t, IntegerType) and t.width == 1) else 1
        elif isinstance(t, FloatType):
            out[name] = 1.0
    return out


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
