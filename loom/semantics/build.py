"""``machine_for(op)``: the table of one concrete op, with arity and attributes resolved.

This is the only place that reads IR attributes for semantics; the builders it
calls are pure functions of types and parameters. Malformed ops raise
``VerifyError`` at the op's location (with the spec's CPL_* code where one
exists), never a Python exception.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Optional

from loom.diagnostics import VerifyError
from loom.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from loom.ir.core import OpResult, Operation
from loom.ir.types import IndexType, IntegerType, MemRefType, NoneType, Type
from loom.semantics import handshake_ops, memory_ops
from loom.semantics.expr import TOKEN
from loom.semantics.machine import Machine
from loom.semantics.scalar import eval_scalar, scalar_fn
from loom.semantics.values import zero_of

SCALAR_DIALECTS = ("arith", "math")


def _err(op: Operation, message: str, code: Optional[str] = None) -> VerifyError:
    return VerifyError(f"'{op.name}' {message}", op.loc, code)


def _arity(op: Operation, operands: Optional[int] = None, results: Optional[int] = None, *, min_operands: int = 0):
    if operands is not None and len(op.operands) != operands:
        raise _err(op, f"expects {operands} operand(s), got {len(op.operands)}")
    if len(op.operands) < min_operands:
        raise _err(op, f"expects at least {min_operands} operand(s), got {len(op.operands)}")
    if results is not None and len(op.results) != results:
        raise _err(op, f"expects {results} result(s), got {len(op.results)}")


def _is_i1(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.width == 1


def _int_attr(op: Operation, name: str, default: Optional[int] = None) -> int:
    a = op.attributes.get(name)
    if a is None:
        if default is None:
            raise _err(op, f"requires integer attribute '{name}'")
        return default
    if not isinstance(a, IntegerAttr):
        raise _err(op, f"attribute '{name}' must be an integer, got {a}")
    return a.value


def constant_value(op: Operation, attr: Attribute, t: Type) -> object:
    """The runtime value of constant attribute ``attr`` at type ``t`` (via the scalar layer)."""
    return eval_scalar("arith.constant", {"value": attr}, [], [t], [], op.loc)[0]


def _defined(op: Operation) -> Machine:
    """The table of an op whose definition carries one (``OpDef.machine``): its verifier runs first, so the
    op's types and attributes are checked by the one rule the parser applies, with the same codes."""
    from loom.dialects.checks import VerifyContext  # the dialects import this package: only at call time
    from loom.dialects.registry import lookup

    d = lookup(op.name)
    assert d is not None and d.machine is not None
    if d.verify is not None:
        d.verify(op, VerifyContext())
    return d.machine(op)


def _memory(op: Operation) -> Machine:
    external = op.name == "handshake.extmemory"
    ld, st = _int_attr(op, "ldCount"), _int_attr(op, "stCount")
    if ld < 0 or st < 0:
        raise _err(op, "ldCount and stCount must not be negative")
    ports = list(op.operands)
    if external:
        _arity(op, min_operands=1)
        mem_t = ports.pop(0).type
        if not isinstance(mem_t, MemRefType):
            raise _err(op, f"operand 0 must be a memref, got {mem_t}")
        global_name = None
    else:
        ta = op.attributes.get("memRefType")
        if not isinstance(ta, TypeAttr) or not isinstance(ta.type, MemRefType):
            raise _err(op, "requires a memref 'memRefType' attribute")
        mem_t = ta.type
        if any(d is None for d in mem_t.shape):
            raise _err(op, f"memRefType {mem_t} must have a static shape")
        g = op.attributes.get("loom.global_memref")
        global_name = g.root if isinstance(g, SymbolRefAttr) else None
    rank = mem_t.rank
    want = st * (1 + rank) + ld * rank
    if len(ports) != want:
        raise _err(op, f"with st = {st}, ld = {ld} on rank {rank} expects {want} port operand(s), got {len(ports)}")
    if len(op.results) != 2 * ld + st:
        raise _err(op, f"with st = {st}, ld = {ld} expects {2 * ld + st} result(s), got {len(op.results)}")
    addr_t: Type = IndexType()
    if rank and ports:  # an extmemory without ports (CIRCT's for an unused memref) has no address type
        addr_t = ports[1].type if st else ports[0].type
    return memory_ops.memory(mem_t, ld, st, external=external, global_name=global_name, addr_type=addr_t)


def _access(op: Operation) -> Machine:
    _arity(op, min_operands=2)
    n_addr = len(op.operands) - 2
    if len(op.results) != 1 + n_addr:
        raise _err(op, f"with {n_addr} address(es) expects {1 + n_addr} result(s), got {len(op.results)}")
    addr_types = [v.type for v in op.operands[:n_addr]]
    data_t = op.results[0].type
    ctrl_t = op.operands[-1].type
    if op.name == "handshake.load":
        return handshake_ops.load(addr_types, data_t, ctrl_t)
    return handshake_ops.store(addr_types, data_t, ctrl_t)


