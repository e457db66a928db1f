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

from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Protocol, Sequence

from loom.diagnostics import SimulationError
from loom.semantics.expr import Apply, Const, Expr, In, Reg, ScalarInfo
from loom.semantics.scalar import scalar_fn
from loom.semantics.undefined import checked

INDEX_BITS = 64
INDEX_MASK = (1 << INDEX_BITS) - 1
_SIGN = 1 << (INDEX_BITS - 1)


class Memory(Protocol):
    """What ``mem.read`` and a ``Write`` effect need (``loom.runtime.MemRefView`` has this shape)."""

    def load(self, indices: Sequence[int]) -> object: ...

    def store(self, value: object, indices: Sequence[int]) -> None: ...

    def dim(self, i: int) -> int: ...


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
MEMORY_DIM = "mem.dim"
TUPLE_MAKE = "tuple.make"  # any number of arguments -> a Python tuple of them
TUPLE_GET = "tuple.get"  # one tuple argument, ``param`` a ``TupleIndex``


@dataclass(frozen=True)
class TupleIndex:
    """``tuple.get``'s parameter: element ``index`` of a value of ``tuple_type`` (the type gives the Z3
    model each element's bit range)."""

    index: int
    tuple_type: object
SCALAR_PREFIX = "scalar:"

STEP_OPS = ("+=", "-=", "*=", "/=", "<<=", ">>=")
CONT_CONDS = ("<", "<=", ">", ">=", "!=")


def is_known_function(fn: str) -> bool:
    """True for every name the vocabulary defines."""
    return fn in PURE_FUNCTIONS or fn in (MEMORY_READ, MEMORY_DIM, TUPLE_MAKE, TUPLE_GET) or fn.startswith(SCALAR_PREFIX)


# A compiled expression: (heads by input port index, registers, memory) -> value.
Compiled = Callable[[Sequence[object], Mapping[str, object], Optional[Memory]], object]


def _mem_read(m: Optional[Memory], indices: list) -> object:
    if m is None:
        raise SimulationError("mem.read outside a memory operator", None, "RT_MEMORY_UNBOUND")
    return m.load(indices)


def _mem_dim(m: Optional[Memory], i: int) -> int:
    if m is None:
        raise SimulationError("mem.dim outside a memory operator", None, "RT_MEMORY_UNBOUND")
    return m.dim(i)


def _source(e: Expr, port_index: Mapping[str, int], ns: dict) -> str:
    """Python source for ``e`` over ``h`` (heads), ``r`` (registers), ``m`` (memory); helpers go in ``ns``."""
    if isinstance(e, In):
        return f"h[{port_index[e.port]}]"
    if isinstance(e, Reg):
        return f"r[{e.name!r}]"
    if isinstance(e, Const):
        key = f"c{len(ns)}"
        ns[key] = e.value
        return key
    if not isinstance(e, Apply):
        raise ValueError(f"not an expression: {e!r}")
    args = [_source(a, port_index, ns) for a in e.args]
    key = f"f{len(ns)}"
    if e.fn in PURE_FUNCTIONS:
        arity, f = PURE_FUNCTIONS[e.fn]
        if arity != len(args):
            raise ValueError(f"{e.fn} takes {arity} arguments, got {len(args)}")
        ns[key] = f
        return f"{key}({', '.join(args)})"
    if e.fn == TUPLE_MAKE:
        return f"({''.join(a + ', ' for a in args)})"
    if e.fn == TUPLE_GET:
        if len(args) != 1 or not isinstance(e.param, TupleIndex):
            raise ValueError(f"{e.fn} takes 1 argument and a TupleIndex parameter")
        return f"{args[0]}[{e.param.index}]"
    if e.fn == MEMORY_READ:
        ns[key] = _mem_read
        return f"{key}(m, [{', '.join(args)}])"
    if e.fn == MEMORY_DIM:
        if len(args) != 1:
            raise ValueError(f"{e.fn} takes 1 argument, got {len(args)}")
        ns[key] = _mem_dim
        return f"{key}(m, {args[0]})"
    if e.fn.startswith(SCALAR_PREFIX):
        info = e.param
        if not isinstance(info, ScalarInfo):
            raise ValueError(f"{e.fn} needs a ScalarInfo parameter")
        name = e.fn[len(SCALAR_PREFIX):]
        fn = scalar_fn(name, dict(info.attrs), info.operand_types, info.result_types)
        ns[key] = checked(fn, name, dict(info.attrs), info.operand_types, info.result_types)
        return f"{key}([{', '.join(args)}])[{info.result_index}]"
    raise ValueError(f"unknown function {e.fn!r} in an operator table")


def compile_expr(e: Expr, port_index: Mapping[str, int]) -> Compiled:
    """Turn an expression into one Python function ``(heads, registers, memory) -> value``.

    ``port_index`` maps input port names to positions in ``heads``. The tree is
    flattened into a single lambda that calls the vocabulary's implementations
    (the same ones ``PURE_FUNCTIONS`` lists), so evaluation costs one call per
    function application and none per leaf.
    """
    ns: dict = {}
    src = _source(e, port_index, ns)
    return eval(f"lambda h, r, m: {src}", ns)  # noqa: S307 - source built from the closed AST above


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
