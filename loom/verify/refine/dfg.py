"""Symbolic evaluation of a handshake.func for the refinement check (the DFG side).

Each channel's token at the current iteration gets a term over the generic-
iteration symbols of ``refine_model``, a loop context (which loops it sits in,
raw N+1 or body N phase) and a full path condition. Loops are found from the
graph: a ``dataflow.stream`` opens one; carries/invariants/gates/cond_brs whose
condition is a stream's continue output, a gate's after_cond, or the condition
of a group of carries (a while loop) are placed in it. Values are computed on
demand, from the loads, stores and returned values backwards, so channels that
carry only control (the ctrl-done network) are looked at only where a constant
is triggered by them. The stream's continue condition and update are read from
its semantics table (``loom.semantics``), the same one the simulator runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import z3

from loom.ir.attributes import StringAttr
from loom.ir.core import BlockArgument, Operation, OpResult, Value
from loom.ir.types import MemRefType, NoneType
from loom.runtime import function_arg_names
from loom.semantics import machine_for
from loom.semantics.expr import Const
from loom.semantics.handshake_ops import copied_value, is_copy
from loom.verify.lengths.exprs import guard_term
from loom.verify.lengths.values import Values, is_i1, symbol
from loom.verify.refine.model import (
    TRUE,
    Ctx,
    Event,
    Frame,
    StateVar,
    Unsupported,
    bv64,
    dim_term,
    linear,
    load_symbol,
    mentions,
    exit_reads,
    row_major,
    source_position,
)
from loom.verify.memory.structure import Layout



@dataclass
class Node:
    """A channel's token at the current iteration: its term (None for ``none``), context and path condition."""

    term: Optional[z3.ExprRef]
    ctx: Optional[Ctx]  # None: an always-ready source (no context of its own)
    pc: Optional[z3.BoolRef]  # None: not known exactly


