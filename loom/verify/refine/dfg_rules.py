"""The DFG model's op rules for the refinement check: the term, context and path condition of each op's
output token from its operands' (``loom.verify.refine.dfg``); ``RULES`` maps an op name to its rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import z3

from loom.ir.core import Operation
from loom.ir.types import NoneType
from loom.semantics import machine_for
from loom.semantics.expr import Const
from loom.verify.lengths.values import is_i1
from loom.verify.refine.model import (
    Frame,
    StateVar,
    Unsupported,
    load_symbol,
    mentions,
    exit_reads,
    source_position,
)
from loom.verify.refine.dfg_frames import DfgFrames, Node, _data, _first_known, _rephase

if TYPE_CHECKING:
    from loom.verify.refine.dfg import DfgModel


class DfgOpRules(DfgFrames):
    """The op-rules half of ``DfgModel`` (``ev`` -- the token of an operand -- is ``DfgModel``'s)."""

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
        for op in self.data_carries.get(cond, ()):
            if op not in self.state_of:
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



def _source(model: "DfgModel", op: Operation, k: int) -> Node:
    """``handshake.source``: a token whenever asked, in no loop context of its own (CIRCT triggers constants
    with it); whatever fires on it takes its context from its other inputs."""
    return Node(None, None, None)


_RULES = {
    "handshake.source": _source,
    "handshake.constant": DfgOpRules._constant,
    "handshake.join": DfgOpRules._join,
    "handshake.cond_br": DfgOpRules._cond_br,
    "handshake.mux": DfgOpRules._mux,
    "handshake.merge": DfgOpRules._merge,
    "handshake.control_merge": DfgOpRules._merge,
    "dataflow.stream": DfgOpRules._stream,
    "dataflow.gate": DfgOpRules._gate,
    "dataflow.carry": DfgOpRules._segment,
    "dataflow.invariant": DfgOpRules._segment,
    "handshake.load": DfgOpRules._load,
    "handshake.store": DfgOpRules._no_value,
    "handshake.extmemory": DfgOpRules._no_value,
    "handshake.memory": DfgOpRules._no_value,
}
