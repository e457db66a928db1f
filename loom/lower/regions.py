"""Flattening of nested SCF regions (for / while / if) into dataflow edges.

Walks the source function in order and emits, through ``DfgBuilder``, the
structures of specs/lowering.md: stream + gate + boundary carries for
``scf.for`` (wrapped in a zero-trip guard unless the loop provably runs),
raw-condition carries and splits for ``scf.while``, cond_br + mux for
``scf.if``, and for every memory access its place in the per-domain ctrl-done
chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from loom.ir.attributes import DenseArrayAttr, IntegerAttr
from loom.ir.core import Block, Operation, Value
from loom.ir.location import Location
from loom.ir.types import FloatType, IndexType, IntegerType, Type, i1, i64, index, none
from loom.lower.builder import DfgBuilder, Forward
from loom.lower.memrefs import ALLOC_OPS, VIEW_OPS, Domain, MemoryAnalysis, dim_of, root_indices, unsupported
from loom.lower.options import LowerOptions
from loom.lower.scopes import (
    BranchScope,
    ForBodyScope,
    Scope,
    WhileAfterScope,
    WhileFrameScope,
    hint,
)
from loom.lower.statics import const_int, static_trips_positive
from loom.semantics.layout import width_of
from loom.semantics.predicates import CMPI_PREDICATES
from loom.semantics.scalar import is_scalar_op

CMPI_EQ, CMPI_SLT, CMPI_ULT = (CMPI_PREDICATES.index(p) for p in ("eq", "slt", "ult"))
INDEX_MIN = -(1 << 63)
_IGNORED = ("memref.dealloc", "memref.get_global", *ALLOC_OPS, *VIEW_OPS)


@dataclass(eq=False)
class Access:
    """One lowered memory access and the memory-interface results it still waits for."""

    domain: Domain
    kind: str  # "load" | "store"
    op: Operation  # the handshake.load / handshake.store
    done: Forward
    data: Optional[Forward] = None  # loads: data_from_mem


def is_scalar_type(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType, FloatType))


class _Accesses:
    """RegionLowering's memory accesses: memref.load, memref.store and memref.dim (a mixin; the state is
    RegionLowering's)."""

    def lower_load(self, op: Operation, s: Scope) -> None:
        mem, idx = op.operands[0], op.operands[1:]
        dom = self.memory.domain_of(mem, op.loc)
        addrs = root_indices(s, mem, [s.lookup(i) for i in idx], op.loc)
        elem = op.results[0].type
        data = self.b.forward(elem, f"{dom.name}_ld")
        done = self.b.forward(none, f"{dom.name}_lddone")
        made: list[Operation] = []

        def issue(ctrl: Value) -> Value:
            ld = self.b.load(
                addrs, data.value, ctrl, elem, op.loc, _src_name(op.results[0]) or f"ld_{dom.name}"
            )
            made.append(ld)
            self.accesses.append(Access(dom, "load", ld, done, data))
            return done.value

        s.access(dom, True, self.options.rar, op.loc, issue)
        s.bind(op.results[0], made[0].results[0])

    def lower_store(self, op: Operation, s: Scope) -> None:
        value, mem, idx = op.operands[0], op.operands[1], op.operands[2:]
        dom = self.memory.domain_of(mem, op.loc)
        addrs = root_indices(s, mem, [s.lookup(i) for i in idx], op.loc)
        data = s.lookup(value)
        done = self.b.forward(none, f"{dom.name}_stdone")

        def issue(ctrl: Value) -> Value:
            st = self.b.store(addrs, data, ctrl, op.loc, f"st_{dom.name}")
            self.accesses.append(Access(dom, "store", st, done))
            return done.value

        s.access(dom, False, self.options.rar, op.loc, issue)

    def lower_dim(self, op: Operation, s: Scope) -> None:
        """Static sizes fold; a dynamic size of a memref argument is read by ``memref.dim`` on it."""
        mem = op.operands[0]
        k = const_int(op.operands[1])
        if k is None:
            raise unsupported("'memref.dim' needs a constant dimension index", op.loc)

        def root_dim(arg: Value, dim: int) -> Value:
            dfg_arg = self.args[arg]
            return self.b.create(
                "memref.dim",
                [dfg_arg, s.index_const(dim, op.loc)],
                [index],
                None,
                op.loc,
                [_src_name(op.results[0])],
            ).result

        s.bind(op.results[0], dim_of(s, mem, k, op.loc, root_dim))


