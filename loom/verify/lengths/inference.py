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
from loom.semantics import machine_for
from loom.semantics.handshake_ops import COPY_OPS, is_copy
from loom.semantics.expr import Const
from loom.semantics.machine import Machine
from loom.verify.lengths.clock import (
    ANY,
    EMPTY,
    ONE,
    TermMap,
    Clock,
    Loop,
)
from loom.verify.lengths.idioms import (
    CmergeLoop,
    PrimedSelect,
    carry_operands,
    find_cmerge_loops,
    find_primed_selects,
    find_token_rings,
    prove_carry,
    TokenRing,
)
from loom.verify.lengths.logic import Logic
from loom.verify.lengths.ranking import (Ranking, Recurrence)
from loom.verify.lengths.values import Values, symbol

from loom.verify.lengths.typed import Check, Group, Hypothesis, Typed, Typing, py_value
from loom.verify.lengths.typer_loops import TyperLoops
from loom.verify.lengths.typer_rules import TyperRules
from loom.verify.lengths.typer_while import TyperWhile


class Typer(TyperRules, TyperLoops, TyperWhile):
    """Runs the clock inference of one handshake.func (see the module docstring): the driver, the firing of op
    groups and the silent parts here; the common queries in ``TyperBase``, the op rules in ``TyperRules``, loop
    structure in ``TyperLoops``, while loops in ``TyperWhile``."""

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
        self.unknown: dict[Operation, str] = {}
        self.hyps: dict[Value, Hypothesis] = {}
        self.cond_names = TermMap()
        self.gates: dict[Operation, Loop] = {}
        self.memo = logic.free
        self.machines: dict[Operation, Machine] = {}
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

    def _find_idioms(self) -> None:
        """Primed selects (CIRCT loop state): typed as carries only where the composite's lemma is proved."""
        cache: dict = {}
        for ps in find_primed_selects(list(self.body.ops)):
            prove_carry(ps, self.logic.limit(), cache, self.logic.rlimit)
            self.idioms.append(ps)
            if not ps.proved:
                self.unknown_op(ps.buffer, ps.why)
                continue
            self.primed[ps.buffer] = ps
            for mux in ps.muxes:
                self.carry_of[mux] = carry_operands(ps, mux)
        lemma: Optional[str] = None
        checked = any(ps.proved for ps in self.idioms)
        for cl in find_cmerge_loops(list(self.body.ops)):
            if not cl.why and cl.muxes and not checked:
                # the index muxes of a cmerge loop are primed-select carries: that lemma must hold for them too
                lemma, checked = self._primed_select_lemma(cache), True
            if not cl.why and cl.muxes and lemma is not None:
                cl.why = lemma
            if cl.why:
                self.unknown_op(cl.cmerge, cl.why)
                continue
            self.cmerge_loops[cl.cmerge] = cl
            op = cl.cmerge
            one = cl.backs[0] if len(cl.backs) == 1 else None
            self.carry_of[op] = (cl.condition, op.operands[cl.entry], op.operands[one] if one is not None else None)
            for mux in cl.muxes:
                self.carry_of[mux] = (cl.condition, mux.operands[1 + cl.entry],
                                      mux.operands[1 + one] if one is not None else None)
                if one is None:
                    self.header_of[mux] = cl
        selects = {id(ps.buffer) for ps in self.idioms if not ps.why or ps.muxes}
        primed_i1 = {id(ps.buffer) for ps in self.idioms}
        for ring in find_token_rings(list(self.body.ops), selects):
            if not ring.why:
                self.rings[ring.buffer] = ring
            elif id(ring.buffer) in primed_i1:
                self.unknown_op(ring.buffer, ring.why)
            else:
                self.delays[ring.buffer] = ring.why
        for op in self.body.ops:  # any other primed buffer (k initial tokens) is typed as a delay line
            if (op.name == "handshake.buffer" and len(op.results) == 1 and id(op) not in primed_i1
                    and op not in self.rings and op not in self.delays
                    and getattr(op.attributes.get("initValues"), "elements", None)):
                self.delays[op] = "its initial tokens circulate through it"

    def _primed_select_lemma(self, cache: dict) -> Optional[str]:
        """Why the primed-select carry lemma (buffer [1] {0} -> i1 mux) does not hold (None: proved)."""
        from loom.ir.types import IntegerType
        from loom.semantics.handshake_ops import buffer, mux
        from loom.verify.lengths.idioms import composite
        from loom.verify.lemmas.contracts import carry_contract
        from loom.verify.lemmas.induction import prove

        i1 = IntegerType(1)
        m = composite(buffer(i1, 1, (0,)), mux(i1, i1, 2))
        r = prove(m, carry_contract(m), "Pcmerge_index", timeout=self.logic.limit(), use_spacer=False,
                  rlimit=self.logic.rlimit)
        return None if r.status == "proved" else f"the primed-select carry lemma is {r.status}: {r.detail}"

    def carry_view(self, op: Operation) -> tuple[Value, Value, Optional[Value]]:
        """(d, a, b) of a carry, an invariant (b None) or a primed-select mux standing for a carry (b None
        for a loop header with several back edges and its index muxes: see ``_several_backs``)."""
        got = self.carry_of.get(op)
        if got is not None:
            return got
        return op.operands[0], op.operands[1], op.operands[2] if op.name == "dataflow.carry" else None

    def is_carry(self, op: Operation) -> bool:
        return op.name == "dataflow.carry" or (op in self.carry_of and self.carry_of[op][2] is not None)

    def _make_groups(self, op: Operation) -> None:
        m = machine_for(op)
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

    def _silence(self) -> bool:
        """Give the empty clock to every untyped value that no firing can ever produce (Kahn's least
        fixpoint: a cycle without an initial token stays empty). Returns whether anything changed."""
        stuck = [g for g in self.groups if id(g) not in self.done_groups]
        if not stuck:
            return False
        ops = list(dict.fromkeys(g.op for g in stuck))
        produced: set[Value] = {v for v, t in self.types.items() if not t.clock.is_empty}
        # an op that fired but could not type its results (unknown to the calculus) may still produce them
        stuck_ops = set(ops)
        produced |= {r for g in self.groups if g.op not in stuck_ops
                     for r in g.op.results if r not in self.types}
        changed = True
        while changed:
            changed = False
            for op in ops:
                m = self.machines[op]
                index = {p.name: i for i, p in enumerate(m.inputs)}
                outs = {p.name: i for i, p in enumerate(m.outputs)}
                reach = {m.initial}
                grew = True
                while grew:
                    grew = False
                    for rule in m.rules:
                        if rule.state in reach and all(op.operands[index[p]] in produced for p in rule.reads):
                            if rule.next not in reach:
                                reach.add(rule.next)
                                grew = True
                            for p, _ in rule.emits:
                                r = op.results[outs[p]]
                                if r not in produced:
                                    produced.add(r)
                                    changed = True
                for p, _ in m.sources:
                    r = op.results[outs[p]]
                    if r not in produced:
                        produced.add(r)
                        changed = True
        silent = [r for op in ops for r in op.results if r not in produced and r not in self.types]
        if not silent:
            return False
        for r in silent:
            self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
        return True

    def _check_feedback(self) -> None:
        """Checks on inputs a rule does not wait for (carry feedback, a never-seeded loop's condition)."""
        for op, why in self.delays.items():
            if op.results[0] not in self.types:
                self.unknown_op(op, f"primed buffer: {why}, and its input could not be typed without its own "
                                    "output (loop state kept in the buffer is not typed)")
        for op, what, expected, v, ref in self.deferred:
            if v not in self.types or (expected is None and ref not in self.types):
                self.unknown_op(op, f"{self.name(v if v not in self.types else ref)} could not be typed")
                continue
            self.check(op, what, self.t(ref).clock if expected is None else expected, self.t(v).clock, v, ref)
        for op, what, expected, vals in self.deferred_union:
            if any(v not in self.types for v in vals):
                self.unknown_op(op, f"{', '.join(self.name(v) for v in vals if v not in self.types)} could not "
                                    "be typed")
                continue
            clocks = [self.t(v).clock for v in vals]
            if any(not isinstance(c, Clock) for c in clocks) or len({c.levels for c in clocks}) != 1:
                self.unknown_op(op, "the back edges are not on one loop nest")
                continue
            for i in range(len(clocks)):
                for k in range(i + 1, len(clocks)):
                    if not self._valid(clocks[i], z3.Not(clocks[k].formula())):
                        self.unknown_op(op, f"cannot show that the back edges {self.name(vals[i])} and "
                                            f"{self.name(vals[k])} never both carry a token for one iteration")
                        break
            union = Clock(clocks[0].levels, [z3.Or(*[c.formula() for c in clocks])])
            self.check(op, what, expected, union, vals[0], None)



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