class DfgModel:
    """The DFG's frames and events (see the module docstring)."""

    def __init__(self, func: Operation, values: Values, layout: Layout, names: dict[Value, str]) -> None:
        self.func = func
        self.values = values
        self.layout = layout
        self.names = names
        self.memo: dict[Value, Node | Unsupported] = {}
        self.active: set[Value] = set()
        self.frames: list[Frame] = []
        self.frame_of_key: dict[object, Frame] = {}
        self.state_of: dict[Operation, StateVar] = {}
        self.owned: dict[Frame, set[str]] = {}
        self.labels: dict[str, str] = {}
        self.events: list[Event] = []
        body = func.regions[0].entry
        self.ops = list(body.ops)
        self.arg_names = function_arg_names(func)
        self.while_conds: dict[Value, list[Operation]] = {}
        for op in self.ops:
            if op.name in ("dataflow.carry", "dataflow.invariant"):
                c = copied_value(op.operands[0])
                if not self._stream_cont(c) and not self._gate_after(c):
                    self.while_conds.setdefault(c, []).append(op)
        self._build()

    # ------------------------------------------------------------------ structure
    def name(self, v: Value) -> str:
        return self.names.get(v, "%?")

    @staticmethod
    def _stream_cont(c: Value) -> bool:
        return isinstance(c, OpResult) and c.op.name == "dataflow.stream" and c.index == 1

    @staticmethod
    def _gate_after(c: Value) -> bool:
        return isinstance(c, OpResult) and c.op.name == "dataflow.gate" and c.index == 1

    def loop_of(self, c: Value) -> Optional[tuple[Frame, str]]:
        """The loop whose raw condition (``"raw"``) or after_cond (``"after"``) ``c`` is, or None."""
        c = copied_value(c)
        if self._stream_cont(c):
            return self._stream_frame(c.op), "raw"
        if self._gate_after(c):
            f, shape = self._gated(c.op)
            return f, "after"
        if c in self.while_conds:
            return self._while_frame(c), "raw"
        return None

    def _gated(self, gate: Operation) -> tuple[Frame, str]:
        got = self.loop_of(gate.operands[1])
        if got is None or got[1] != "raw":
            raise Unsupported(f"the condition of {gate.name} is not a loop's raw condition", gate)
        return got

    def _new_frame(self, kind: str, key: object, op: Operation, activation: Node) -> Frame:
        if activation.ctx is None or activation.pc is None:
            raise Unsupported("a loop activated from an always-ready source", op)
        f = Frame("dfg", kind, op, source_position(op.loc), f"{kind}@{op.loc.line}:{op.loc.col}", activation.pc,
                  outer=activation.ctx)
        self.frame_of_key[key] = f
        self.frames.append(f)
        return f

    def _stream_frame(self, op: Operation) -> Frame:
        f = self.frame_of_key.get(op)
        if f is not None:
            if isinstance(f, Unsupported):
                raise f
            return f
        try:
            start, step, bound = (self.ev(v) for v in op.operands)
            act = _first_known(op, [start, step, bound])
            f = self._new_frame("for", op, op, act)
        except Unsupported as e:
            self.frame_of_key[op] = e
            raise
        step_op = _attr(op, "step_op") or "+="
        m = machine_for(op)
        rule = next(r for r in m.rules if r.name == "continue")
        ctx = self.ctx_of(f, "raw")
        idx_t = op.results[0].type
        sym = self._fresh(ctx, f"dfg:idx@{self.name(op.results[0])}", idx_t, f"{self.name(op.results[0])} (DFG)")
        ex = self._fresh(f.outer, f"dfg:exit:idx@{self.name(op.results[0])}", idx_t,
                         f"{self.name(op.results[0])} at exit (DFG)")
        regs = {"next": sym, "step": step.term, "bound": bound.term}
        cont = guard_term(rule.guard, regs) if rule.guard is not None else None
        upd = dict(rule.updates).get("next")
        nxt = guard_term(upd, regs) if upd is not None else None
        sv = StateVar(self.name(op.results[0]), sym, ex, start.term, nxt)
        if cont is None or nxt is None:
            f.why_not = f"the {step_op} stream's table uses functions outside the pure vocabulary"
        f.cont = cont
        f.state.append(sv)
        return f

    def _while_frame(self, c: Value) -> Frame:
        f = self.frame_of_key.get(c)
        if f is not None:
            if isinstance(f, Unsupported):
                raise f
            return f
        group = self.while_conds[c]
        err: Optional[Unsupported] = None
        for member in group:  # every seed arrives on the activation clock: the first one we can evaluate
            try:
                act = self.ev(member.operands[1])
                return self._new_frame("while", c, group[0], act)
            except Unsupported as e:
                err = err or e
        assert err is not None
        if not getattr(err, "transient", False):
            self.frame_of_key[c] = err
        raise err

    def ctx_of(self, f: Frame, phase: str) -> Ctx:
        return f.outer + ((f, phase),)

    def _own(self, ctx: Ctx, name: str) -> None:
        for f, _ in ctx:
            self.owned.setdefault(f, set()).add(name)

    def _fresh(self, ctx: Ctx, name: str, t, label: str) -> z3.ExprRef:
        c = z3.Const(symbol(name), self.values.sort(t))
        self._own(ctx, symbol(name))
        self.labels[symbol(name)] = label
        return c

    # ------------------------------------------------------------------ the graph's events
    def _build(self) -> None:
        # every data carry is a state variable of its loop (found even if no event needs it)
        for op in self.ops:
            if op.name == "dataflow.carry" and not isinstance(op.results[0].type, NoneType):
                try:
                    self.ev(op.results[0])
                except Unsupported:
                    pass
        for sv_op, sv in list(self.state_of.items()):
            try:
                sv.init = self._need(sv_op.operands[1])
            except Unsupported as e:
                sv.why_not = e.reason
            try:
                sv.next = self._need(sv_op.operands[2])
            except Unsupported as e:
                sv.why_not = e.reason
        self._while_conts()
        for a in self.layout.accesses:
            self._access(a)
        ret = self.layout.ret
        if ret is not None:
            k = 0
            for v in ret.operands:
                if isinstance(v.type, NoneType):
                    continue
                ev = Event("result", k, ret, (), TRUE)
                try:
                    n = self.ev(v)
                    ev.value, ev.ctx, ev.pc = n.term, n.ctx or (), n.pc
                except Unsupported as e:
                    ev.why_not = e.reason
                self.events.append(ev)
                k += 1
        self._while_conts()  # while loops first met through an access or a result (no data carried)

    def _while_conts(self) -> None:
        """The continue condition of every while loop found so far that has none yet (or why not)."""
        k = 0
        while k < len(self.frames):  # evaluating a condition may find further loops
            f = self.frames[k]
            k += 1
            if f.kind == "while" and f.cont is None and not f.why_not:
                try:
                    c = self._need(f.op.operands[0])
                    f.cont = c if z3.is_bool(c) else c != 0
                except Unsupported as e:
                    f.why_not = e.reason

    def _access(self, a) -> None:
        op = a.op
        is_load = a.kind == "load"
        addrs = op.operands[:-2]
        ev = Event(a.kind, source_position(op.loc), op, (), None)
        try:
            root, t = self._root(a)
            ev.root = root
            nodes = [self.ev(v) for v in addrs]
            if not is_load:
                nodes.append(self.ev(op.operands[-2]))
                ev.value = nodes[-1].term
            known = _first_known(op, nodes)
            ev.ctx, ev.pc = known.ctx, known.pc
            idx = [bv64(self.values, n.term) for n in nodes[: len(addrs)]]
            if len(idx) != t.rank:
                raise Unsupported(f"{len(idx)} address(es) for a rank-{t.rank} memory", op)
            ev.addr = linear(z3.BitVecVal(0, 64), row_major(self.values, root, t), idx)
        except Unsupported as e:
            ev.why_not = e.reason
        self.events.append(ev)

    def _root(self, a) -> tuple[str, MemRefType]:
        mem = a.domain.mem if a.domain is not None else None
        if mem is None:
            raise Unsupported("an access wired to no memory", a.op)
        if mem.name == "handshake.extmemory":
            m = mem.operands[0]
            if isinstance(m, BlockArgument) and isinstance(m.type, MemRefType):
                return f"arg:{self.arg_names[m.index]}", m.type
            raise Unsupported("an extmemory whose memref is not a function argument", mem)
        t = mem.attributes.get("memRefType")
        t = getattr(t, "type", t)
        if not isinstance(t, MemRefType):
            raise Unsupported("a handshake.memory without a memRefType", mem)
        g = mem.attributes.get("loom.global_memref")
        return (f"global:{g}" if g is not None else f"alloc@{source_position(mem.loc)}"), t

    # ------------------------------------------------------------------ values
    def _need(self, v: Value) -> z3.ExprRef:
        n = self.ev(v)
        if n.term is None:
            raise Unsupported(f"{self.name(v)} carries no value")
        return n.term

    def ev(self, v: Value) -> Node:
        if v not in self.memo and v not in self.active:
            self._prefetch(v)  # its operand chain first (it can also reach v itself, through a rule's cycle)
        got = self.memo.get(v)
        if got is not None:
            if isinstance(got, Unsupported):
                raise got
            return got
        if v in self.active:
            e = Unsupported(f"{self.name(v)} depends on itself without a carry in between")
            e.transient = True  # a property of this evaluation order, not of the value: not remembered
            raise e
        self.active.add(v)
        try:
            node = self._eval(v)
        except Unsupported as e:
            if not getattr(e, "transient", False):
                self.memo[v] = e
            raise
        finally:
            self.active.discard(v)
        self.memo[v] = node
        return node

    @staticmethod
    def _plain_operands(v: Value) -> Optional[list[Value]]:
        """What ``_eval`` of ``v`` evaluates before anything else, when that is all it reads: a copy's input,
        an arith/math op's operands; None for the rest (block arguments, ops with their own rule)."""
        if not isinstance(v, OpResult):
            return None
        op = v.op
        if is_copy(op):
            return [op.operands[0]]
        if op.name not in _RULES and op.dialect in ("arith", "math"):
            return list(op.operands)
        return None

    def _prefetch(self, v: Value) -> None:
        """Evaluate the chain of copies and arith/math ops under ``v``, deepest first, with an explicit stack:
        ``ev`` then finds them memoized, so a long straight-line body (hundreds of chained ops) does not recurse
        once per op. Each is evaluated by ``ev`` itself (same memo, same errors); an ``Unsupported`` is left in
        the memo for the evaluation that asks for it."""
        stack: list[tuple[Value, bool]] = [(v, False)]
        seen: set[Value] = set()
        while stack:
            x, expanded = stack.pop()
            if x in self.memo:
                continue
            deps = self._plain_operands(x)
            if deps is None:
                continue  # evaluated on demand, by its own rule
            if expanded:
                if x is not v:
                    try:
                        self.ev(x)
                    except Unsupported:
                        pass  # memoized unless transient; the caller's evaluation raises it again
                continue
            if x in seen:
                continue
            seen.add(x)
            stack.append((x, True))
            stack.extend((d, False) for d in deps if d not in self.memo)

    def _eval(self, v: Value) -> Node:
        if isinstance(v, BlockArgument):
            if isinstance(v.type, NoneType):
                return Node(None, (), TRUE)
            if isinstance(v.type, MemRefType):
                raise Unsupported(f"{self.name(v)} is a memref used as a value")
            n = self.arg_names[v.index]
            return Node(z3.Const(symbol(f"arg:{n}"), self.values.sort(v.type)), (), TRUE)
        assert isinstance(v, OpResult)
        op, k = v.op, v.index
        name = op.name
        if is_copy(op):
            return self.ev(op.operands[0])
        rule = _RULES.get(name)
        if rule is not None:
            return rule(self, op, k)
        if op.dialect in ("arith", "math"):
            nodes = [self.ev(x) for x in op.operands]
            known = _first_known(op, nodes, allow_free=True)
            terms = self.values.scalar(op, [_data(n, op) for n in nodes])
            return Node(terms[k], known.ctx, known.pc)
        if name == "memref.dim":
            m, idx = op.operands
            if not (isinstance(m, BlockArgument) and isinstance(m.type, MemRefType)):
                raise Unsupported("memref.dim of a memref that is not a function argument", op)
            kn = self.ev(idx)
            kt = z3.simplify(_data(kn, op))
            if not z3.is_bv_value(kt) or kt.as_long() >= m.type.rank:
                raise Unsupported("memref.dim with a non-constant dimension", op)
            return Node(dim_term(self.values, f"arg:{self.arg_names[m.index]}", m.type, kt.as_long()), kn.ctx,
                        kn.pc)
        raise Unsupported(f"'{name}' is outside what the refinement check models", op)

    # ------------------------------------------------------------------ op rules
    def _constant(self, op: Operation, k: int) -> Node:
        trig = self.ev(op.operands[0])
        rules = machine_for(op).rules
        val = rules[0].emits[0][1] if rules and rules[0].emits else None
        if isinstance(val, Const):
            value = val.value
        else:  # fed by a handshake.source: an always-ready table, the value is the attribute's
            from loom.semantics.build import constant_value

            attr = op.attributes.get("value")
            if attr is None:
                raise Unsupported(f"{op.name} without a value", op)
            value = constant_value(op, attr, op.results[0].type)
        return Node(self.values.literal(value, op.results[0].type), trig.ctx, trig.pc)

    def _join(self, op: Operation, k: int) -> Node:
        known = _first_known(op, [self.ev(x) for x in op.operands])
        return Node(None, known.ctx, known.pc)

    def _cond_br(self, op: Operation, k: int) -> Node:
        c_v, x_v = op.operands
        x = self.ev(x_v)
        loop = self.loop_of(c_v)
        if loop is not None:
            f, shape = loop
            if shape == "raw":
                if k == 0:  # the body's tokens
                    return Node(x.term, _rephase(x.ctx, f, "body", op), x.pc)
                return self._exit(f, x, op)
            # after_cond split: body tokens feeding the next iteration, or the value after the last one
            if k == 0:
                return Node(None if x.term is None else self._opaque(op, x, "next"), x.ctx, x.pc)
            if x.term is not None:
                raise Unsupported(f"a value leaving {f.name} through its after_cond", op)
            outer = f.outer
            return Node(None, outer, f.pc)
        c = self.ev(c_v)
        ct = _data(c, op)
        ct = ct if z3.is_bool(ct) else ct != 0
        pc = _first_known(op, [x, c]).pc
        assert pc is not None
        return Node(x.term, x.ctx if x.ctx is not None else c.ctx, z3.And(pc, ct if k == 0 else z3.Not(ct)))

    def _opaque(self, op: Operation, x: Node, what: str) -> z3.ExprRef:
        assert x.term is not None
        return z3.FreshConst(x.term.sort(), f"opaque_{what}")

    def _exit(self, f: Frame, x: Node, op: Operation) -> Node:
        outer = f.outer
        if x.term is None:
            return Node(None, outer, f.pc)
        owned = self.owned.get(f, set())
        if x.ctx is not None and (not x.ctx or x.ctx[-1][0] is not f):
            raise Unsupported(f"{op.name} splits a value that is not in {f.name} on that loop's condition", op)
        self._complete_state(f)
        inner = owned - {s.sym.decl().name() for s in f.state}
        pairs = f.exit_subst() + exit_reads(x.term, inner)
        out = z3.substitute(x.term, *pairs) if pairs else x.term
        bad = mentions(out, inner)
        if bad is not None:
            raise Unsupported(f"a value leaving {f.name} depends on {self.labels.get(bad, bad)}", op)
        return Node(out, outer, f.pc)

    def _complete_state(self, f: Frame) -> None:
        """Make sure every data carry of ``f`` has its symbol (exit terms substitute all of them)."""
        cond = f.op.results[1] if f.kind == "for" else next(k for k, g in self.frame_of_key.items() if g is f)
        for op in self.ops:
            if (op.name == "dataflow.carry" and op not in self.state_of
                    and not isinstance(op.results[0].type, NoneType) and copied_value(op.operands[0]) is cond):
                try:
                    self.ev(op.results[0])
                except Unsupported:
                    pass

    def _mux(self, op: Operation, k: int) -> Node:
        s = self.ev(op.operands[0])
        data = [self.ev(x) for x in op.operands[1:]]
        if isinstance(op.results[0].type, NoneType):
            return Node(None, s.ctx, s.pc)
        st = _data(s, op)
        out: Optional[z3.ExprRef] = None
        for i, d in reversed(list(enumerate(data))):
            dt = _data(d, op)
            if is_i1(op.operands[0].type):
                pick = st if i == 1 else z3.Not(st) if i == 0 else z3.BoolVal(False)
            else:
                pick = st == z3.BitVecVal(i, st.size())
            out = dt if out is None else z3.If(pick, dt, out)
        return Node(out, s.ctx, s.pc)

    def _merge(self, op: Operation, k: int) -> Node:
        if not isinstance(op.results[k].type, NoneType):
            raise Unsupported(f"{op.name} picks its data nondeterministically", op)
        known = _first_known(op, [self.ev(x) for x in op.operands])
        return Node(None, known.ctx, None)

    def _stream(self, op: Operation, k: int) -> Node:
        f = self._stream_frame(op)
        ctx = self.ctx_of(f, "raw")
        if k == 0:
            return Node(f.state[0].sym, ctx, f.pc)
        if f.cont is None:
            raise Unsupported(f.why_not or "no continue condition", op)
        return Node(f.cont, ctx, f.pc)

    def _gate(self, op: Operation, k: int) -> Node:
        f, _ = self._gated(op)
        x = self.ev(op.operands[0])
        ctx = self.ctx_of(f, "body")
        if k == 0:
            return Node(x.term, ctx, f.pc)
        return Node(self._fresh(ctx, f"dfg:after@{self.name(op.results[1])}", op.results[1].type,
                                f"{self.name(op.results[1])}"), ctx, f.pc)

    def _segment(self, op: Operation, k: int) -> Node:
        got = self.loop_of(op.operands[0])
        if got is None:
            raise Unsupported(f"the condition of {op.name} is not a loop condition", op)
        f, shape = got
        phase = "raw" if shape == "raw" else "body"
        ctx = self.ctx_of(f, phase)
        if op.name == "dataflow.invariant":
            a = self.ev(op.operands[1])
            return Node(a.term, ctx, f.pc)
        res = op.results[0]
        if isinstance(res.type, NoneType):
            return Node(None, ctx, f.pc)
        nm = self.name(res)
        sym = self._fresh(ctx, f"dfg:{nm}", res.type, f"{nm} (DFG)")
        ex = self._fresh(f.outer, f"dfg:exit:{nm}", res.type, f"{nm} at exit (DFG)")
        sv = StateVar(nm, sym, ex)
        f.state.append(sv)
        self.state_of[op] = sv
        if phase == "body":
            sv.why_not = f"{nm} is carried on the after_cond (its value after the loop is not modelled)"
        return Node(sym, ctx, f.pc)

    def _load(self, op: Operation, k: int) -> Node:
        if k != 0:
            raise Unsupported("a load's address output used as a value", op)
        addrs = [self.ev(x) for x in op.operands[:-2]]
        known = _first_known(op, addrs)
        sym = load_symbol(self.values, source_position(op.loc), op.results[0].type)
        if known.ctx is not None:
            self._own(known.ctx, sym.decl().name())
        self.labels[sym.decl().name()] = f"load at {op.loc.line}:{op.loc.col}"
        return Node(sym, known.ctx, known.pc)

    def _no_value(self, op: Operation, k: int) -> Node:
        raise Unsupported(f"a token of {op.name} (memory completion) used to trigger a value", op)