class _Branches:
    """RegionLowering's branches: scf.if, scf.index_switch and scf.execute_region, through one two-way
    ``branch`` (a mixin)."""

    def lower_if(self, op: Operation, s: Scope) -> None:
        self._check_results(op)
        cond = s.lookup(op.operands[0])
        then_block = op.regions[0].entry
        else_block = op.regions[1].entry if len(op.regions) > 1 and op.regions[1].blocks else None

        def then_side(t: Scope) -> list[Value]:
            term = self.lower_block(then_block, t)
            return [t.lookup(v) for v in term.operands]

        def else_side(e: Scope) -> list[Value]:
            if else_block is None:
                return []
            term = self.lower_block(else_block, e)
            return [e.lookup(v) for v in term.operands]

        results = self.branch(s, cond, then_side, else_side, self.memory.touched(op), op.loc)
        for r, v in zip(op.results, results):
            s.bind(r, v)

    def lower_switch(self, op: Operation, s: Scope) -> None:
        """``scf.index_switch``: a chain of two-way branches, ``x == case_k`` tested in case order.

        The case values are distinct, so at most one test is true and the chain
        picks the same region as the switch; the last else side is the default.
        """
        self._check_results(op)
        cases = op.attributes.get("cases")
        values = list(cases.values) if isinstance(cases, DenseArrayAttr) else []
        domains = self.memory.touched(op)

        def region_side(region_index: int) -> Callable[[Scope], list[Value]]:
            def side(t: Scope) -> list[Value]:
                term = self.lower_block(op.regions[region_index].entry, t)
                return [t.lookup(v) for v in term.operands]
            return side

        def arm(k: int) -> Callable[[Scope], list[Value]]:
            if k == len(values):
                return region_side(0)

            def side(c: Scope) -> list[Value]:
                x = c.lookup(op.operands[0])
                test = self.b.create(
                    "arith.cmpi", [x, c.index_const(values[k], op.loc)], [i1],
                    {"predicate": IntegerAttr(CMPI_EQ, i64)}, op.loc, [f"case{k}"],
                ).result
                return self.branch(c, test, region_side(k + 1), arm(k + 1), domains, op.loc)
            return side

        for r, v in zip(op.results, arm(0)(s)):
            s.bind(r, v)

    def lower_execute_region(self, op: Operation, s: Scope) -> None:
        """A single-block ``scf.execute_region`` runs once, in place: its ops are lowered in ``s``."""
        self._check_results(op)
        region = op.regions[0]
        if len(region.blocks) != 1:
            raise unsupported("scf.execute_region with several blocks (unstructured control flow) is not supported", op.loc)
        term = self.lower_block(region.entry, s)
        for r, v in zip(op.results, [s.lookup(v) for v in term.operands]):
            s.bind(r, v)

    def branch(
        self,
        s: Scope,
        cond: Value,
        then_side: Callable[[Scope], list[Value]],
        else_side: Callable[[Scope], list[Value]],
        domains: Sequence[Domain],
        loc: Location,
    ) -> list[Value]:
        """cond_br every live-in (control, values, domain tokens), lower both sides, mux the results."""
        shared: dict = {}
        t = BranchScope(self.b, s, cond, True, shared, loc)
        e = BranchScope(self.b, s, cond, False, shared, loc)
        for d in domains:
            tt, tf = self.b.cond_br(cond, s.mem_take(d), loc, f"{d.name}_ctrl")
            t.mem_set(d, tt)
            e.mem_set(d, tf)
        then_vals = then_side(t)
        else_vals = else_side(e)
        out = [self.b.mux(cond, ev, tv, loc, _src_name_of(tv)) for tv, ev in zip(then_vals, else_vals)]
        for d in domains:
            s.mem_set(d, self.b.mux(cond, e.mem_final(d), t.mem_final(d), loc, f"{d.name}_done"))
        return out


