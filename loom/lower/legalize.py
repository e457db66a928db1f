"""Join fan-in legalization (spec-compilation: hardware join capacity).

A ``handshake.join`` wider than the hardware limit K is rewritten into a tree
of joins no wider than K. Joining is associative for token streams (each
output fires once every input has one token), so the tree consumes and
produces exactly what the wide join did. K is at most 64 (the mapper's config
encoding); with K < 2 any join wider than 1 cannot be built and is rejected.
"""

from __future__ import annotations

from loom.diagnostics import LoomError
from loom.ir.core import Block, Operation, Value
from loom.ir.types import none

MAX_SUPPORTED_FANIN = 64
FANIN_CODE = "CPL_JOIN_FANIN"


def legalize_join_fanin(func: Operation, k: int) -> None:
    """Rewrite, in place, every join of ``func`` wider than ``k`` into a tree of joins of width <= ``k``."""
    if not isinstance(k, int) or isinstance(k, bool):
        raise LoomError(f"max join fan-in must be an integer, got {k!r}", func.loc, FANIN_CODE)
    if k > MAX_SUPPORTED_FANIN:
        raise LoomError(
            f"max join fan-in {k} exceeds the supported maximum of {MAX_SUPPORTED_FANIN}",
            func.loc,
            FANIN_CODE,
        )
    if k < 1:
        raise LoomError(f"max join fan-in must be at least 1, got {k}", func.loc, FANIN_CODE)
    for region in func.regions:
        for block in region.blocks:
            _legalize_block(block, k)


def _legalize_block(block: Block, k: int) -> None:
    out: list[Operation] = []
    for op in block.ops:
        for region in op.regions:
            for inner in region.blocks:
                _legalize_block(inner, k)
        if op.name == "handshake.join" and len(op.operands) > k:
            if k < 2:
                raise LoomError(
                    f"handshake.join with {len(op.operands)} inputs cannot be legalized for a "
                    f"maximum join fan-in of {k} (joins wider than 1 need a fan-in of at least 2)",
                    op.loc,
                    FANIN_CODE,
                )
            op.operands = _reduce(op, list(op.operands), k, block, out)
        out.append(op)
    block.ops = out


def _reduce(op: Operation, inputs: list[Value], k: int, block: Block, out: list[Operation]) -> list[Value]:
    """Join groups of ``k`` until at most ``k`` values remain; new joins go to ``out`` (before ``op``)."""
    level = 0
    base = op.results[0].name_hint or "join"
    while len(inputs) > k:
        nxt: list[Value] = []
        for i in range(0, len(inputs), k):
            group = inputs[i : i + k]
            if len(group) == 1:
                nxt.append(group[0])
                continue
            j = Operation.create(
                "handshake.join", group, [none], loc=op.loc, result_names=[f"{base}_l{level}"]
            )
            j.parent = block
            out.append(j)
            nxt.append(j.results[0])
        inputs = nxt
        level += 1
    return inputs
