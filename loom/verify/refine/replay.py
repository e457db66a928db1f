"""Confirm a refinement counterexample by running both programs.

A failed refinement query shows a *generic-iteration* state where the DFG and
the source differ; the state may be unreachable (the inferred loop relation is
only as strong as Houdini could make it). Before calling the obligation
refuted, the witness is turned into concrete inputs -- its argument values as
given and clamped to small values; its memref sizes, grown so every address the
witness reads or writes fits (a witness may leave a size at 0, and on empty
buffers both programs stop alike); and the buffer contents its loads read (the
value of each load symbol the query mentions, placed at the load's address,
or filling the buffer), then default contents -- and the source runs in the
SCF interpreter while the DFG runs in the token simulator, variant after
variant. Only a difference there (results, memory, an error, a deadlock, a
residual token) makes the verdict "refuted"; otherwise it is "unknown".
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


def _memref(t: MemRefType, sizes: list[int], cells: Optional[list[dict]] = None, fill: bool = False) -> Any:
    """A nested list of ``sizes`` with the default elements; with ``cells``, the witness's values placed at
    their addresses (``fill``: every element the first cell's value)."""
    total = 1
    for x in sizes:
        total *= x
    flat = [_element(t.element, k + 1) for k in range(total)]
    valued = [c for c in (cells or []) if c.get("value") is not None]
    if fill and valued:
        flat = [_cell(t, valued[0]["value"])] * total
    else:
        for c in valued:
            if c["address"] < total:
                flat[c["address"]] = _cell(t, c["value"])
    at = [0]

    def build(d: int) -> Any:
        if d == len(sizes):
            at[0] += 1
            return flat[at[0] - 1]
        return [build(d + 1) for _ in range(sizes[d])]

    return build(0)


def _cell(t: MemRefType, value: int) -> Any:
    """A witness value as an element of ``t`` (an i1 is 0/1)."""
    if isinstance(t.element, IntegerType) and t.element.width == 1:
        return value & 1
    return value


# float arguments (the witness gives none: floats are uninterpreted there): all equal, then distinct and
# ascending, then descending in argument order, so a changed comparison or operand order shows (and inexact
# in every float type, a fraction of .1 or .9: a changed rounding shows too)
FLOAT_PICKS = (lambda k: 1.5, lambda k: round(-2.1 + 3 * k, 6), lambda k: round(2.1 - 3 * k, 6))


def input_variants(source: Operation, arguments: dict, memory: Optional[dict] = None) -> list[dict]:
    """Inputs for ``source`` from a witness's ``arguments`` (``name`` / ``name.dimK``) and ``memory`` (per
    memref argument, the cells the witness reads, ``{"address", "value"}``, and writes, ``{"address"}``):
    scalars as given and clamped to small values; memref sizes as given (clamped) and at the largest size
    tried, and never too small for a witness address (a witness may leave a size at 0: both programs would
    then stop alike on the empty buffer); contents first with the witness's values at its addresses, then
    every element the witness's value, then the default fill (``_element``); float arguments by
    ``FLOAT_PICKS``. The first variants are the witness's own."""
    names = function_arg_names(source)
    types = [a.type for a in source.regions[0].entry.args]
    memory = memory or {}
    out = []
    picks = FLOAT_PICKS if any(isinstance(t, FloatType) for t in types) else FLOAT_PICKS[:1]
    fills = [f for f in ("place", "fill") if any(c.get("value") is not None for cells in memory.values()
                                                  for c in cells)] + ["default"]
    for pick in picks:
        for clamp in (False, True):
            for full in (False, True):
                for fill in fills:
                    v: dict[str, Any] = {}
                    for k_arg, (n, t) in enumerate(zip(names, types)):
                        if isinstance(t, MemRefType):
                            cells = memory.get(n, [])
                            sizes = []
                            for k, s in enumerate(t.shape):
                                got = MAX_DIM if full else arguments.get(f"{n}.dim{k}", 3)
                                sizes.append(max(0, min(int(got), MAX_DIM)) if s is None else s)
                            sizes = _covering(t, sizes, cells)
                            v[n] = _memref(t, sizes, cells if fill != "default" else [], fill == "fill")
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


MAX_CELLS = 1024  # elements a replay's buffer is grown to, at most, to hold a witness address


def _covering(t: MemRefType, sizes: list[int], cells: list[dict]) -> list[int]:
    """``sizes`` with the first dynamic dimension grown (every dynamic one at least 1) so the buffer holds every
    witness address (a row-major linear offset); unchanged when no address needs it or one is too large."""
    need = max((c["address"] + 1 for c in cells), default=0)
    if need == 0 or need > MAX_CELLS:
        return sizes
    dyn = [k for k, s in enumerate(t.shape) if s is None]
    if not dyn:
        return sizes
    out = [max(1, x) if k in dyn else x for k, x in enumerate(sizes)]
    rest = 1
    for k, x in enumerate(out):
        if k != dyn[0]:
            rest *= x
    if rest == 0:
        return sizes
    out[dyn[0]] = max(out[dyn[0]], -(-need // rest))
    return out


def replay(source: Operation, dfg: Operation, arguments: dict, memory: Optional[dict] = None) -> Optional[dict]:
    """The first input (``input_variants``) on which the DFG's run differs from the source's, with both
    outcomes (None: none)."""
    from loom.interp import run_json
    from loom.sim import simulate
    from loom.runtime.compare import same_value

    parent = source.parent_op
    if parent is None:
        return None
    module = Module(parent)
    fname = source.attributes["sym_name"].value
    for inputs in input_variants(source, arguments, memory):
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

