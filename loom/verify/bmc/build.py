"""Building the explorer's network from a handshake.func: actors, channels, always-ready sources, arguments."""

from __future__ import annotations

from collections import deque
from typing import Any, Optional

import z3

from loom.ir.core import BlockArgument
from loom.ir.types import MemRefType, NoneType
from loom.semantics.expr import TOKEN, Const
from loom.semantics.rest import rearm_allowance
from loom.semantics.routes import bounded_routes
from loom.verify.bmc.network import Actor, CRule
from loom.verify.bmc.slicing import relevant_registers
from loom.verify.bmc.state import State, weight
from loom.verify.bmc.values import OPAQUE
from loom.verify.lengths.idioms import find_cmerge_loops, find_primed_selects
from loom.verify.z3model import ExprEncoder, UnsupportedExpr, sort_of


class NetworkBuilder:
    """The explorer's construction: one actor per op, one channel per token operand, the initial state."""

    def _build(self, body) -> None:
        """The actors, the channels between them, and each actor's rules prepared for the explorer."""
        self._make_actors(body)
        self._wire(body)
        self._prepare()

    def _make_actors(self, body) -> None:
        """One actor per op, with the rules that bound its loop (if any)."""
        # CIRCT loop state (a primed i1 buffer selecting two-way muxes): a mux's back-edge pick is one more
        # iteration of its loop, its entry pick a new activation (the idiom's shape is enough for a bound)
        primed = {id(m) for ps in find_primed_selects(list(body.ops)) if not ps.why for m in ps.muxes}
        # CIRCT loop header (control_merge fed back by a cond_br): the cond_br's true side is one more iteration
        headers = {id(cl.branch) for cl in find_cmerge_loops(list(body.ops))}
        for k, op in enumerate(body.ops):
            m = self._machines[op]
            port_types = {p.name: p.type for p in m.inputs if p.kind == "token"}
            reg_types = {r.name: r.type for r in m.registers}
            mem_elem = m.memory.type.element if m.memory is not None else None
            enc = ExprEncoder(port_types, reg_types, "exact", self.fresh, mem_elem)
            a = Actor(op, m, k, [None] * len(m.inputs), [[] for _ in m.outputs],
                       [r in self.relevant for r in op.results], enc,
                       {s: m.rules_in(s) for s in m.states}, {p.name: i for i, p in enumerate(m.inputs)},
                       {p.name: i for i, p in enumerate(m.outputs)})
            if op.name == "dataflow.stream":
                a.loop_rule, a.reset_rule = "continue", "activate"
            elif op.name in ("dataflow.carry", "dataflow.invariant"):
                a.loop_rule, a.reset_rule = "cond_true", "init"
            elif id(op) in primed:
                a.loop_rule, a.reset_rule = "pick1", "pick0"
            elif id(op) in headers:
                a.loop_rule, a.reset_rule = "to_true", "to_false"
            self.actors.append(a)

    def _wire(self, body) -> None:
        """One channel per token operand: its consumer, its producer (or an always-ready source), its initial
        tokens (an argument's value) and the tokens it may keep at the end."""
        producer = {id(op): self.actors[k] for k, op in enumerate(body.ops)}
        self.init_tokens: list[list[Any]] = []
        for a in self.actors:
            for i, v in enumerate(a.op.operands):
                if a.machine.inputs[i].kind != "token":
                    continue
                cid = len(self.chan_consumer)
                self.chan_consumer.append((a.index, i))
                self.chan_value.append(v)
                self.allowance.append(rearm_allowance(v))
                a.inputs[i] = cid
                tokens: list[Any] = []
                if isinstance(v, BlockArgument):
                    tokens.append(self._arg_value(v))
                else:
                    src = producer[id(v.op)]
                    port = src.machine.outputs[v.index].name
                    source = dict(src.machine.sources).get(port)
                    if source is not None:
                        self.forever[cid] = source.value if isinstance(source, Const) else OPAQUE
                    else:
                        src.outputs[v.index].append(cid)
                self.init_tokens.append(tokens)

    def _prepare(self) -> None:
        """Each actor's rules compiled (one evaluator per distinct expression), and the fingerprint weights."""
        compiled: dict = {}
        for a in self.actors:
            a.forever = self.forever
            a.compiled = compiled
            a.relevant_regs = relevant_registers(a.machine, {p.name for p, rel in zip(a.machine.outputs,
                                                                                        a.relevant_out) if rel})
            a.crules = {state: tuple(CRule(r, a) for r in rules) for state, rules in a.rules.items()}
            a.arbitrary = a.machine.choice == "arbitrary" and a.op.name in ("handshake.merge",
                                                                             "handshake.control_merge")
            a.state_code = {s: i + 1 for i, s in enumerate(a.machine.states)}
        self._bound_routes()
        self.w_chan = [weight(c, 1) for c in range(len(self.chan_consumer))]
        self.w_state = [weight(k, 2) for k in range(len(self.actors))]
        self.w_count = [weight(k, 3) for k in range(len(self.actors))]

    def _bound_routes(self) -> None:
        """Bounded routes (``loom.semantics.routes``): a rule emitting into a route's entry fires only with room
        in it (``CRule.room``), and popping one of its exits wakes the entry's producer (``freed``)."""
        self.freed: dict[int, int] = {}  # exit channel -> the actor its route's room lets fire again
        self.routes: list[tuple[int, tuple, int]] = []  # (entry, exits, places) of every bounded route
        for src, entry, exits, cap in bounded_routes(self.actors):
            for crules in src.crules.values():
                for cr in crules:
                    if any(entry in src.outputs[e[0]] for e in cr.emits):
                        cr.room += ((entry, exits, cap),)
            for cid in exits:
                self.freed[cid] = src.index
            self.routes.append((entry, exits, cap))

    def _arg_value(self, v: BlockArgument) -> Any:
        """The token an argument starts its channel with: a symbol when control reads it, else opaque."""
        if isinstance(v.type, NoneType):
            return TOKEN
        if isinstance(v.type, MemRefType):
            return OPAQUE
        if v not in self.relevant:
            return OPAQUE
        name = self.arg_names[v.index]  # the names ``loom sim`` inputs use
        try:
            c = z3.Const(f"arg:{name}", sort_of(v.type))
        except UnsupportedExpr:
            return OPAQUE
        self.args[name] = c
        return c

    def _argument(self, name: str) -> Optional[z3.ExprRef]:
        """The constant of integer argument ``name`` (the one ``_arg_value`` makes), or None."""
        for v, n in zip(self.func.regions[0].entry.args, self.arg_names):
            if n == name and not isinstance(v.type, (NoneType, MemRefType)):
                try:
                    return z3.Const(f"arg:{name}", sort_of(v.type))
                except UnsupportedExpr:
                    return None
        return None

    def initial(self) -> State:
        """The state before any firing: every actor in its initial state, the arguments' tokens queued."""
        n = len(self.actors)
        chans = [deque(t) for t in self.init_tokens]
        st = State([a.machine.initial for a in self.actors],
                   [{r.name: r.init for r in a.machine.registers} for a in self.actors],
                   chans, [0] * n, deque(range(n)), [True] * n)
        st.own_chans, st.own_regs = set(range(len(chans))), set(range(n))
        st.fp = self.fingerprint(st)
        return st

    def fingerprint(self, st: State) -> int:
        """The sum of the weights of ``st``'s actor states, loop counters and channel lengths (``State.fp``,
        which the step rules keep current instead of calling this): equal coarse keys, equal fingerprints."""
        fp = sum(w * len(q) for w, q in zip(self.w_chan, st.chans))
        fp += sum(w * a.state_code[s] for w, a, s in zip(self.w_state, self.actors, st.states))
        return fp + sum(w * c for w, c in zip(self.w_count, st.counters))
