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

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import z3

from loom.dialects.dataflow import stream_params
from loom.ir.core import OpResult, Operation, Value
from loom.ir.types import MemRefType, NoneType
from loom.semantics import machine_for
from loom.semantics.handshake_ops import COPY_OPS, copied_value, is_copy
from loom.semantics.expr import Const
from loom.semantics.machine import Machine
from loom.verify.lengths.clock import (
    ANY,
    EMPTY,
    ONE,
    FreeVars,
    TermMap,
    AnyClock,
    Clock,
    Loop,
    mentions,
    raw_clock,
    split,
    substitute,
    when,
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
from loom.verify.lengths.conditions import capture, successor_facts, uses
from loom.verify.lengths.logic import Logic, Outcome
from loom.verify.lengths.ranking import (Atom, Ranking, Recurrence, WhileView, find_recurrence, prove_ranking,
                                        small_model)
from loom.verify.lengths.values import Values, _predicate, int_width, is_i1, symbol

AnyOrClock = "Clock | AnyClock"


@dataclass
class Typed:
    """The clock of a value and the term of its token at each coordinate."""

    clock: "Clock | AnyClock"
    term: z3.ExprRef


@dataclass
class Check:
    """One side condition: channel ``channel`` must carry tokens exactly on ``expected``."""

    op: Operation
    family: str  # "balance", "len.raw" or "len.after_cond"
    loop: Optional[Loop]
    what: str
    expected: "Clock | AnyClock"
    actual: "Clock | AnyClock"
    channel: Optional[Value]
    ref: Optional[Value]
    outcome: Outcome
    seconds: float = 0.0


@dataclass
class Group:
    """One independently firing part of an op: the operands it needs and the results it defines."""

    op: Operation
    ins: tuple[int, ...]
    outs: tuple[int, ...]
    kind: str = "all"
    pending: int = 0
    waits: tuple[Value, ...] = ()  # the values it waits for, when they are not operands ``ins`` of op


@dataclass
class Hypothesis:
    """A while loop opened by a carry/invariant whose condition is computed from its own output."""

    loop: Loop
    clock: Clock
    opener: Operation
    confirmed: Optional[bool] = None
    members: list[Operation] = field(default_factory=list)  # the carries/invariants of the loop
    cond_term: Optional[z3.ExprRef] = None  # the condition's own term (before N_W replaces it)


@dataclass
class Typing:
    """Everything inferred for one function."""

    func: Operation
    types: dict[Value, Typed]
    loops: list[Loop]
    checks: list[Check]
    unknown: dict[Operation, str]
    untyped: list[Operation]
    cond_names: TermMap
    gates: dict[Operation, Loop] = field(default_factory=dict)
    free: Optional[FreeVars] = None
    forever: dict[Operation, str] = field(default_factory=dict)  # streams that can never stop, with why
    # never-ending while loops: opener, arguments, the iteration k that feeds back the state of iteration i
    stuck: dict[Loop, tuple[Operation, dict, int, int]] = field(default_factory=dict)
    idioms: list[PrimedSelect] = field(default_factory=list)  # CIRCT primed selects (typed as carries if proved)
    cmerge_loops: list[CmergeLoop] = field(default_factory=list)  # CIRCT loop headers (typed as carries)
    rings: list[TokenRing] = field(default_factory=list)  # CIRCT one-task-at-a-time token rings
    ranked: dict[Loop, Ranking] = field(default_factory=dict)  # while loops proved to end
    recurrent: dict[Loop, tuple[Operation, Recurrence]] = field(default_factory=dict)  # never end (recurrence set)
    tried: dict[Loop, tuple[int, float]] = field(default_factory=dict)  # queries and seconds spent on the others


class Typer:
    """Runs the clock inference of one handshake.func (see the module docstring)."""

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

    # ------------------------------------------------------------------ driver
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

    # ------------------------------------------------------------------ helpers
    def t(self, v: Value) -> Typed:
        return self.types[v]

    def name(self, v: Optional[Value]) -> str:
        return self.names.get(v, "?") if v is not None else "?"

    def coords(self, clock: "Clock | AnyClock") -> list[z3.ArithRef]:
        return [lp.j for lp in clock.levels]

    def equal(self, a: "Clock | AnyClock", b: "Clock | AnyClock") -> Outcome:
        key = (a.key, b.key)
        hit = self._eq_cache.get(key)
        if hit is None:
            hit = self._eq_cache[key] = (self.logic.equal(a, b), a, b)  # the clocks keep their ids alive
        return hit[0]

    def check(self, op: Operation, what: str, expected: "Clock | AnyClock", actual: "Clock | AnyClock",
              channel: Optional[Value], ref: Optional[Value], family: str = "balance",
              loop: Optional[Loop] = None) -> Outcome:
        import time

        t0 = time.perf_counter()
        out = self.equal(expected, actual)
        self.checks.append(Check(op, family, loop, what, expected, actual, channel, ref, out,
                                 time.perf_counter() - t0))
        return out

    def same(self, op: Operation, vals: Sequence[Value], family: str = "balance",
             loop: Optional[Loop] = None) -> "Clock | AnyClock":
        """All ``vals`` are read by one firing: their clocks must be equal. Returns the common clock."""
        ref = next((v for v in vals if not isinstance(self.t(v).clock, AnyClock)), None)
        if ref is None:
            return ANY
        rc = self.t(ref).clock
        for v in vals:
            if v is ref or isinstance(self.t(v).clock, AnyClock):
                continue
            self.check(op, f"{self.name(v)} and {self.name(ref)} are consumed together", rc, self.t(v).clock,
                       v, ref, family, loop)
        return rc

    def cond_term(self, v: Value) -> z3.BoolRef:
        term = self.t(v).term
        if not z3.is_bool(term):
            term = term != 0
        term = self.canonical(self.t(v).clock, term)
        self.cond_names.setdefault(term, self.name(v))
        self.cond_names.setdefault(z3.Not(term), "!" + self.name(v))
        return term

    def canonical(self, clock: "Clock | AnyClock", term: z3.BoolRef) -> z3.BoolRef:
        """``term``, or the loop condition it equals on ``clock`` for all trip counts: a for loop's raw
        ``j < N`` on its raw clock, its ``after_cond`` ``j < N-1`` on its body clock (a condition the DFG
        computes from the index, e.g. ``(i + 1) < n`` in the body; ``loom.verify.lengths.conditions``)."""
        if not isinstance(clock, Clock) or clock.inner is None or clock.inner.kind != "for":
            return term
        loop = clock.inner
        if term.get_id() in (loop.cont.get_id(), loop.after.get_id()) or not mentions(term, loop, self.memo):
            return term
        if loop.index_term is None or not uses(term, loop.index_term.decl(), self._uses):
            return term  # not computed from the loop's index: data, never the loop's own condition
        key = (clock.key, term.get_id())
        hit = self._canon.get(key)
        if hit is None:
            _, inner = split(clock, loop, self.memo)
            ids = [x.get_id() for x in inner]
            want = loop.cont if not ids else (loop.after if ids == [loop.cont.get_id()] else None)
            got = want if want is not None and self._valid(clock, term == want, succ=True) else term
            hit = self._canon[key] = (got, term)  # the term keeps its id alive
        return hit[0]

    def fresh(self, v: Value, clock: "Clock | AnyClock") -> z3.ExprRef:
        return self.values.fresh(self.name(v).lstrip("%"), v.type, self.coords(clock))

    def unknown_op(self, op: Operation, reason: str) -> None:
        self.unknown.setdefault(op, reason)

    # ------------------------------------------------------------------ rules
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

    def _identity(self, op: Operation) -> None:
        for r in op.results:
            self.assign(r, self.t(op.operands[0]))

    def _join(self, op: Operation) -> None:
        c = self.same(op, op.operands)
        self.assign(op.results[0], Typed(c, self.values.token()))

    def _constant(self, op: Operation) -> None:
        m = self.machines[op]
        val = m.rules[0].emits[0][1]
        assert isinstance(val, Const)
        self.assign(op.results[0], Typed(self.t(op.operands[0]).clock, self.values.literal(val.value, op.results[0].type)))

    def _cond_br(self, op: Operation) -> None:
        c_v, d_v = op.operands
        c = self.same(op, [c_v, d_v])
        cond = self.cond_term(c_v)
        term = self.t(d_v).term
        for r, pol in ((op.results[0], cond), (op.results[1], z3.Not(cond))):
            clock, subst = when(c, pol, self.memo)
            if subst is None and isinstance(clock, Clock):
                clock, subst = self._capture(clock)
            self.assign(r, Typed(clock, substitute(term, subst)))

    def _capture(self, clock: Clock) -> tuple[Clock, Optional[tuple]]:
        """``clock`` with its innermost level projected away when a condition ``idx(j) == k`` (k the same for
        the whole activation) pins the position of a unit-step stream's loop: a token captured at the
        iteration whose index is k (``loom.verify.lengths.conditions.capture``)."""
        loop = clock.inner
        if loop is None or clock.is_empty:
            return clock, None
        outer, inner = split(clock, loop, self.memo)
        got = capture(loop, inner, lambda x: mentions(x, loop, self.memo))
        if got is None:
            return clock, None
        conds, t = got
        if not any(t.eq(x) for x in loop.captures):
            loop.captures.append(t)
        return Clock(clock.levels[:-1], outer + conds), (loop.j, t)

    def _mux(self, op: Operation) -> None:
        sel_v, data = op.operands[0], op.operands[1:]
        s = self.t(sel_v).clock
        if isinstance(s, AnyClock):
            self.unknown_op(op, f"the select {self.name(sel_v)} comes from an always-ready source")
            return
        sel = self.t(sel_v).term
        boolean = is_i1(sel_v.type)
        if boolean:
            sel = self.cond_term(sel_v)  # a computed loop condition selects like the loop's own
        width = int_width(sel_v.type) or 64
        out_term: Optional[z3.ExprRef] = None
        for k, d in reversed(list(enumerate(data))):
            if boolean:
                pick = sel if k == 1 else (z3.Not(sel) if k == 0 else z3.BoolVal(False))
            else:
                pick = sel == z3.BitVecVal(k, width)
            expected, _ = when(s, pick, self.memo)
            self.check(op, f"{self.name(d)} carries one token per select token choosing input {k}", expected,
                       self.t(d).clock, d, sel_v)
            dt = self.t(d).term
            out_term = dt if out_term is None else z3.If(pick, dt, out_term)
        if not (boolean and len(data) >= 2):
            in_range = z3.BoolVal(len(data) >= 2) if boolean else z3.ULT(sel, z3.BitVecVal(len(data), width))
            oob, _ = when(s, z3.Not(in_range), self.memo)
            self.check(op, f"the select {self.name(sel_v)} is always below {len(data)}", EMPTY, oob, sel_v, None)
        assert out_term is not None
        self.assign(op.results[0], Typed(s, out_term))

    def _merge(self, op: Operation) -> None:
        ins = op.operands
        clocks = [self.t(v).clock for v in ins]
        if len(ins) == 1:
            self.assign(op.results[0], self.t(ins[0]))
            if len(op.results) > 1:
                self.assign(op.results[1], Typed(clocks[0], self.values.literal(0, op.results[1].type)))
            return
        if any(isinstance(c, AnyClock) for c in clocks):
            self.unknown_op(op, "merge of an always-ready source")
            return
        live = [c for c in clocks if not c.is_empty]  # an input that never carries a token adds nothing
        if not live:
            for r in op.results:
                self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
            return
        if len({c.levels for c in live}) != 1:
            self.unknown_op(op, "merge of streams from different loop nests")
            return
        for i in range(len(ins)):
            for k in range(i + 1, len(ins)):
                # disjoint: wherever input i carries a token, input k does not (one query over the
                # shared loop nest; comparing their intersection with the level-less empty clock
                # would ask for a count witness instead, and never prove it inside a loop)
                if clocks[i].is_empty or clocks[k].is_empty:
                    continue
                if not self._valid(clocks[i], z3.Not(clocks[k].formula())):
                    self.unknown_op(op, f"cannot show that {self.name(ins[i])} and {self.name(ins[k])} never both "
                                        "carry a token for one iteration (merge order is nondeterministic)")
                    return
        clock = Clock(live[0].levels, [z3.Or(*[c.formula() for c in live])])
        # The inputs are disjoint, so at each coordinate exactly one of them holds a token: a control_merge's
        # index names it (the index is what a CIRCT-style mux selects on; #(index = k) = #in_k whatever the
        # arrival order). The output is that token -- its value is kept only at function level (one token
        # per run): inside a loop, tokens of later iterations may overtake earlier ones at the merge.
        value = self.t(ins[-1]).term
        index = self.values.literal(len(ins) - 1, op.results[1].type) if len(op.results) > 1 else None
        for k in range(len(ins) - 2, -1, -1):
            here = clocks[k].formula()
            value = z3.If(here, self.t(ins[k]).term, value)
            if index is not None:
                index = z3.If(here, self.values.literal(k, op.results[1].type), index)
        if clock.levels:
            value = self.fresh(op.results[0], clock)
        self.assign(op.results[0], Typed(clock, value))
        if index is not None:
            self.assign(op.results[1], Typed(clock, index))

    def _store(self, op: Operation) -> None:
        c = self.same(op, op.operands)
        self._body_local(op, c, op.operands)
        n_addr = len(op.operands) - 2
        self.assign(op.results[0], Typed(c, self.t(op.operands[n_addr]).term))
        for k in range(1, len(op.results)):
            self.assign(op.results[k], Typed(c, self.t(op.operands[k - 1]).term))

    def _body_local(self, op: Operation, c: "Clock | AnyClock", vals: Sequence[Value]) -> None:
        """A memory access inside a for loop is body-local: it must never fire at the raw stream's exit
        position j = N (that would access memory N+1 times per activation). Pure ops (arith/math, streams)
        may: a computation on the raw clock is before-region or boundary work (the loop's own exit test,
        an exit value), and whatever consumes its results is checked against their clock."""
        if not isinstance(c, Clock):
            return
        ids = {x.get_id() for x in c.conds}
        for loop in c.levels:
            if loop.kind != "for" or loop.cont.get_id() in ids:
                continue  # restricted to the body of this loop syntactically
            body = c.with_conds([loop.cont])
            raw_v = next((v for v in vals if not isinstance(self.t(v).clock, AnyClock)), None)
            self.check(op, f"body-local {op.name} must not consume the raw (N+1) stream {self.name(raw_v)} of "
                           f"{loop.name}", body, c, raw_v, None, "class", loop)

    def _return(self, op: Operation) -> None:
        for v in op.operands:
            self.check(op, f"{self.name(v)} carries exactly one token per run", ONE, self.t(v).clock, v, None)

    def _memory_port(self, g: Group) -> None:
        op = g.op
        vals = [op.operands[i] for i in g.ins]
        c = self.same(op, vals) if vals else ANY
        for k in g.outs:
            r = op.results[k]
            if isinstance(r.type, NoneType):
                self.assign(r, Typed(c, self.values.token()))
            else:
                self.assign(r, Typed(c, self.fresh(r, c)))

    def _stream(self, op: Operation) -> None:
        n_checks = len(self.checks)
        p = self.same(op, op.operands, "len.raw")
        start, step, bound = (self.t(v).term for v in op.operands)
        if isinstance(p, AnyClock):
            self.unknown_op(op, "the stream is activated by an always-ready source")
            # start, step and bound are all offered forever (ANY comes only from always-ready sources): after
            # every exit the stream is activated again
            self.forever[op] = ("its start, step and bound all come from always-ready sources, so it is "
                                "activated again after every exit and never stops emitting")
            return
        if p.is_empty:  # dead code (e.g. under a constant-false branch): never activated
            for r in op.results:
                self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
            return
        m = self.machines[op]
        step_op, cont = stream_params(op)
        # Streams share a loop only when they are copies of one activation: equal clocks and operand terms
        # and the same tokens behind the operands (a stream started by another loop's exit token has the
        # same counts but runs after it: sharing would pair iterations that never coexist).
        roots = tuple(id(activation_root(v)) for v in op.operands)
        key = (p.key, step_op, cont, start.get_id(), step.get_id(), bound.get_id(), roots)
        loop = self.loop_index.get(key)
        idx, cont_v = op.results
        if loop is None:
            loop = Loop(len(self.loops), "for", op, p, step_op, cont)
            loop.start, loop.step, loop.bound = start, step, bound
            loop.first_cond = _first_cond(m, start, step, bound)
            loop.trips = _constant_trips(step_op, cont, start, step, bound)
            loop.index_term = self.fresh(idx, raw_clock(loop))
            loop.holds = _first_cond(m, loop.index_term, step, bound)
            loop.facts, loop.exact = _index_facts(loop)
            self.loops.append(loop)
            self.loop_index[key] = loop
            self.logic.add_loop(loop)
        # The stream's own operand check is its loop's len.raw obligation.
        for c in self.checks[n_checks:]:
            c.loop = loop
        if len(self.checks) == n_checks:
            self.checks.append(Check(op, "len.raw", loop, "the stream's operands arrive together", p, p, None, None,
                                     Outcome("proved", "single activation clock")))
        rc = raw_clock(loop)
        self.assign(idx, Typed(rc, loop.index_term))
        self.assign(cont_v, Typed(rc, loop.cont))

    def _gate(self, op: Operation) -> None:
        v, c_v = op.operands
        n_checks = len(self.checks)
        c = self.same(op, [v, c_v], "len.after_cond")
        if isinstance(c, Clock) and c.is_empty:
            for r in op.results:
                self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
            return
        loop = self._loop_condition(op, c_v, c, "raw")
        if loop is None:
            return
        for ch in self.checks[n_checks:]:
            ch.loop = loop
        self.gates[op] = loop
        body, _ = when(c, loop.cont, self.memo)
        self.checks.append(Check(op, "len.after_cond", loop, "after_value/after_cond: N tokens per activation",
                                 body, body, None, None, Outcome("proved", "gate of the loop's raw condition")))
        self.assign(op.results[0], Typed(body, self.t(v).term))
        self.assign(op.results[1], Typed(body, loop.after))

    def _loop_condition(self, op: Operation, c_v: Value, c: "Clock | AnyClock", shape: str) -> Optional[Loop]:
        """The loop whose raw (``shape='raw'``) condition ``c_v`` is, or None (recorded as unknown)."""
        if isinstance(c, AnyClock) or c.inner is None:
            self.unknown_op(op, f"{self.name(c_v)} is not the condition of a loop")
            return None
        loop = c.inner
        _, inner = split(c, loop, self.memo)
        term = self.t(c_v).term
        want_inner, want_term = ([], loop.cont) if shape == "raw" else ([loop.cont], loop.after)
        if [x.get_id() for x in inner] != [x.get_id() for x in want_inner]:
            self.unknown_op(op, f"{self.name(c_v)} is not the {shape} condition of {loop.name}")
            return None
        if term.get_id() != want_term.get_id() and not self._valid(c, term == want_term, succ=True):
            self.unknown_op(op, f"{self.name(c_v)} is not the {shape} condition of {loop.name}")
            return None
        return loop

    def _valid(self, clock: Clock, prop: z3.BoolRef, succ: bool = False) -> bool:
        """``prop`` holds at every coordinate of ``clock`` for all trip counts (``succ``: with what the streams'
        tables say about neighbouring positions, to recognise a loop condition the DFG computes)."""
        body = self.logic.domain(clock.levels) + list(clock.conds) + [z3.Not(prop)]
        if succ:
            body += [f for lp in clock.levels for f in successor_facts(lp)]
        s = self.logic.solver()
        s.add(*self.logic.axioms(body), *body)
        self.logic.queries += 1
        return s.check() == z3.unsat

    def _segment(self, op: Operation) -> None:
        """carry/invariant with typed a and d."""
        d_v = self.carry_view(op)[0]
        d = self.t(d_v)
        self._segment_with(op, d.clock, self.canonical(d.clock, d.term) if z3.is_bool(d.term) else d.term)

    def _primed(self, op: Operation) -> None:
        """The primed buffer of a proved primed select: per activation it offers its muxes 0 and then the
        condition's tokens but the last (which stays to prime the next activation), i.e. the select is
        ``j > 0`` on the condition's clock (always 0 for a flat condition)."""
        ps = self.primed[op]
        shapes = {self.shape_of[m] for m in ps.muxes if m in self.shape_of}
        c = self.t(op.operands[0]).clock
        if len(shapes) != 1 or isinstance(c, AnyClock):
            self.unknown_op(op, "the muxes this primed buffer selects could not be typed as carries")
            return
        shape, loop = shapes.pop()
        term = z3.BoolVal(False) if shape == "flat" or loop is None else z3.Not(loop.j == 0)
        self.assign(op.results[0], Typed(c, term))

    def _delay(self, op: Operation) -> None:
        """A delay line: a primed buffer (k initial tokens) whose input is typed without its output. It
        offers its k initial tokens, then its input's tokens in order; consumers that take exactly as many
        tokens as its input carries (its input's clock C, checked where they are consumed) take the k initial
        ones and all but the last k input tokens, which stay in it -- exactly the tokens that re-arm it for the
        next run (``loom.semantics.rest``). So its output is on C, its value opaque (shifted by k tokens)."""
        c = self.t(op.operands[0]).clock
        r = op.results[0]
        self.assign(r, Typed(c, self.fresh(r, c)))

    def _ring_others(self, ring: TokenRing) -> list[Value]:
        """The inputs of the ring's first consumer other than the ring's own token."""
        own = ring.buffer.results[0]
        return [v for v in ring.consumers[0].operands if copied_value(v) is not own]

    def _ring(self, op: Operation) -> None:
        """A token ring: its consumer fires at most once per run (its other inputs are on a function-level
        clock C), taking the initial token; the ring must send back exactly one token per firing (its input
        on C, checked with the feedback), which re-arms the buffer. Inside a loop the order of the returned
        tokens is not shown: unknown."""
        ring = self.rings[op]
        clocks = [self.t(v).clock for v in self._ring_others(ring)]
        c = next((x for x in clocks if isinstance(x, Clock)), None)
        if c is None:
            self.unknown_op(op, "the token ring's consumer has no input besides the ring to take its rate from")
            return
        if c.levels:
            if op.operands[0] in self.types:  # its input does not wait for the ring's consumer: a delay line
                self._delay(op)
                return
            self.unknown_op(op, "the token ring's consumer fires inside a loop: that the ring returns each token "
                                "before the next firing needs it is not shown (only a function-level ring is typed)")
            return
        init = op.attributes["initValues"].elements[0]  # type: ignore[union-attr]
        r = op.results[0]
        term = (self.values.token() if isinstance(r.type, NoneType)
                else self.values.literal(getattr(init, "value", 0), r.type))
        ring.typed = True
        self.deferred.append((op, f"the ring sends back one token per firing of {ring.consumers[0].name}", c,
                              op.operands[0], None))
        self.assign(r, Typed(c, term))

    def _segment_with(self, op: Operation, dclock: "Clock | AnyClock", dterm: z3.ExprRef) -> None:
        d_v, a_v, b_v = self.carry_view(op)
        a = self.t(a_v)
        o = op.results[0]
        if isinstance(dclock, AnyClock):
            self.unknown_op(op, f"the condition {self.name(d_v)} comes from an always-ready source")
            return
        if isinstance(a.clock, AnyClock):
            self.unknown_op(op, f"the seed {self.name(a_v)} comes from an always-ready source")
            return
        cl = self.cmerge_loops.get(op)
        if cl is not None and a.clock.levels:
            # a second entry token could arrive while the loop runs, and the merge could take it early
            self.unknown_op(op, f"the loop header's entry {self.name(a_v)} is inside a loop: that one activation "
                                "runs at a time is not shown (only a function-level entry is typed)")
            return
        shape = None
        loop = dclock.inner
        if loop is not None:
            _, inner = split(dclock, loop, self.memo)
            ids = [x.get_id() for x in inner]
            if not ids and (dterm.get_id() == loop.cont.get_id()
                            or self._valid(dclock, dterm == loop.cont, succ=True)):
                shape = "raw"
            elif ids == [loop.cont.get_id()] and (dterm.get_id() == loop.after.get_id()
                                                   or self._valid(dclock, dterm == loop.after, succ=True)):
                shape = "after_cond"
        if shape is None and (dclock.is_empty or self._valid(dclock, z3.Not(dterm))):
            shape = "flat"  # every d token is false: one segment of length one per token
        if shape is None:
            self.unknown_op(op, f"the condition {self.name(d_v)} is neither a loop's raw condition nor its "
                                "after_cond (no segment structure the calculus knows)")
            return
        if shape == "flat":
            expected = dclock
            what = f"one {self.name(a_v)} token per {self.name(d_v)} token (every condition is false)"
        else:
            assert loop is not None
            outer, _ = split(dclock, loop, self.memo)
            extra = [loop.n >= 1] if shape == "after_cond" else []
            expected = Clock(dclock.levels[:-1], outer + extra)
            need = " (after_cond is empty when the loop runs 0 times: needs N >= 1)" if extra else ""
            what = f"one {self.name(a_v)} token per activation of {loop.name}{need}"
        self.check(op, what, expected, a.clock, a_v, d_v)
        self.shape_of[op] = (shape, loop)
        if op.name == "dataflow.invariant":
            term = a.term
        elif shape == "flat":
            term = a.term
        else:
            assert loop is not None
            term = z3.If(loop.j == 0, a.term, self.fresh(o, dclock))
        if b_v is None and (op in self.cmerge_loops or op in self.header_of):
            self._several_backs(op, dclock, dterm)
        if b_v is not None:
            fb, _ = when(dclock, dterm, self.memo)
            b = b_v
            self.deferred.append((op, f"{self.name(b)} carries one token per true condition", fb, b, d_v))
        self.assign(o, Typed(dclock, term))
        if cl is not None:
            cl.typed = True
            idx = op.results[1]
            first = self.values.literal(cl.entry, idx.type)
            later = self.values.literal(cl.backs[0], idx.type) if len(cl.backs) == 1 else self.fresh(idx, dclock)
            index = first if shape == "flat" or loop is None else z3.If(loop.j == 0, first, later)
            self.assign(idx, Typed(dclock, index))

    def _several_backs(self, op: Operation, dclock: "Clock | AnyClock", dterm: z3.ExprRef) -> None:
        """Feedback checks of a loop header with several back edges (the loop body's last branches): together
        they carry one token per true condition, one edge at a time; each index mux's input for edge k
        carries exactly edge k's tokens."""
        fb, _ = when(dclock, dterm, self.memo)
        cl = self.cmerge_loops.get(op) or self.header_of[op]
        backs = [cl.cmerge.operands[k] for k in cl.backs]
        if op is cl.cmerge:
            names = ", ".join(self.name(v) for v in backs)
            self.deferred_union.append((op, f"{names} together carry one token per true condition", fb, backs))
            return
        for k, v in zip(cl.backs, backs):
            d = op.operands[1 + k]
            self.deferred.append((op, f"{self.name(d)} carries one token per token of the back edge {self.name(v)}",
                                  None, d, v))

    # ------------------------------------------------------------------ while loops
    def _hypothesize(self) -> bool:
        """When stuck: open a while loop for the first carry/invariant whose seed is typed but whose
        condition is not (it is computed from the loop's own outputs)."""
        for g in self.groups:
            if g.kind != "segment" or id(g) in self.done_groups:
                continue
            op = g.op
            d_v, a_v, b_v = self.carry_view(op)
            if d_v in self.types or a_v not in self.types:
                continue
            p = self.t(a_v).clock
            if isinstance(p, AnyClock):
                continue
            if p.is_empty:  # never seeded: never fires, so d (and b) must stay empty too
                self.done_groups.add(id(g))
                self.deferred.append((op, f"{self.name(d_v)} carries no token (the seed never arrives)", EMPTY,
                                      d_v, a_v))
                if b_v is not None:
                    self.deferred.append((op, f"{self.name(b_v)} carries no token (the seed never "
                                              "arrives)", EMPTY, b_v, a_v))
                self.assign(op.results[0], Typed(EMPTY, self.fresh(op.results[0], EMPTY)))
                return True
            root = copied_value(d_v)
            hyp = self.hyps.get(root)
            if hyp is None:
                loop = Loop(len(self.loops), "while", op, p)
                self.loops.append(loop)
                self.logic.add_loop(loop)
                hyp = self.hyps[root] = Hypothesis(loop, raw_clock(loop), op)
            self.done_groups.add(id(g))
            hyp.members.append(op)
            self._segment_with(op, hyp.clock, hyp.loop.cont)
            # every other carry/invariant on the same condition (or a fork/buffer/br copy of it) joins
            # this loop now
            for g2 in self.groups:
                if (g2.kind == "segment" and id(g2) not in self.done_groups
                        and copied_value(self.carry_view(g2.op)[0]) is root
                        and self.carry_view(g2.op)[1] in self.types):
                    self.done_groups.add(id(g2))
                    hyp.members.append(g2.op)
                    self._segment_with(g2.op, hyp.clock, hyp.loop.cont)
            return True
        return False

    def _confirm(self, d_v: Value, hyp: Hypothesis, typed: Typed) -> Typed:
        """d (a hypothesised while condition) got its real clock: check it, define N by its first false."""
        loop = hyp.loop
        out = self.check(hyp.opener, f"the loop condition {self.name(d_v)} carries N+1 tokens per activation "
                                     f"of {loop.name}", hyp.clock, typed.clock, d_v, None, "len.raw", loop)
        if out.status != "proved":
            hyp.confirmed = False
            return typed
        hyp.confirmed = True
        hyp.cond_term = typed.term
        first = z3.simplify(z3.substitute(typed.term, (loop.j, z3.IntVal(0))))
        loop.first_cond = first
        loop.holds = typed.term  # true exactly at positions j < N: relates the loop's data to N
        if z3.is_true(z3.simplify(typed.term)):
            self.unknown_op(hyp.opener, f"the condition of {loop.name} is constantly true: the loop never ends")
        self.cond_names.setdefault(loop.cont, self.name(d_v))
        return Typed(typed.clock, loop.cont)

    def _control_state(self, hyp: Hypothesis) -> Optional["_Control"]:
        """The carries that decide a while loop (those its condition reads, and those their feedback reads;
        others, such as a step counter, change every iteration without deciding anything), each with the
        fresh value standing for its later outputs. None when the loop is not one the checks can read."""
        if not hyp.confirmed or hyp.cond_term is None:
            return None
        cond = self.cond_term_bool(hyp.cond_term)
        carries = [op for op in hyp.members if self.is_carry(op)]
        feedback = {op: self.carry_view(op)[2] for op in carries}
        seeds = {op: self.carry_view(op)[1] for op in carries}
        if any(feedback[op] not in self.types or op.results[0] not in self.types for op in carries):
            return None

        def own(op: Operation) -> set[int]:  # the fresh values standing for the carry's later outputs
            seed = {x.decl().get_id() for x in _uninterpreted(self.t(seeds[op]).term)}
            out = {x.decl().get_id() for x in _uninterpreted(self.t(op.results[0]).term) if x.num_args() > 0}
            return out - seed  # (coordinates, 0-ary, are shared by every carry of the loop)

        decls = {op: own(op) for op in carries}
        used = {x.decl().get_id() for x in _uninterpreted(cond)}
        state: list[Operation] = []
        grew = True
        while grew:
            grew = False
            for op in carries:
                if op not in state and decls[op] & used:
                    state.append(op)
                    used |= {x.decl().get_id() for x in _uninterpreted(self.t(feedback[op]).term)}
                    grew = True
        if not state:
            return None
        apps: dict[Operation, z3.ExprRef] = {}
        for op in state:
            mine = [x for x in _uninterpreted(self.t(op.results[0]).term) if x.decl().get_id() in decls[op]]
            if len(mine) != 1:
                return None
            apps[op] = mine[0]
        return _Control(hyp, cond, carries, state, apps, {op: self.t(seeds[op]).term for op in state},
                        {op: self.t(feedback[op]).term for op in state})

    def _unrolled(self, cs: "_Control", k: int) -> Optional[tuple[list[dict], list[z3.BoolRef]]]:
        """The control states of iterations 0..k as terms over the arguments (the seeds, then each feedback
        evaluated on the previous state) and the condition at iterations 0..k-1; None when a step's state
        has another sort than the carry's."""
        loop = cs.hyp.loop
        current = dict(cs.seeds)
        states, conds = [current], []
        for i in range(k):
            at = [(loop.j, z3.IntVal(i))]
            here = [(z3.substitute(cs.apps[op], *at), current[op]) for op in cs.state]

            def now(term: z3.ExprRef) -> z3.ExprRef:
                return z3.simplify(z3.substitute(z3.simplify(z3.substitute(term, *at)), *here))

            conds.append(now(cs.cond))
            nxt = {op: now(cs.feedback[op]) for op in cs.state}
            if any(nxt[op].sort() != current[op].sort() for op in cs.state):
                return None
            states.append(nxt)
            current = nxt
        return states, conds

    def _fixed_point(self, hyp: Hypothesis) -> None:
        """A while loop that never ends (a lasso): some arguments make its iterations 0..k run (the
        condition holds) and iteration k feed back the state some iteration i <= k started from, so
        iterations i..k repeat forever (i = k: a fixed point). Decided only when the condition and the
        feedback are exact functions of the seeds and the arguments (no loaded or otherwise abstracted
        value), so a model is a real run."""
        cs = self._control_state(hyp)
        if cs is None:
            return
        loop = hyp.loop
        got = self._unrolled(cs, FIXED_POINT_UNROLL)
        if got is None:
            return
        states, conds = got
        allowed = {c.get_id() for c in self.logic.args.values()}
        held: list[z3.BoolRef] = [loop.activation.formula()]  # really activated with those arguments
        for k in range(FIXED_POINT_UNROLL):
            held.append(conds[k])
            nxt = states[k + 1]
            again = [z3.And(*[nxt[op] == states[i][op] for op in cs.state]) for i in range(k + 1)]
            claim = z3.And(*held, z3.Or(*again))
            if any(x.get_id() not in allowed for x in _uninterpreted(claim)):
                return  # depends on abstracted data or on trip counts: no exact verdict
            m, asked = small_model(self.logic.solver, self.logic.axioms([claim]) + [claim],
                                   list(self.logic.args.values()))
            self.logic.queries += asked
            if m is not None:
                used_args = {x.get_id() for x in _uninterpreted(claim)}
                args = {name: py_value(m.eval(c, model_completion=True))
                        for name, c in self.logic.args.items() if c.get_id() in used_args}
                back = next(i for i in range(k, -1, -1) if z3.is_true(m.eval(again[i], model_completion=True)))
                self.stuck[loop] = (hyp.opener, args, k, back)
                return

    def _termination(self, hyp: Hypothesis) -> None:
        """A while loop that is not stuck: prove it ends by a ranking function, or refute it with a closed
        recurrence set (``loom.verify.lengths.ranking``); else it stays assumed."""
        loop = hyp.loop
        view = self._while_view(hyp)
        if view is None:
            return
        t0 = time.perf_counter()
        rank, asked = prove_ranking(view)
        self.logic.queries += asked
        if rank is not None:
            self.ranked[loop] = rank
            return
        rec, asked2 = find_recurrence(view)
        self.logic.queries += asked2
        if rec is not None:
            self.recurrent[loop] = (hyp.opener, rec)
        self.tried[loop] = (asked + asked2, time.perf_counter() - t0)

    def _while_view(self, hyp: Hypothesis) -> Optional[WhileView]:
        """The generic iteration of a while loop (``ranking.WhileView``), or None when some carry of the loop
        is not fully typed and checked (then its outputs are not known to follow its feedback)."""
        loop = hyp.loop
        if not hyp.confirmed or hyp.cond_term is None:
            return None
        cond = self.cond_term_bool(hyp.cond_term)
        steps: list[z3.BoolRef] = []
        for op in hyp.members:
            if op in self.unknown or op.results[0] not in self.types:
                return None
            if any(c.op is op and c.outcome.status != "proved" for c in self.checks):
                return None  # e.g. the feedback does not carry one token per true condition
            if not self.is_carry(op):
                continue
            b_v = self.carry_view(op)[2]
            if b_v is None or b_v not in self.types:
                return None
            out = self.t(op.results[0]).term
            steps.append(z3.substitute(out, (loop.j, loop.j + 1)) == self.t(b_v).term)
        atoms, disjunctive = self._atoms(copied_value(self.carry_view(hyp.opener)[0]))
        cs = self._control_state(hyp)
        state = [(self.name(op.results[0]), self.t(op.results[0]).term) for op in cs.state] if cs else []
        allowed = {c.get_id() for c in self.logic.args.values()}

        def exact(term: z3.ExprRef) -> bool:
            return all(x.get_id() in allowed for x in _uninterpreted(term))

        def stem(model: z3.ModelRef, k: int) -> list[dict[str, object]]:
            if cs is None:
                return []
            got = self._unrolled(cs, k)
            if got is None:
                return []
            out = []
            for st in got[0]:
                if not all(exact(t) for t in st.values()):
                    break
                out.append({self.name(op.results[0]): py_value(model.eval(st[op], model_completion=True))
                            for op in cs.state})
            return out

        invariants = [(self.name(op.results[0]), self.t(op.results[0]).term) for op in hyp.members
                      if op.name == "dataflow.invariant" and z3.is_bv(self.t(op.results[0]).term)]
        return WhileView(loop, cond, steps, atoms, state, loop.activation.formula(), dict(self.logic.args),
                         lambda body: self.logic.axioms(body), self.logic.solver, exact, invariants, disjunctive,
                         stem)

    def _atoms(self, root: Value) -> tuple[list[Atom], bool]:
        """The integer comparisons (``arith.cmpi``) a loop condition is computed from, through boolean ops,
        selects, muxes, branches and copies, and whether anything but an ``andi`` combines them."""
        atoms: list[Atom] = []
        disjunctive = False
        seen: set[int] = set()
        todo = [root]
        while todo and len(seen) < 64:
            v = copied_value(todo.pop(0))
            if id(v) in seen or not isinstance(v, OpResult):
                continue
            seen.add(id(v))
            op = v.op
            if op.name == "arith.cmpi":
                pred = _predicate(op)
                lhs, rhs = op.operands
                if pred is None or lhs not in self.types or rhs not in self.types:
                    continue
                lt, rt = self.t(lhs).term, self.t(rhs).term
                if z3.is_bv(lt) and z3.is_bv(rt) and lt.size() == rt.size():
                    atoms.append(Atom(pred, lt, rt, (self.name(lhs), self.name(rhs))))
                continue
            if op.name in _BOOLEAN_WALK:
                disjunctive |= op.name != "arith.andi"
                todo.extend(op.operands)
        return atoms, disjunctive

    @staticmethod
    def cond_term_bool(term: z3.ExprRef) -> z3.BoolRef:
        return term if z3.is_bool(term) else term != 0

    # ------------------------------------------------------------------ silent parts
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


FIXED_POINT_UNROLL = 8  # iterations of a while loop searched for a state it feeds back unchanged
# ops a loop condition's comparisons are found through (copies are followed by ``copied_value``)
_BOOLEAN_WALK = ("arith.andi", "arith.ori", "arith.xori", "arith.select", "handshake.mux", "handshake.cond_br")


@dataclass
class _Control:
    """The control state of a while loop (``Typer._control_state``)."""

    hyp: Hypothesis
    cond: z3.BoolRef
    carries: list[Operation]
    state: list[Operation]
    apps: dict[Operation, z3.ExprRef]
    seeds: dict[Operation, z3.ExprRef]
    feedback: dict[Operation, z3.ExprRef]


def _uninterpreted(term: z3.ExprRef) -> list[z3.ExprRef]:
    """The uninterpreted constants and applications in ``term`` (arguments, fresh values, trip counts)."""
    out: dict[int, z3.ExprRef] = {}
    seen: set[int] = set()
    todo = [term]
    while todo:
        x = todo.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_app(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out[x.get_id()] = x
            continue
        if z3.is_quantifier(x) or z3.is_var(x):
            out[x.get_id()] = x
            continue
        todo.extend(x.children())
    return list(out.values())


def py_value(v: z3.ExprRef) -> object:
    """A model value as JSON: signed integers, booleans, anything else as its text."""
    if z3.is_bv_value(v):
        return v.as_signed_long()
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    return str(v)


def activation_root(v: Value) -> Value:
    """The token behind ``v``: through copies (fork/buffer/br) and from a constant to its ctrl token."""
    while True:
        v = copied_value(v)
        if isinstance(v, OpResult) and v.op.name == "handshake.constant":
            v = v.op.operands[0]
            continue
        return v


def _first_cond(m: Machine, start: z3.ExprRef, step: z3.ExprRef, bound: z3.ExprRef) -> Optional[z3.BoolRef]:
    """The stream's first continue condition, read from its table's ``continue`` rule guard."""
    from loom.verify.lengths.exprs import guard_term

    rule = next((r for r in m.rules if r.name == "continue"), None)
    if rule is None or rule.guard is None:
        return None
    return guard_term(rule.guard, {"next": start, "step": step, "bound": bound})


def _index_facts(loop: Loop) -> tuple[list[z3.BoolRef], Optional[z3.BoolRef]]:
    """What is known about the stream's idx (an uninterpreted function of the coordinates) at position j.

    Cheap facts for symbolic queries: idx = start at j = 0 and, for unit steps towards the bound
    (``+=`` 1 with ``<``/``<=``, ``-=`` 1 with ``>``/``>=``), idx stays on the start's side (no wrap-around
    before the exit). The exact value (start +- j*step, 64-bit wrapping, as the table computes it) is
    returned separately: it is used only at concrete positions (witness search), where it costs nothing.
    """
    assert loop.index_term is not None and loop.start is not None and loop.step is not None
    idx, start, step = loop.index_term, loop.start, loop.step
    facts = [z3.Implies(loop.j == 0, idx == start)]
    unit = z3.is_bv_value(z3.simplify(step)) and z3.simplify(step).as_signed_long() == 1
    if unit and loop.step_op == "+=" and loop.cont_cond in ("<", "<="):
        facts.append(z3.Implies(loop.j <= loop.n, idx >= start))
    if unit and loop.step_op == "-=" and loop.cont_cond in (">", ">="):
        facts.append(z3.Implies(loop.j <= loop.n, idx <= start))
    exact = None
    if loop.step_op in ("+=", "-="):
        jb = z3.Int2BV(loop.j, 64)
        exact = idx == (start + jb * step if loop.step_op == "+=" else start - jb * step)
    return facts, exact


def _constant_trips(step_op: str, cont: Optional[str], start, step, bound, cap: int = 1 << 16) -> Optional[int]:
    """The trip count when start/step/bound are literals (running the stream's recurrence), else None."""
    from loom.semantics.dataflow_ops import continue_condition
    from loom.semantics.expr import Reg
    from loom.semantics.functions import PURE_FUNCTIONS, compile_expr

    vals = [z3.simplify(x) for x in (start, step, bound)]
    if not all(z3.is_bv_value(x) for x in vals):
        return None
    nxt, st, bd = (x.as_long() for x in vals)
    if st == 0:
        return None
    upd = PURE_FUNCTIONS["step." + step_op][1]
    holds = compile_expr(continue_condition(cont, Reg("next"), Reg("bound"), Reg("step")), {})
    regs = {"bound": bd, "step": st}
    seen: set[int] = set()
    n = 0
    while n <= cap:
        regs["next"] = nxt
        if not holds([], regs, None):
            return n
        if nxt in seen:  # the recurrence is deterministic: a repeated index never reaches an exit
            return None
        seen.add(nxt)
        nxt = upd(nxt, st)
        n += 1
    return None


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


__all__ = ["Check", "Typed", "Typing", "infer"]
