"""Final tidy-up of a lowered DFG: drop dead actors, sink every unused output.

Dead code: an op none of whose results reach a side effect (a memory access or
interface) or the return is removed; this also removes whole dead loops, whose
ops keep each other alive through feedback edges only. Afterwards every value
that nobody consumes (an untaken cond_br side, an unused load datum, an
unused argument) gets a ``handshake.sink``, so a finished simulation holds no
residual tokens.
"""

from __future__ import annotations

from loom.ir.core import Block, OpResult
from loom.ir.location import UNKNOWN
from loom.ir.types import MemRefType
from loom.lower.builder import DfgBuilder

ROOT_OPS = frozenset(
    {
        "handshake.return",
        "handshake.load",
        "handshake.store",
        "handshake.extmemory",
        "handshake.memory",
        "handshake.sink",
    }
)


def remove_dead_ops(block: Block) -> int:
    """Mark-and-sweep from the roots; returns how many ops were removed."""
    live: set[int] = set()
    work = [op for op in block.ops if op.name in ROOT_OPS]
    for op in work:
        live.add(id(op))
    while work:
        op = work.pop()
        for v in op.operands:
            if isinstance(v, OpResult) and id(v.op) not in live:
                live.add(id(v.op))
                work.append(v.op)
    before = len(block.ops)
    kept = [op for op in block.ops if id(op) in live]
    for op in block.ops:
        if id(op) not in live:
            op.parent = None
    block.ops = kept
    return before - len(kept)


def sink_unused(b: DfgBuilder) -> int:
    """Sink (before the terminator) every unused op result and every unused non-memref argument."""
    block = b.block
    used: set[int] = set()
    for op in block.ops:
        for v in op.operands:
            used.add(id(v))
    ret = block.ops.pop() if block.ops and block.ops[-1].name == "handshake.return" else None
    loc = block.parent_op.loc if block.parent_op is not None else (ret.loc if ret is not None else UNKNOWN)
    n = 0
    for arg in block.args:
        if id(arg) not in used and not isinstance(arg.type, MemRefType):
            b.sink(arg, loc)
            n += 1
    for op in list(block.ops):
        for r in op.results:
            if id(r) not in used:
                b.sink(r, op.loc)
                n += 1
    if ret is not None:
        block.ops.append(ret)
    return n


def tidy(b: DfgBuilder) -> None:
    """Dead-code removal, then sinks (the return stays the last op)."""
    remove_dead_ops(b.block)
    sink_unused(b)
