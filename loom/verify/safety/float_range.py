"""The values a float SSA value can take, as an interval: what a cast's safety needs where floats are abstract.

The verifier's models keep floats uninterpreted, so ``fptosi(x)`` in range can only be
shown from how ``x`` was built. ``float_range`` walks the expression: constants,
``minnumf``/``maxnumf``/``minimumf``/``maximumf`` (the clamp a careful kernel writes
before converting), ``select``, ``sitofp``/``uitofp`` (the source type's range),
``absf``/``negf``; anything else may be any float, NaN included. Sound: the interval
holds every value a run can produce (IEEE's rules for NaN in each op).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from loom.ir.attributes import FloatAttr
from loom.ir.core import OpResult, Value
from loom.ir.types import IndexType, IntegerType

INF = math.inf


@dataclass(frozen=True)
class Range:
    """Non-NaN values within [lo, hi] (``lo`` None: no non-NaN value), and whether NaN is possible."""

    lo: Optional[float]
    hi: Optional[float]
    nan: bool

    @staticmethod
    def top() -> "Range":
        return Range(-INF, INF, True)

    def union(self, o: "Range") -> "Range":
        if self.lo is None:
            return Range(o.lo, o.hi, self.nan or o.nan)
        if o.lo is None:
            return Range(self.lo, self.hi, self.nan or o.nan)
        return Range(min(self.lo, o.lo), max(self.hi, o.hi), self.nan or o.nan)


def _numbers(a: Range, b: Range, pick) -> Range:
    """minnum/maxnum: a NaN operand yields the other operand."""
    out = Range(None, None, a.nan and b.nan)
    if a.lo is not None and b.lo is not None:
        out = out.union(Range(pick(a.lo, b.lo), pick(a.hi, b.hi), False))
    if a.nan and b.lo is not None:
        out = out.union(Range(b.lo, b.hi, False))
    if b.nan and a.lo is not None:
        out = out.union(Range(a.lo, a.hi, False))
    return out


def _propagating(a: Range, b: Range, pick) -> Range:
    """minimum/maximum: a NaN operand yields NaN."""
    out = Range(None, None, a.nan or b.nan)
    if a.lo is not None and b.lo is not None:
        out = out.union(Range(pick(a.lo, b.lo), pick(a.hi, b.hi), False))
    return out


def float_range(v: Value, depth: int = 0) -> Range:
    """An interval of every value ``v`` takes (see the module docstring)."""
    if depth > 64 or not isinstance(v, OpResult):
        return Range.top()
    op = v.op
    name = op.name
    if name == "arith.constant":
        a = op.attributes.get("value")
        if isinstance(a, FloatAttr):
            x = float(a.value)
            return Range(None, None, True) if math.isnan(x) else Range(x, x, False)
        return Range.top()
    if name in ("arith.minnumf", "arith.maxnumf", "arith.minimumf", "arith.maximumf", "arith.minf", "arith.maxf"):
        a, b = (float_range(x, depth + 1) for x in op.operands)
        pick = min if "min" in name else max
        return _numbers(a, b, pick) if name.endswith("numf") else _propagating(a, b, pick)
    if name == "arith.select":
        return float_range(op.operands[1], depth + 1).union(float_range(op.operands[2], depth + 1))
    if name in ("arith.sitofp", "arith.uitofp"):
        t = op.operands[0].type
        w = 64 if isinstance(t, IndexType) else t.width if isinstance(t, IntegerType) else None
        if w is None:
            return Range.top()
        lo, hi = (-(2.0 ** (w - 1)), 2.0 ** (w - 1)) if name == "arith.sitofp" else (0.0, 2.0 ** w)
        return Range(lo, hi, False)
    if name == "arith.negf":
        a = float_range(op.operands[0], depth + 1)
        return a if a.lo is None else Range(-a.hi, -a.lo, a.nan)
    if name == "math.absf":
        a = float_range(op.operands[0], depth + 1)
        if a.lo is None:
            return a
        lo = 0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
        return Range(lo, max(abs(a.lo), abs(a.hi)), a.nan)
    return Range.top()


def fits(r: Range, lo: int, hi: int) -> bool:
    """Does every value of ``r`` convert (truncated toward zero) into [lo, hi]? No NaN, no infinity."""
    return not r.nan and r.lo is not None and math.isfinite(r.lo) and math.isfinite(r.hi) \
        and math.trunc(r.lo) >= lo and math.trunc(r.hi) <= hi
