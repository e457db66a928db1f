"""The length of a buffer the host allocates, as ``loom verify`` assumes it: exactly what the kernel asks for.

A DFG argument with ``loom.host_size`` (loom/runtime/host_size.py) is a buffer the kernel allocated in C
(``malloc(n * sizeof(int))``) and the DFG takes from its host. Its length is then no free input: the host
allocates exactly the size the kernel's own size ops give on the arguments. ``HostLength`` is that size as the
right side of an assumption ``dim(buf, k) == <size>`` (``loom.verify.assume``): a Z3 term over the checkers'
argument constants, built from the one operator table (``loom.semantics.ops``), and a concrete value for a
witness's inputs (the interpreter). A size of 2^48 or more (``n < 0`` in ``malloc((size_t)n * 4)``) is one no
host allocates (C's ``malloc`` returns NULL): there the length is left free, so no input is assumed away.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import z3

from loom.ir.attributes import IntegerAttr
from loom.ir.core import Operation, OpResult, Value
from loom.ir.types import MemRefType
from loom.runtime.host_size import HostSize
from loom.semantics.expr import ScalarInfo
from loom.semantics.layout import int_width
from loom.semantics.ops import int_op
from loom.verify.inputs import DIM_CAP

# the longest memref argument ``value`` builds to run the size function on (a list of that many zeros): a model's
# dim(a,0) may be up to DIM_CAP, which no list holds (a MemoryError); a longer one decides nothing (None)
VALUE_ELEMENTS = 1 << 20
_SYMBOLS = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.divui": "/u", "arith.divsi": "/",
            "arith.remui": "%u", "arith.remsi": "%", "arith.shli": "<<", "arith.shrui": ">>u", "arith.shrsi": ">>",
            "arith.andi": "&", "arith.ori": "|", "arith.xori": "^"}


@dataclass(frozen=True, eq=False)
class HostLength:
    """Dimension ``k`` of host buffer ``size.name`` as its size function gives it (``k`` counts the ``?``s)."""

    size: HostSize
    k: int

    def names(self) -> set[str]:
        """The operands the size reads: integer arguments by name, a memref argument's length as ``dim(a,k)``."""
        f = self.size.func
        mems = {a: p for p, a in zip(self.size.params, f.regions[0].entry.args) if isinstance(a.type, MemRefType)}
        out = {p for p, a in zip(self.size.params, f.regions[0].entry.args) if a not in mems}
        for op in f.regions[0].entry.ops:
            k = _dim_index(op)
            if op.name == "memref.dim" and op.operands[0] in mems and k is not None:
                out.add(f"dim({mems[op.operands[0]]},{k})")
        return out

    def __str__(self) -> str:
        return _render(self.size.func, self.k)

    def term(self, arg: Callable[[str], Optional[z3.ExprRef]]) -> Optional[z3.BitVecRef]:
        """The size as a 64-bit term over the checker's argument constants (None: an argument or op it cannot
        model -- the assumption is then left out, which only widens the inputs considered)."""
        f = self.size.func
        env: dict[Value, z3.BitVecRef] = {}
        mems: dict[Value, str] = {}
        for p, a in zip(self.size.params, f.regions[0].entry.args):
            if isinstance(a.type, MemRefType):  # read only through memref.dim (a mirrored parameter's length)
                mems[a] = p
                continue
            t = arg(p)
            if t is None:
                return None
            env[a] = z3.If(t, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)) if z3.is_bool(t) else t
        for op in f.regions[0].entry.ops:
            if op.name == "func.return":
                return env.get(op.operands[self.k])
            if op.name == "memref.dim":
                k = _dim_index(op)
                d = arg(f"dim({mems[op.operands[0]]},{k})") if op.operands[0] in mems and k is not None else None
                if d is None:
                    return None
                env[op.results[0]] = z3.SignExt(64 - d.size(), d) if d.size() < 64 else d
                continue
            if any(v not in env for v in op.operands):
                return None
            got = _op_term(op, [env[v] for v in op.operands])
            if got is None:
                return None
            env[op.results[0]] = got
        return None

    def value(self, values: dict[str, int]) -> Optional[int]:
        """The size on concrete (signed) argument values, or None (a missing argument, a faulting size op); a
        1-D memref argument the size reads the length of is given as that many zeros (``dim(a,0)``, at most
        ``VALUE_ELEMENTS``)."""
        given: dict = dict(values)
        for p, a in zip(self.size.params, self.size.func.regions[0].entry.args):
            if isinstance(a.type, MemRefType) and p not in given:
                n = values.get(f"dim({p},0)")
                if a.type.rank != 1 or n is None or not 0 <= n <= VALUE_ELEMENTS:
                    return None
                given[p] = [0] * n
        got = self.size.sizes(given)
        if got is None:
            return None
        dyn = [s for s, d in zip(got, self.size.type.shape) if d is None]
        return dyn[self.k]


