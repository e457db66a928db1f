"""Confirm a refinement counterexample by running both programs.

A failed refinement query shows a *generic-iteration* state where the DFG and
the source differ; the state may be unreachable (the inferred loop relation is
only as strong as Houdini could make it). Before calling the obligation
refuted, the argument values of the witness (scalars, memref sizes) are turned
into concrete inputs -- as given, and clamped to small values -- and the source
runs in the SCF interpreter while the DFG runs in the token simulator. Only a
difference there (results, memory, an error, a deadlock, a residual token)
makes the verdict "refuted"; otherwise it is "unknown".
"""

from __future__ import annotations

from typing import Any, Optional

from loom.diagnostics import LoomError
from loom.ir.core import Module, Operation
from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType, Type
from loom.runtime import function_arg_names

MAX_STEPS = 200_000
MAX_DIM = 6


def _element(t: Type, k: int) -> Any:
    if isinstance(t, FloatType):
        return 0.75 * k - 0.5  # never 0.0 for an integer k: a product with it shows
    if isinstance(t, IntegerType) and t.width == 1:
        return k % 2
    return (k * 7 + 3) % 11 - 5


def _memref(t: MemRefType, sizes: list[int]) -> Any:
    count = [0]

    def build(d: int) -> Any:
        if d == len(sizes):
            count[0] += 1
            return _element(t.element, count[0])
        return [build(d + 1) for _ in range(sizes[d])]

    return build(0)


# float arguments (the witness gives none: floats are uninterpreted there): all equal, then distinct and
# ascending, then descending in argument order, so a changed comparison or operand order shows (and inexact
# in every float type, a fraction of .1 or .9: a changed rounding shows too)
FLOAT_PICKS = (lambda k: 1.5, lambda k: round(-2.1 + 3 * k, 6), lambda k: round(2.1 - 3 * k, 6))


def input_variants(source: Operation, arguments: dict) -> list[dict]:
    """Inputs for ``source`` from a witness's ``arguments`` (``name`` / ``name.dimK``): scalars as given
    and clamped to small values, memref sizes as given (clamped) and at the largest size tried, float
    arguments by ``FLOAT_PICKS``."""
    names = function_arg_names(source)
    types = [a.type for a in source.regions[0].entry.args]
    out = []
    picks = FLOAT_PICKS if any(isinstance(t, FloatType) for t in types) else FLOAT_PICKS[:1]
    for pick in picks:
        for clamp in (False, True):
            for full in (False, True):
                v: dict[str, Any] = {}
                for k_arg, (n, t) in enumerate(zip(names, types)):
                    if isinstance(t, MemRefType):
                        sizes = []
                        for k, s in enumerate(t.shape):
                            got = MAX_DIM if full else arguments.get(f"{n}.dim{k}", 3)
                            sizes.append(max(0, min(int(got), MAX_DIM)) if s is None else s)
                        v[n] = _memref(t, sizes)
                    elif isinstance(t, (IntegerType, IndexType)):
                        x = int(arguments.get(n, 2))
                        if isinstance(t, IntegerType) and t.width == 1:
                            x &= 1
                        v[n] = max(-MAX_DIM, min(x, MAX_DIM)) if clamp else x
                    elif isinstance(t, FloatType):
                        v[n] = pick(k_arg)
                    else:
                        v[n] = None
                if v not in out:
                    out.append(v)
    return out


def replay(source: Operation, dfg: Operation, arguments: dict) -> Optional[dict]:
    """The first input on which the DFG's run differs from the source's, with both outcomes (None: none)."""
    from loom.interp import run_json
    from loom.sim import simulate
    from loom.runtime.compare import same_value

    parent = source.parent_op
    if parent is None:
        return None
    module = Module(parent)
    fname = source.attributes["sym_name"].value
    for inputs in input_variants(source, arguments):
        try:
            ref = run_json(module, fname, inputs, max_steps=MAX_STEPS)
        except LoomError:
            continue
        if ref.status != "completed":
            continue  # the source itself fails here: nothing to compare
        try:
            got = simulate(dfg, inputs, max_steps=MAX_STEPS * 4)
        except LoomError as e:
            return {"inputs": inputs, "why": f"the DFG cannot run them: {e.message}"}
        why = None
        if got.status != "completed":
            why = f"the DFG {got.status}s" + (f" ({got.error.message})" if got.error is not None else "")
        elif got.residual_tokens:
            why = f"the DFG leaves {got.residual_tokens} residual token(s)"
        elif len(got.results) != len(ref.results) or not all(
                same_value(a, b) for a, b in zip(ref.results, got.results)):
            why = f"the DFG returns {got.results}, the source {ref.results}"
        else:
            for k, view in ref.memrefs.items():
                want, have = view.to_flat(), got.memrefs.get(k)
                if have is None or len(have) != len(want) or not all(same_value(a, b) for a, b in zip(want, have)):
                    why = f"memref {k} ends as {have}, the source leaves {want}"
                    break
        if why is not None:
            return {"inputs": inputs, "why": why}
    return None


def source_error(source: Operation, arguments: dict) -> Optional[LoomError]:
    """The runtime error the source stops with on a witness's ``arguments`` taken as given (memref sizes as
    the witness names them), or None when it runs without one. A DFG counterexample on which the source fails
    too is about the input program (its precondition), not the lowering."""
    from loom.interp import run_json

    parent = source.parent_op
    if parent is None:
        return None
    fname = source.attributes["sym_name"].value
    inputs = input_variants(source, arguments)[0]
    try:
        ref = run_json(Module(parent), fname, inputs, max_steps=MAX_STEPS)
    except LoomError:
        return None  # the witness does not make inputs the source takes: nothing to say
    if ref.status != "error" or ref.error is None or ref.error.code == "RT_STEP_LIMIT":
        return None
    return ref.error

