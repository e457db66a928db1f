"""Multi-block function bodies: run a CFG of blocks joined by cf.br / cf.cond_br / cf.switch.

Each block is compiled like any other (``FunctionCompiler.block``); its
terminator picks the next block and passes operands to that block's arguments
with parallel-copy semantics (all operands read before any argument is
written, as MLIR block arguments require). ``func.return`` copies its operands
to the function's result slots and stops.
"""

from __future__ import annotations

from collections.abc import Callable

from loom.diagnostics import SimulationError
from loom.dialects.cf import cond_br_groups, switch_groups
from loom.interp.compiler import BlockCode, Exec, FunctionCompiler, handler
from loom.ir.core import Block, Operation, Region
from loom.semantics.scalar import to_signed

BRANCHES = ("cf.br", "cf.cond_br", "cf.switch")
ASSERT_FAILED = "RT_CF_ASSERT"

# a compiled edge: reads the frame, writes the successor's arguments, names the successor
Step = Callable[[list], int | None]


def compile_cfg(region: Region, c: FunctionCompiler, exit: str = "func.return") -> BlockCode:
    """Compile every block of a region and a driver that follows the branches until ``exit``.

    The returned code's ``term_slots`` hold the exit terminator's operands (the
    function's results, or an scf.execute_region's yielded values).
    """
    blocks = region.blocks
    index = {id(b): k for k, b in enumerate(blocks)}
    codes = [c.block(b, (exit, *BRANCHES)) for b in blocks]
    ret = next((code.term for code in codes if code.term is not None and code.term.name == exit), None)
    n_results = len(ret.operands) if ret is not None else 0
    result_slots = [c.fresh_slot() for _ in range(n_results)]
    steps: list[Step] = [_edge(code.term, c, index, result_slots) for code in codes if code.term is not None]
    runs = [code.run for code in codes]

    def run(frame: list) -> None:
        k: int | None = 0
        while k is not None:
            runs[k](frame)
            k = steps[k](frame)

    return BlockCode(codes[0].arg_slots, run, None, result_slots)


def _copy(frame: list, dst: list[int], src: list[int]) -> None:
    values = [frame[s] for s in src]
    for s, v in zip(dst, values):
        frame[s] = v


def _jump(c: FunctionCompiler, index: dict[int, int], block: Block, src: list[int]) -> tuple[int, list[int], list[int]]:
    return index[id(block)], [c.slot(a) for a in block.args], src


def _edge(term: Operation, c: FunctionCompiler, index: dict[int, int], result_slots: list[int]) -> Step:
    if term.name not in BRANCHES:  # the exit terminator
        src = c.operand_slots(term)

        def ret(frame: list) -> int | None:
            _copy(frame, result_slots, src)
            return None
        return ret
    if term.name == "cf.br":
        k, dst, src = _jump(c, index, term.successors[0], c.operand_slots(term))

        def br(frame: list) -> int | None:
            _copy(frame, dst, src)
            return k
        return br
    if term.name == "cf.switch":
        flag, values, groups = switch_groups(term)
        flag_slot, width = c.slot(flag), getattr(flag.type, "width", 64)
        jumps = [_jump(c, index, b, [c.slot(v) for v in g]) for b, g in zip(term.successors, groups)]
        table = {v: jumps[k + 1] for k, v in enumerate(values)}
        default = jumps[0]

        def switch(frame: list) -> int | None:
            k, dst, src = table.get(to_signed(frame[flag_slot], width), default)
            _copy(frame, dst, src)
            return k
        return switch
    cond, t_vals, f_vals = cond_br_groups(term)
    cond_slot = c.slot(cond)
    kt, dt, st = _jump(c, index, term.successors[0], [c.slot(v) for v in t_vals])
    kf, df, sf = _jump(c, index, term.successors[1], [c.slot(v) for v in f_vals])

    def cond_br(frame: list) -> int | None:
        if frame[cond_slot]:
            _copy(frame, dt, st)
            return kt
        _copy(frame, df, sf)
        return kf
    return cond_br


@handler("cf.assert")
def compile_assert(op: Operation, c: FunctionCompiler) -> Exec:
    """``cf.assert %c, "msg"``: a runtime error with the message when ``%c`` is false."""
    (slot,) = c.operand_slots(op)
    msg = getattr(op.attributes.get("msg"), "value", "")
    loc = op.loc

    def run(frame: list) -> None:
        if not frame[slot]:
            raise SimulationError(f"cf.assert failed: {msg}", loc, ASSERT_FAILED)
    return run