def _buffer_init(op: Operation, t: Type) -> tuple:
    """The runtime values of a buffer's ``initValues`` (CIRCT: i64 integers) at the buffer's type."""
    a = op.attributes.get("initValues")
    if a is None:
        return ()
    if not isinstance(a, ArrayAttr) or not all(isinstance(x, IntegerAttr) for x in a.elements):
        raise _err(op, f"attribute 'initValues' must be an array of integers, got {a}", "CPL_IR_ATTRIBUTE")
    if isinstance(t, NoneType):
        return tuple(TOKEN for _ in a.elements)
    if not isinstance(t, (IntegerType, IndexType)):
        raise _err(op, f"initial values need an integer, index or none buffer, got {t}",
                   "CPL_HANDSHAKE_BUFFER_INIT_TYPE")
    return tuple(constant_value(op, IntegerAttr(x.value, t), t) for x in a.elements)


def _fed_by_source(v) -> bool:
    """True when ``v`` copies (through forks, br, plain buffers) a ``handshake.source``: always ready."""
    root = handshake_ops.copied_value(v)
    return isinstance(root, OpResult) and root.op.name == "handshake.source"


def _handshake(op: Operation) -> Machine:
    kind = op.name.split(".", 1)[1]
    ops, res = op.operands, op.results
    if kind in ("fork", "lazy_fork", "br", "buffer") and len(ops) == 1 and _fed_by_source(ops[0]):
        return handshake_ops.always_ready(op.name, ops[0].type, [r.type for r in res], TOKEN)
    if kind in ("fork", "lazy_fork"):  # with unbounded channels a lazy fork copies exactly like a fork
        _arity(op, 1)
        return handshake_ops.fork(ops[0].type, len(res))
    if kind == "join":
        _arity(op, results=1, min_operands=1)
        return handshake_ops.join([v.type for v in ops])
    if kind == "cond_br":
        _arity(op, 2, 2)
        if not _is_i1(ops[0].type):
            raise _err(op, f"condition must be i1, got {ops[0].type}")
        return handshake_ops.cond_br(ops[1].type)
    if kind == "mux":
        _arity(op, results=1, min_operands=2)
        sel_t = ops[0].type
        if not isinstance(sel_t, (IndexType, IntegerType)):
            raise _err(op, f"select must be index or an integer, got {sel_t}")
        return handshake_ops.mux(sel_t, res[0].type, len(ops) - 1)
    if kind == "merge":
        _arity(op, results=1, min_operands=1)
        return handshake_ops.merge(res[0].type, len(ops))
    if kind == "control_merge":
        _arity(op, results=2, min_operands=1)
        return handshake_ops.control_merge(res[0].type, res[1].type, len(ops))
    if kind == "constant":
        _arity(op, 1, 1)
        value_attr = op.attributes.get("value")
        if value_attr is None:
            raise _err(op, "requires a 'value' attribute")
        value = constant_value(op, value_attr, res[0].type)
        if _fed_by_source(ops[0]):
            return handshake_ops.always_ready(op.name, ops[0].type, [res[0].type], value)
        return handshake_ops.constant(ops[0].type, res[0].type, value)
    if kind == "sink":
        _arity(op, 1, 0)
        return handshake_ops.sink(ops[0].type)
    if kind == "buffer":
        _arity(op, 1, 1)
        return handshake_ops.buffer(ops[0].type, _int_attr(op, "slots", 1), _buffer_init(op, ops[0].type))
    if kind == "source":
        _arity(op, 0, 1)
        return handshake_ops.source(op.name, res[0].type, TOKEN)
    if kind == "pack":
        _arity(op, results=1)
        return handshake_ops.pack([v.type for v in ops], res[0].type)
    if kind == "unpack":
        _arity(op, 1)
        return handshake_ops.unpack(ops[0].type, [r.type for r in res])
    if kind == "sync":
        if len(ops) != len(res) or not ops:
            raise _err(op, f"expects as many results as operands (at least one), got {len(ops)} and {len(res)}")
        return handshake_ops.sync([v.type for v in ops])
    if kind == "br":
        _arity(op, 1, 1)
        return handshake_ops.br(ops[0].type)
    if kind in ("load", "store"):
        return _access(op)
    if kind in ("memory", "extmemory"):
        return _memory(op)
    if kind == "return":
        return handshake_ops.return_([v.type for v in ops])
    raise _err(op, "has no token semantics")


