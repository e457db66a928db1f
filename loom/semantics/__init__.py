"""Operator semantics written once as data: state-machine tables read by the simulator, verifier and HDL emitter.

``machine_for(op)`` gives the table of a concrete op; ``describe`` prints one;
the expression AST and its evaluator live in ``expr`` and ``functions``. The
scalar arithmetic the tables delegate to (``scalar:<op>``) is ``scalar.py``; each
integer op's descriptor (its Python evaluation, Z3 term, SV expression and UB
rules, read by every engine) is ``ops.INT_OPS``, the UB rules ``undefined``, the
value layout (float formats, widths, the tuple bus) ``layout`` and the arith
enums ``predicates``.
"""

from loom.semantics.build import machine_for
from loom.semantics.describe import describe
from loom.semantics.expr import TOKEN, Apply, Const, Expr, In, Reg, ScalarInfo, format_expr
from loom.semantics.functions import compile_expr, evaluate
from loom.semantics.machine import (
    Complete,
    Effect,
    Fail,
    Machine,
    MemoryBinding,
    Port,
    Register,
    Rule,
    Write,
)
from loom.semantics.values import pack_tagged, unpack_tagged, zero_of

__all__ = [
    "TOKEN",
    "Apply",
    "Complete",
    "Const",
    "Effect",
    "Expr",
    "Fail",
    "In",
    "Machine",
    "MemoryBinding",
    "Port",
    "Reg",
    "Register",
    "Rule",
    "ScalarInfo",
    "Write",
    "compile_expr",
    "describe",
    "evaluate",
    "format_expr",
    "machine_for",
    "pack_tagged",
    "unpack_tagged",
    "zero_of",
]