class _Loops:
    """RegionLowering's loops: scf.for as a stream (``_for_loop``), scf.while as carries (a mixin)."""

    def lower_for(self, op: Operation, s: Scope) -> None:
        self._check_results(op)
        lb, ub = op.operands[0], op.operands[1]
        unsigned = "unsignedCmp" in op.attributes
        if not isinstance(lb.type, (IndexType, IntegerType)) or width_of(lb.type) > 64:
            raise unsupported(f"scf.for with induction variable type {lb.type} is not supported", op.loc)
        inits = op.operands[3:]
        runs = static_trips_positive(lb, ub, unsigned)
        if runs is True:
            results = self._for_loop(op, s)
        elif runs is False:  # constant bounds, zero trips: the loop is its inits
            results = [s.lookup(v) for v in inits]
        else:
            # Zero-trip guard: inside, the loop runs N >= 1 times, so every after_cond-regime
            # structure (invariants, memory-control carries) sees the N tokens it expects.
            guard = self.b.cmpi(
                CMPI_ULT if unsigned else CMPI_SLT, s.lookup(lb), s.lookup(ub), op.loc, "guard"
            )
            results = self.branch(
                s,
                guard,
                lambda g: self._for_loop(op, g),
                lambda e: [e.lookup(v) for v in inits],
                self.memory.touched(op),
                op.loc,
            )
        for r, v in zip(op.results, results):
            s.bind(r, v)

    def _to_stream_index(self, v: Value, unsigned: bool, s: Scope, loc: Location) -> Value:
        """An IV-typed bound as the index the stream compares with signed '<'."""
        t = v.type
        if isinstance(t, IntegerType):
            if unsigned and t.width < 64:
                return self.b.arith("arith.index_castui", [v], index, loc)
            v = self.b.arith("arith.index_cast", [v], index, loc)
        if unsigned:  # x <u y  <=>  (x + MIN) <s (y + MIN)
            v = self.b.arith("arith.addi", [v, s.index_const(INDEX_MIN, loc)], index, loc)
        return v

    def _for_loop(self, op: Operation, g: Scope) -> list[Value]:
        """The loop proper, in a scope where it is known to run at least once."""
        loc = op.loc
        lb, ub, step = op.operands[0], op.operands[1], op.operands[2]
        inits = op.operands[3:]
        unsigned = "unsignedCmp" in op.attributes
        biased = unsigned and width_of(lb.type) == 64
        body = op.regions[0].entry
        start = self._to_stream_index(g.lookup(lb), unsigned, g, loc)
        bound = self._to_stream_index(g.lookup(ub), unsigned, g, loc)
        st = g.lookup(step)
        if isinstance(st.type, IntegerType):
            st = self.b.arith("arith.index_castui" if unsigned else "arith.index_cast", [st], index, loc)
        idx, raw = self.b.stream(start, st, bound, loc)
        iv_idx, after = self.b.gate(idx, raw, loc)
        bs = ForBodyScope(self.b, g, after, loc)
        iv = iv_idx
        if biased:
            iv = self.b.arith("arith.addi", [iv, bs.index_const(INDEX_MIN, loc)], index, loc)
        if isinstance(lb.type, IntegerType):
            iv = self.b.arith("arith.index_cast", [iv], lb.type, loc, result_name=_src_name(body.args[0]))
        bs.bind(body.args[0], iv)
        # iter_args: loop-boundary carries on raw_will_continue, split by it (true: body, false: result).
        feedback: list[Forward] = []
        exits: list[Value] = []
        for arg, init in zip(body.args[1:], inits):
            name = hint(arg, "iter")
            fb = self.b.forward(arg.type, f"{name}_next")
            c = self.b.carry(raw, g.lookup(init), fb.value, loc, f"carry_{name}")
            into, out = self.b.cond_br(raw, c, loc, name)
            bs.bind(arg, into)
            feedback.append(fb)
            exits.append(out)
        # memory control: carry(after_cond, entry, body_done) per touched domain.
        mem_fb: list[tuple[Domain, Forward]] = []
        for d in self.memory.touched(op):
            fb = self.b.forward(none, f"{d.name}_body_done")
            bs.mem_set(d, self.b.carry(after, g.mem_take(d), fb.value, loc, f"{d.name}_loop_ctrl"))
            mem_fb.append((d, fb))
        term = self.lower_block(body, bs)
        for fb, y in zip(feedback, term.operands):
            fb.resolve(bs.lookup(y))
        for d, fb in mem_fb:
            nxt, done = self.b.cond_br(after, bs.mem_final(d), loc, f"{d.name}_body_done")
            fb.resolve(nxt)
            g.mem_set(d, done)
        return exits

    def lower_while(self, op: Operation, s: Scope) -> None:
        self._check_results(op)
        loc = op.loc
        before, after = op.regions[0].entry, op.regions[1].entry
        raw = self.b.forward(i1, "whileCond")
        w = WhileFrameScope(self.b, s, raw, loc)
        feedback: list[Forward] = []
        for arg, init in zip(before.args, op.operands):
            if not is_scalar_type(arg.type):
                raise unsupported(f"scf.while carrying a value of type {arg.type} is not supported", loc)
            name = hint(arg, "w")
            fb = self.b.forward(arg.type, f"{name}_next")
            w.bind(arg, self.b.carry(raw.value, s.lookup(init), fb.value, loc, f"carry_{name}"))
            feedback.append(fb)
        domains = self.memory.touched(op)
        mem_fb: list[tuple[Domain, Forward]] = []
        for d in domains:
            fb = self.b.forward(none, f"{d.name}_iter_done")
            w.mem_set(d, self.b.carry(raw.value, s.mem_take(d), fb.value, loc, f"{d.name}_while_ctrl"))
            mem_fb.append((d, fb))
        cond_op = self.lower_block(before, w)
        if cond_op.name != "scf.condition":
            raise unsupported("scf.while before region must end with scf.condition", cond_op.loc)
        raw_v = w.lookup(cond_op.operands[0])
        raw.resolve(raw_v)
        raw_v = self.b.current(raw_v)
        a = WhileAfterScope(self.b, w, raw_v, loc)
        results: list[Value] = []
        for arg, v in zip(after.args, cond_op.operands[1:]):
            into, out = self.b.cond_br(raw_v, w.lookup(v), loc, hint(arg, "cond_arg"))
            a.bind(arg, into)
            results.append(out)
        exits: list[tuple[Domain, Value]] = []
        for d in domains:
            into, out = self.b.cond_br(raw_v, w.mem_final(d), loc, f"{d.name}_before_done")
            a.mem_set(d, into)
            exits.append((d, out))
        term = self.lower_block(after, a)
        for fb, y in zip(feedback, term.operands):
            fb.resolve(a.lookup(y))
        for (d, fb), (_, out) in zip(mem_fb, exits):
            fb.resolve(a.mem_final(d))
            s.mem_set(d, out)
        for r, v in zip(op.results, results):
            s.bind(r, v)


