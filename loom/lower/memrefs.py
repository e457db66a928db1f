"""Memory domains: which root buffer every access touches, and its address in that buffer.

Accesses are grouped by ROOT memref (spec-dataflow-memory): a function
argument (one ``handshake.extmemory``), a ``memref.alloc``/``alloca`` or a
``memref.get_global`` (one ``handshake.memory``). View ops (cast, subview,
reinterpret_cast, collapse_shape, expand_shape) are stripped; an access through
a view gets its root indices computed by explicit index arithmetic.

Distinct roots are distinct ordering domains: loom assumes, as LOOM's
frontend does, that distinct memref arguments do not alias.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol, Sequence, Union

from loom.diagnostics import LoomError
from loom.ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr, StringAttr, SymbolRefAttr
from loom.ir.core import BlockArgument, Operation, OpResult, Value
from loom.ir.location import Location
from loom.ir.types import MemRefType, index
from loom.lower.statics import statically_skipped

UNSUPPORTED = "CPL_LOWER_UNSUPPORTED"
K_DYNAMIC = -9223372036854775808

IDENTITY_VIEWS = ("memref.cast", "memref.assume_alignment")  # same buffer, same indices
VIEW_OPS = (
    *IDENTITY_VIEWS,
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.collapse_shape",
    "memref.expand_shape",
)
ALLOC_OPS = ("memref.alloc", "memref.alloca")
SCF_OPS = ("scf.for", "scf.while", "scf.if", "scf.index_switch", "scf.execute_region")


def unsupported(message: str, loc: Location) -> LoomError:
    return LoomError(message, loc, UNSUPPORTED)


@dataclass(eq=False)
class Domain:
    """One root buffer and its independent ctrl-done ordering network."""

    ident: int
    kind: str  # "arg" (extmemory), "alloc" or "global" (handshake.memory)
    type: MemRefType
    name: str  # readable name (argument name, alloc result name or global symbol)
    value: Optional[Value] = None  # the function argument (arg) or the alloc result (alloc)
    symbol: Optional[str] = None  # the global's symbol (global)
    loc: Optional[Location] = None


@dataclass(eq=False)
class MemoryAnalysis:
    """Root domain of every memref value and access, and the domains each SCF op touches."""

    func: Operation
    domains: list[Domain] = field(default_factory=list)
    _by_key: dict[object, Domain] = field(default_factory=dict)
    _touched: dict[int, tuple[Domain, ...]] = field(default_factory=dict)
    _arg_names: dict[int, str] = field(default_factory=dict)

    @staticmethod
    def build(func: Operation, arg_names: Sequence[str]) -> "MemoryAnalysis":
        ma = MemoryAnalysis(func)
        entry = func.regions[0].entry
        ma._arg_names = {id(a): n for a, n in zip(entry.args, arg_names)}
        for op in entry.ops:
            ma._visit(op)
        return ma

    def _visit(self, op: Operation) -> set[int]:
        """Register domains in source order; returns the idents touched under ``op``."""
        found: set[int] = set()
        if op.name in ("memref.load", "memref.store"):
            mem = op.operands[0] if op.name == "memref.load" else op.operands[1]
            found.add(self.domain_of(mem, op.loc).ident)
        if statically_skipped(op):  # never lowered: its accesses touch nothing
            return found
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    found |= self._visit(inner)
        if op.name in SCF_OPS:
            self._touched[id(op)] = tuple(self.domains[i] for i in sorted(found))
        return found

    def touched(self, op: Operation) -> tuple[Domain, ...]:
        """Domains accessed anywhere inside the SCF op ``op``, by ident."""
        return self._touched.get(id(op), ())

    def domain_of(self, memref: Value, loc: Location) -> Domain:
        root = root_of(memref, loc)
        if isinstance(root, BlockArgument):
            key: object = ("arg", id(root))
            kind, name, sym = "arg", self._arg_names.get(id(root), root.name_hint or f"arg{root.index}"), None
            rloc = loc
        else:
            rop = root.op
            rloc = rop.loc
            if rop.name == "memref.get_global":
                ref = rop.attributes.get("name")
                sym = ref.root if isinstance(ref, SymbolRefAttr) else str(ref)
                key, kind, name = ("global", sym), "global", sym
            else:
                key, kind, name, sym = ("alloc", id(root)), "alloc", root.name_hint or "mem", None
                t = root.type
                if isinstance(t, MemRefType) and any(d is None for d in t.shape):
                    raise unsupported(
                        f"'{rop.name}' with a dynamic size is not supported here: a handshake.memory "
                        f"needs a static shape, and the host passes in only a buffer whose size the "
                        f"arguments give (in a loop, one that never leaves its iteration)",
                        rop.loc,
                    )
        dom = self._by_key.get(key)
        if dom is None:
            t = root.type
            assert isinstance(t, MemRefType)
            if t.rank == 0:
                raise unsupported(
                    f"rank-0 memref {t} is not supported: a memory interface needs addresses", loc
                )
            dom = Domain(len(self.domains), kind, t, name, root if kind != "global" else None, sym, rloc)
            self.domains.append(dom)
            self._by_key[key] = dom
        return dom


def root_of(memref: Value, loc: Location) -> Value:
    """Strip view ops down to the buffer: a function argument or an alloc/get_global result."""
    v = memref
    while True:
        if isinstance(v, BlockArgument):
            owner = v.block.parent_op
            if owner is not None and owner.name == "func.func":
                return v
            where = owner.name if owner is not None else "a block"
            raise unsupported(
                f"memref accessed through an argument of '{where}': loom needs the accessed "
                f"buffer to be statically known (a function argument, alloc or global)",
                loc,
            )
        op = v.op if isinstance(v, OpResult) else None
        if op is None:
            raise unsupported("memref without a defining op", loc)
        if op.name in VIEW_OPS:
            v = op.operands[0]
            continue
        if op.name in ALLOC_OPS or op.name == "memref.get_global":
            return v
        raise unsupported(
            f"memref produced by '{op.name}' is not supported: loom needs the accessed buffer to "
            f"be statically known (a function argument, alloc or global, through views)",
            op.loc,
        )


# ----------------------------------------------------------------------------- address arithmetic

Idx = Union[int, Value]  # a static index or a DFG value of type index


class IndexScope(Protocol):
    """What view address arithmetic needs from the region being lowered."""

    def lookup(self, v: Value) -> Value: ...

    def index_const(self, value: int, loc: Location) -> Value: ...

    def emit_index(self, name: str, lhs: Value, rhs: Value, loc: Location) -> Value: ...


class _Math:
    """Index arithmetic with folding of static operands (no op for +0, *1, /1)."""

    def __init__(self, scope: IndexScope, loc: Location) -> None:
        self.s = scope
        self.loc = loc

    def val(self, x: Idx) -> Value:
        return self.s.index_const(x, self.loc) if isinstance(x, int) else x

    def add(self, a: Idx, b: Idx) -> Idx:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if isinstance(a, int) and a == 0:
            return b
        if isinstance(b, int) and b == 0:
            return a
        return self.s.emit_index("arith.addi", self.val(a), self.val(b), self.loc)

    def mul(self, a: Idx, b: Idx) -> Idx:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        for x, y in ((a, b), (b, a)):
            if isinstance(x, int) and x == 1:
                return y
            if isinstance(x, int) and x == 0:
                return 0
        return self.s.emit_index("arith.muli", self.val(a), self.val(b), self.loc)

    def divu(self, a: Idx, b: Idx) -> Idx:
        if isinstance(b, int) and b == 1:
            return a
        if isinstance(a, int) and isinstance(b, int):
            return a // b
        return self.s.emit_index("arith.divui", self.val(a), self.val(b), self.loc)

    def remu(self, a: Idx, b: Idx) -> Idx:
        if isinstance(b, int) and b == 1:
            return 0
        if isinstance(a, int) and isinstance(b, int):
            return a % b
        return self.s.emit_index("arith.remui", self.val(a), self.val(b), self.loc)


def _static(op: Operation, attr: str) -> list[int]:
    a = op.attributes.get(attr)
    if isinstance(a, DenseArrayAttr):
        return [int(x) for x in a.values]
    if isinstance(a, ArrayAttr):
        return [int(x.value) for x in a.elements if isinstance(x, IntegerAttr)]
    raise unsupported(f"'{op.name}' lacks its '{attr}' attribute", op.loc)


def _mixed(op: Operation, scope: IndexScope) -> tuple[list[Idx], list[Idx], list[Idx]]:
    """(offsets, sizes, strides) of a subview/reinterpret_cast: static ints or looked-up dynamic operands."""
    dyn = list(op.operands[1:])
    out: list[list[Idx]] = []
    for attr in ("static_offsets", "static_sizes", "static_strides"):
        vals: list[Idx] = []
        for s in _static(op, attr):
            if s == K_DYNAMIC:
                if not dyn:
                    raise unsupported(
                        f"'{op.name}' has fewer dynamic operands than its static_* attributes say", op.loc
                    )
                vals.append(scope.lookup(dyn.pop(0)))
            else:
                vals.append(s)
        out.append(vals)
    return out[0], out[1], out[2]


def _groups(op: Operation) -> list[list[int]]:
    a = op.attributes.get("reassociation")
    if not isinstance(a, ArrayAttr):
        raise unsupported(f"'{op.name}' lacks its 'reassociation' attribute", op.loc)
    groups = []
    for g in a.elements:
        if not isinstance(g, ArrayAttr):
            raise unsupported(f"'{op.name}' has a malformed 'reassociation' attribute", op.loc)
        groups.append([int(x.value) for x in g.elements if isinstance(x, IntegerAttr)])
    return groups


def _static_dim(t: MemRefType, d: int, op: Operation, why: str) -> int:
    s = t.shape[d]
    if s is None:
        raise unsupported(f"'{op.name}': {why} needs the static size of dimension {d} of {t}", op.loc)
    return s


def _delinearize(m: _Math, linear: Idx, t: MemRefType, op: Operation, dims: Sequence[int]) -> list[Idx]:
    """Row-major indices over ``dims`` of ``t`` for a linear position (inner sizes must be static)."""
    out: list[Idx] = []
    rest = linear
    for k, d in enumerate(reversed(dims)):
        if k == len(dims) - 1:
            out.append(rest)
            break
        size = _static_dim(t, d, op, "delinearizing an address")
        out.append(m.remu(rest, size))
        rest = m.divu(rest, size)
    return list(reversed(out))


def root_indices(scope: IndexScope, memref: Value, indices: Sequence[Value], loc: Location) -> list[Value]:
    """The indices into the root buffer of an access ``memref[indices]`` (ops emitted in ``scope``)."""
    m = _Math(scope, loc)
    idx: list[Idx] = list(indices)
    v = memref
    while True:
        op = v.op if isinstance(v, OpResult) else None
        if op is None or op.name not in VIEW_OPS:
            break
        src = op.operands[0]
        src_t = src.type
        if not isinstance(src_t, MemRefType):
            raise unsupported(f"'{op.name}' on a non-memref operand", op.loc)
        if op.name in IDENTITY_VIEWS:
            pass
        elif op.name == "memref.subview":
            idx = _through_subview(m, scope, op, idx)
        elif op.name == "memref.collapse_shape":
            new = []
            for g, c in zip(_groups(op), idx):
                new.extend(_delinearize(m, c, src_t, op, g))
            idx = new
        elif op.name == "memref.expand_shape":
            idx = _through_expand_shape(m, scope, op, v, idx)
        else:  # memref.reinterpret_cast: offset and strides address the root buffer directly
            offsets, _sizes, strides = _mixed(op, scope)
            linear: Idx = offsets[0] if offsets else 0
            for i, st in zip(idx, strides):
                linear = m.add(linear, m.mul(i, st))
            root = root_of(src, loc)
            rt = root.type
            assert isinstance(rt, MemRefType)
            idx = _delinearize(m, linear, rt, op, list(range(rt.rank))) if rt.rank else []
            v = root
            break
        v = src
    return [m.val(i) for i in idx]


def _through_subview(m: _Math, scope: IndexScope, op: Operation, idx: list[Idx]) -> list[Idx]:
    """The indices into a ``memref.subview``'s source: offset plus index times stride, a dropped unit
    dimension at its offset."""
    offsets, sizes, strides = _mixed(op, scope)
    drop = len(sizes) - len(idx)
    new: list[Idx] = []
    it = iter(idx)
    for o, s, st in zip(offsets, sizes, strides):
        if drop > 0 and isinstance(s, int) and s == 1:
            drop -= 1
            new.append(o)
        else:
            i = next(it, None)
            if i is None:
                raise unsupported(
                    "'memref.subview': cannot tell which unit dimensions are dropped", op.loc
                )
            new.append(m.add(o, m.mul(i, st)))
    if drop:
        raise unsupported("'memref.subview': cannot tell which unit dimensions are dropped", op.loc)
    return new


def _through_expand_shape(m: _Math, scope: IndexScope, op: Operation, v: Value, idx: list[Idx]) -> list[Idx]:
    """The indices into a ``memref.expand_shape``'s source: each group of result indices linearised by the
    result's (static or dynamic) sizes."""
    res_t = v.type
    assert isinstance(res_t, MemRefType)
    dyn_sizes = list(op.operands[1:])
    sizes: list[Idx] = []
    for s in res_t.shape:
        if s is None:
            if not dyn_sizes:
                raise unsupported("'memref.expand_shape': missing dynamic output size", op.loc)
            sizes.append(scope.lookup(dyn_sizes.pop(0)))
        else:
            sizes.append(s)
    new = []
    for g in _groups(op):
        acc: Idx = 0
        for d in g:
            acc = m.add(m.mul(acc, sizes[d]), idx[d])
        new.append(acc)
    return new