def _dim_index(op: Operation) -> Optional[int]:
    """The constant dimension a ``memref.dim`` reads (None: not a constant)."""
    if op.name != "memref.dim" or len(op.operands) != 2 or not isinstance(op.operands[1], OpResult):
        return None
    c = op.operands[1].op
    v = c.attributes.get("value") if c.name == "arith.constant" else None
    return v.value if isinstance(v, IntegerAttr) else None


def _op_term(op: Operation, args: list[z3.BitVecRef]) -> Optional[z3.BitVecRef]:
    """One size op's result term (bit-vectors throughout; an ``i1`` is a 1-bit vector)."""
    if len(op.results) != 1 or int_width(op.results[0].type) is None:
        return None
    w = int_width(op.results[0].type)
    if op.name == "arith.constant":
        v = op.attributes.get("value")
        return z3.BitVecVal(v.value, w) if isinstance(v, IntegerAttr) else None
    d = int_op(op.name)
    if d is None or len(args) != d.arity:
        return None
    if op.name == "arith.select":
        args = [args[0] == 1, *args[1:]]
    info = ScalarInfo(tuple(op.attributes.items()), tuple(v.type for v in op.operands),
                      tuple(r.type for r in op.results), 0)
    r = d.z3(args, info)
    return z3.If(r, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)) if z3.is_bool(r) else r


def assumed(length: HostLength, dim: z3.BitVecRef, arg: Callable[[str], Optional[z3.ExprRef]]) -> Optional[z3.BoolRef]:
    """``dim == size`` wherever the size is one a host allocates (below ``DIM_CAP``, the checkers' bound on every dimension); None when it is not modelled."""
    s = length.term(arg)
    if s is None:
        return None
    d = z3.SignExt(64 - dim.size(), dim) if dim.size() < 64 else dim
    return z3.Implies(z3.ULT(s, z3.BitVecVal(DIM_CAP, 64)), d == s)


def holds(length: HostLength, dim: Optional[int], values: dict[str, int]) -> Optional[bool]:
    """``assumed`` on concrete values (None: not decidable from them)."""
    s = length.value(values)
    if s is None or dim is None:
        return None
    return not 0 <= s < DIM_CAP or dim == s


def _render(f: Operation, k: int) -> str:
    """The size function's ``k``-th result as a readable expression (casts shown, ``index_cast`` dropped)."""
    text: dict[Value, str] = {a: a.name_hint or "?" for a in f.regions[0].entry.args}
    for op in f.regions[0].entry.ops:
        if op.name == "func.return":
            out = text.get(op.operands[k], "?")
            return out[1:-1] if out.startswith("(") and out.endswith(")") else out
        xs = [text.get(v, "?") for v in op.operands]
        short = op.name.split(".", 1)[-1]
        if op.name == "arith.constant":
            v = op.attributes.get("value")
            s = str(v.value) if isinstance(v, IntegerAttr) else "?"
        elif op.name in ("arith.index_cast", "arith.index_castui") and len(xs) == 1:
            s = xs[0]
        elif op.name in _SYMBOLS and len(xs) == 2:
            s = f"({xs[0]} {_SYMBOLS[op.name]} {xs[1]})"
        else:
            s = f"{short}({', '.join(x[1:-1] if x.startswith('(') and x.endswith(')') else x for x in xs)})"
        for r in op.results:
            text[r] = s
    return "?"
