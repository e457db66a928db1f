"""Expand ``memref.copy`` into an scf.for nest of loads and stores before lowering.

``memref.copy %src, %dst`` (what bufferized torch-mlir / linalg code uses to
fill an output argument) copies every element in row-major order; the nest
``for i0 in [0, d0) ... store(load(src[i..]), dst[i..])`` does the same, with
sizes from the static shape or ``memref.dim`` of the source. The copy is made in
a fresh function (the source is not changed); the interpreter's copy checks
shapes at run time, the loops read the source's sizes (equal shapes are the
op's precondition). The outermost loop carries ``loom.copy`` (``COPY_MARK``), so
the safety check can still state that precondition at the copy's location.
"""

from __future__ import annotations

from loom.ir.attributes import IntegerAttr, UnitAttr
from loom.ir.core import Block, Operation, Region, Value
from loom.ir.types import MemRefType, index
from loom.lower.clone import clone_op
from loom.lower.memrefs import unsupported


COPY_MARK = "loom.copy"  # on the outermost loop of an expanded copy: its load reads the source, its store the target


def expand_copies(func: Operation) -> Operation:
    """``func`` itself without copies, else a copy of it in which every memref.copy is a loop nest."""
    if not any(op.name == "memref.copy" for op in func.walk()):
        return func
    new = clone_op(func, {})
    for op in [o for o in new.walk() if o.name == "memref.copy"]:
        _expand(op)
    return new


def _const(block: Block, at: int, value: int, loc) -> tuple[Value, int]:
    c = Operation.create("arith.constant", [], [index], {"value": IntegerAttr(value, index)}, loc=loc)
    block.insert(at, c)
    return c.results[0], at + 1


def _expand(copy: Operation) -> None:
    src, dst = copy.operands
    st, dt = src.type, dst.type
    if not isinstance(st, MemRefType) or not isinstance(dt, MemRefType) or st.rank == 0:
        raise unsupported("memref.copy of rank-0 memrefs is not supported", copy.loc)
    block = copy.parent
    assert block is not None
    at = block.ops.index(copy)
    loc = copy.loc
    zero, at = _const(block, at, 0, loc)
    one, at = _const(block, at, 1, loc)
    sizes: list[Value] = []
    for k, s in enumerate(st.shape):
        if s is not None:
            v, at = _const(block, at, s, loc)
        else:
            kv, at = _const(block, at, k, loc)
            d = Operation.create("memref.dim", [src, kv], [index], loc=loc)
            block.insert(at, d)
            at += 1
            v = d.results[0]
        sizes.append(v)
    block.remove(copy)
    ivs: list[Value] = []
    target, pos = block, at
    for k, size in enumerate(sizes):
        body = Block.create([index])
        loop = Operation.create("scf.for", [zero, size, one], [], {COPY_MARK: UnitAttr()} if k == 0 else None,
                                [Region.of(body)], loc=loc)
        target.insert(pos, loop)
        ivs.append(body.args[0])
        target, pos = body, 0
    load = Operation.create("memref.load", [src, *ivs], [st.element], loc=loc)
    target.append(load)
    target.append(Operation.create("memref.store", [load.results[0], dst, *ivs], [], loc=loc))
    target.append(Operation.create("scf.yield", [], [], loc=loc))
    for iv in ivs[:-1]:  # every enclosing body ends with its yield, after the nested loop
        iv.block.append(Operation.create("scf.yield", [], [], loc=loc))
