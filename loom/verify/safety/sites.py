"""Where an SCF function can stop with a runtime error: one ``Site`` per op and kind of fault.

``SafetyModel`` is the refinement check's symbolic evaluation of the source
(``loom.verify.refine.scf.ScfModel``: generic-iteration symbols for loop state,
path conditions, views resolved to their root buffers) with, for every op that
MLIR's semantics can leave undefined, the condition under which it does:

* ``memref.load``/``store``: some index is not below its dimension (``bounds``);
* ``memref.subview``: the window leaves its source view (``bounds``);
* ``memref.reinterpret_cast``: a negative size (``shape``), or the window leaves its buffer (``bounds``);
* ``memref.expand_shape``/``collapse_shape``: a group's sizes do not multiply to the source dimension, or
  the dimensions collapsed are not contiguous (``shape``);
* ``memref.cast``: a static size of the result type differs from the operand's size (``shape``);
* ``memref.copy`` (seen as the loop nest ``loom.lower.expand_copy`` makes of it): the source's and the target's
  sizes differ (``shape``);
* ``scf.for``: the step is not positive (``step``);
* every scalar op with rules in ``loom.semantics.undefined`` (``divzero``, ``overflow``, ``wrap``, ``shift``,
  ``cast``), each condition being the rule's Z3 term over the operand terms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import z3

from loom.ir.core import Operation
from loom.ir.types import MemRefType
from loom.lower.expand_copy import COPY_MARK
from loom.semantics.undefined import ub_rules
from loom.verify.ids import oid as obligation_id
from loom.verify.refine.model import Ctx, Frame, Unsupported, bv64, dim_term, source_position
from loom.verify.refine.scf import ScfModel, View, _groups, _mixed, expand_sizes

OOB = "RT_MEMREF_OUT_OF_BOUNDS"
BAD_VIEW = "RT_MEMREF_BAD_VIEW"
CAST_MISMATCH = "RT_MEMREF_CAST_MISMATCH"
FOR_STEP = "RT_SCF_FOR_STEP"


@dataclass(eq=False)
class Site:
    """One possible runtime error: op, kind, the condition (over the model's symbols) under which it happens."""

    op: Operation
    what: str  # bounds | shape | step | divzero | overflow | wrap | shift | cast
    code: str  # the runtime error the SCF interpreter stops with
    message: str
    ctx: Ctx
    pc: z3.BoolRef
    bad: Optional[z3.BoolRef] = None  # the error condition (None: why_not says why there is none)
    why_not: str = ""
    show: dict = field(default_factory=dict)  # name -> term, printed in a counterexample
    also_at: tuple = ()  # other locations a run may report the error at (a DFG access's memory port)
    op_name: str = ""  # the op the source has there, when the model sees its expansion (memref.copy)

    @property
    def oid(self) -> str:
        loc = source_position(self.op.loc)
        return obligation_id("safe", (self.op_name or self.op.name).split(".", 1)[-1], (loc.line, loc.col), self.what)


@dataclass(eq=False)
class ForLoop:
    """What an scf.for's body may rely on: 64-bit bounds and step as the source model computes them."""

    frame: Frame
    lb: z3.BitVecRef
    ub: z3.BitVecRef
    step: z3.BitVecRef
    unsigned: bool
    step_checked: bool = True  # a run reaches the body only with a positive step (scf.for); False for a stream


class SafetyModel(ScfModel):
    """``ScfModel`` plus the ``Site`` of every op that can fail at run time (see the module docstring)."""

    def __init__(self, func: Operation, values, names=None) -> None:
        self.sites: list[Site] = []
        self.for_loops: dict[Frame, ForLoop] = {}
        self.load_roots: dict[str, str] = {}  # load symbol name -> root buffer it reads
        self.load_terms: dict[str, z3.ExprRef] = {}  # load symbol name -> its term
        # root buffer -> its dimensions (a reinterpret_cast's window is checked against the whole buffer)
        self.root_sizes: dict[str, list[z3.ExprRef]] = {
            f"arg:{n}": [dim_term(values, f"arg:{n}", t, k) for k in range(t.rank)] for n, t in memref_args(func)}
        super().__init__(func, values, names)

    def _op(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        name = op.name
        if name in ("memref.load", "memref.store"):
            self._bounds(op, ctx, pc)
        elif name == "memref.subview":
            self._window(op, ctx, pc)
        elif name == "memref.reinterpret_cast":
            self._reinterpret(op, ctx, pc)
        elif name == "memref.expand_shape":
            self._expand(op, ctx, pc)
        elif name == "memref.collapse_shape":
            self._collapse(op, ctx, pc)
        elif name == "memref.cast":
            self._cast(op, ctx, pc)
        elif name == "scf.for":
            if COPY_MARK in op.attributes:
                self._copy(op, ctx, pc)
            self._step(op, ctx, pc)
        elif op.dialect in ("arith", "math"):
            self._scalar(op, ctx, pc)
        before = len(self.frames)
        super()._op(op, ctx, pc)
        if name == "scf.for" and len(self.frames) > before:
            self._for_facts(op, self.frames[before])
        if name in ("memref.alloc", "memref.alloca", "memref.get_global"):
            vw = self.env.get(op.results[0])
            if isinstance(vw, View):
                self.root_sizes[vw.root] = list(vw.sizes)
        if name == "memref.load" and op.results:
            e = self.env.get(op.results[0])
            if isinstance(e, z3.ExprRef) and z3.is_const(e):
                try:
                    self.load_roots[e.decl().name()] = self.view(op.operands[0]).root
                    self.load_terms[e.decl().name()] = e
                except Unsupported:
                    pass

    # ------------------------------------------------------------------ sites
    def _site(self, op: Operation, what: str, code: str, message: str, ctx: Ctx, pc: z3.BoolRef,
              build, op_name: str = "") -> None:
        site = Site(op, what, code, message, ctx, pc, op_name=op_name)
        try:
            site.bad, site.show = build()
        except Unsupported as e:
            site.why_not = e.reason
        self.sites.append(site)

    def _bounds(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        is_load = op.name == "memref.load"
        mem = op.operands[0] if is_load else op.operands[1]
        idx = op.operands[1:] if is_load else op.operands[2:]

        def build():
            vw = self.view(mem)
            if len(vw.sizes) != len(idx):
                raise Unsupported(f"{len(idx)} indices for a rank-{len(vw.sizes)} view", op)
            show = {}
            out = []
            for k, (i, size) in enumerate(zip(idx, vw.sizes)):
                it = bv64(self.values, self.term(i))
                show[f"index{k}"], show[f"dim{k}"] = it, size
                out.append(z3.UGE(it, size))  # a negative index is a huge unsigned pattern, as at run time
            return any_of(out), show

        self._site(op, "bounds", OOB, "an index is not below its dimension", ctx, pc, build)

    def _window(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """A subview's window: each used dimension's last element inside the source's dimension
        (``offset + (size - 1) * stride < source size`` when ``size > 0``), sizes and offsets non-negative."""

        def build():
            src = self.view(op.operands[0])
            offs, sizes, strides = _mixed(op, self)  # Unsupported when its static lists are malformed
            if not (len(offs) == len(sizes) == len(strides) == len(src.sizes)):
                raise Unsupported("a subview whose rank differs from its source's", op)
            out, show = [], {}
            for k, (o, s, st, dim) in enumerate(zip(offs, sizes, strides, src.sizes)):
                show[f"offset{k}"], show[f"size{k}"], show[f"stride{k}"], show[f"dim{k}"] = o, s, st, dim
                # the interpreter's test (loom.runtime.memory.MemRefView.subview) over unbounded integers
                O, S, ST, D = (z3.SignExt(66, x) for x in (o, s, st, dim))
                last = O + (S - 1) * ST
                out.append(z3.Or(S < 0, O < 0, z3.And(S > 0, z3.Or(last >= D, last < 0)), z3.And(S == 0, O > D)))
            return any_of(out), show

        self._site(op, "bounds", BAD_VIEW, "the view's window does not fit its source", ctx, pc, build)

    def _reinterpret(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """A reinterpret_cast's sizes are non-negative (``shape``) and, when it has elements, the lowest and
        highest element it reaches (``offset`` plus each negative or positive ``(size - 1) * stride``) lie in
        its root buffer (``bounds``): the interpreter's ``MemRefView.reinterpret`` over unbounded integers."""

        def parts():
            src = self.view(op.operands[0])
            offs, sizes, strides = _mixed(op, self)
            if len(offs) != 1 or len(sizes) != len(strides):
                raise Unsupported("a reinterpret_cast without one offset and a stride per size", op)
            buf = self.root_sizes.get(src.root)
            if buf is None:
                raise Unsupported(f"the size of buffer '{src.root}' is not known here", op)
            return offs[0], sizes, strides, buf

        def negative():
            _, sizes, _, _ = parts()
            return any_of([s < 0 for s in sizes]), {f"size{k}": s for k, s in enumerate(sizes)}

        def outside():
            off, sizes, strides, buf = parts()
            w = 64 * (max(len(buf), len(sizes)) + 1) + 8  # no product or sum of 64-bit values wraps
            wide = lambda x: _wide(x, w)  # noqa: E731
            lo = hi = wide(off)
            for s, st in zip(sizes, strides):
                ext = (wide(s) - 1) * wide(st)
                lo, hi = lo + z3.If(ext < 0, ext, 0), hi + z3.If(ext > 0, ext, 0)
            total = z3.BitVecVal(1, w)
            for d in buf:
                total = total * wide(d)
            show = {"offset": off, **{f"size{k}": s for k, s in enumerate(sizes)},
                    **{f"stride{k}": st for k, st in enumerate(strides)},
                    **{f"buffer_dim{k}": d for k, d in enumerate(buf)}}
            nonempty = z3.And(*[s > 0 for s in sizes]) if sizes else z3.BoolVal(True)
            return z3.And(nonempty, z3.Or(lo < 0, hi >= total)), show

        self._site(op, "shape", BAD_VIEW, "a size is negative", ctx, pc, negative)
        self._site(op, "bounds", OOB, "the view reaches outside its buffer", ctx, pc, outside)

    def _expand(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """Each group of an expand_shape's output sizes multiplies to its source dimension (unbounded
        integers, as the interpreter's ``MemRefView.expand`` checks)."""

        def build():
            src = self.view(op.operands[0])
            t = op.results[0].type
            if not isinstance(t, MemRefType):
                raise Unsupported(f"{op.name} without a memref result", op)
            groups = _groups(op)
            out = expand_sizes(op, self, src, groups, t)
            bad, show = [], {}
            for d, g in enumerate(groups):
                w = 64 * (len(g) + 1)
                prod = z3.BitVecVal(1, w)
                for k in g:
                    prod = prod * _wide(out[k], w)
                    show[f"size{k}"] = out[k]
                show[f"source_dim{d}"] = src.sizes[d]
                bad.append(prod != _wide(src.sizes[d], w))
            return any_of(bad), show

        self._site(op, "shape", BAD_VIEW, "a group's sizes do not multiply to its source dimension", ctx, pc,
                   build)

    def _collapse(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """The dimensions of each collapse_shape group are contiguous: ``stride[d] == stride[d+1] * size[d+1]``
        wherever both sizes exceed 1 (the interpreter's ``MemRefView.collapse``)."""

        def build():
            src = self.view(op.operands[0])
            bad, show = [], {}
            for g in _groups(op):
                for a, b in zip(g, g[1:]):
                    show.update({f"size{a}": src.sizes[a], f"size{b}": src.sizes[b],
                                 f"stride{a}": src.strides[a], f"stride{b}": src.strides[b]})
                    stride_a, stride_b, size_b = (_wide(x, 136)
                                                  for x in (src.strides[a], src.strides[b], src.sizes[b]))
                    bad.append(z3.And(src.sizes[b] > 1, src.sizes[a] > 1, stride_a != stride_b * size_b))
            return any_of(bad), show

        self._site(op, "shape", BAD_VIEW, "the dimensions collapsed are not contiguous", ctx, pc, build)

    def _cast(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """A memref.cast to a static size holds a memref of that size (the interpreter's shape check)."""

        def build():
            src = self.view(op.operands[0])
            t = op.results[0].type
            if not isinstance(t, MemRefType) or t.rank != len(src.sizes):
                raise Unsupported("a memref.cast whose rank differs from its operand's", op)
            bad = [d != z3.BitVecVal(s, 64) for s, d in zip(t.shape, src.sizes) if s is not None]
            return any_of(bad), {f"dim{k}": d for k, d in enumerate(src.sizes)}

        self._site(op, "shape", CAST_MISMATCH, "the memref's size is not the static size cast to", ctx, pc, build)

    def _copy(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        """A memref.copy's operands have the same sizes (the interpreter's check): the copy's loop nest reads
        the source with its one load and writes the target with its one store."""

        def build():
            loads = [o for o in op.walk() if o.name == "memref.load"]
            stores = [o for o in op.walk() if o.name == "memref.store"]
            if len(loads) != 1 or len(stores) != 1:
                raise Unsupported("a copy's loop nest without one load and one store", op)
            src, dst = self.view(loads[0].operands[0]), self.view(stores[0].operands[1])
            if len(src.sizes) != len(dst.sizes):
                return z3.BoolVal(True), {}
            show = {**{f"source_dim{k}": d for k, d in enumerate(src.sizes)},
                    **{f"target_dim{k}": d for k, d in enumerate(dst.sizes)}}
            return any_of([a != b for a, b in zip(src.sizes, dst.sizes)]), show

        self._site(op, "shape", CAST_MISMATCH, "the copy's source and target sizes differ", ctx, pc, build,
                   op_name="memref.copy")

    def _step(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        unsigned = "unsignedCmp" in op.attributes

        def build():
            step = self.term(op.operands[2])
            if not z3.is_bv(step):
                raise Unsupported("a non-integer step", op)
            return (step == 0 if unsigned else step <= 0), {"step": step}

        self._site(op, "step", FOR_STEP, "the step is not positive", ctx, pc, build)

    def _scalar(self, op: Operation, ctx: Ctx, pc: z3.BoolRef) -> None:
        rules, sig = ub_rules(op.name, op.attributes, [v.type for v in op.operands], [r.type for r in op.results])
        for rule in rules:
            def build(rule=rule):
                if rule.what == "cast" and _cast_fits(op):  # floats are abstract: an interval of the operand
                    return z3.BoolVal(False), {}
                args = [self.term(v) for v in op.operands]
                show = {f"operand{k}": a for k, a in enumerate(args) if z3.is_bv(a) or z3.is_bool(a)}
                return rule.term(args, sig), show

            self._site(op, rule.what, rule.code, rule.message, ctx, pc, build)

    def _for_facts(self, op: Operation, frame: Frame) -> None:
        """Remember an scf.for's bounds and step, widened to 64 bits as ``ScfModel._for`` widens them."""
        try:
            lb, ub, step = (self.term(v) for v in op.operands[:3])
        except Unsupported:
            return
        if not all(z3.is_bv(x) for x in (lb, ub, step)):
            return
        unsigned = "unsignedCmp" in op.attributes
        w = lb.size()
        if w < 64:
            ext = (lambda x: z3.ZeroExt(64 - w, x)) if unsigned else (lambda x: z3.SignExt(64 - w, x))
            lb, ub, step = ext(lb), ext(ub), ext(step)
        elif w > 64:
            return
        self.for_loops[frame] = ForLoop(frame, lb, ub, step, unsigned)


def any_of(xs: list) -> z3.BoolRef:
    """The disjunction of ``xs``, never a one-argument ``or`` (not SMT-LIB: the archived script must parse in
    every solver)."""
    return xs[0] if len(xs) == 1 else z3.Or(*xs) if xs else z3.BoolVal(False)


def _wide(x: z3.BitVecRef, bits: int) -> z3.BitVecRef:
    """``x`` sign-extended to ``bits`` bits: wide enough that the products and sums of a view check do not wrap
    (the interpreter computes them over unbounded integers)."""
    return z3.SignExt(bits - x.size(), x)


def _cast_fits(op: Operation) -> bool:
    """An fptosi/fptoui whose operand's interval (``float_range``) converts without leaving the result type."""
    from loom.semantics.scalar import width_of
    from loom.verify.safety.float_range import fits, float_range

    w = width_of(op.results[0].type)
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if op.name == "arith.fptosi" else (0, (1 << w) - 1)
    return fits(float_range(op.operands[0]), lo, hi)


def memref_args(func: Operation) -> list[tuple[str, MemRefType]]:
    """The memref arguments of a func.func, by name."""
    from loom.runtime import function_arg_names

    return [(n, a.type) for n, a in zip(function_arg_names(func), func.regions[0].entry.args)
            if isinstance(a.type, MemRefType)]