def dim_of(
    scope: IndexScope, memref: Value, k: int, loc: Location, root_dim: Callable[[Value, int], Value]
) -> Value:
    """The size of dimension ``k`` of ``memref`` in ``scope``: static sizes fold to constants, view sizes
    come from the view's operands, and a dynamic dimension of a root argument is ``root_dim(arg, k)``."""
    m = _Math(scope, loc)
    return m.val(_dim(m, scope, memref, k, loc, root_dim))


def _dim(
    m: _Math, scope: IndexScope, v: Value, k: int, loc: Location, root_dim: Callable[[Value, int], Value]
) -> Idx:
    t = v.type
    if not isinstance(t, MemRefType) or not 0 <= k < t.rank:
        raise unsupported(f"dimension {k} out of range for {t}", loc)
    if t.shape[k] is not None:
        return t.shape[k]
    if isinstance(v, BlockArgument):
        root_of(v, loc)  # rejects block arguments of scf regions
        return root_dim(v, k)
    op = v.op if isinstance(v, OpResult) else None
    if op is None:
        raise unsupported("memref without a defining op", loc)
    if op.name in IDENTITY_VIEWS:
        return _dim(m, scope, op.operands[0], k, loc, root_dim)
    if op.name in ("memref.subview", "memref.reinterpret_cast"):
        _offsets, sizes, _strides = _mixed(op, scope)
        if op.name == "memref.subview":
            drop = len(sizes) - t.rank
            kept = []
            for s in sizes:
                if drop > 0 and isinstance(s, int) and s == 1:
                    drop -= 1
                    continue
                kept.append(s)
            sizes = kept
        return sizes[k]
    if op.name == "memref.expand_shape":
        dyn = [i for i, s in enumerate(t.shape) if s is None]
        return scope.lookup(op.operands[1 + dyn.index(k)])
    if op.name == "memref.collapse_shape":
        acc: Idx = 1
        for d in _groups(op)[k]:
            acc = m.mul(acc, _dim(m, scope, op.operands[0], d, loc, root_dim))
        return acc
    raise unsupported(f"cannot tell the size of a memref produced by '{op.name}'", op.loc)


def global_symbol(op: Operation) -> Optional[str]:
    ref = op.attributes.get("name")
    if isinstance(ref, SymbolRefAttr):
        return ref.root
    if isinstance(ref, StringAttr):
        return ref.value
    return None


__all__ = ["Domain", "MemoryAnalysis", "root_indices", "root_of", "unsupported", "UNSUPPORTED", "index"]
