"""Interpreter handlers for memref ops: load/store with bounds checks, allocation, views, globals.

Views alias their root buffer (``loom.runtime.memory``). ``alloc``/``alloca``
give zero-initialised memory (MLIR leaves it undefined; zero keeps runs
deterministic and matches the DFG simulator).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from loom.diagnostics import LoomError, SimulationError
from loom.interp.compiler import UNSUPPORTED_OP, Exec, FunctionCompiler, handler
from loom.dialects.memref import DYNAMIC, reassociation, static_list
from loom.ir.attributes import ArrayAttr, SymbolRefAttr
from loom.ir.core import Operation
from loom.ir.location import Location
from loom.ir.types import MemRefType
from loom.runtime.io import global_view
from loom.runtime.memory import BAD_VIEW, MemRefView
from loom.semantics.scalar import to_signed

CAST_MISMATCH = "RT_MEMREF_CAST_MISMATCH"
ALLOC_LIMIT = "RT_ALLOC_LIMIT"
MAX_ALLOC = 1 << 28  # elements one allocation may hold: more is no run loom can hold (C's malloc returns NULL)


def _memref_type(op: Operation, t: Any) -> MemRefType:
    if not isinstance(t, MemRefType):
        raise LoomError(f"{op.name}: expected a memref type, got {t}", op.loc, UNSUPPORTED_OP)
    return t


@handler("memref.load")
def compile_load(op: Operation, c: FunctionCompiler) -> Exec:
    m, *idx = c.operand_slots(op)
    (r,) = c.result_slots(op)
    loc = op.loc
    if len(idx) == 1:
        i = idx[0]

        def run1(frame: list) -> None:
            frame[r] = frame[m].load((frame[i],), "memref.load", loc)
        return run1

    def run(frame: list) -> None:
        frame[r] = frame[m].load([frame[s] for s in idx], "memref.load", loc)
    return run


@handler("memref.store")
def compile_store(op: Operation, c: FunctionCompiler) -> Exec:
    v, m, *idx = c.operand_slots(op)
    loc = op.loc
    if len(idx) == 1:
        i = idx[0]

        def run1(frame: list) -> None:
            frame[m].store(frame[v], (frame[i],), "memref.store", loc)
        return run1

    def run(frame: list) -> None:
        frame[m].store(frame[v], [frame[s] for s in idx], "memref.store", loc)
    return run


def _sizes_checked(values: Sequence[int], what: str, loc: Location) -> list[int]:
    out = [to_signed(v, 64) for v in values]
    if any(s < 0 for s in out):
        raise SimulationError(f"{what}: negative size in {out}", loc, BAD_VIEW)
    return out


@handler("memref.alloc", "memref.alloca")
def compile_alloc(op: Operation, c: FunctionCompiler) -> Exec:
    t = _memref_type(op, op.results[0].type)
    dyn = c.operand_slots(op)
    n_dyn = sum(1 for s in t.shape if s is None)
    if len(dyn) < n_dyn:
        raise LoomError(f"{op.name}: {n_dyn} dynamic sizes expected, {len(dyn)} given", op.loc, UNSUPPORTED_OP)
    (r,) = c.result_slots(op)
    name = op.results[0].name_hint or op.name
    elem, shape, loc = t.element, t.shape, op.loc

    def run(frame: list) -> None:
        given = iter(_sizes_checked([frame[s] for s in dyn[:n_dyn]], op.name, loc))
        sizes = [next(given) if s is None else s for s in shape]
        count = 1
        for s in sizes:
            count *= s
        if count > MAX_ALLOC:  # a replay's witness may ask for 2^32 elements: an error, never a MemoryError
            raise SimulationError(f"{op.name}: {count} elements ({'x'.join(map(str, sizes))}) are more than the "
                                  f"interpreter holds (2^28)", loc, ALLOC_LIMIT)
        frame[r] = MemRefView.allocate(elem, sizes, name)
    return run


@handler("memref.dealloc", "memref.assume_alignment")
def compile_noop(op: Operation, c: FunctionCompiler) -> Exec:
    ins, outs = c.operand_slots(op), c.result_slots(op)
    if outs:  # newer assume_alignment returns its operand
        a, r = ins[0], outs[0]

        def alias(frame: list) -> None:
            frame[r] = frame[a]
        return alias
    return lambda frame: None


def _check_static_shape(view: MemRefView, t: MemRefType, what: str, loc: Location) -> None:
    if len(t.shape) != view.rank or any(s is not None and s != d for s, d in zip(t.shape, view.sizes)):
        raise SimulationError(f"{what}: a memref of shape {list(view.sizes)} does not fit {t}", loc, CAST_MISMATCH)


@handler("memref.cast")
def compile_cast(op: Operation, c: FunctionCompiler) -> Exec:
    (src,) = c.operand_slots(op)
    (r,) = c.result_slots(op)
    t = _memref_type(op, op.results[0].type)
    loc = op.loc

    def run(frame: list) -> None:
        v = frame[src]
        _check_static_shape(v, t, "memref.cast", loc)
        frame[r] = v
    return run


def _static_list(op: Operation, name: str) -> list[int]:
    got = static_list(op, name)
    if got is None:
        raise LoomError(f"{op.name}: missing '{name}' attribute", op.loc, UNSUPPORTED_OP)
    return got


class _Mixed:
    """Offsets/sizes/strides given as static values with kDynamic holes filled from operands."""

    def __init__(self, statics: list[int], first_operand: int) -> None:
        self.statics = statics
        self.holes = [i for i, v in enumerate(statics) if v == DYNAMIC]
        self.first = first_operand
        self.end = first_operand + len(self.holes)

    def values(self, frame: list, slots: list[int]) -> list[int]:
        out = list(self.statics)
        for k, i in enumerate(self.holes):
            out[i] = to_signed(frame[slots[self.first + k]], 64)
        return out


def _view_operands(op: Operation, c: FunctionCompiler) -> tuple[list[int], _Mixed, _Mixed, _Mixed]:
    slots = c.operand_slots(op)
    offs = _Mixed(_static_list(op, "static_offsets"), 1)
    sizes = _Mixed(_static_list(op, "static_sizes"), offs.end)
    strides = _Mixed(_static_list(op, "static_strides"), sizes.end)
    if strides.end != len(slots):
        raise LoomError(f"{op.name}: {len(slots) - 1} dynamic operands for "
                        f"{strides.end - 1} dynamic offsets/sizes/strides", op.loc, UNSUPPORTED_OP)
    return slots, offs, sizes, strides


@handler("memref.subview")
def compile_subview(op: Operation, c: FunctionCompiler) -> Exec:
    slots, offs, sizes, strides = _view_operands(op, c)
    (r,) = c.result_slots(op)
    rank = _memref_type(op, op.results[0].type).rank
    loc = op.loc

    def run(frame: list) -> None:
        src: MemRefView = frame[slots[0]]
        frame[r] = src.subview(offs.values(frame, slots), sizes.values(frame, slots), strides.values(frame, slots),
                               rank, "memref.subview", loc)
    return run


@handler("memref.reinterpret_cast")
def compile_reinterpret_cast(op: Operation, c: FunctionCompiler) -> Exec:
    slots, offs, sizes, strides = _view_operands(op, c)
    (r,) = c.result_slots(op)
    loc = op.loc

    def run(frame: list) -> None:
        src: MemRefView = frame[slots[0]]
        (offset,) = offs.values(frame, slots) or [0]
        frame[r] = src.reinterpret(offset, sizes.values(frame, slots), strides.values(frame, slots),
                                   "memref.reinterpret_cast", loc)
    return run


def _reassociation(op: Operation) -> list[list[int]]:
    groups = reassociation(op)
    if groups is None:
        what = "malformed" if isinstance(op.attributes.get("reassociation"), ArrayAttr) else "missing"
        raise LoomError(f"{op.name}: {what} 'reassociation' attribute", op.loc, UNSUPPORTED_OP)
    return groups


@handler("memref.collapse_shape")
def compile_collapse(op: Operation, c: FunctionCompiler) -> Exec:
    (src,) = c.operand_slots(op)
    (r,) = c.result_slots(op)
    groups = _reassociation(op)
    loc = op.loc

    def run(frame: list) -> None:
        frame[r] = frame[src].collapse(groups, "memref.collapse_shape", loc)
    return run


@handler("memref.expand_shape")
def compile_expand(op: Operation, c: FunctionCompiler) -> Exec:
    src, *dyn = c.operand_slots(op)
    (r,) = c.result_slots(op)
    groups = _reassociation(op)
    t = _memref_type(op, op.results[0].type)
    loc = op.loc
    static: Optional[list[int]] = None
    if "static_output_shape" in op.attributes:
        static = _static_list(op, "static_output_shape")
    else:
        static = [DYNAMIC if s is None else s for s in t.shape]
        dyn = []  # old form: dynamic output sizes are inferred from the source
    holes = [i for i, v in enumerate(static) if v == DYNAMIC]
    infer = len(dyn) < len(holes)

    def run(frame: list) -> None:
        view: MemRefView = frame[src]
        out = list(static)
        if not infer:
            for k, i in enumerate(holes):
                out[i] = to_signed(frame[dyn[k]], 64)
        else:  # one unknown per group: source size / product of the known sizes
            for g_src, g in enumerate(groups):
                known = 1
                unknown = [d for d in g if out[d] == DYNAMIC]
                for d in g:
                    if out[d] != DYNAMIC:
                        known *= out[d]
                if len(unknown) > 1 or (unknown and known == 0):
                    raise SimulationError("memref.expand_shape: cannot infer the output shape", loc, BAD_VIEW)
                if unknown:
                    out[unknown[0]] = view.sizes[g_src] // known
        frame[r] = view.expand(groups, out, "memref.expand_shape", loc)
    return run


@handler("memref.get_global")
def compile_get_global(op: Operation, c: FunctionCompiler) -> Exec:
    ref = op.attributes.get("name")
    if not isinstance(ref, SymbolRefAttr):
        raise LoomError("memref.get_global without a 'name' symbol", op.loc, UNSUPPORTED_OP)
    name = ref.root
    (r,) = c.result_slots(op)
    state = c.state
    t = _memref_type(op, op.results[0].type)
    loc = op.loc

    def run(frame: list) -> None:
        view = state.globals.get(name)
        if view is None:
            view = global_view(state.module, name, state.inputs, state.filename, loc)
            _check_static_shape(view, t, "memref.get_global", loc)
            state.globals[name] = view
        frame[r] = view
    return run


@handler("memref.dim")
def compile_dim(op: Operation, c: FunctionCompiler) -> Exec:
    m, i = c.operand_slots(op)
    (r,) = c.result_slots(op)
    loc = op.loc

    def run(frame: list) -> None:
        frame[r] = frame[m].dim(to_signed(frame[i], 64), "memref.dim", loc)
    return run


@handler("memref.rank")
def compile_rank(op: Operation, c: FunctionCompiler) -> Exec:
    (m,) = c.operand_slots(op)
    (r,) = c.result_slots(op)

    def run(frame: list) -> None:
        frame[r] = frame[m].rank
    return run


@handler("memref.copy")
def compile_copy(op: Operation, c: FunctionCompiler) -> Exec:
    s, d = c.operand_slots(op)
    loc = op.loc

    def run(frame: list) -> None:
        src: MemRefView = frame[s]
        dst: MemRefView = frame[d]
        if src.sizes != dst.sizes:
            raise SimulationError(f"memref.copy: shapes {list(src.sizes)} and {list(dst.sizes)} differ", loc,
                                  CAST_MISMATCH)
        values = src.to_flat()
        if dst.buffer.readonly:
            raise SimulationError("memref.copy: write to a constant memref", loc, "RT_MEMREF_STORE_TO_CONSTANT")
        for p, v in zip(dst.positions(), values):
            dst.buffer.data[p] = v
    return run
