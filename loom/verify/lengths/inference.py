"""Clock inference over a handshake.func: give every channel a clock and check every consumer.

The rules follow the operator contracts (the tables in ``loom.semantics``):

* arith/join/store/return/cond_br/load-issue/memory ports read all their inputs
  in one firing: the inputs must have equal clocks;
* ``cond_br(c, x)`` splits clock C into ``C when c`` / ``C when !c``;
  ``mux(s, d0, d1..)`` needs ``d_k`` on ``S when s == k`` and emits on S;
* ``stream`` opens a loop L on the clock P of its operands: idx/cont carry
  positions ``0..N_L`` (raw), cont is ``j_L < N_L``;
* ``gate(v, c)`` needs c to be a loop condition; after_value/after_cond are on
  ``raw when cont`` (body, N tokens), after_cond is ``j_L < N_L - 1``;
* ``carry(d, a, b)``/``invariant(d, a)`` need d segmented over a's clock: one
  run of trues closed by one false per a-token (raw: N trues then false;
  after_cond: N-1 trues then false, which needs ``N >= 1``); the output is on
  d's clock and the carry's b on ``D when d``;
* a carry/invariant whose d is computed from its own output (scf.while) opens
  a while loop W by hypothesis (d on ``raw(W)``, N_W = index of the first
  false), confirmed when d's clock is derived;
* a primed i1 buffer whose copies select two-way muxes (CIRCT's loop state) is typed as one
  ``dataflow.carry(c, data0, data1)`` per mux, once the lemma engine has proved the buffer -> mux
  composite satisfies the carry contract (``loom.verify.lengths.idioms``); any other primed buffer
  whose input is typed without its output is a delay line, on its input's clock;
* a condition computed from a for loop's index that equals its raw condition (or after_cond) is
  that condition, and ``cond_br(idx == k)`` captures one token per activation
  (``loom.verify.lengths.conditions``);
* only memory accesses are body-local (they must not fire at a for loop's exit position);
  pure ops may, as before-region or boundary work.

Every equality that is not syntactic is discharged by ``Logic.equal`` (Z3);
nothing untypable is ever reported as proved.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Optional

import z3

from loom.ir.core import Operation, Value
from loom.ir.types import MemRefType, NoneType
from loom.semantics.build import Machines
from loom.semantics.handshake_ops import COPY_OPS, is_copy
from loom.semantics.expr import Const
from loom.semantics.machine import Machine
from loom.verify.lengths.clock import (
    ANY,
    ONE,
    TermMap,
    Loop,
)
from loom.verify.lengths.idioms import (
    CmergeLoop,
    PrimedSelect,
    TokenRing,
)
from loom.verify.lengths.logic import Logic
from loom.verify.lengths.ranking import (Ranking, Recurrence)
from loom.verify.lengths.values import Values, symbol

from loom.verify.lengths.typed import Check, Group, Hypothesis, Typed, Typing, py_value
from loom.verify.lengths.typer_idioms import TyperIdioms
from loom.verify.lengths.typer_loops import TyperLoops
from loom.verify.lengths.typer_rules import TyperRules
from loom.verify.lengths.typer_silent import TyperSilent
from loom.verify.lengths.typer_while import TyperWhile


class Typer(TyperRules, TyperLoops, TyperWhile, TyperIdioms, TyperSilent):
    """Runs the clock inference of one handshake.func (see the module docstring): the driver and the firing of
    op groups here; the common queries in ``TyperBase``, the op rules in ``TyperRules``, loop
    structure in ``TyperLoops``, while loops in ``TyperWhile``, CIRCT idioms in ``TyperIdioms``, the silent parts
    in ``TyperSilent``."""

    def __init__(self, func: Operation, logic: Logic, names: dict[Value, str],
                 progress: Optional[Callable[[str], None]] = None) -> None:
        self.func = func
        self.body = func.regions[0].entry
        self.logic = logic
        self.values = Values()
        self.names = names
        self.progress = progress
        self.types: dict[Value, Typed] = {}
        self.loops: list[Loop] = []
        self.loop_index: dict[tuple, Loop] = {}
        self.checks: list[Check] = []
        self.failing: set[int] = set()  # ids of ops with a check not proved, among the first ``failing_read`` checks
        self.failing_read = 0
        self.unknown: dict[Operation, str] = {}
        self.hyps: dict[Value, Hypothesis] = {}
        self.cond_names = TermMap()
        self.gates: dict[Operation, Loop] = {}
        self.memo = logic.free
        self.machines: dict[Operation, Machine] = {}
        self.machine_of = Machines()  # ops of one signature share one table: built and checked once
        self.groups: list[Group] = []
        self.waiting: dict[Value, list[Group]] = {}
        self.ready: deque[Group] = deque()
        self.done_groups: set[int] = set()
        self.deferred: list[tuple] = []  # (op, what, expected clock, value, reference value)
        self.forever: dict[Operation, str] = {}
        self.stuck: dict[Loop, tuple[Operation, dict, int, int]] = {}
        self.ranked: dict[Loop, Ranking] = {}
        self.recurrent: dict[Loop, tuple[Operation, Recurrence]] = {}
        self.tried: dict[Loop, tuple[int, float]] = {}
        self._eq_cache: dict[tuple, tuple] = {}
        self._canon: dict[tuple, tuple] = {}  # (clock key, term id) -> (canonical loop condition or term, term)
        self._uses: dict[tuple, tuple] = {}  # memo of conditions.uses
        self.delays: dict[Operation, str] = {}  # primed buffers typed as delay lines (``_delay``): why not a ring
        self.idioms: list[PrimedSelect] = []
        self.cmerge_loops: dict[Operation, CmergeLoop] = {}
        self.rings: dict[Operation, TokenRing] = {}
        self.header_of: dict[Operation, CmergeLoop] = {}  # index mux of a loop header with several back edges
        self.deferred_union: list[tuple] = []  # (op, what, expected clock, values whose union must be it)
        self.carry_of: dict[Operation, tuple[Value, Value, Value]] = {}  # primed-select mux -> its carry (d, a, b)
        self.primed: dict[Operation, PrimedSelect] = {}  # the primed buffer of each proved idiom
        self.shape_of: dict[Operation, tuple[str, Optional[Loop]]] = {}  # segment shape of each carry/invariant

    def run(self) -> Typing:
        from loom.runtime import function_arg_names

        arg_names = function_arg_names(self.func)  # the names ``loom sim`` inputs use
        for a in self.body.args:
            if isinstance(a.type, MemRefType):
                continue
            name = arg_names[a.index]
            if isinstance(a.type, NoneType):
                term = self.values.token()
            else:
                term = self.values.fresh(f"arg_{name}", a.type, [])
                term = z3.Const(symbol(f"arg:{name}"), term.sort())
                self.logic.args[name] = term
            self.types[a] = Typed(ONE, term)
        self._find_idioms()
        for op in self.body.ops:
            self._make_groups(op)
        for g in self.groups:
            if g.pending == 0:
                self.ready.append(g)
        while True:
            self._drain()
            if self._hypothesize():
                continue
            if self._silence():
                continue
            break
        self._check_feedback()
        for hyp in self.hyps.values():
            self._fixed_point(hyp)
            if hyp.loop not in self.stuck:
                self._termination(hyp)
        untyped = [g.op for g in self.groups if id(g) not in self.done_groups]
        untyped = list(dict.fromkeys(untyped))
        return Typing(self.func, self.types, self.loops, self.checks, self.unknown, untyped,
                      self.cond_names, self.gates, self.memo, self.forever, self.stuck, self.idioms,
                      list(self.cmerge_loops.values()), list(self.rings.values()), ranked=self.ranked,
                      recurrent=self.recurrent, tried=self.tried)

    def _make_groups(self, op: Operation) -> None:
        m = self.machine_of(op)
        self.machines[op] = m
        tok = [i for i, p in enumerate(m.inputs) if p.kind == "token"]
        name = op.name
        if op in self.carry_of:
            d_v, a_v, _ = self.carry_of[op]
            groups = [Group(op, (), (0,), "segment", waits=(a_v, d_v))]
        elif op in self.primed:
            groups = [Group(op, (0,), (0,), "primed")]
        elif op in self.rings:
            groups = [Group(op, (), (0,), "ring", waits=tuple(self._ring_others(self.rings[op])))]
        elif name == "handshake.load":
            n_addr = len(op.operands) - 2
            groups = [Group(op, tuple(range(n_addr)) + (n_addr + 1,), tuple(range(1, len(op.results))), "issue"),
                      Group(op, (n_addr,), (0,), "deliver")]
        elif name in ("handshake.memory", "handshake.extmemory"):
            groups = self._memory_groups(op, m)
        elif name in ("dataflow.carry", "dataflow.invariant"):
            groups = [Group(op, (1, 0), (0,), "segment")]
        elif name == "handshake.sink":
            groups = [Group(op, tuple(tok), (), "sink")]
        else:
            groups = [Group(op, tuple(tok), tuple(range(len(op.results))))]
        for g in groups:
            self.groups.append(g)
            for v in g.waits or tuple(op.operands[i] for i in g.ins):
                if v not in self.types:
                    g.pending += 1
                    self.waiting.setdefault(v, []).append(g)

    @staticmethod
    def _memory_groups(op: Operation, m: Machine) -> list[Group]:
        index = {p.name: i for i, p in enumerate(m.inputs)}
        outs = {p.name: i for i, p in enumerate(m.outputs)}
        groups = []
        for rule in m.rules:
            ins = tuple(index[p] for p in rule.reads)
            res = tuple(outs[p] for p, _ in rule.emits)
            groups.append(Group(op, ins, res, "port:" + rule.name))
        return groups

    def _drain(self) -> None:
        n = 0
        while self.ready:
            g = self.ready.popleft()
            if id(g) in self.done_groups:
                continue
            self.done_groups.add(id(g))
            self._fire(g)
            n += 1
            if self.progress is not None and n % 2000 == 0:
                self.progress(f"lengths: {len(self.done_groups)}/{len(self.groups)} op parts typed")

    def assign(self, v: Value, typed: Typed) -> None:
        if v in self.types:
            return
        hyp = self.hyps.get(v)
        if hyp is not None:
            typed = self._confirm(v, hyp, typed)
        self.types[v] = typed
        for g in self.waiting.pop(v, ()):
            g.pending -= 1
            if g.pending == 0:
                self.ready.append(g)

    def _fire(self, g: Group) -> None:
        op = g.op
        name = op.name
        res = op.results
        if g.kind == "sink":
            return
        if g.kind == "deliver":
            self.assign(res[0], self.t(op.operands[g.ins[0]]))
            return
        if g.kind == "issue":
            c = self.same(op, [op.operands[i] for i in g.ins])
            self._body_local(op, c, [op.operands[i] for i in g.ins])
            for k in g.outs:
                self.assign(res[k], Typed(c, self.t(op.operands[k - 1]).term))
            return
        if g.kind.startswith("port:"):
            self._memory_port(g)
            return
        if g.kind == "segment":
            self._segment(op)
            return
        if g.kind == "primed":
            self._primed(op)
            return
        if g.kind == "ring":
            self._ring(op)
            return
        if op in self.delays:
            self._delay(op)
            return
        m = self.machines[op]
        # a primed buffer is no copy; an op fed by a source is itself a source (its table says which)
        handler = _RULES.get(name) if (name not in COPY_OPS or is_copy(op)) and not m.sources else None
        if handler is not None:
            handler(self, op)
            return
        if m.sources:
            index = {p.name: k for k, p in enumerate(m.outputs)}
            for port, val in m.sources:
                r = res[index[port]]
                term = self.values.literal(val.value, r.type) if isinstance(val, Const) else self.fresh(r, ANY)
                self.assign(r, Typed(ANY, term))
            return
        if op.dialect in ("arith", "math"):
            c = self.same(op, op.operands)  # pure: may run at a loop's exit position (before-region work)
            terms = self.values.scalar(op, [self.t(v).term for v in op.operands])
            for r, term in zip(res, terms):  # a loop condition computed from the index is that condition
                self.assign(r, Typed(c, self.canonical(c, term) if z3.is_bool(term) else term))
            return
        if len(m.states) == 1 and len(m.rules) == 1 and set(m.rules[0].reads) == {
                p.name for p in m.inputs if p.kind == "token"} and len(m.rules[0].emits) == len(m.outputs):
            # any other one-rule actor (e.g. memref.dim): reads every token input once, emits every output;
            # its results are a deterministic function of the inputs (and of the memrefs it names)
            toks = [v for v, p in zip(op.operands, m.inputs) if p.kind == "token"]
            mems = [self.name(v) for v, p in zip(op.operands, m.inputs) if p.kind != "token"]
            c = self.same(op, toks)
            for k, r in enumerate(res):
                fn = f"{name}({','.join(mems)})#{k}"
                self.assign(r, Typed(c, self.values.apply(fn, [self.t(v).term for v in toks], r.type)))
            return
        self.unknown_op(op, f"'{name}' has no rule in the length calculus")

_RULES: dict[str, Callable[[Typer, Operation], None]] = {
    "handshake.fork": Typer._identity,
    "handshake.buffer": Typer._identity,
    "handshake.br": Typer._identity,
    "handshake.lazy_fork": Typer._identity,
    "handshake.join": Typer._join,
    "handshake.constant": Typer._constant,
    "handshake.cond_br": Typer._cond_br,
    "handshake.mux": Typer._mux,
    "handshake.merge": Typer._merge,
    "handshake.control_merge": Typer._merge,
    "handshake.return": Typer._return,
    "handshake.store": Typer._store,
    "dataflow.stream": Typer._stream,
    "dataflow.gate": Typer._gate,
}


def infer(func: Operation, logic: Logic, names: dict[Value, str],
          progress: Optional[Callable[[str], None]] = None) -> Typing:
    """Clock inference of ``func`` (a handshake.func with a body)."""
    return Typer(func, logic, names, progress).run()


__all__ = ["Check", "Typed", "Typing", "infer", "py_value"]

