"""A machine in an open environment, a contract monitor beside it, and the proof engine for both.

An operator lemma is a safety property of the product "table x monitor": the
monitor watches only observable events (which ports a firing consumes and with
what head values, which ports it emits and what) and raises ``bad`` when the
contract is broken. The environment offers any token at any time (every head is
a fresh value at every step), which over-approximates every input sequence.

Proof: 1-induction with a plain solver over the contract's strengthening
invariant (one SMT query: base case or inductive step violated -- ``unsat``
means proved). When the query is satisfiable, a bounded search from the initial
state (BMC, depth ``bmc_depth``) looks for a real violation to report as a
counterexample trace; if none exists within the depth, Z3's CHC engine
(Spacer) tries to prove the property without the strengthening. Anything left
open is ``unknown``, never ``proved``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Union

import z3

from loom.semantics.machine import Machine
from loom.verify.ids import oid as obligation_id
from loom.verify.solve import (
    DEFAULT_RLIMIT,
    QueryResult,
    ScopedChecks,
    conjunction,
    constant,
    disjunction,
    equal,
    ite,
    milliseconds,
    negation,
    plus,
    is_limit_reason,
    run_query,
    script_of,
    set_limits,
    substitute_all,
    unknown_reason,
)
from loom.verify.terms import term_ids
from loom.verify.z3model import Firing, MachineModel, MState, bv_value, smt_symbol, sort_of

VarKind = Union[str, z3.SortRef]  # "int" | "bool" | a Z3 sort


@dataclass
class Step:
    """What a monitor sees of one firing: the firing, its head values and monitor before/after."""

    model: MachineModel
    firing: Firing
    heads: Mapping[str, z3.ExprRef]
    m: dict[str, z3.ExprRef]
    m2: dict[str, z3.ExprRef]
    s: MState
    s2: MState
    memo: dict = field(default_factory=dict)  # shared by the steps of one query: monitor updates built once
    # (update term, its definitions m2[x] = t, whether each may move its variable) when a ``Counter`` built it
    frame: Optional[tuple] = None
    # the caller substitutes a Counter's definitions for the update it returns (``framed_parts``): the
    # Counter then records only those, and its update term is a placeholder (``Counter.build``)
    framed: bool = False

    def reads(self, port: str) -> bool:
        return port in self.firing.consumes

    def emits(self, port: str) -> bool:
        return port in self.firing.emits

    def head(self, port: str) -> z3.ExprRef:
        return self.heads[port]

    def out(self, port: str) -> z3.ExprRef:
        return self.firing.emits[port]

    def keep(self, *names: str) -> z3.BoolRef:
        """Monitor variables ``names`` are unchanged by this step."""
        return conjunction([equal(self.m2[n], self.m[n]) for n in names])


@dataclass(frozen=True)
class Contract:
    """One lemma: a monitor (variables, initial values, per-firing update and badness) and its invariant.

    ``step(st)`` returns ``(update, bad)``: a constraint fixing ``st.m2`` from
    ``st.m`` and the event, and the condition under which this firing breaks the
    contract. ``invariant(model, s, m)`` is the strengthening used by the
    induction (it must imply that no reachable firing is bad).
    """

    family: str
    prop: str
    statement: str
    variables: tuple[tuple[str, VarKind], ...]
    init: Callable[[dict[str, z3.ExprRef]], z3.BoolRef]
    step: Callable[[Step], tuple[z3.BoolRef, z3.BoolRef]]
    invariant: Callable[[MachineModel, MState, dict[str, z3.ExprRef]], z3.BoolRef]
    abstract_steps: bool = False

    @property
    def id(self) -> str:
        return obligation_id("fsm", self.family, None, self.prop)


@dataclass
class ProofResult:
    """Verdict of one contract proof, with the SMT-LIB2 query and a trace for refutations."""

    status: str
    method: str
    detail: str
    seconds: float
    smt2: Optional[str] = None
    trace: Optional[list[dict]] = None


class MonitorInt(z3.ArithRef):
    """An integer monitor variable, or a sum or difference of them and Python ints.

    Its arithmetic and comparisons with Python ints and other ``MonitorInt`` go through the C API: the same
    terms as z3py's operators make, without their per-operand coercion and sort checks, which dominated the
    building of a lemma (a contract writes ``m2["n"] == m["n"] + 1`` and the like for every rule). Any
    other operand goes through z3py's operator as usual.
    """

    __hash__ = z3.ArithRef.__hash__  # defining __eq__ would otherwise drop it

    def __init__(self, ast, ctx: z3.Context, literals: dict[int, z3.ArithRef]) -> None:
        super().__init__(ast, ctx)
        self.literals = literals  # the integers made so far for the terms of one monitor (each made once)

    def _operand(self, other: object) -> Optional[z3.ArithRef]:
        """``other`` as a term of this sort when it is cheap to make (else None: z3py's operator decides)."""
        if isinstance(other, MonitorInt):
            return other
        if type(other) is int and -(2**31) <= other < 2**31:
            lit = self.literals.get(other)
            if lit is None:
                ctx = self.ctx_ref()
                sort = z3.Z3_get_sort(ctx, self.as_ast())
                lit = self.literals[other] = z3.ArithRef(z3.Z3_mk_int(ctx, other, sort), self.ctx)
            return lit
        return None

    def _arith(self, mk, a: z3.ArithRef, b: z3.ArithRef) -> "MonitorInt":
        ast = mk(self.ctx_ref(), 2, (z3.Ast * 2)(a.as_ast(), b.as_ast()))
        return MonitorInt(ast, self.ctx, self.literals)

    def _compare(self, mk, other: object, fallback):
        b = self._operand(other)
        if b is None:
            return fallback(self, other)
        return z3.BoolRef(mk(self.ctx_ref(), self.as_ast(), b.as_ast()), self.ctx)

    def __add__(self, other):
        b = self._operand(other)
        return z3.ArithRef.__add__(self, other) if b is None else self._arith(z3.Z3_mk_add, self, b)

    def __radd__(self, other):
        b = self._operand(other)
        return z3.ArithRef.__radd__(self, other) if b is None else self._arith(z3.Z3_mk_add, b, self)

    def __sub__(self, other):
        b = self._operand(other)
        return z3.ArithRef.__sub__(self, other) if b is None else self._arith(z3.Z3_mk_sub, self, b)

    def __rsub__(self, other):
        b = self._operand(other)
        return z3.ArithRef.__rsub__(self, other) if b is None else self._arith(z3.Z3_mk_sub, b, self)

    def __eq__(self, other):  # type: ignore[override]
        return self._compare(z3.Z3_mk_eq, other, z3.ArithRef.__eq__)

    def __ne__(self, other):  # type: ignore[override]
        b = self._operand(other)
        if b is None:
            return z3.ArithRef.__ne__(self, other)
        pair = (z3.Ast * 2)(self.as_ast(), b.as_ast())
        return z3.BoolRef(z3.Z3_mk_distinct(self.ctx_ref(), 2, pair), self.ctx)

    def __ge__(self, other):
        return self._compare(z3.Z3_mk_ge, other, z3.ArithRef.__ge__)

    def __gt__(self, other):
        return self._compare(z3.Z3_mk_gt, other, z3.ArithRef.__gt__)

    def __le__(self, other):
        return self._compare(z3.Z3_mk_le, other, z3.ArithRef.__le__)

    def __lt__(self, other):
        return self._compare(z3.Z3_mk_lt, other, z3.ArithRef.__lt__)


def monitor_vars(contract: Contract, tag: str) -> dict[str, z3.ExprRef]:
    """The monitor's variables in configuration ``tag`` (``mon.<tag>.<name>``); the integers are
    ``MonitorInt``."""
    out: dict[str, z3.ExprRef] = {}
    int_sort = z3.IntSort()
    ctx = int_sort.ctx
    literals: dict[int, z3.ArithRef] = {}
    for n, k in contract.variables:
        name = smt_symbol(f"mon.{tag}.{n}")
        if not isinstance(k, str):
            out[n] = constant(name, k)
        elif k == "int":
            symbol = z3.Z3_mk_string_symbol(ctx.ref(), name)
            out[n] = MonitorInt(z3.Z3_mk_const(ctx.ref(), symbol, int_sort.ast), ctx, literals)
        else:
            out[n] = constant(name, z3.BoolSort())
    return out


def _step_parts(
    model: MachineModel, contract: Contract, s: MState, m, heads, s2: MState, m2, framed: bool = False
):
    """Per rule: (firing, its Step, monitor update, bad); ``framed``: see ``Step.framed``."""
    out = []
    memo: dict = {}  # a wide table (extmemory: hundreds of ports x rules) repeats the same updates
    for f in model.firings(s, heads):
        st = Step(model, f, heads, m, m2, s, s2, memo, framed=framed)
        upd, bad = contract.step(st)
        out.append((f, st, upd, bad))
    return out


def _step_formula(model: MachineModel, contract: Contract, s: MState, m, heads, s2: MState, m2):
    """Per rule: (firing, enabled ∧ goes_to ∧ update, bad)."""
    return [
        (f, conjunction([f.enabled, model.goes_to(f, s2), upd]), bad)
        for f, _, upd, bad in _step_parts(model, contract, s, m, heads, s2, m2)
    ]


def _solver(timeout: Optional[float], rlimit: Optional[int] = DEFAULT_RLIMIT) -> z3.Solver:
    s = z3.Solver()
    set_limits(s, timeout, rlimit)
    return s


def induction_query(model: MachineModel, contract: Contract) -> list[z3.BoolRef]:
    """The 1-induction query (one assertion): satisfiable iff the base case or the inductive step fails."""
    s0, m0 = model.new_state("b0"), monitor_vars(contract, "b0")
    base = conjunction([model.initial(s0), contract.init(m0), z3.Not(contract.invariant(model, s0, m0))])
    s, m = model.new_state("k"), monitor_vars(contract, "k")
    s2, m2 = model.new_state("k1"), monitor_vars(contract, "k1")
    heads = model.new_heads("k")
    inv = contract.invariant(model, s, m)
    inv2 = contract.invariant(model, s2, m2)
    steps = [
        conjunction([tr, disjunction([bad, z3.Not(inv2)])])
        for _, tr, bad in _step_formula(model, contract, s, m, heads, s2, m2)
    ]
    return [disjunction([base, conjunction([inv, disjunction(steps)])])]


SPLIT_RULES = 24  # from this many rules on, the parts are simplified first (the frame collapses)


@dataclass
class FramedParts:
    """The ``induction_query`` of a contract as the parts that decide it: it is unsat iff ``base`` is, and
    each of ``steps`` (one per rule) is together with ``inv``.

    Each step has its next-state variables replaced by their definitions -- the firing's next state and
    registers, and the monitor variables a ``Counter`` defines -- and the base case its initial ones.
    Every model of the part satisfies those equalities, so a part is unsat iff it is without them (the
    replaced variables occur nowhere else).
    """

    base: z3.BoolRef
    inv: z3.BoolRef
    steps: list[z3.BoolRef]


def _renamed(term: z3.ExprRef, s: MState, m: dict, s2: MState, m2: dict) -> z3.ExprRef:
    """``term`` over configuration ``s``/``m`` rewritten over ``s2``/``m2`` (one substitution in Z3)."""
    pairs = [(s.state, s2.state)] + [(s.regs[r], s2.regs[r]) for r in s.regs] + [(m[n], m2[n]) for n in m]
    (out,) = substitute_all([term], pairs)
    return out


def _framed_base(model: MachineModel, contract: Contract, s: MState, m: dict, inv: z3.BoolRef) -> z3.BoolRef:
    """The base case ``initial(s) and init(m) and not inv``, with the initial configuration -- and the
    monitor's zeros, for a ``ZeroInit`` -- substituted for the variables they define (equisatisfiable: a
    defined variable occurs nowhere else). What is left is mostly a ground formula."""
    zeros = contract.init.values(m) if isinstance(contract.init, ZeroInit) else None
    rest = [negation(inv)] if zeros is not None else [contract.init(m), negation(inv)]
    (base,) = substitute_all([conjunction(rest)], model.initial_values(s) + (zeros or []))
    return base


def framed_parts(model: MachineModel, contract: Contract) -> Optional[FramedParts]:
    """The base case and the per-rule framed steps of ``contract``'s 1-induction query (see ``FramedParts``);
    None when a contract wraps a ``Counter``'s update in a larger term (its placeholder would then stand
    for the equations: the caller solves the whole query instead).

    The base case is stated over the ``k`` configuration (the whole query names it ``b0``; each part is
    checked on its own, so the names need not differ). The invariant is built once and renamed for ``k1``:
    a contract's invariant is a function of the configuration it is given, so renaming gives the same term
    as building it again, for a fraction of the Python work.

    A step whose monitor update is a ``Counter``'s negates only the invariant's conjuncts it can change
    (``_Conjuncts``): those naming a counter the firing moves, a variable it leaves undefined, or the next
    state or registers. Every other conjunct becomes, after the substitution, the current invariant's own
    conjunct (``x + 0`` for ``x``), which the part's assumption ``inv`` makes true: its negation is false
    there, so dropping it from the disjunction leaves the part's satisfiability under ``inv`` as it was.
    A wide table (an ``extmemory`` with hundreds of ports) then asks rules x (conjuncts each rule touches),
    not rules x ports.
    """
    s, m = model.new_state("k"), monitor_vars(contract, "k")
    s2, m2 = model.new_state("k1"), monitor_vars(contract, "k1")
    heads = model.new_heads("k")
    inv = contract.invariant(model, s, m)
    base = _framed_base(model, contract, s, m, inv)
    inv2 = _renamed(inv, s, m, s2, m2)
    not_inv2 = negation(inv2)
    conj = _Conjuncts(inv2, [s2.state, *s2.regs.values()], m2, m)
    steps = []
    for f, st, upd, bad in _step_parts(model, contract, s, m, heads, s2, m2, framed=True):
        pairs = [(s2.state, f.next_state)] + [(s2.regs[r], f.next_regs[r]) for r in s2.regs]
        keep = [f.enabled]
        if st.frame is not None and st.frame[0] is upd:
            defs, moved, complete = st.frame[1], st.frame[2], st.frame[3]
            touched = conj.touched(defs, moved, complete)
            pairs += conj.definitions(defs, touched, complete)
            negated = negation(conjunction([conj.parts[j] for j in touched])) if touched else z3.BoolVal(False)
            steps += substitute_all([conjunction(keep + [disjunction([bad, negated])])], pairs)
            continue
        if st.frame is not None:
            return None
        keep.append(upd)
        steps += substitute_all([conjunction(keep + [disjunction([bad, not_inv2])])], pairs)
    return FramedParts(base, inv, steps)


class _Conjuncts:
    """The top-level conjuncts of a next-state invariant, indexed by the next-state variables each names."""

    def __init__(self, inv2: z3.BoolRef, state: list[z3.ExprRef], m2: dict, m: dict) -> None:
        self.parts: list[z3.BoolRef] = list(inv2.children()) if z3.is_and(inv2) else [inv2]
        # a step's definitions name the very objects of the monitor's variables: their Z3 ids by Python identity
        # (asking Z3 for an id per definition per rule was most of a wide table's time)
        self.zid = {id(v): v.get_id() for v in m2.values()}
        self.name_of = {v.get_id(): n for n, v in m2.items()}
        self.m, self.m2 = m, m2
        self.kept: dict[int, tuple] = {}  # variable id -> its "unchanged" definition (m2[x], m[x] + 0)
        state_ids = {v.get_id() for v in state}
        self.always: list[int] = []  # conjuncts naming the next state or registers: every step may change them
        self.by_var: dict[int, list[int]] = {}
        self.names: list[set[int]] = []
        for j, c in enumerate(self.parts):
            ids = term_ids(c)
            mine = {i for i in ids if i in self.name_of}
            self.names.append(mine)
            if not ids.isdisjoint(state_ids):
                self.always.append(j)
            for v in mine:
                self.by_var.setdefault(v, []).append(j)

    def _id(self, v: z3.ExprRef) -> int:
        return self.zid.get(id(v)) or v.get_id()

    def touched(self, defs: list, moved: list[bool], complete: bool) -> list[int]:
        """The conjuncts a step can change, in invariant order: those of the variables it moves (``moved``,
        parallel to ``defs``), those of the variables it leaves undefined unless ``complete`` (a ``Counter``
        that leaves them unchanged), and ``always``."""
        out = set(self.always)
        by_var = self.by_var
        for (v, _), mv in zip(defs, moved):
            if mv:
                out.update(by_var.get(self._id(v), ()))
        if not complete:
            defined = {id(v) for v, _ in defs}
            if len(defined) < len(self.zid):
                for k, i in self.zid.items():
                    if k not in defined:
                        out.update(by_var.get(i, ()))
        return sorted(out)

    def definitions(self, defs: list, touched: list[int], complete: bool) -> list:
        """The definitions of the monitor variables the conjuncts ``touched`` name (with ``complete``, the ones
        ``defs`` leaves out are unchanged)."""
        need: set[int] = set()
        for j in touched:
            need |= self.names[j]
        out = [d for d in defs if self._id(d[0]) in need]
        if complete:
            for i in sorted(need - {self._id(d[0]) for d in out}):
                got = self.kept.get(i)
                if got is None:
                    name = self.name_of[i]
                    got = self.kept[i] = (self.m2[name], plus(self.m[name], z3.IntVal(0)))
                out.append(got)
        return out


def split_unsat_framed(
    model: MachineModel, contract: Contract, timeout: Optional[float], checks: Optional[ScopedChecks] = None,
    rlimit: Optional[int] = DEFAULT_RLIMIT,
) -> bool:
    """Is the ``induction_query`` of ``contract`` unsat? Decided part by part (``framed_parts``): the base
    case, then each rule's framed step on a solver holding the invariant, all within ``timeout`` seconds
    (None: no wall-clock limit), each part within ``rlimit`` resource units.

    ``checks`` is the solver to use (a run shares one; a new one otherwise). A wide table's parts are
    simplified first: its frame -- the many counters a firing leaves unchanged -- then makes most of the
    next-state invariant the current one. False means "not shown here" (the caller solves the whole query),
    never a verdict.
    """
    t0 = time.perf_counter()
    checks = checks if checks is not None else ScopedChecks()
    parts = framed_parts(model, contract)
    if parts is None:
        return False
    tidy = z3.simplify if len(model.machine.rules) >= SPLIT_RULES else (lambda t: t)

    def left() -> Optional[float]:
        return None if timeout is None else timeout - (time.perf_counter() - t0)

    if not checks.unsat(parts.base, left(), rlimit):
        return False
    if len(parts.steps) == 1:  # one rule: nothing to share the invariant with (a scope less)
        return checks.unsat(conjunction([tidy(parts.inv), tidy(parts.steps[0])]), left(), rlimit)
    with checks.assume(tidy(parts.inv)):
        return all(checks.unsat(tidy(step), left(), rlimit) for step in parts.steps)


def split_unsat(query: z3.BoolRef, timeout: Optional[float], rlimit: Optional[int] = DEFAULT_RLIMIT) -> bool:
    """Is ``Or(base, And(inv, Or(steps)))`` (an ``induction_query``) unsat, decided disjunct by disjunct?

    Equivalent to solving it whole (a disjunction is unsat iff every disjunct is), but a wide
    table's single query is far slower for Z3 than its rules one by one on a solver holding
    the invariant. False means "not shown here" (sat, unknown or timeout): the caller then
    solves the whole query as usual, so a verdict other than "proved" never comes from here.
    """
    t0 = time.perf_counter()
    if not (z3.is_or(query) and query.num_args() == 2 and z3.is_and(query.arg(1))):
        return False
    base, step = query.children()
    if step.num_args() != 2 or not z3.is_or(step.arg(1)):
        return False
    inv, steps = step.children()
    solver = _solver(None, rlimit)

    def unsat(part: z3.BoolRef) -> bool:
        left = None if timeout is None else timeout - (time.perf_counter() - t0)
        if left is not None:
            if left <= 0.001:
                return False
            solver.set("timeout", milliseconds(left))
        solver.push()
        solver.add(part)
        r = solver.check()
        solver.pop()
        return r == z3.unsat

    if not unsat(base):
        return False
    solver.add(inv)
    return all(unsat(d) for d in steps.children())


def bmc_search(
    model: MachineModel, contract: Contract, depth: int, timeout: Optional[float],
    rlimit: Optional[int] = DEFAULT_RLIMIT,
) -> Optional[list[dict]]:
    """A firing sequence from the initial state of length <= ``depth`` whose last firing is bad, or None
    (also when a check runs out of ``timeout`` seconds in all or ``rlimit`` resource units)."""
    deadline = None if timeout is None else time.perf_counter() + timeout
    solver = _solver(timeout, rlimit)
    s = model.new_state("t0")
    m = monitor_vars(contract, "t0")
    solver.add(model.initial(s), contract.init(m))
    frames = []
    for t in range(depth):
        heads = model.new_heads(f"t{t}")
        s2, m2 = model.new_state(f"t{t + 1}"), monitor_vars(contract, f"t{t + 1}")
        sel = z3.Int(f"sel.t{t}")
        options = _step_formula(model, contract, s, m, heads, s2, m2)
        solver.add(z3.And(sel >= 0, sel < len(options)))
        for i, (_, tr, _) in enumerate(options):
            solver.add(z3.Implies(sel == i, tr))
        bad_now = z3.Or(*[z3.And(sel == i, bad) for i, (_, _, bad) in enumerate(options)])
        frames.append((s, heads, sel, options, bad_now))
        solver.push()
        solver.add(bad_now)
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            solver.set("timeout", milliseconds(left))
        r = solver.check()
        if r == z3.sat:
            return _trace(solver.model(), model, frames)
        solver.pop()
        solver.add(z3.Not(bad_now))
        s, m = s2, m2
    return None


def _trace(mdl: z3.ModelRef, model: MachineModel, frames) -> list[dict]:
    out = []
    for s, heads, sel, options, _ in frames:
        i = mdl.eval(sel, model_completion=True).as_long()
        f: Firing = options[i][0]
        out.append(
            {
                "state": model.state_name(mdl, s),
                "rule": f.rule.name,
                "consumed": {p: bv_value(mdl, heads[p]) for p in f.consumes},
                "emitted": {p: bv_value(mdl, v) for p, v in f.emits.items()},
            }
        )
    return out


def spacer_prove(model: MachineModel, contract: Contract, timeout: Optional[float],
                 rlimit: Optional[int] = DEFAULT_RLIMIT, why: Optional[list[str]] = None) -> Optional[z3.ExprRef]:
    """Prove "no bad firing is reachable" with Z3's CHC engine (Spacer); an inductive invariant or None.

    Bounded by ``rlimit`` resource units and, when given, ``timeout`` seconds. The returned formula ranges
    over the ``k`` configuration (``model.new_state("k")`` and ``monitor_vars(contract, "k")``) so a plain
    induction query can re-check it. When Spacer gives up, its reason is appended to ``why``.
    """
    s, m = model.new_state("k"), monitor_vars(contract, "k")
    s2, m2 = model.new_state("k1"), monitor_vars(contract, "k1")
    heads = model.new_heads("k")
    args = [s.state] + list(s.regs.values()) + list(m.values())
    args2 = [s2.state] + list(s2.regs.values()) + list(m2.values())
    inv = z3.Function(smt_symbol(f"Inv_{model.name}"), *[a.sort() for a in args], z3.BoolSort())
    horn = z3.SolverFor("HORN")
    set_limits(horn, timeout, rlimit)
    horn.add(z3.ForAll(args, z3.Implies(z3.And(model.initial(s), contract.init(m)), inv(*args))))
    everything = args + args2 + list(heads.values())
    for _, tr, bad in _step_formula(model, contract, s, m, heads, s2, m2):
        horn.add(z3.ForAll(everything, z3.Implies(z3.And(inv(*args), tr), inv(*args2))))
        horn.add(z3.ForAll(everything, z3.Implies(z3.And(inv(*args), tr, bad), z3.BoolVal(False))))
    try:
        r = horn.check()
        if r == z3.unknown and why is not None:
            why.append(unknown_reason(horn.reason_unknown(), timeout, rlimit))
        if r != z3.sat:
            return None
        return horn.model().eval(inv(*args), model_completion=False)
    except z3.Z3Exception as e:
        if why is not None:
            why.append(unknown_reason(str(e), timeout, rlimit))
        return None


def prove(
    machine: Machine,
    contract: Contract,
    name: str,
    timeout: Optional[float] = None,
    bmc_depth: int = 8,
    use_spacer: bool = True,
    abstract_steps: bool = False,
    want_smt2: bool = True,
    checks: Optional[ScopedChecks] = None,
    rlimit: Optional[int] = DEFAULT_RLIMIT,
) -> ProofResult:
    """Prove ``contract`` for ``machine``: 1-induction, else BMC for a counterexample, else Spacer.

    ``timeout`` (seconds, None: no wall-clock limit) bounds the whole proof; ``rlimit`` each solver check
    in Z3 resource units (deterministic). A limit that runs out makes the lemma unknown, never proved.

    The induction query is first decided part by part (``split_unsat_framed``) on ``checks``, the solver a
    run shares (a new one when None); when that does not show it unsat, the whole query is solved as usual
    and its answer decides what follows. ``abstract_steps`` reads the ``step.<op>`` functions as
    uninterpreted functions: sound for properties that hold whatever the step computes (the stream's shape),
    and it keeps 64-bit multipliers out of the query.
    """
    t0 = time.perf_counter()
    model = MachineModel(
        machine, name, data_mode="uf", abstract_steps=abstract_steps or contract.abstract_steps
    )
    proved, res = _by_induction(model, contract, timeout, checks, rlimit, want_smt2, t0)
    if proved is not None:
        return proved
    assert res is not None  # the whole query was solved
    left = _time_left(timeout, t0)
    if left() is not None and left() <= 0:
        return ProofResult(
            "unknown", "1-induction", f"timeout after {timeout:g} s", time.perf_counter() - t0, res.smt2
        )
    trace = bmc_search(model, contract, bmc_depth, left(), rlimit)
    if trace is not None:
        last = trace[-1]
        return ProofResult(
            "refuted",
            f"BMC depth {len(trace)}",
            f"broken after {len(trace)} firing(s): rule '{last['rule']}' in state '{last['state']}' "
            f"violates: {contract.statement}",
            time.perf_counter() - t0,
            res.smt2,
            trace,
        )
    why = res.reason if res.status == "unknown" else "the contract invariant is not inductive"
    if use_spacer and res.status == "sat" and (left() is None or left() > 0):
        proved, why = _by_spacer(model, contract, left, rlimit, why, t0)
        if proved is not None:
            return proved
    return ProofResult(
        "unknown",
        "1-induction",
        f"not proved ({why}); no violation within {bmc_depth} firings",
        time.perf_counter() - t0,
        res.smt2,
    )


def _by_induction(model: MachineModel, contract: Contract, timeout: Optional[float],
                  checks: Optional[ScopedChecks], rlimit: Optional[int], want_smt2: bool,
                  t0: float) -> tuple[Optional[ProofResult], Optional[QueryResult]]:
    """(the proof when 1-induction shows it -- rule by rule, else as one query -- else None; the whole query's
    answer, None when the rule-by-rule split proved it)."""
    if split_unsat_framed(model, contract, timeout, checks, rlimit):
        return ProofResult(
            "proved",
            "1-induction (plain solver, rule by rule)",
            contract.statement,
            time.perf_counter() - t0,
            (script_of(induction_query(model, contract)) or None) if want_smt2 else None,
        ), None
    query = induction_query(model, contract)
    spent = time.perf_counter() - t0
    rest = None if timeout is None else max(0.0, timeout - spent)  # the split attempt counts against it
    res = run_query(query, rest, want_model=False, want_smt2=want_smt2, rlimit=rlimit)
    if res.status == "unsat":
        return ProofResult(
            "proved", "1-induction (plain solver)", contract.statement, time.perf_counter() - t0, res.smt2
        ), res
    return None, res


def _time_left(timeout: Optional[float], t0: float) -> Callable[[], Optional[float]]:
    """The seconds of ``timeout`` left since ``t0``, asked afresh at each call (None: no wall-clock limit)."""
    def left() -> Optional[float]:
        return None if timeout is None else timeout - (time.perf_counter() - t0)

    return left


def _by_spacer(model: MachineModel, contract: Contract, left: Callable[[], Optional[float]],
               rlimit: Optional[int], why: str, t0: float) -> tuple[Optional[ProofResult], str]:
    """(the proof when Spacer finds an invariant that 1-induction re-checks, else None; ``why`` with Spacer's
    reason appended when a limit stopped it)."""
    gave_up: list[str] = []
    found = spacer_prove(model, contract, left(), rlimit, gave_up)
    if found is None and gave_up and is_limit_reason(gave_up[0]):
        why += f"; Spacer: {gave_up[0]}"
    if found is not None:
        checked = _recheck_with(model, contract, found, rlimit)
        if checked is not None:
            return ProofResult(
                "proved",
                "Spacer invariant, re-checked by 1-induction",
                contract.statement,
                time.perf_counter() - t0,
                checked,
            ), why
    return None, why


def _recheck_with(model: MachineModel, contract: Contract, inv_k: z3.ExprRef,
                  rlimit: Optional[int] = DEFAULT_RLIMIT) -> Optional[str]:
    """Re-check a Spacer invariant with a plain induction query; its SMT-LIB2 text when unsat."""
    s, m = model.new_state("k"), monitor_vars(contract, "k")
    s2, m2 = model.new_state("k1"), monitor_vars(contract, "k1")
    s0, m0 = model.new_state("b0"), monitor_vars(contract, "b0")
    heads = model.new_heads("k")
    ks = [s.state] + list(s.regs.values()) + list(m.values())

    def at(ss: MState, mm) -> z3.ExprRef:
        return z3.substitute(inv_k, *zip(ks, [ss.state] + list(ss.regs.values()) + list(mm.values())))

    steps = [
        z3.And(tr, z3.Or(bad, z3.Not(at(s2, m2))))
        for _, tr, bad in _step_formula(model, contract, s, m, heads, s2, m2)
    ]
    q = z3.Or(
        z3.And(model.initial(s0), contract.init(m0), z3.Not(at(s0, m0))), z3.And(at(s, m), z3.Or(*steps))
    )
    res = run_query([q], None, want_model=False, rlimit=rlimit)
    return res.smt2 if res.status == "unsat" else None


def int_vars(*names: str) -> tuple[tuple[str, VarKind], ...]:
    return tuple((n, "int") for n in names)


def bv_var(name: str, t) -> tuple[str, VarKind]:
    return (name, sort_of(t))


def _is_int(x: z3.ExprRef) -> bool:
    """``z3.is_int(x)``, asked of the C API without making a sort wrapper."""
    return z3.Z3_get_sort_kind(x.ctx_ref(), z3.Z3_get_sort(x.ctx_ref(), x.as_ast())) == z3.Z3_INT_SORT


@dataclass(frozen=True)
class ZeroInit:
    """A monitor's initial condition ``names`` = 0 (a ``Contract.init``), which can also be read as the
    definitions it makes (``values``)."""

    names: tuple[str, ...]

    def __call__(self, m: dict) -> z3.BoolRef:
        if not self.names:
            return z3.BoolVal(True)
        zero = z3.IntVal(0)
        return conjunction([equal(m[n], zero) if _is_int(m[n]) else m[n] == 0 for n in self.names])

    def values(self, m: dict) -> Optional[list[tuple[z3.ExprRef, z3.ExprRef]]]:
        """(variable, 0) for each of ``names``; None unless they are all integers."""
        if not all(isinstance(m[n], z3.ArithRef) and _is_int(m[n]) for n in self.names):
            return None
        zero = z3.IntVal(0)
        return [(m[n], zero) for n in self.names]


def zero_init(*names: str) -> ZeroInit:
    """The initial condition "every monitor variable in ``names`` is 0"."""
    return ZeroInit(names)


@dataclass
class Counter:
    """Helper for monitors: ``inc(name, cond)`` builds ``m2[name] == m[name] + (cond ? 1 : 0)``.

    ``build`` returns the conjunction of these equations and records them as definitions (``Step.frame``);
    on a framed step (``Step.framed``) only the definitions are made, and the term is a placeholder that
    the caller replaces by them (a contract must return it as the step's update, not inside another term).
    """

    st: Step
    parts: list = field(default_factory=list)
    defs: list = field(default_factory=list)  # (m2[name], its new value), one per part
    moved: list = field(default_factory=list)  # per definition: may it change the variable (its condition not false)
    # framed only: every monitor variable this Counter does not define is unchanged (``m[x] + 0``), so a
    # contract increments only what its firing moves and a wide table's step costs what it moves
    complete: bool = False

    def inc(self, name: str, by: Union[bool, z3.BoolRef] = True) -> "Counter":
        if by is False and self.complete:
            return self
        m, m2, memo = self.st.m, self.st.m2, self.st.memo
        # keyed by the condition object (the entry keeps it alive, so its id is not reused): the same
        # object, as a contract passes for every shape a firing cannot match, is one lookup
        key = (name, by) if isinstance(by, bool) else (name, id(by))
        hit = memo.get(key)
        if hit is None:
            one, zero = self._literals()
            value = plus(m[name], (one if by else zero) if isinstance(by, bool) else ite(by, one, zero))
            eq = None if self.st.framed else equal(m2[name], value)
            moved = bool(by) if isinstance(by, bool) else not z3.is_false(by)
            hit = memo[key] = (eq, (m2[name], value), by, moved)
        if self.complete and not hit[3]:
            return self
        self.parts.append(hit[0])
        self.defs.append(hit[1])
        self.moved.append(hit[3])
        return self

    def _literals(self) -> tuple[z3.ArithRef, z3.ArithRef]:
        """The integers 1 and 0, made once per query (kept in the steps' shared memo)."""
        got = self.st.memo.get("literals")
        if got is None:
            got = self.st.memo["literals"] = (z3.IntVal(1), z3.IntVal(0))
        return got

    def build(self) -> z3.BoolRef:
        if self.st.framed:  # a placeholder for the equations: framed_parts substitutes their definitions
            term = z3.BoolVal(True)
        else:
            term = conjunction(self.parts) if self.parts else z3.BoolVal(True)
        self.st.frame = (term, list(self.defs), list(self.moved), self.complete and self.st.framed)
        return term

