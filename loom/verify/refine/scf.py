"""Symbolic evaluation of an SCF func.func for the refinement check (the source side).

Walks the function once, in program order: every SSA value gets a term over the
generic-iteration symbols of ``refine_model``, every memref access and returned
value becomes an ``Event`` with its path condition, and every scf.for/scf.while
a ``Frame`` (state = induction variable and iter_args / before-region arguments,
continue condition, next-iteration terms, exit symbols). The semantics written
here is MLIR's (scf.for: ``iv < ub`` signed, or unsigned with ``unsignedCmp``,
``iv += step``), independent of loom's lowering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

import z3

from loom.dialects.memref import DYNAMIC, reassociation, static_list
from loom.ir.attributes import DenseArrayAttr, SymbolRefAttr
from loom.ir.core import BlockArgument, Block, Operation, Value
from loom.ir.types import MemRefType
from loom.runtime import function_arg_names
from loom.verify.lengths.values import Values, symbol
from loom.verify.refine.model import (
    Ctx,
    Event,
    Frame,
    StateVar,
    Unsupported,
    bv64,
    dim_term,
    exit_reads,
    linear,
    load_symbol,
    mentions,
    row_major,
    source_position,
    true,
)

@dataclass
class View:
    """A memref value as an affine map onto its root buffer: linear offset + sum(index * stride)."""

    root: str
    offset: z3.ExprRef
    strides: list[z3.ExprRef]
    sizes: list[z3.ExprRef]


Term = Union[z3.ExprRef, View, Unsupported]


class _Memory:
    """ScfModel's memory: loads and stores as events on a view, and the views (subview, cast, reshape) a
    memref value denotes (a mixin; the state is ScfModel's)."""

    def _access(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        is_load = op.name == "memref.load"
        mem = op.operands[0] if is_load else op.operands[1]
        idx = op.operands[1:] if is_load else op.operands[2:]
        ev = Event("load" if is_load else "store", source_position(op.loc), op, ctx, pc)
        ev.dead = is_load and op.results[0] not in self.used
        try:
            vw = self.view(mem)
            ev.root = vw.root
            ev.addr = linear(vw.offset, vw.strides, [bv64(self.values, self.term(i)) for i in idx])
            if not is_load:
                ev.value = self.term(op.operands[0])
        except Unsupported as e:
            ev.why_not = e.reason
        self.events.append(ev)
        if is_load:
            sym = load_symbol(self.values, source_position(op.loc), op.results[0].type)
            self._own(ctx, sym.decl().name())
            self.labels[sym.decl().name()] = f"load at {op.loc.line}:{op.loc.col}"
            self.env[op.results[0]] = sym

    def _view_op(self, op: Operation) -> View:
        src = self.view(op.operands[0])
        offs, sizes, strides = _mixed(op, self)
        if op.name == "memref.reinterpret_cast":
            # offset and strides address the underlying buffer directly (identity-layout roots)
            return View(src.root, offs[0], strides, sizes)
        offset = linear(src.offset, src.strides, offs)
        new_strides = [z3.simplify(a * b) for a, b in zip(src.strides, strides)]
        t = op.results[0].type
        if isinstance(t, MemRefType) and t.rank < len(sizes):
            keep = _kept_dims(op, sizes, t.rank)
            new_strides = [new_strides[k] for k in keep]
            sizes = [sizes[k] for k in keep]
        return View(src.root, offset, new_strides, sizes)

    def _reshape(self, op: Operation) -> View:
        """collapse_shape merges each group of (contiguous) dims into one; expand_shape splits each dim
        into a group, row-major. Either way the view keeps its root and offset."""
        src = self.view(op.operands[0])
        groups = _groups(op)
        t = op.results[0].type
        if not isinstance(t, MemRefType):
            raise Unsupported(f"{op.name} without a memref result", op)
        if op.name == "memref.collapse_shape":
            strides, sizes = [], []
            for g in groups:
                if not g:
                    raise Unsupported("an empty reassociation group", op)
                strides.append(src.strides[g[-1]])
                size: z3.ExprRef = z3.BitVecVal(1, 64)
                for d in g:
                    size = size * src.sizes[d]
                sizes.append(z3.simplify(size))
            return View(src.root, src.offset, strides, sizes)
        sizes = expand_sizes(op, self, src, groups, t)
        strides = [z3.BitVecVal(0, 64)] * t.rank
        for d, g in enumerate(groups):
            acc = src.strides[d]
            for k in reversed(g):
                strides[k] = z3.simplify(acc)
                acc = acc * sizes[k]
        return View(src.root, src.offset, strides, sizes)


class _Loops:
    """ScfModel's loops: scf.for and scf.while as frames with symbolic state, and what their yields
    carry (a mixin)."""

    def _for(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        lb, ub, step = (self.term(v) for v in op.operands[:3])
        inits = [self.term(v) for v in op.operands[3:]]
        frame = Frame("scf", "for", op, source_position(op.loc), f"scf.for@{op.loc.line}:{op.loc.col}", pc,
                      outer=ctx)
        self.frames.append(frame)
        body = op.regions[0].entry
        inner: Ctx = ctx + ((frame, "body"),)
        iv, *iters = body.args
        tag = f"{op.loc.line}:{op.loc.col}"
        unsigned = "unsignedCmp" in op.attributes
        width = lb.size() if z3.is_bv(lb) else 0
        if 1 < width < 64:
            # the IV runs over the mathematical range lb, lb+step, ... < ub: computed 64 bits wide it never
            # wraps, and every value the body sees fits the IV's type
            ext = (lambda x: z3.ZeroExt(64 - width, x)) if unsigned else (lambda x: z3.SignExt(64 - width, x))
            lb, ub, step = ext(lb), ext(ub), ext(step)
        iv_sym = self._state(frame, ctx, inner, iv, f"iv@{tag}", lb, z3.BitVecSort(64) if 1 < width < 64 else None)
        if 1 < width < 64:
            self.env[iv] = z3.Extract(width - 1, 0, iv_sym)
        syms = [self._state(frame, ctx, inner, a, f"iter{k}@{tag}", init) for k, (a, init) in
                enumerate(zip(iters, inits))]
        frame.cont = z3.ULT(iv_sym, ub) if unsigned else iv_sym < ub
        term = self._block(body, inner, pc)
        frame.state[0].next = iv_sym + step
        self._yields(frame, term, 1, syms)
        for r, s in zip(op.results, frame.state[1:]):
            self.env[r] = s.exit

    def _while(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        inits = [self.term(v) for v in op.operands]
        frame = Frame("scf", "while", op, source_position(op.loc), f"scf.while@{op.loc.line}:{op.loc.col}", pc,
                      outer=ctx)
        self.frames.append(frame)
        before, after = op.regions[0].entry, op.regions[1].entry
        raw: Ctx = ctx + ((frame, "raw"),)
        tag = f"{op.loc.line}:{op.loc.col}"
        syms = [self._state(frame, ctx, raw, a, f"arg{k}@{tag}", init) for k, (a, init) in
                enumerate(zip(before.args, inits))]
        cond_op = self._block(before, raw, pc)
        if cond_op is None or cond_op.name != "scf.condition":
            raise Unsupported("scf.while before-region without scf.condition", op)
        try:
            c = self.term(cond_op.operands[0])
            frame.cont = c if z3.is_bool(c) else c != 0
        except Unsupported as e:
            frame.why_not = e.reason
        fwd = [self._term_or_error(v) for v in cond_op.operands[1:]]
        body: Ctx = ctx + ((frame, "body"),)
        for a, t in zip(after.args, fwd):
            self.env[a] = t
        term = self._block(after, body, pc)
        self._yields(frame, term, 0, syms)
        owned = self.owned.get(frame, set()) - {s.sym.decl().name() for s in frame.state}
        for r, t in zip(op.results, fwd):
            if isinstance(t, Unsupported):
                self.env[r] = t
                continue
            pairs = frame.exit_subst() + exit_reads(t, owned)
            out = z3.substitute(t, *pairs) if pairs else t
            bad = mentions(out, owned)
            self.env[r] = out if bad is None else Unsupported(
                f"the result of {frame.name} depends on a value read in its last condition evaluation", op)

    def _state(self, frame: Frame, outer: Ctx, inner: Ctx, arg: BlockArgument, name: str,
               init: z3.ExprRef, sort: Optional[z3.SortRef] = None) -> z3.ExprRef:
        sym = self._fresh(inner, f"scf:{name}", arg.type, f"{self.name(arg)} (source)", sort)
        ex = self._fresh(outer, f"scf:exit:{name}", arg.type, f"{self.name(arg)} at exit (source)", sort)
        frame.state.append(StateVar(self.name(arg), sym, ex, init))
        self.env[arg] = sym
        return sym

    def _yields(self, frame: Frame, term: Optional[Operation], first: int, syms: list) -> None:
        if term is None or term.name != "scf.yield":
            for s in frame.state[first:]:
                s.why_not = "loop body without scf.yield"
            return
        for s, v in zip(frame.state[first:], term.operands):
            try:
                s.next = self.term(v)
            except Unsupported as e:
                s.why_not = e.reason

    def _term_or_error(self, v: Value) -> Term:
        try:
            return self.term(v)
        except Unsupported as e:
            return e


class _Branches:
    """ScfModel's branches: scf.index_switch and scf.if as ite terms (a mixin)."""

    def _switch(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """``scf.index_switch``: case k runs when the value equals its case (cases are distinct), the
        default region (region 0) when none does."""
        x = self.term(op.operands[0])
        cases = op.attributes.get("cases")
        values = [int(v) for v in cases.values] if isinstance(cases, DenseArrayAttr) else []
        if len(values) + 1 != len(op.regions) or not z3.is_bv(x):
            raise Unsupported("a malformed scf.index_switch", op)
        conds = [x == z3.BitVecVal(v, x.size()) for v in values]
        default = z3.Not(z3.Or(*conds)) if conds else z3.BoolVal(True)
        outs: list[list[Term]] = []
        for region, c in zip(op.regions, [default, *conds]):
            term = self._block(region.entry, ctx, z3.And(pc, c))
            outs.append([self._term_or_error(v) for v in (term.operands if term is not None else [])])
        for k, r in enumerate(op.results):
            picked = [o[k] if k < len(o) else Unsupported("missing yield", op) for o in outs]
            bad = next((t for t in picked if isinstance(t, Unsupported)), None)
            if bad is not None:
                self.env[r] = bad
                continue
            out = picked[0]
            for c, t in zip(reversed(conds), reversed(picked[1:])):
                out = z3.If(c, t, out)
            self.env[r] = out

    def _if(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        c = self.term(op.operands[0])
        c = c if z3.is_bool(c) else c != 0
        outs: list[list[Term]] = []
        for region, branch_pc in zip(op.regions, (z3.And(pc, c), z3.And(pc, z3.Not(c)))):
            if not region.blocks:
                outs.append([])
                continue
            term = self._block(region.entry, ctx, branch_pc)
            yielded = term.operands if term is not None and term.name == "scf.yield" else []
            outs.append([self._term_or_error(v) for v in yielded])
        for k, r in enumerate(op.results):
            a = outs[0][k] if len(outs) > 0 and k < len(outs[0]) else Unsupported("missing then-yield", op)
            b = outs[1][k] if len(outs) > 1 and k < len(outs[1]) else Unsupported("missing else-yield", op)
            self.env[r] = a if isinstance(a, Unsupported) else b if isinstance(b, Unsupported) else z3.If(c, a, b)


class ScfModel(_Memory, _Loops, _Branches):
    """The source function's frames, events and return terms (see the module docstring): the values and the
    walk over ops here, memory accesses and views, loops and branches by the mixins above."""

    def __init__(self, func: Operation, values: Values, names: Optional[dict[Value, str]] = None) -> None:
        self.func = func
        self.values = values
        self.names = names or {}
        self.env: dict[Value, Term] = {}
        self.frames: list[Frame] = []
        self.events: list[Event] = []
        self.owned: dict[Frame, set[str]] = {}
        self.labels: dict[str, str] = {}  # symbol name -> readable name
        self.used: set[Value] = {v for op in func.walk() for v in op.operands}
        names = function_arg_names(func)
        for a, n in zip(func.regions[0].entry.args, names):
            if isinstance(a.type, MemRefType):
                self.env[a] = View(f"arg:{n}", z3.BitVecVal(0, 64), row_major(values, f"arg:{n}", a.type),
                                   [dim_term(values, f"arg:{n}", a.type, k) for k in range(a.type.rank)])
            else:
                self.env[a] = z3.Const(symbol(f"arg:{n}"), values.sort(a.type))
                self.labels[symbol(f"arg:{n}")] = n
        self._block(func.regions[0].entry, (), true())

    # ------------------------------------------------------------------ helpers
    def name(self, v: Value) -> str:
        return self.names.get(v) or "%" + (v.name_hint or "?")

    def term(self, v: Value) -> z3.ExprRef:
        t = self.env.get(v)
        if t is None:
            raise Unsupported(f"{self.name(v)} has no value here")
        if isinstance(t, Unsupported):
            raise t
        if isinstance(t, View):
            raise Unsupported(f"{self.name(v)} is a memref used as a value")
        return t

    def view(self, v: Value) -> View:
        t = self.env.get(v)
        if isinstance(t, Unsupported):
            raise t
        if not isinstance(t, View):
            raise Unsupported(f"{self.name(v)} is not a memref loom can follow to its root buffer")
        return t

    def _own(self, ctx: Ctx, name: str) -> None:
        for f, _ in ctx:
            self.owned.setdefault(f, set()).add(name)

    def _fresh(self, ctx: Ctx, name: str, t, label: str, sort: Optional[z3.SortRef] = None) -> z3.ExprRef:
        c = z3.Const(symbol(name), sort if sort is not None else self.values.sort(t))
        self._own(ctx, symbol(name))
        self.labels[symbol(name)] = label
        return c

    # ------------------------------------------------------------------ walk
    def _block(self, block: Block, ctx: Ctx, pc: z3.BoolRef) -> Optional[Operation]:
        for op in block.ops:
            try:
                self._op(op, ctx, pc)
            except Unsupported as e:
                for r in op.results:
                    self.env[r] = e if e.op is not None else Unsupported(e.reason, op)
        return block.terminator

    def _op(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """Interpret one SCF-side op under path condition ``pc``: results and memory accesses become events,
        regions recurse, memref ops make views, arith/math ops terms; any other op is Unsupported."""
        name = op.name
        if name in ("scf.yield", "scf.condition"):
            return
        if name == "func.return":
            self._return(op, ctx, pc)
            return
        if name == "scf.for":
            self._for(op, ctx, pc)
            return
        if name == "scf.while":
            self._while(op, ctx, pc)
            return
        if name == "scf.if":
            self._if(op, ctx, pc)
            return
        if name == "scf.index_switch":
            self._switch(op, ctx, pc)
            return
        if name == "scf.execute_region":
            if len(op.regions[0].blocks) != 1:
                raise Unsupported("scf.execute_region with several blocks", op)
            term = self._block(op.regions[0].entry, ctx, pc)
            for r, v in zip(op.results, term.operands if term is not None else []):
                self.env[r] = self._term_or_error(v)
            return
        if name in ("memref.load", "memref.store"):
            self._access(op, ctx, pc)
            return
        if op.dialect == "memref" and self._memref_view(op):
            return
        if op.dialect in ("arith", "math", "ub"):  # ub.poison: loom fixes poison to zero, as its interpreter does
            args = [self.term(v) for v in op.operands]
            for r, t in zip(op.results, self.values.scalar(op, args)):
                self.env[r] = t
            return
        raise Unsupported(f"'{name}' is outside what the refinement check models", op)

    def _return(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """``func.return``: one result event per operand (its term, or why it has none)."""
        for k, v in enumerate(op.operands):
            ev = Event("result", k, op, ctx, pc)
            try:
                ev.value = self.term(v)
            except Unsupported as e:
                ev.why_not = e.reason
            self.events.append(ev)

    def _memref_view(self, op: Operation) -> bool:
        """A memref op other than an access: a size (``memref.dim``), a view of a view, or a fresh root buffer
        (``dealloc``: nothing); False for any other op."""
        name = op.name
        if name == "memref.dim":
            vw = self.view(op.operands[0])
            k = z3.simplify(self.term(op.operands[1]))
            if not z3.is_bv_value(k) or k.as_long() >= len(vw.sizes):
                raise Unsupported("memref.dim with a non-constant or out-of-range dimension", op)
            self.env[op.results[0]] = vw.sizes[k.as_long()]
            return True
        if name in ("memref.cast", "memref.assume_alignment"):
            if op.results:  # assume_alignment has no result in older MLIR
                self.env[op.results[0]] = self.view(op.operands[0])
            return True
        if name in ("memref.subview", "memref.reinterpret_cast"):
            self.env[op.results[0]] = self._view_op(op)
            return True
        if name in ("memref.collapse_shape", "memref.expand_shape"):
            self.env[op.results[0]] = self._reshape(op)
            return True
        if name in ("memref.alloc", "memref.alloca", "memref.get_global"):
            t = op.results[0].type
            if not isinstance(t, MemRefType) or any(s is None for s in t.shape):
                raise Unsupported(f"{name} with a dynamic shape", op)
            root = _root_name(op)
            self.env[op.results[0]] = View(root, z3.BitVecVal(0, 64), row_major(self.values, root, t),
                                           [z3.BitVecVal(s, 64) for s in t.shape])
            return True
        return name == "memref.dealloc"

def _root_name(op: Operation) -> str:
    if op.name == "memref.get_global":
        a = op.attributes.get("name")
        if isinstance(a, SymbolRefAttr):
            return f"global:{a}"
    return f"alloc@{source_position(op.loc)}"


def _mixed(op: Operation, model: ScfModel) -> tuple[list, list, list]:
    """(offsets, sizes, strides) of a subview/reinterpret_cast as 64-bit terms."""
    dyn = iter(op.operands[1:])
    out = []
    for attr in ("static_offsets", "static_sizes", "static_strides"):
        statics = static_list(op, attr)
        if statics is None:
            raise Unsupported(f"{op.name} without an integer '{attr}' attribute", op)
        terms = []
        for s in statics:
            if s == DYNAMIC:
                terms.append(bv64(model.values, model.term(next(dyn))))
            else:
                terms.append(z3.BitVecVal(s, 64))
        out.append(terms)
    return out[0], out[1], out[2]


def expand_sizes(op: Operation, model: ScfModel, src: View, groups: list[list[int]], t: MemRefType) -> list:
    """An expand_shape's output sizes as 64-bit terms, as the interpreter computes them: the ``output_shape``
    operands, or (the older form without them) each group's one dynamic size inferred as the source
    dimension over the product of the group's static sizes."""
    static = static_list(op, "static_output_shape") if "static_output_shape" in op.attributes else None
    if static is None:
        if "static_output_shape" in op.attributes:
            raise Unsupported(f"{op.name} with a malformed 'static_output_shape' attribute", op)
        static = [DYNAMIC if s is None else s for s in t.shape]
        dyn: list = []
    else:
        dyn = list(op.operands[1:])
    if len(static) != t.rank or len(groups) != len(src.sizes):
        raise Unsupported(f"{op.name} whose shape does not match its groups", op)
    holes = [i for i, v in enumerate(static) if v == DYNAMIC]
    out: list = [None if v == DYNAMIC else z3.BitVecVal(v, 64) for v in static]
    if len(dyn) >= len(holes):
        for k, i in enumerate(holes):
            out[i] = bv64(model.values, model.term(dyn[k]))
        return out
    for d, g in enumerate(groups):
        unknown = [k for k in g if out[k] is None]
        known = 1
        for k in g:
            if out[k] is not None:
                known *= static[k]
        if len(unknown) > 1 or (unknown and known == 0):
            raise Unsupported(f"{op.name} whose output shape cannot be inferred", op)
        if unknown:
            out[unknown[0]] = z3.simplify(z3.UDiv(src.sizes[d], z3.BitVecVal(known, 64)))
    return out


def _groups(op: Operation) -> list[list[int]]:
    groups = reassociation(op)
    if groups is None:
        raise Unsupported(f"{op.name} without a well-formed 'reassociation' attribute", op)
    return groups


def _kept_dims(op: Operation, sizes: list, rank: int) -> list[int]:
    """Dimensions a rank-reducing subview keeps: drop static unit sizes, leftmost first."""
    drop = len(sizes) - rank
    keep = []
    for k, s in enumerate(sizes):
        if drop and z3.is_bv_value(s) and s.as_long() == 1:
            drop -= 1
            continue
        keep.append(k)
    if drop:
        raise Unsupported("a rank-reducing subview whose dropped dimensions are not static unit sizes", op)
    return keep

