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

from typing import Optional

import z3

from loom.ir.core import BlockArgument, Operation, OpResult, Value
from loom.ir.types import MemRefType, NoneType
from loom.runtime import function_arg_names
from loom.semantics.handshake_ops import copied_value, is_copy
from loom.verify.lengths.values import Values, symbol
from loom.verify.refine.model import (
    Event,
    Frame,
    StateVar,
    Unsupported,
    bv64,
    dim_term,
    linear,
    row_major,
    source_position,
    true,
)
from loom.verify.memory.structure import Layout
from loom.verify.refine.dfg_frames import Node, _data, _first_known
from loom.verify.refine.dfg_rules import _RULES, DfgOpRules


class DfgModel(DfgOpRules):
    """The DFG's frames and events (see the module docstring): loop structure in ``DfgFrames``, op rules in
    ``DfgOpRules``, the graph's events and the on-demand evaluation of values here."""

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
        # the data carries by the condition that steers them, in op order (``_complete_state`` reads them at every
        # loop exit: scanning every op there was 68 exits x 50,009 ops in a generated DFG)
        self.data_carries: dict[Value, list[Operation]] = {}
        for op in self.ops:
            if op.name in ("dataflow.carry", "dataflow.invariant"):
                c = copied_value(op.operands[0])
                if not self._stream_cont(c) and not self._gate_after(c):
                    self.while_conds.setdefault(c, []).append(op)
                if op.name == "dataflow.carry" and not isinstance(op.results[0].type, NoneType):
                    self.data_carries.setdefault(c, []).append(op)
        self._build()

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
                ev = Event("result", k, ret, (), true())
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
                return Node(None, (), true())
            if isinstance(v.type, MemRefType):
                raise Unsupported(f"{self.name(v)} is a memref used as a value")
            n = self.arg_names[v.index]
            return Node(z3.Const(symbol(f"arg:{n}"), self.values.sort(v.type)), (), true())
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
