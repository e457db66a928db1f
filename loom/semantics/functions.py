"""The function vocabulary of the operator tables and its Python evaluator.

Every ``Apply.fn`` in a table is one of the names below (or ``scalar:<op>``,
delegated to ``loom.semantics.scalar.eval_scalar``). The Z3 translator is
written against the same list; ``specs/semantics.md`` documents each entry.
Values follow the runtime convention: integers are unsigned bit patterns masked
to their width, i1 is 0/1, index is 64 bits, floats are Python floats, a
``none`` token is ``TOKEN``. Index arithmetic and comparisons are signed with
64-bit wraparound.
"""

from __future__ import annotations

from typing import Callable, Mapping, Optional, Protocol, Sequence

from loom.diagnostics import SimulationError
from loom.semantics.expr import Apply, Const, Expr, In, Reg, ScalarInfo
from loom.semantics.scalar import scalar_fn

INDEX_BITS = 64
INDEX_MASK = (1 << INDEX_BITS) - 1
_SIGN = 1 << (INDEX_BITS - 1)


class Memory(Protocol):
    """What ``mem.read`` and a ``Write`` effect need (``loom.runtime.MemRefView`` has this shape)."""

    def load(self, indices: Sequence[int]) -> object: ...

    def store(self, value: object, indices: Sequence[int]) -> None: ...


def to_signed(x: int, bits: int = INDEX_BITS) -> int:
    """Interpret an unsigned ``bits``-wide pattern as two's complement."""
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def _b(x: bool) -> int:
    return 1 if x else 0


def _sdiv(a: int, b: int) -> int:
    sa, sb = to_signed(a), to_signed(b)
    if sb == 0:
        raise SimulationError("step./=: division by a zero step", None, "RT_DATAFLOW_STREAM_ZERO_STEP")
    q = abs(sa) // abs(sb)
    return (q if (sa < 0) == (sb < 0) else -q) & INDEX_MASK


def _shl(a: int, b: int) -> int:
    return 0 if b >= INDEX_BITS else (a << b) & INDEX_MASK


def _ashr(a: int, b: int) -> int:
    return (to_signed(a) >> min(b, INDEX_BITS - 1)) & INDEX_MASK


# name -> (arity, implementation over runtime values)
PURE_FUNCTIONS: Mapping[str, tuple[int, Callable[..., object]]] = {
    "not": (1, lambda a: 1 - a),
    "and": (2, lambda a, b: _b(a and b)),
    "or": (2, lambda a, b: _b(a or b)),
    "eq": (2, lambda a, b: _b(a == b)),
    "ne": (2, lambda a, b: _b(a != b)),
    "cmp.<": (2, lambda a, b: _b(to_signed(a) < to_signed(b))),
    "cmp.<=": (2, lambda a, b: _b(to_signed(a) <= to_signed(b))),
    "cmp.>": (2, lambda a, b: _b(to_signed(a) > to_signed(b))),
    "cmp.>=": (2, lambda a, b: _b(to_signed(a) >= to_signed(b))),
    "cmp.!=": (2, lambda a, b: _b(a != b)),
    "cmp.==": (2, lambda a, b: _b(a == b)),
    "ucmp.<": (2, lambda a, b: _b(a < b)),
    "ucmp.>=": (2, lambda a, b: _b(a >= b)),
    "step.+=": (2, lambda a, b: (a + b) & INDEX_MASK),
    "step.-=": (2, lambda a, b: (a - b) & INDEX_MASK),
    "step.*=": (2, lambda a, b: (a * b) & INDEX_MASK),
    "step./=": (2, _sdiv),
    "step.<<=": (2, _shl),
    "step.>>=": (2, _ashr),
}

MEMORY_READ = "mem.read"
SCALAR_PREFIX = "scalar:"

STEP_OPS = ("+=", "-=", "*=", "/=", "<<=", ">>=")
CONT_CONDS = ("<", "<=", ">", ">=", "!=")


def is_known_function(fn: str) -> bool:
    """True for every name the vocabulary defines."""
    return fn in PURE_FUNCTIONS or fn == MEMORY_READ or fn.startswith(SCALAR_PREFIX)


# A compiled expression: (heads by input port index, registers, memory) -> value.
Compiled = Callable[[Sequence[object], Mapping[str, object], Optional[Memory]], object]


def compile_expr(e: Expr, port_index: Mapping[str, int]) -> Compiled:
    """Turn an expression into a closure; ``port_index`` maps input port names to head positions."""
    if isinstance(e, In):
        i = port_index[e.port]
        return lambda h, r, m: h[i]
    if isinstance(e, Reg):
        name = e.name
        return lambda h, r, m: r[name]
    if isinstance(e, Const):
        v = e.value
        return lambda h, r, m: v
    assert isinstance(e, Apply)
    args = [compile_expr(a, port_index) for a in e.args]
    if e.fn in PURE_FUNCTIONS:
        arity, f = PURE_FUNCTIONS[e.fn]
        if arity != len(args):
            raise ValueError(f"{e.fn} takes {arity} arguments, got {len(args)}")
        if arity == 1:
            (a0,) = args
            return lambda h, r, m: f(a0(h, r, m))
        a0, a1 = args
        return lambda h, r, m: f(a0(h, r, m), a1(h, r, m))
    if e.fn == MEMORY_READ:

        def read(h, r, m):
            if m is None:
                raise SimulationError("mem.read outside a memory operator", None, "RT_MEMORY_UNBOUND")
            return m.load([a(h, r, m) for a in args])

        return read
    if e.fn.startswith(SCALAR_PREFIX):
        info = e.param
        if not isinstance(info, ScalarInfo):
            raise ValueError(f"{e.fn} needs a ScalarInfo parameter")
        f = scalar_fn(e.fn[len(SCALAR_PREFIX):], dict(info.attrs), info.operand_types, info.result_types)
        k = info.result_index
        return lambda h, r, m: f([a(h, r, m) for a in args])[k]
    raise ValueError(f"unknown function {e.fn!r} in an operator table")


def evaluate(
    e: Expr,
    heads: Mapping[str, object],
    regs: Mapping[str, object],
    memory: Optional[Memory] = None,
) -> object:
    """Evaluate ``e`` with input heads and registers given by name (the reference evaluator)."""
    names = sorted(heads)
    compiled = compile_expr(e, {n: i for i, n in enumerate(names)})
    return compiled([heads[n] for n in names], regs, memory)
