"""Whose fault is a refuted stream precondition: the input program's, or the DFG's?

``fsm.stream.pre.*`` is refuted with concrete operands (start, step, bound). This
module replays that activation exactly, over unbounded integers, to tell

* ``wraps``: the index really leaves the 64-bit range before the stream stops (or, with a zero step, the
  stream faults);
  then, when the source loop the stream was lowered from is known, whether that
  loop runs the same induction on the same inputs (its induction variable wraps
  too: a finding about the *input program*, not a lowering bug);
* ``ends``: the operands break the (sufficient) precondition yet this activation
  ends without wrapping -- not a counterexample, so the verdict becomes unknown.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from loom.ir.attributes import IntegerAttr
from loom.ir.core import BlockArgument, Operation, Value
from loom.runtime import function_arg_names
from loom.verify.obligation import Obligation

INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1
_HOLDS = {
    "<": lambda x, b: x < b, "<=": lambda x, b: x <= b, ">": lambda x, b: x > b,
    ">=": lambda x, b: x >= b, "!=": lambda x, b: x != b,
}
SIM_CAP = 256  # iterations of a non-additive step replayed before giving up


def signed(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


def additive_trips(cond: str, start: int, step: int, bound: int) -> Optional[int]:
    """Trips of ``for x = start; cond(x, bound); x += step`` over unbounded integers (None: never ends)."""
    holds = _HOLDS[cond]
    if not holds(start, bound):
        return 0
    if step == 0:
        return None
    gap = bound - start
    if cond == "!=":
        return gap // step if gap % step == 0 and (gap > 0) == (step > 0) else None
    if (cond in ("<", "<=")) != (step > 0):
        return None  # moving away from the bound
    span = abs(gap) + (1 if cond in ("<=", ">=") else 0)
    return -(-span // abs(step))


def wraps(step_op: str, cond: str, start: int, step: int, bound: int) -> Optional[bool]:
    """Does this activation's index leave the signed 64-bit range before the stream stops? (None: cannot tell)."""
    if cond not in _HOLDS:
        return None
    if step_op in ("+=", "-="):
        t = step if step_op == "+=" else -step
        n = additive_trips(cond, start, t, bound)
        if n is None:
            return t != 0  # runs on forever over the integers: the 64-bit index wraps (a zero step is an error)
        last = start + n * t  # the value computed (and compared) after the last trip
        return not INT_MIN <= last <= INT_MAX
    x: Optional[int] = start
    for _ in range(SIM_CAP):
        if not _HOLDS[cond](x, bound):
            return False
        x = _next(step_op, x, step)
        if x is None:
            return None
        if not INT_MIN <= x <= INT_MAX:
            return True
    return None


def _next(step_op: str, x: int, step: int) -> Optional[int]:
    """The next index of a non-additive stream over unbounded integers (None: not modelled here)."""
    if step_op == "*=":
        return x * step
    if step_op == "<<=" and 0 <= step < 64:
        return x << step
    if step_op == ">>=" and 0 <= step < 64:
        return x >> step
    if step_op == "/=" and step != 0:
        q = abs(x) // abs(step)
        return q if (x >= 0) == (step > 0) else -q
    return None


def source_loop(source: Optional[Operation], stream: Operation) -> Optional[Operation]:
    """The scf.for / scf.while of the source at the stream's location (what the stream was lowered from)."""
    if source is None or stream.loc is None or stream.loc.line <= 0:
        return None
    for op in source.walk():
        if op.name in ("scf.for", "scf.while") and op.loc is not None and (op.loc.line, op.loc.col) == (
            stream.loc.line, stream.loc.col
        ):
            return op
    return None


def _value_of(v: Value, args: dict[str, int], names: list[str]) -> Optional[int]:
    """A source operand's value when it is a function argument or an ``arith.constant`` (None otherwise)."""
    if isinstance(v, BlockArgument) and v.owner.parent_op is not None and v.owner.parent_op.name == "func.func":
        return args.get(names[v.index])
    op = getattr(v, "op", None)
    if op is not None and op.name == "arith.constant":
        a = op.attributes.get("value")
        return a.value if isinstance(a, IntegerAttr) else None
    return None


def classify(ob: Obligation, stream: Operation, step_op: str, cond: str,
             source: Optional[Operation]) -> Obligation:
    """A refuted ``fsm.stream.pre.*`` with what the replay shows: who misbehaves, or that nothing does."""
    cex = ob.counterexample or {}
    ops = cex.get("operands", {})
    try:
        start, step, bound = (signed(int(ops[k])) for k in ("start", "step", "bound"))
    except (KeyError, TypeError, ValueError):
        return ob
    zero = step_op in ("+=", "-=") and step == 0 and cond in _HOLDS and _HOLDS[cond](start, bound)
    w = wraps(step_op, cond, start, step, bound)
    if w is None:
        return ob
    if w is False and not zero:
        n = additive_trips(cond, start, step if step_op == "+=" else -step, bound) if step_op in ("+=", "-=") else None
        ends = f"after {n} trip(s)" if n is not None else "without wrapping"
        return dataclasses.replace(
            ob, status="unknown", counterexample=None,
            detail=f"{ob.detail.split(' -- ')[0]} -- but with these operands the activation ends {ends}: the "
                   "precondition is sufficient, not necessary, and no wrapping input was found")
    loop = source_loop(source, stream)
    finding = {"finding": "dfg", "wraps": not zero}
    note = ("the step is 0: the stream stops with RT_DATAFLOW_STREAM_ZERO_STEP" if zero else
            "the index wraps past the 64-bit range before the stream stops")
    if loop is not None:
        finding.update(finding="input", source_loop=str(loop.loc))
        note += f"; the source loop {loop.name} at {loop.loc} runs the same induction"
        if loop.name == "scf.for":
            names = function_arg_names(source)
            args = {k: signed(int(v)) for k, v in cex.get("arguments", {}).items() if _is_int(v)}
            lb, ub, st = (_value_of(v, args, names) for v in loop.operands[:3])
            unsigned = "unsignedCmp" in loop.attributes
            if st is not None and (st == 0 or (st < 0 and not unsigned)):
                note += (f" with step {st}, which scf.for leaves undefined (a step must be positive; the "
                         "interpreter stops with RT_SCF_FOR_STEP)")
            elif None not in (lb, ub, st) and wraps("+=", "<", lb, st, ub):
                note += f" and its induction variable wraps too (lb={lb}, ub={ub}, step={st})"
        note += ": a property of the input program, not a lowering bug -- say what inputs are legal with " \
                "--assume or {loom.range = [lo, hi]}"
    else:
        note += " (no source loop to compare: a finding about this DFG)"
    return dataclasses.replace(ob, counterexample={**cex, **finding},
                               detail=f"{ob.detail.split(' -- ')[0]} -- {note}")


def _is_int(v) -> bool:
    try:
        int(v)
        return True
    except (TypeError, ValueError):
        return False
