"""Token values in the explorer: the opaque data marker and the test for concrete (evaluable) values."""

from __future__ import annotations

from loom.semantics.expr import Apply, Expr, ports_read, registers_read
from loom.semantics.functions import MEMORY_DIM, compile_expr
from loom.verify.bmc.slicing import havoc_read


class Opaque:
    """A data value no guard ever reads: not computed."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<data>"


OPAQUE = Opaque()


SKIP = "skip"  # the evaluator of a register no guard or tracked output reads: not computed
PLAIN = (int, bool, float, type(None))  # concrete runtime values (None is the ``none`` token)


def concrete(heads: list, ports: tuple, regs: dict, names: tuple) -> bool:
    """Are the listed head and register values all concrete (no Z3 term, nothing opaque)?"""
    for i in ports:
        if type(heads[i]) not in PLAIN:
            return False
    for r in names:
        if type(regs[r]) not in PLAIN:
            return False
    return True


def expr_leaves(e: Expr) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ports and the registers ``e`` reads, each sorted."""
    return tuple(sorted(ports_read(e))), tuple(sorted(registers_read(e)))


def fast_eval(e: Expr, index: dict[str, int], compile_=compile_expr):
    """The simulator's compiled evaluator of ``e`` (None when it needs memory: those values are symbolic)."""
    if havoc_read(e) or (isinstance(e, Apply) and e.fn == MEMORY_DIM):
        return None
    return compile_(e, index)