class RegionLowering(_Accesses, _Branches, _Loops):
    """Lowers the body of one func.func into the builder's block: each op of a block to its dataflow form, the
    accesses, branches and loops by the mixins above."""

    def __init__(
        self, b: DfgBuilder, memory: MemoryAnalysis, options: LowerOptions, args: dict[Value, Value]
    ) -> None:
        self.b = b
        self.args = args  # source function argument -> handshake.func argument
        self.memory = memory
        self.options = options
        self.accesses: list[Access] = []

    def lower_block(self, block: Block, s: Scope) -> Operation:
        """Lower every op of ``block`` in ``s``; returns the block's terminator (not lowered)."""
        for op in block.ops:
            name = op.name
            if name in ("scf.yield", "scf.condition", "func.return"):
                return op
            if name in ("arith.constant", "ub.poison"):
                self._check_results(op)
                continue  # rematerialized on use in every scope that needs it
            if name == "scf.for":
                self.lower_for(op, s)
            elif name == "scf.while":
                self.lower_while(op, s)
            elif name == "scf.if":
                self.lower_if(op, s)
            elif name == "scf.index_switch":
                self.lower_switch(op, s)
            elif name == "scf.execute_region":
                self.lower_execute_region(op, s)
            elif name == "memref.load":
                self.lower_load(op, s)
            elif name == "memref.store":
                self.lower_store(op, s)
            elif name == "memref.dim":
                self.lower_dim(op, s)
            elif name in _IGNORED:
                continue
            elif is_scalar_op(name) and not op.regions:
                self._check_results(op)
                new = self.b.create(
                    name,
                    [s.lookup(v) for v in op.operands],
                    [r.type for r in op.results],
                    dict(op.attributes),
                    op.loc,
                    [_src_name(r) for r in op.results],
                )
                for r, nr in zip(op.results, new.results):
                    s.bind(r, nr)
            else:
                raise unsupported(f"operation '{name}' is not supported by loom compile", op.loc)
        raise unsupported("region without a terminator", block.parent_op.loc if block.parent_op else s.loc)

    def _check_results(self, op: Operation) -> None:
        for r in op.results:
            if not is_scalar_type(r.type):
                raise unsupported(
                    f"'{op.name}' produces a value of type {r.type}; loom compile supports integer, "
                    f"index and float values only",
                    op.loc,
                )

def _src_name(v: Value) -> Optional[str]:
    """The source SSA name to keep on a lowered value (numbers are left to the printer)."""
    h = hint(v, "")
    return h or None


def _src_name_of(v: Value) -> Optional[str]:
    h = v.name_hint
    if h is None:
        return None
    for suffix in ("_t", "_f", "_inv", "_w", "_do"):
        if h.endswith(suffix):
            return h[: -len(suffix)] or None
    return h
