"""Divergence shown by a run that repeats a state: a while loop whose termination depends on loaded data.

A ranking function, a lasso over exact values or a closed recurrence set (``ranking``) decide a loop whose
condition is a function of the arguments. A loop that only stops when memory says so (``while (i < n) { if
(a[i] > 0) i++; }`` spins on a non-positive ``a[i]``) is left ``assumed`` by them. Here the SCF interpreter runs
the source on a fixed, small set of inputs the assumptions admit (sizes 4 and 1, fills 0, 1 and -1, integer
arguments at the size, 1 or 0), watching every ``scf.while``: a loop back in a state it was in -- the same
carried values and the same memory -- never ends, as the run is deterministic (``RT_SCF_WHILE_REPEATS``). Such a
run refutes ``len.W.terminates`` when the while loop is W's source loop (the same location) and the token
simulator, on the same inputs, runs the DFG to its step cap.

Everything here is deterministic: the inputs, their order, the interpreter's and the simulator's step caps.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Optional

from loom.ir.core import Module, Operation
from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType, NoneType
from loom.verify.inputs import describe, nested
from loom.verify.obligation import Obligation, VerifyContext

SIZES = (4, 1)  # each dynamic dimension
FILLS = (0, 1, -1)  # every element of every memref
RUN_STEPS = 20_000  # operations of the SCF interpreter per tried input
SIM_STEPS = 20_000  # firings of the token simulator replaying the DFG on the inputs found
REPEATS = "RT_SCF_WHILE_REPEATS"


def candidate_inputs(func: Operation, ctx: VerifyContext) -> Iterator[dict]:
    """``loom sim`` inputs for ``func`` that satisfy every assumption, in a fixed order."""
    from loom.runtime import function_arg_names
    from loom.verify.assume import admits

    names = function_arg_names(func)
    types = [a.type for a in func.regions[0].entry.args]
    seen: list[dict] = []
    for size in SIZES:
        for fill in FILLS:
            for scalar in (size, 1, 0):
                inputs: dict[str, Any] = {}
                scalars: dict[str, int] = {}
                shapes: dict[str, list[int]] = {}
                elements: dict[str, list[int]] = {}
                for n, t in zip(names, types):
                    if isinstance(t, NoneType):
                        continue
                    if isinstance(t, MemRefType):
                        shape = [s if s is not None else size for s in t.shape]
                        value: Any = float(fill) if isinstance(t.element, FloatType) else _int_fill(fill, t.element)
                        inputs[n] = nested(shape, value)
                        shapes[n] = shape
                        if not isinstance(t.element, FloatType):
                            elements[n] = [value] if all(shape) else []
                    elif isinstance(t, (IntegerType, IndexType)):
                        v = scalar & 1 if isinstance(t, IntegerType) and t.width == 1 else scalar
                        inputs[n] = scalars[n] = v
                    elif isinstance(t, FloatType):
                        inputs[n] = float(scalar)
                    else:
                        return  # an argument type there is no input for
                if inputs in seen or not admits(ctx.assumptions, scalars, shapes, elements):
                    continue
                seen.append(inputs)
                yield inputs


def _int_fill(fill: int, t) -> int:
    return fill & 1 if isinstance(t, IntegerType) and t.width == 1 else fill


def repeating_run(source: Operation, ctx: VerifyContext, loc) -> Optional[tuple[dict, str]]:
    """Inputs on which the source's while loop at ``loc`` repeats a state, and the interpreter's message."""
    from loom.diagnostics import LoomError
    from loom.interp import run_json

    parent = source.parent_op
    if parent is None:
        return None
    name = source.attributes["sym_name"].value
    for inputs in candidate_inputs(source, ctx):
        try:
            res = run_json(Module(parent), name, inputs, max_steps=RUN_STEPS, watch_loops=True)
        except LoomError:
            return None
        err = res.error
        if err is not None and err.code == REPEATS and err.loc is not None and \
                (err.loc.line, err.loc.col) == (loc.line, loc.col):
            return inputs, err.message
    return None


def refute_by_repeat(ob: Obligation, func: Operation, source: Operation, ctx: VerifyContext) -> Obligation:
    """An ``assumed`` ``len.W.terminates`` refuted by a run of the source that repeats W's state, replayed in
    the token simulator to its step cap; any other obligation as it is."""
    from loom.diagnostics import LoomError
    from loom.sim import simulate

    if ob.status != "assumed" or not ob.id.endswith(".terminates") or ob.loc is None or ob.loc.line <= 0:
        return ob
    found = repeating_run(source, ctx, ob.loc)
    if found is None:
        return ob
    inputs, message = found
    try:
        res = simulate(func, inputs, max_steps=SIM_STEPS)
    except LoomError:
        return ob
    code = res.error.code if res.error is not None else None
    if code != "RT_SIM_STEP_LIMIT":
        return ob  # the DFG ends (or fails) where the source spins: not this obligation's finding
    loop = ob.id.split(".")[1]
    detail = (f"while loop {loop} never ends: on inputs {describe(inputs)} the SCF interpreter stops with {REPEATS} "
              f"({message}) -- a deterministic run back in a state it was in; the token simulator on the same "
              f"inputs stops at its cap of {SIM_STEPS} firings (RT_SIM_STEP_LIMIT) with the loop still running")
    cex = {"inputs": inputs, "trip_counts": {loop: "never ends"},
           "source_replay": {"inputs": inputs, "status": "error", "code": REPEATS, "message": message},
           "replay": {"inputs": inputs, "status": res.status, "code": code, "steps": res.steps}}
    return dataclasses.replace(ob, status="refuted", detail=detail, counterexample=cex, method="simulation",
                               rule="a run repeats a state of the loop", nature="behaviour", assumes=())