def machine_for(op: Operation) -> Machine:
    """The state-machine table of ``op`` (any op allowed inside a handshake.func)."""
    name = op.name
    if name.startswith("dataflow."):
        return _defined(op)
    if name.startswith("handshake."):
        return _handshake(op)
    if name == "memref.dim":
        _arity(op, 2, 1)
        mem_t = op.operands[0].type
        if not isinstance(mem_t, MemRefType) or not isinstance(op.operands[1].type, IndexType):
            raise _err(op, "expects a memref operand and an index operand")
        return memory_ops.dim(mem_t)
    if name == "ub.poison":
        _arity(op, 0, 1)
        t = op.results[0].type
        if isinstance(t, NoneType):
            return handshake_ops.source(name, t, zero_of(t))
        return handshake_ops.source(name, t, eval_scalar(name, {}, [], [t], [], op.loc)[0])
    if op.dialect in SCALAR_DIALECTS:
        if not op.results:
            raise _err(op, "has no result to emit")
        if any(isinstance(r.type, NoneType) for r in op.results):
            raise _err(op, "cannot produce a none token")
        if not op.operands:
            if len(op.results) != 1 or "value" not in op.attributes:
                raise _err(op, "without operands must be a constant with a 'value' attribute")
            t = op.results[0].type
            return handshake_ops.source(name, t, constant_value(op, op.attributes["value"], t))
        attrs = tuple(sorted(op.attributes.items()))
        operand_types, result_types = [v.type for v in op.operands], [r.type for r in op.results]
        scalar_fn(name, dict(attrs), operand_types, result_types, op.loc)  # rejects unsupported ops now
        return handshake_ops.combinational(name, attrs, operand_types, result_types)
    raise _err(op, "has no token semantics (not a handshake, dataflow, arith or math op)")


FED_BY_SOURCE_OPS = ("handshake.fork", "handshake.lazy_fork", "handshake.br", "handshake.buffer",
                     "handshake.constant")
"""Ops whose table also depends on whether operand 0 copies a ``handshake.source`` (``_fed_by_source``)."""

_PLAIN_ATTRS = (BoolAttr, StringAttr, UnitAttr, TypeAttr, SymbolRefAttr, StridedLayoutAttr, OpaqueAttr)


def _exact_scalar(v: object) -> object:
    """``v`` as a key that tells apart what ``==`` does not: -0.0 from 0.0, NaN payloads, True from 1."""
    if isinstance(v, float):
        return ("f", struct.pack("<d", v))
    if isinstance(v, (tuple, list)):
        return ("seq", tuple(_exact_scalar(x) for x in v))
    return (type(v).__name__, v)


def _exact(a: Attribute) -> Optional[tuple]:
    """A hashable key equal for two attributes exactly when they are the same attribute (None: no such key)."""
    if isinstance(a, IntegerAttr):
        return ("int", type(a.value).__name__, a.value, a.type)
    if isinstance(a, FloatAttr):
        return ("float", _exact_scalar(a.value), a.type)
    if isinstance(a, _PLAIN_ATTRS):  # frozen dataclasses of strings, ints, bools and types: == is exact
        return (type(a).__name__, a)
    if isinstance(a, ArrayAttr):
        parts = [_exact(x) for x in a.elements]
        return None if None in parts else ("array", tuple(parts))
    if isinstance(a, DictAttr):
        parts = [_exact(x) for _, x in a.entries]
        return None if None in parts else ("dict", tuple(k for k, _ in a.entries), tuple(parts))
    if isinstance(a, DenseArrayAttr):
        return ("dense_array", a.element_type, tuple(_exact_scalar(v) for v in a.values))
    if isinstance(a, DenseElementsAttr):
        return ("dense", a.type, a.splat, tuple(_exact_scalar(v) for v in a.values))
    return None


def signature(op: Operation) -> Optional[tuple]:
    """Everything ``machine_for(op)`` reads of ``op`` besides its location: name, attributes, operand and result
    types, and for ``FED_BY_SOURCE_OPS`` whether operand 0 copies a source. None when an attribute has no exact key."""
    attrs = []
    for k in sorted(op.attributes):
        x = _exact(op.attributes[k])
        if x is None:
            return None
        attrs.append((k, x))
    fed = op.name in FED_BY_SOURCE_OPS and bool(op.operands) and _fed_by_source(op.operands[0])
    return (op.name, tuple(attrs), tuple(v.type for v in op.operands), tuple(r.type for r in op.results), fed)


@dataclass
class Machines:
    """``machine_for`` memoized for one analysis: ops of one ``signature`` share one table.

    Safe because a table is immutable (frozen dataclasses of tuples) and a pure function of the signature; an
    op that raises is never memoized (each raises at its own location), nor is one without a signature."""

    memo: dict[tuple, Machine] = field(default_factory=dict)

    def __call__(self, op: Operation) -> Machine:
        key = signature(op)
        if key is None:
            return machine_for(op)
        m = self.memo.get(key)
        if m is None:
            m = self.memo[key] = machine_for(op)
        return m
