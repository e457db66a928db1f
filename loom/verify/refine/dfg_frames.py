"""The DFG model's loop structure for the refinement check: which loop a condition belongs to, each loop's
frame (a ``dataflow.stream`` or a group of while-loop carries) and the contexts and fresh symbols of its
phases (``loom.verify.refine.dfg``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import z3

from loom.ir.attributes import StringAttr
from loom.ir.core import Operation, OpResult, Value
from loom.semantics import machine_for
from loom.semantics.handshake_ops import copied_value
from loom.verify.lengths.exprs import guard_term
from loom.verify.lengths.values import symbol
from loom.verify.refine.model import (
    Ctx,
    Frame,
    StateVar,
    Unsupported,
    source_position,
    true,
)


@dataclass
class Node:
    """A channel's token at the current iteration: its term (None for ``none``), context and path condition."""

    term: Optional[z3.ExprRef]
    ctx: Optional[Ctx]  # None: an always-ready source (no context of its own)
    pc: Optional[z3.BoolRef]  # None: not known exactly


class DfgFrames:
    """The frames half of ``DfgModel``: loops found from the graph and the contexts of their phases (the state
    it reads -- ``names``, ``values``, ``frames``, ``frame_of_key``, ``state_of``, ``owned``, ``labels``,
    ``while_conds`` -- is set by ``DfgModel.__init__``)."""

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


def _first_known(op: Operation, nodes: list[Node], allow_free: bool = False) -> Node:
    """The context and path condition of an op that fires on all of ``nodes`` together (balance is proved
    by the length obligations, so any input with an exactly known condition speaks for all)."""
    ctx = next((n.ctx for n in nodes if n.ctx is not None), None)
    pc = next((n.pc for n in nodes if n.ctx is not None and n.pc is not None), None)
    if ctx is None:
        if allow_free and all(n.ctx is None for n in nodes):
            return Node(None, None, true())
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
