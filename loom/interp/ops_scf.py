"""Interpreter handlers for scf.for / scf.while / scf.if / scf.execute_region / scf.index_switch.

``scf.for`` runs over the half-open range [lb, ub) (signed, or unsigned with
``unsignedCmp``) in steps of ``step``: the IV takes lb, lb+step, ... while
below ub. For a 64-bit IV (index, i64) the increment wraps modulo 2^64, as in
MLIR's scf-to-cf lowering and in ``dataflow.stream`` (specs/semantics.md): an
increment past the type's maximum gives a small IV that is again below ub, and
the loop goes on. Narrower IVs are lowered to 64-bit streams, where their
increments cannot wrap, so there the IV never passes the maximum either: the
loop ends (trip count = ceildiv(ub - lb, step)). A step that is not positive
(signed) or zero (unsigned) raises ``RT_SCF_FOR_STEP``: MLIR leaves it
undefined and it would never terminate.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from loom.diagnostics import SimulationError
from loom.interp.compiler import Exec, FunctionCompiler, handler
from loom.ir.attributes import DenseArrayAttr
from loom.ir.core import Operation
from loom.runtime.memory import MemRefView
from loom.semantics.scalar import to_signed, width_of

FOR_STEP = "RT_SCF_FOR_STEP"
WHILE_REPEATS = "RT_SCF_WHILE_REPEATS"


def _assign(frame: list, slots: list[int], values: list) -> None:
    for s, v in zip(slots, values):
        frame[s] = v


def _wrapping(lb: int, ub: int, step: int, unsigned: bool) -> Iterator[int]:
    """The IVs of a 64-bit loop whose increment passes the maximum: it wraps and the loop goes on."""
    iv = lb
    while iv < ub:
        yield iv
        iv = (iv + step) & ((1 << 64) - 1)
        if not unsigned:
            iv = to_signed(iv, 64)


@handler("scf.for")
def compile_for(op: Operation, c: FunctionCompiler) -> Exec:
    lb_s, ub_s, step_s, *init_slots = c.operand_slots(op)
    body = c.region_block(op, 0, ("scf.yield",))
    assert body is not None
    iv_slot, *iter_slots = body.arg_slots
    yield_slots = body.term_slots
    out_slots = c.result_slots(op)
    w = width_of(op.operands[0].type)
    m = (1 << w) - 1
    unsigned = "unsignedCmp" in op.attributes
    run_body = body.run
    loc = op.loc

    top = (1 << w) - 1 if unsigned else (1 << (w - 1)) - 1

    def trip_range(frame: list) -> Iterable[int]:
        lb, ub, step = frame[lb_s], frame[ub_s], frame[step_s]
        if unsigned:
            if step == 0:
                raise SimulationError("scf.for step is 0", loc, FOR_STEP)
            r = range(lb, ub, step)
        else:
            step = to_signed(step, w)
            if step <= 0:
                raise SimulationError(f"scf.for step must be positive, got {step}", loc, FOR_STEP)
            r = range(to_signed(lb, w), to_signed(ub, w), step)
        if w == 64 and r and r[-1] + step > top:
            return _wrapping(r.start, r.stop, step, unsigned)
        return r

    if not init_slots:  # the common loop without iter_args: no list copies
        def run_plain(frame: list) -> None:
            for iv in trip_range(frame):
                frame[iv_slot] = iv & m
                run_body(frame)
        return run_plain

    def run(frame: list) -> None:
        iters = [frame[s] for s in init_slots]
        for iv in trip_range(frame):
            frame[iv_slot] = iv & m
            for s, v in zip(iter_slots, iters):
                frame[s] = v
            run_body(frame)
            iters = [frame[s] for s in yield_slots]
        _assign(frame, out_slots, iters)
    return run


def _repeats(seen: dict, values: list, frame: list, state, loc) -> None:
    """Stop when this activation of a while loop is back in a state it was in: the same carried values and the
    same contents of every buffer the function can reach (its frame's memrefs and the globals). Every other
    value the loop reads is defined before it and fixed while it runs, and the run is deterministic: a state
    that repeats repeats forever, so the run never ends."""
    buffers = {}
    for v in (*frame, *state.globals.values()):
        if isinstance(v, MemRefView):
            buffers.setdefault(id(v.buffer), v.buffer)
    try:
        key = (tuple(values), tuple((k, tuple(b.data)) for k, b in sorted(buffers.items())))
        hash(key)
    except TypeError:  # a value that cannot be compared as a whole: no verdict from this iteration
        return
    first = seen.get(key)
    if first is not None:
        raise SimulationError(f"scf.while: the loop's state at iteration {len(seen)} repeats its state at "
                              f"iteration {first} (carried values {_show(values)}, memory unchanged): it never "
                              "ends", loc, WHILE_REPEATS)
    seen[key] = len(seen)


def _show(values: list) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


@handler("scf.while")
def compile_while(op: Operation, c: FunctionCompiler) -> Exec:
    init_slots = c.operand_slots(op)
    before = c.region_block(op, 0, ("scf.condition",))
    after = c.region_block(op, 1, ("scf.yield",))
    assert before is not None and after is not None
    cond_slot, *carry_slots = before.term_slots
    out_slots = c.result_slots(op)
    b_args, b_run = before.arg_slots, before.run
    a_args, a_run, a_yield = after.arg_slots, after.run, after.term_slots

    watch = c.state.watch_loops
    state = c.state
    loc = op.loc

    def run(frame: list) -> None:
        values = [frame[s] for s in init_slots]
        seen: dict = {}
        while True:
            if watch:
                _repeats(seen, values, frame, state, loc)
            _assign(frame, b_args, values)
            b_run(frame)
            values = [frame[s] for s in carry_slots]
            if not frame[cond_slot]:
                break
            _assign(frame, a_args, values)
            a_run(frame)
            values = [frame[s] for s in a_yield]
        _assign(frame, out_slots, values)
    return run


@handler("scf.if")
def compile_if(op: Operation, c: FunctionCompiler) -> Exec:
    (cond_slot,) = c.operand_slots(op)
    then = c.region_block(op, 0, ("scf.yield",))
    other = c.region_block(op, 1, ("scf.yield",), optional=True)
    assert then is not None
    out_slots = c.result_slots(op)
    t_run, t_yield = then.run, then.term_slots
    if other is None:
        def run_then_only(frame: list) -> None:
            if frame[cond_slot]:
                t_run(frame)
        return run_then_only
    e_run, e_yield = other.run, other.term_slots
    if not out_slots:
        def run_no_results(frame: list) -> None:
            if frame[cond_slot]:
                t_run(frame)
            else:
                e_run(frame)
        return run_no_results

    def run(frame: list) -> None:
        if frame[cond_slot]:
            t_run(frame)
            _assign(frame, out_slots, [frame[s] for s in t_yield])
        else:
            e_run(frame)
            _assign(frame, out_slots, [frame[s] for s in e_yield])
    return run


@handler("scf.execute_region")
def compile_execute_region(op: Operation, c: FunctionCompiler) -> Exec:
    if op.regions and len(op.regions[0].blocks) > 1:  # a CFG of cf branches ending in scf.yield
        from loom.interp.cfg import compile_cfg  # cfg imports the compiler this module registers with

        body = compile_cfg(op.regions[0], c, "scf.yield")
    else:
        body = c.region_block(op, 0, ("scf.yield",))
    assert body is not None
    out_slots = c.result_slots(op)

    def run(frame: list) -> None:
        body.run(frame)
        _assign(frame, out_slots, [frame[s] for s in body.term_slots])
    return run


@handler("scf.index_switch")
def compile_index_switch(op: Operation, c: FunctionCompiler) -> Exec:
    (arg_slot,) = c.operand_slots(op)
    cases_attr = op.attributes.get("cases")
    cases = [int(v) for v in cases_attr.values] if isinstance(cases_attr, DenseArrayAttr) else []
    default = c.region_block(op, 0, ("scf.yield",))
    blocks = [c.region_block(op, i + 1, ("scf.yield",)) for i in range(len(cases))]
    table = {k: b for k, b in zip(cases, blocks)}
    out_slots = c.result_slots(op)

    def run(frame: list) -> None:
        b = table.get(to_signed(frame[arg_slot], 64), default)
        assert b is not None
        b.run(frame)
        _assign(frame, out_slots, [frame[s] for s in b.term_slots])
    return run