def _source(model: DfgModel, op: Operation, k: int) -> Node:
    """``handshake.source``: a token whenever asked, in no loop context of its own (CIRCT triggers constants
    with it); whatever fires on it takes its context from its other inputs."""
    return Node(None, None, None)


_RULES = {
    "handshake.source": _source,
    "handshake.constant": DfgModel._constant,
    "handshake.join": DfgModel._join,
    "handshake.cond_br": DfgModel._cond_br,
    "handshake.mux": DfgModel._mux,
    "handshake.merge": DfgModel._merge,
    "handshake.control_merge": DfgModel._merge,
    "dataflow.stream": DfgModel._stream,
    "dataflow.gate": DfgModel._gate,
    "dataflow.carry": DfgModel._segment,
    "dataflow.invariant": DfgModel._segment,
    "handshake.load": DfgModel._load,
    "handshake.store": DfgModel._no_value,
    "handshake.extmemory": DfgModel._no_value,
    "handshake.memory": DfgModel._no_value,
}


def _first_known(op: Operation, nodes: list[Node], allow_free: bool = False) -> Node:
    """The context and path condition of an op that fires on all of ``nodes`` together (balance is proved
    by the length obligations, so any input with an exactly known condition speaks for all)."""
    ctx = next((n.ctx for n in nodes if n.ctx is not None), None)
    pc = next((n.pc for n in nodes if n.ctx is not None and n.pc is not None), None)
    if ctx is None:
        if allow_free and all(n.ctx is None for n in nodes):
            return Node(None, None, TRUE)
        raise Unsupported(f"{op.name} fires on always-ready inputs only", op)
    if pc is None:
        raise Unsupported(f"the firing condition of {op.name} is not known exactly", op)
    return Node(None, ctx, pc)


def _data(n: Node, op: Operation) -> z3.ExprRef:
    if n.term is None:
        raise Unsupported(f"{op.name} reads a value from a control-only channel", op)
    return n.term


def _rephase(ctx: Optional[Ctx], f: Frame, phase: str, op: Operation) -> Optional[Ctx]:
    if ctx is None or not ctx or ctx[-1][0] is not f:
        return ctx
    return ctx[:-1] + ((f, phase),)


def _attr(op: Operation, name: str) -> Optional[str]:
    a = op.attributes.get(name)
    return a.value if isinstance(a, StringAttr) else None
