"""Obligation 3 of ``loom verify``: bounded model checking of the whole network, exact in control.

``check_bmc(func, ctx)`` explores every run of the network's state machines
(the ``loom.semantics`` tables, expressions through ``z3model.ExprEncoder``) in
which every loop activation runs at most ``K = ctx.bmc_k`` iterations, and
checks that each run ends with the return fired (no deadlock, no runtime
error) and no token left in a channel or latched in an operator.

How it is exact and why it is fast:

* Control values are exact: every value that can reach a guard (cond_br,
  mux select, carry/invariant/gate conditions, stream operands, ...) is a
  Z3 term (bit-vectors, integer ops exact) or a concrete value. Data that
  cannot reach a guard is not computed at all (an opaque token). Values that
  reach a guard but come from memory (loads) or from an opaque value are
  fresh unconstrained symbols per token: memory contents are abstracted, so
  every branch outcome they could cause is explored.
* A decision whose guard is symbolic forks the run when both outcomes are
  feasible under the path condition (Z3); each branch is explored once.
* Structural reduction: apart from merge (whose choice is forked), every
  operator is deterministic, so the network is a Kahn process network: the
  tokens every channel carries, and hence deadlock / leftovers / completion,
  do not depend on the firing order. One schedule per control path suffices.
* Decisions wait: a symbolic guard is decided only when nothing concrete can
  fire any more (then for the lowest-numbered blocked actor). By the Kahn
  property that point is the same whatever the schedule, so runs that differ
  only in decisions already taken (the two sides of a data-dependent branch,
  rejoined) meet there in the same state -- equal up to the names of their
  fresh data symbols. Such runs are merged: one state, its path condition the
  disjunction of theirs (symbols renamed apart). The runs explored from it are
  exactly the union of theirs, so verdicts and smallest bounds are unchanged;
  a loop with a three-way data branch costs K+1 merged runs instead of 3^K.
* Only what can reach a guard is computed: registers and outputs no guard (or
  tracked output) reads hold an opaque token; the solver gets valid range
  facts of divisions (``x urem 5 < 5``) with every literal.
* The bound: a stream activation, a carry/invariant burst, a primed-select
  mux's run of back-edge picks or the back-edge branch of a control_merge
  loop header (CIRCT loop state) whose decision
  is symbolic may continue at most K times (the path then takes the exit if
  feasible, else it is outside the bound and dropped). Loops whose trip
  count is a constant run in full (up to ``CONCRETE_CAP``).

The exploration deepens K' = 0, 1, ..., K and reports the largest bound fully
explored (``bounded``); a violation gives the smallest K' that shows it, the
argument values (Z3 model of the path) and a report of the stuck channels.

Limits: the exploration makes at most ``max_states`` firings (``--max-states``), its branch queries together
use at most ``max_units`` Z3 resource units (``--bmc-rlimit``) and each at most ``rlimit`` (``--rlimit``);
all are counts, so where they stop the exploration is the same on every machine and under any load. A wall-clock budget applies only when the user gave
``--timeout`` or ``--budget``. A run a limit cut short is unknown, naming the limit, never proved.
``plain_bmc`` in ``bmc_plain`` is the unreduced baseline the benchmark compares.
"""

from __future__ import annotations

import heapq
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Optional

import z3

from loom.ir.core import BlockArgument, Operation, Value
from loom.ir.types import MemRefType, NoneType, Type
from loom.semantics import machine_for
from loom.verify.ids import oid as obligation_id
from loom.verify.lengths.idioms import find_cmerge_loops, find_primed_selects
from loom.semantics.expr import TOKEN, Apply, Const, Expr, ports_read, registers_read
from loom.semantics.functions import MEMORY_DIM, MEMORY_READ, compile_expr
from loom.semantics.machine import Complete, Fail, Machine, Rule
from loom.semantics.rest import rearm_allowance
from loom.runtime import function_arg_names
from loom.sim.names import value_name_map
from loom.verify.assume import to_z3
from loom.verify.obligation import (DEFAULT_BMC_RLIMIT, DEFAULT_MAX_STATES, DEFAULT_RLIMIT, Obligation,
                                    VerifyContext)
from loom.verify.solve import conjunction, disjunction, milliseconds, rlimit_param, rlimit_reason, unknown_reason
from loom.verify.z3model import ExprEncoder, UnsupportedExpr, bv_value, const_term, division_facts, sort_of

CONCRETE_CAP = 64  # iterations of a loop whose trip count is concrete
MERGE_PATIENCE = 48  # term-by-term comparisons without a single merge before merging is given up
STEP_CAP = 200_000  # firings per explored run
PENDING_CAP = 100_000  # runs waiting in the queue at once (the explorer's memory)
LIVELOCK_AFTER = 1_000  # firings of one run before it is watched for a repeated state
# the livelock watch keeps (and compares) only states with at most this many tokens in channels: a state is
# kept whole, so a run whose queues grow without end (it cannot repeat a state) would cost memory
# quadratic in its firings; a livelock through fuller queues runs on to the firing cap (unknown)
WATCH_TOKENS = 4096
MODEL_RLIMIT = 10_000_000  # Z3 resource units per check when looking for small argument values of a violation
# Caps other than the loop bound K: a run they cut was not checked, so the obligations become unknown.
CAPS = {
    "firing": f"firing cap ({STEP_CAP} firings per run)",
    "loop": f"per-loop cap ({CONCRETE_CAP} iterations of a loop whose decisions are concrete)",
    "memory": f"memory cap ({PENDING_CAP} runs waiting to be explored)",
}


_DIVISION_NAMES = ("bvurem", "bvsrem", "bvsmod", "bvudiv")
_FRESH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*![0-9]+")  # ``Explorer.fresh`` names (checked by lookup)


class Opaque:
    """A data value no guard ever reads: not computed."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<data>"


OPAQUE = Opaque()


# ---------------------------------------------------------------------------- slicing
def _reg_deps(m: Machine) -> dict[str, set[str]]:
    """Input ports each register (transitively) depends on."""
    deps: dict[str, set[str]] = {r.name: set() for r in m.registers}
    changed = True
    while changed:
        changed = False
        for rule in m.rules:
            for r, e in rule.updates:
                new = set(ports_read(e))
                for q in registers_read(e):
                    new |= deps[q]
                if not new <= deps[r]:
                    deps[r] |= new
                    changed = True
    return deps


def _relevant_registers(m: Machine, outputs: set[str]) -> set[str]:
    """Registers whose value can reach a guard or one of ``outputs`` (directly or through other registers);
    the others only carry data nothing observes, so the explorer does not compute them."""
    need: set[str] = set()
    for rule in m.rules:
        if rule.guard is not None:
            need |= set(registers_read(rule.guard))
        for p, e in rule.emits:
            if p in outputs:
                need |= set(registers_read(e))
    changed = True
    while changed:
        changed = False
        for rule in m.rules:
            for r, e in rule.updates:
                if r in need and not set(registers_read(e)) <= need:
                    need |= set(registers_read(e))
                    changed = True
    return need


def _expr_ports(e: Expr, deps: dict[str, set[str]]) -> set[str]:
    out = set(ports_read(e))
    for r in registers_read(e):
        out |= deps[r]
    return out


def _havoc_read(e: Expr) -> bool:
    """Memory contents are abstracted: a loaded value is unconstrained."""
    return isinstance(e, Apply) and (e.fn == MEMORY_READ or any(_havoc_read(a) for a in e.args))


def control_values(func: Operation, machines: Optional[dict] = None) -> set[Value]:
    """Values whose tokens can influence a guard (backward closure through the tables' data flow)."""
    body = func.regions[0].entry
    machines = machines if machines is not None else {op: machine_for(op) for op in body.ops}
    guard_in: dict[Operation, set[int]] = {}
    flow: dict[Operation, dict[int, set[int]]] = {}
    for op, m in machines.items():
        deps = _reg_deps(m)
        idx = {p.name: i for i, p in enumerate(m.inputs)}
        outs = {p.name: i for i, p in enumerate(m.outputs)}
        g: set[int] = set()
        f: dict[int, set[int]] = {i: set() for i in range(len(m.outputs))}
        for rule in m.rules:
            if rule.guard is not None:
                g |= {idx[p] for p in _expr_ports(rule.guard, deps)}
            for p, e in rule.emits:
                if not _havoc_read(e):
                    f[outs[p]] |= {idx[q] for q in _expr_ports(e, deps)}
        guard_in[op] = g
        flow[op] = f
    relevant: set[Value] = set()
    work: list[Value] = []

    def mark(v: Value) -> None:
        if v not in relevant:
            relevant.add(v)
            work.append(v)

    for op in body.ops:
        for i in guard_in[op]:
            mark(op.operands[i])
    while work:
        v = work.pop()
        if isinstance(v, BlockArgument):
            continue
        op = v.op
        if op not in flow:
            continue
        for i in flow[op].get(v.index, ()):
            mark(op.operands[i])
    return relevant


# ---------------------------------------------------------------------------- network
class _CRule:
    """A table rule prepared for the explorer: channels resolved, leaves listed, concrete code compiled."""

    __slots__ = ("rule", "name", "reads", "guard", "gleaves", "gfast", "gports", "emits", "updates", "effect",
                 "next", "loop", "reset", "pull", "heads0")

    def __init__(self, rule: Rule, a: "_Actor") -> None:
        index = {p.name: i for i, p in enumerate(a.machine.inputs)}
        self.rule = rule
        self.name = rule.name
        self.reads = tuple((p, index[p], a.inputs[index[p]]) for p in rule.reads)
        forever = a.forever
        self.pull = tuple((i, cid) for _, i, cid in self.reads if cid not in forever)  # FIFO heads to read
        self.heads0 = [None] * len(a.machine.inputs)  # the always-ready inputs' values filled in
        for _, i, cid in self.reads:
            if cid in forever:
                self.heads0[i] = forever[cid]
        self.guard = rule.guard
        self.gleaves = _leaves(rule.guard) if rule.guard is not None else ((), ())
        self.gfast = a.compile(rule.guard, index) if rule.guard is not None else None
        self.gports = tuple(index[p] for p in self.gleaves[0])
        emits = []
        for p, e in rule.emits:
            oi = a.out_index[p]
            t = a.machine.outputs[oi].type
            lv = _leaves(e)
            emits.append((oi, a.relevant_out[oi], e, lv, _fast(e, index, a.compile), t,
                          tuple(index[q] for q in lv[0])))
        self.emits = tuple(emits)
        self.updates = tuple((r, e, lv, _fast(e, index, a.compile) if r in a.relevant_regs else _SKIP,
                              a.encoder.reg_types[r],
                              tuple(index[q] for q in lv[0])) for r, e in rule.updates for lv in (_leaves(e),))
        self.effect = rule.effect
        self.next = rule.next
        self.loop = rule.name == a.loop_rule
        self.reset = rule.name == a.reset_rule


_SKIP = "skip"  # the evaluator of a register no guard or tracked output reads: not computed
_PLAIN = (int, bool, float, type(None))  # concrete runtime values (None is the ``none`` token)


def _concrete(heads: list, ports: tuple, regs: dict, names: tuple) -> bool:
    """Are the listed head and register values all concrete (no Z3 term, nothing opaque)?"""
    for i in ports:
        if type(heads[i]) not in _PLAIN:
            return False
    for r in names:
        if type(regs[r]) not in _PLAIN:
            return False
    return True


def _leaves(e: Expr) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(sorted(ports_read(e))), tuple(sorted(registers_read(e)))


def _fast(e: Expr, index: dict[str, int], compile_=compile_expr):
    """The simulator's compiled evaluator of ``e`` (None when it needs memory: those values are symbolic)."""
    if _havoc_read(e) or (isinstance(e, Apply) and e.fn == MEMORY_DIM):
        return None
    return compile_(e, index)


@dataclass(eq=False)
class _Actor:
    op: Operation
    machine: Machine
    index: int
    inputs: list[Optional[int]]  # channel id per input port (None: memref port)
    outputs: list[list[int]]  # channel ids per output port
    relevant_out: list[bool]
    encoder: ExprEncoder
    rules: dict[str, tuple[Rule, ...]]
    port_index: dict[str, int]
    out_index: dict[str, int]
    loop_rule: Optional[str] = None  # the rule whose repetition is bounded (stream continue, carry/inv true)
    reset_rule: Optional[str] = None  # the rule that starts a new activation
    crules: dict[str, tuple[_CRule, ...]] = field(default_factory=dict)
    arbitrary: bool = False  # a merge: any ready input may be taken (the explorer forks)
    relevant_regs: set = field(default_factory=set)  # registers that reach a guard or a tracked output
    forever: dict = field(default_factory=dict)  # the explorer's always-ready channels (by channel id)
    compiled: dict = field(default_factory=dict)  # the explorer's compiled expressions, shared by its actors

    def compile(self, e: Expr, index: dict[str, int]):
        """``compile_expr(e, index)``, once per distinct (expression, port positions) of the explorer."""
        key = (repr(e), tuple(sorted(index.items())))  # repr: Const(0) and Const(0.0) are == in Python
        fn = self.compiled.get(key)
        if fn is None:
            fn = self.compiled[key] = compile_expr(e, index)
        return fn


@dataclass(eq=False)
class _State:
    """One point of the exploration: every actor's state/registers, every channel, the path."""

    states: list[str]
    regs: list[dict[str, Any]]
    chans: list[deque]
    counters: list[int]
    work: deque
    queued: list[bool]
    returned: bool = False
    error: Optional[str] = None
    path: list = field(default_factory=list)  # the path condition: one assumed literal per decision
    decided: dict = field(default_factory=dict)  # term id -> (term, bool)
    steps: int = 0
    maxc: int = 0  # most iterations any activation ran on a symbolic decision (the run's bound)
    model: Optional[z3.ModelRef] = None  # a model of ``path``, when known
    blocked: list = field(default_factory=list)  # actors waiting for an undecided symbolic guard
    ready: bool = False  # at a checkpoint: the next run_path decides for the first blocked actor
    dead: bool = False  # merged into another state (skipped when popped)
    ckey: Any = None  # its coarse key while waiting at a checkpoint (computed when another run waits too)
    keys: Optional[tuple] = None  # its plain and fine keys while waiting (computed once, when compared)

    def copy(self) -> "_State":
        return _State(list(self.states), [dict(r) for r in self.regs], [deque(c) for c in self.chans],
                      list(self.counters), deque(self.work), list(self.queued), self.returned, self.error,
                      list(self.path), dict(self.decided), self.steps, self.maxc, self.model,
                      list(self.blocked), self.ready)


class _Pruned(Exception):
    """The run leaves the bound (a loop would need more than K iterations), its path is infeasible, or it
    hits one of ``CAPS`` (``cap`` names it: such a run is not covered by the bound, so nothing it could
    show was checked)."""

    def __init__(self, cap: Optional[str] = None) -> None:
        super().__init__(cap or "bound")
        self.cap = cap


class _OutOfLimit(Exception):
    """A limit of the exploration ran out (``kind``: ``time``, ``states`` or ``rlimit``; ``why`` in words):
    the runs not yet explored were not checked."""

    def __init__(self, kind: str, why: str) -> None:
        super().__init__(why)
        self.kind = kind
        self.why = why


class _Livelock(Exception):
    """The run came back to a state it was in before, with no loop activation counting and no decision
    taken in between: it repeats the cycle of ``schedule`` (firings ``actor: rule``) forever."""

    def __init__(self, schedule: list[str], returned: bool) -> None:
        super().__init__("livelock")
        self.schedule = schedule
        self.returned = returned


@dataclass
class BmcResult:
    """Outcome of the exploration up to one bound."""

    status: str  # "ok", "violation", "budget" (a limit ran out: ``why``), "capped"
    bound: int
    paths: int = 0
    pruned: int = 0
    kind: str = ""  # deadlock | residual | error | livelock
    detail: str = ""
    arguments: dict = field(default_factory=dict)
    trips: list = field(default_factory=list)
    seconds: float = 0.0
    capped: dict = field(default_factory=dict)  # CAPS key -> runs it cut (those runs were not checked)
    schedule: list = field(default_factory=list)  # a livelock's repeating cycle of firings
    queries: int = 0  # branch feasibility queries asked (what a run out of time reached)
    why: str = ""  # status "budget": the limit that ran out, in words
    states: int = 0  # firings made (what ``max_states`` bounds)
    units: int = 0  # Z3 resource units the branch queries used (what ``max_units`` bounds)


class Explorer:
    """Symbolic-control exploration of one handshake.func up to bound K (see the module docstring)."""

    def __init__(self, func: Operation, deadline: Optional[float], merge: bool = True, assumptions: tuple = (),
                 rlimit: Optional[int] = DEFAULT_RLIMIT, max_states: int = DEFAULT_MAX_STATES,
                 budget: Optional[float] = None, max_units: Optional[int] = DEFAULT_BMC_RLIMIT) -> None:
        self.func = func
        self.merge = merge  # merge runs that meet in the same state (off: every run explored on its own)
        self.k = 0
        self.deadline = deadline  # ``time.perf_counter()`` at which the wall-clock budget ends (None: none)
        self.budget = budget  # that budget in seconds (for the report)
        self.rlimit = rlimit  # Z3 resource units one branch query may use (None: no limit)
        self.max_units = max_units  # Z3 resource units all branch queries together may use (None: no limit)
        self.units = 0  # resource units the branch queries used so far
        self.max_states = max_states  # firings the whole exploration may make
        self.fired = 0  # firings made so far (every explored state but the initial one)
        self.solver_path: list = []
        self.queries = 0
        self._scalars: dict[int, Any] = {}
        self.dims: dict[tuple, z3.ExprRef] = {}
        self._consts: dict[tuple, z3.ExprRef] = {}
        self._guards: dict[tuple, Any] = {}
        self._fact_cache: dict[int, tuple] = {}
        self._fresh_by_name: dict[str, z3.ExprRef] = {}
        self._sexprs: dict[int, tuple] = {}
        self.deciding: Optional[int] = None  # the actor allowed to decide a symbolic guard right now
        self.merged = 0
        self.merge_forks = 0  # runs a merge's choice split off (a livelock must not rest on an unfair choice)
        self.compared = 0  # runs compared term by term with runs waiting in the same shape
        self._zids: dict[int, tuple] = {}  # Python object id -> (object, Z3 term id)
        body = func.regions[0].entry
        self._names: Optional[dict] = None  # value names, computed when a report needs them
        self._machines = {op: machine_for(op) for op in body.ops}
        self.relevant = control_values(func, self._machines)
        self.arg_names = function_arg_names(func)
        self.solver = z3.Solver()
        self.fresh_count = 0
        self.actors: list[_Actor] = []
        self.chan_consumer: list[tuple[int, int]] = []
        self.chan_value: list[Value] = []  # the value each channel carries (named in reports)
        self.allowance: list[int] = []  # tokens a channel may keep at the end (re-arming a primed buffer)
        self.forever: dict[int, Any] = {}
        self.args: dict[str, z3.ExprRef] = {}
        self.paths = 0
        self.pruned = 0
        self._build(body)
        # runs only over legal inputs (``--assume``, ``loom.range``): the base scope of every query
        self.solver.add(to_z3(assumptions, self._argument))

    # ------------------------------------------------------------------ construction
    @property
    def names(self) -> dict:
        """The printed name of every value (only reports need them: computed on first use)."""
        if self._names is None:
            body = self.func.regions[0].entry
            self._names = value_name_map(self.func, list(body.args) + [r for op in body.ops for r in op.results])
        return self._names

    def fresh(self, hint: str, sort: z3.SortRef) -> z3.ExprRef:
        self.fresh_count += 1
        name = f"{hint}!{self.fresh_count}"
        c = self._fresh_by_name[name] = z3.Const(name, sort)
        return c

    def _build(self, body) -> None:
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
            a = _Actor(op, m, k, [None] * len(m.inputs), [[] for _ in m.outputs],
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
        compiled: dict = {}
        for a in self.actors:
            a.forever = self.forever
            a.compiled = compiled
            a.relevant_regs = _relevant_registers(a.machine, {p.name for p, rel in zip(a.machine.outputs,
                                                                                        a.relevant_out) if rel})
            a.crules = {state: tuple(_CRule(r, a) for r in rules) for state, rules in a.rules.items()}
            a.arbitrary = a.machine.choice == "arbitrary" and a.op.name in ("handshake.merge",
                                                                             "handshake.control_merge")

    def _arg_value(self, v: BlockArgument) -> Any:
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

    def initial(self) -> _State:
        n = len(self.actors)
        chans = [deque(t) for t in self.init_tokens]
        return _State([a.machine.initial for a in self.actors],
                      [{r.name: r.init for r in a.machine.registers} for a in self.actors],
                      chans, [0] * n, deque(range(n)), [True] * n)

    # ------------------------------------------------------------------ values
    def _head(self, st: _State, cid: int) -> Any:
        if cid in self.forever:
            return self.forever[cid]
        return st.chans[cid][0]

    def _has(self, st: _State, cid: int) -> bool:
        return cid in self.forever or bool(st.chans[cid])

    def _dim(self, a: _Actor, e: Apply, heads: list, regs: dict[str, Any]) -> Any:
        """``mem.dim``: the size of a memref argument's dimension, one non-negative symbol per run."""
        index = {p.name: i for i, p in enumerate(a.machine.inputs)}
        k = compile_expr(e.args[0], index)(heads, regs, None) if not registers_read(e) else None
        mem = a.op.operands[0]
        key = (self.arg_names[mem.index] if isinstance(mem, BlockArgument) else self.names.get(mem, "?"), k)
        c = self.dims.get(key)
        if c is None:
            c = z3.BitVec(f"dim:{key[0]}:{k}", 64)
            self.dims[key] = c
            self.solver.pop(self.solver.num_scopes())
            self.solver_path.clear()
            self.solver.add(c >= 0)  # sizes are never negative (base level: holds on every path)
        return c

    def _symbolic(self, a: _Actor, e: Expr, leaves: tuple, heads: list, regs: dict[str, Any],
                  t: Optional[Type], guard: bool) -> Any:
        index = a.port_index
        zh = {p: self._z3(heads[index[p]], a.encoder.port_types[p]) for p in leaves[0]}
        zr = {r: self._z3(regs[r], a.encoder.reg_types[r]) for r in leaves[1]}
        if guard:
            g = z3.simplify(a.encoder.guard(e, zh, zr))
            return True if z3.is_true(g) else False if z3.is_false(g) else g
        term = z3.simplify(a.encoder.encode(e, zh, zr, t))
        return term.as_long() if z3.is_bv_value(term) else term

    def _eval(self, a: _Actor, e: Expr, leaves: tuple, fast, heads: list, regs: dict[str, Any],
              t: Optional[Type]) -> Any:
        """Concrete value when every leaf is concrete, a Z3 term otherwise, fresh when data is opaque."""
        vals = [heads[a.port_index[p]] for p in leaves[0]] + [regs[r] for r in leaves[1]]
        if fast is not None and not any(isinstance(x, (z3.ExprRef, Opaque)) for x in vals):
            return fast(heads, regs, None)
        if isinstance(e, Apply) and e.fn == MEMORY_DIM and not any(isinstance(x, z3.ExprRef) for x in vals):
            return self._dim(a, e, heads, regs)
        if fast is None or any(x is OPAQUE for x in vals):
            if t is None or isinstance(t, NoneType):
                return TOKEN if isinstance(t, NoneType) else OPAQUE
            try:
                return self.fresh("data", sort_of(t))
            except UnsupportedExpr:
                return OPAQUE
        return self._symbolic(a, e, leaves, heads, regs, t, False)

    def _z3(self, v: Any, t: Type) -> z3.ExprRef:
        if isinstance(v, z3.ExprRef):
            return v
        key = (repr(v), str(t))  # repr keeps -0.0 and 0.0 (and 1 and True) apart
        c = self._consts.get(key)
        if c is None:
            c = self._consts[key] = const_term(v, t)
        return c

    def _guard(self, a: _Actor, cr: _CRule, heads: list, regs: dict[str, Any]) -> Any:
        if cr.guard is None:
            return True
        if _concrete(heads, cr.gports, regs, cr.gleaves[1]):
            return bool(cr.gfast(heads, regs, None))
        vals = [heads[i] for i in cr.gports] + [regs[r] for r in cr.gleaves[1]]
        sym = False
        for x in vals:
            if x is OPAQUE:
                return self.fresh("choice", z3.BoolSort())  # an opaque guard input: both outcomes possible
            if isinstance(x, z3.ExprRef):
                sym = True
        if not sym:
            return bool(cr.gfast(heads, regs, None))
        key = (id(cr),) + tuple(self._zid(x) if isinstance(x, z3.ExprRef) else repr(x) for x in vals)
        hit = self._guards.get(key)
        if hit is not None:
            return hit[0]
        out = self._symbolic(a, cr.guard, cr.gleaves, heads, regs, None, True)
        self._guards[key] = (out, vals)  # keeps the leaf terms alive (Z3 recycles ids)
        return out

    def _zid(self, x: z3.ExprRef) -> int:
        """``x.get_id()``, remembered per Python object (the entry keeps it alive, so its id is not reused):
        tokens are passed on as the same objects, and guards look their ids up at every firing."""
        hit = self._zids.get(id(x))
        if hit is None or hit[0] is not x:
            hit = self._zids[id(x)] = (x, x.get_id())
        return hit[1]

    # ------------------------------------------------------------------ decisions
    def _sync(self, st: _State) -> None:
        """Make the solver's scopes hold exactly ``st``'s path condition (one scope per literal)."""
        have = self.solver_path
        common = 0
        while common < len(have) and common < len(st.path) and have[common] is st.path[common]:
            common += 1
        if len(have) > common:
            self.solver.pop(len(have) - common)
            del have[common:]
        for lit in st.path[common:]:
            self.solver.push()
            self.solver.add(lit, *self._facts(lit))
            have.append(lit)

    def _facts(self, g: z3.BoolRef) -> list:
        """Valid range facts of the divisions in ``g`` (``division_facts``; cached per term)."""
        key = g.get_id()
        hit = self._fact_cache.get(key)
        if hit is None:
            text = g.sexpr()
            facts = division_facts(g) if any(op in text for op in _DIVISION_NAMES) else []
            hit = self._fact_cache[key] = (g, facts)  # the entry keeps ``g`` (its id) alive
        return hit[1]

    def _time_out(self) -> "_OutOfLimit":
        return _OutOfLimit("time", f"the time budget of {self.budget:g}s ran out")

    def _limit(self) -> Optional[float]:
        """Bound the next solver call by what is left of the wall-clock budget, if there is one (a query may
        not outlive it); the resource limit per query is set once, on the solver. The seconds given."""
        if self.deadline is None:
            return None
        left = self.deadline - time.perf_counter()
        if left < 0.001:
            raise self._time_out()
        self.solver.set("timeout", milliseconds(left))
        return left

    def _units_used(self) -> int:
        """Z3's resource counter (cumulative over the context; differences measure a check)."""
        return self.solver.statistics().get_key_value("rlimit count")

    def _out_of_units(self) -> "_OutOfLimit":
        return _OutOfLimit("rlimit", f"the branch queries ran out of their joint resource limit of "
                                     f"{self.max_units} rlimit units")

    def _feasible(self, st: _State, g: z3.BoolRef) -> Optional[z3.ModelRef]:
        """A model of the path condition with ``g``, or None when ``g`` is infeasible on this path
        (``_OutOfLimit`` when the solver cannot tell within its limits)."""
        self._sync(st)
        seconds = self._limit()
        each = rlimit_param(self.rlimit)  # 0: no limit
        shared = False  # is what is left of the joint limit the tighter one?
        if self.max_units:
            left = self.max_units - self.units
            if left <= 0:
                raise self._out_of_units()
            shared = not each or left <= each
            each = left if shared else each
        self.solver.set("rlimit", rlimit_param(each))
        self.solver.push()
        self.solver.add(g, *self._facts(g))
        before = self._units_used()
        r = self.solver.check()
        self.units += self._units_used() - before
        m = self.solver.model() if r == z3.sat else None
        reason = self.solver.reason_unknown() if r == z3.unknown else ""
        self.solver.pop()
        self.queries += 1
        if r == z3.unknown:
            why = unknown_reason(reason, seconds, each)
            if why.startswith("timeout"):
                raise self._time_out()
            if why == rlimit_reason(each):
                if shared:
                    raise self._out_of_units()
                raise _OutOfLimit("rlimit", f"a branch query ran out of its resource limit of {each} rlimit units")
            raise _OutOfLimit("solver", f"a branch query was not decided ({why})")
        return m

    @staticmethod
    def _assume(st: _State, g: z3.BoolRef, value: bool) -> None:
        st.path.append(g if value else z3.Not(g))
        st.decided[g.get_id()] = (g, value)

    def _decide(self, st: _State, g: z3.BoolRef, pending: list, k: int, loop: bool, gid: int) -> bool:
        """The outcome of symbolic guard ``g`` (term id ``gid``) on this path: forced, or forked (the false
        side is queued, with actor ``k`` first in line to try its next rule). A known model of the path
        settles one side without a query."""
        hit = st.decided.get(gid)
        if hit is not None:
            return hit[1]
        guess = None
        if st.model is not None:
            v = st.model.eval(g, model_completion=True)
            guess = True if z3.is_true(v) else False if z3.is_false(v) else None
        m_t = st.model if guess is True else self._feasible(st, g)
        m_f = st.model if guess is False else self._feasible(st, z3.Not(g))
        if m_t is not None and m_f is not None:
            other = st.copy()
            self._assume(other, g, False)
            other.model = m_f
            if loop:
                self._pin(other, g)
            other.work.appendleft(k)
            other.queued[k] = True
            pending.append(other)
            self._assume(st, g, True)
            st.model = m_t
            # no pin on the continuing side: "one more iteration" bounds a trip count from below only
            return True
        if m_t is None and m_f is None:
            raise _Pruned()  # the path condition itself is infeasible
        st.decided[gid] = (g, m_t is not None)
        return m_t is not None

    def _pin(self, st: _State, g: z3.BoolRef) -> None:
        """After a loop decision: every argument/size symbol of ``g`` the path now fixes to one value is
        replaced by that value in the whole state, so the rest of the path runs on concrete values."""
        subst = []
        model = st.model
        assert model is not None
        for c in _symbols(g):
            if not c.decl().name().startswith(("arg:", "dim:")):
                continue
            v = model.eval(c, model_completion=True)
            if self._feasible(st, c != v) is None:
                subst.append((c, v))
        if not subst:
            return

        memo: dict[int, tuple] = {}  # a token copied by forks is rewritten once

        def rw(x: Any) -> Any:
            if not isinstance(x, z3.ExprRef):
                return x
            hit = memo.get(x.get_id())
            if hit is None:
                y = z3.simplify(z3.substitute(x, *subst))
                hit = memo[x.get_id()] = (x, y.as_long() if z3.is_bv_value(y) else y)
            return hit[1]

        st.regs = [{r: rw(v) for r, v in regs.items()} for regs in st.regs]
        st.chans = [deque(rw(v) for v in q) if any(isinstance(v, z3.ExprRef) for v in q) else q
                    for q in st.chans]

    # ------------------------------------------------------------------ running
    def run_path(self, st: _State, pending: list, level: int) -> Any:
        """Fire until quiescence: (kind, detail) of a violation, None for a clean run, ``"requeue"``
        when the run just went beyond ``level`` iterations in some activation (it waits its turn), or
        ``"checkpoint"`` when only symbolic decisions are left (it waits in the queue, where runs that
        reached the same state merge; popped again, it decides for its first blocked actor)."""
        actors = self.actors
        try_fire = self._try_fire
        n = 0
        every = max(64, len(actors))  # states sampled for the livelock watch (a bounded overhead)
        seen: dict[int, list[tuple[int, tuple]]] = {}
        while True:
            work, queued = st.work, st.queued
            while work:
                n += 1
                if self.fired > self.max_states:
                    raise _OutOfLimit("states", f"the limit of {self.max_states} explored states (firings) ran out")
                if n & 255 == 0 and self.deadline is not None and time.perf_counter() > self.deadline:
                    raise self._time_out()
                if n > LIVELOCK_AFTER and n % every == 0:
                    self._watch(st, seen, n)
                k = work.popleft()
                queued[k] = False
                if try_fire(st, actors[k], pending):
                    if not queued[k]:
                        queued[k] = True
                        work.append(k)
                    if st.error is not None:
                        return "error", st.error
                    if st.maxc > level:
                        return "requeue"
            if not st.blocked:
                return self._verdict(st)
            if not st.ready:
                st.ready = True
                return "checkpoint"
            st.ready = False
            k = min(st.blocked)
            st.blocked.remove(k)
            self.deciding = k
            try:
                fired = self._try_fire(st, actors[k], pending)
            finally:
                self.deciding = None
            if fired and not st.queued[k]:
                st.queued[k] = True
                st.work.append(k)
            if st.error is not None:
                return "error", st.error
            if st.maxc > level:
                return "requeue"

    def _exact_key(self, st: _State) -> tuple:
        """Everything the rest of a run depends on (terms by identity: they are alive in the state)."""

        def val(v: Any) -> Any:
            return self._zid(v) if isinstance(v, z3.ExprRef) else (type(v).__name__, repr(v))

        return (tuple(st.states), tuple(tuple(val(x) for x in r.values()) for r in st.regs),
                tuple(tuple(val(x) for x in q) for q in st.chans), tuple(st.counters), tuple(st.work),
                tuple(st.queued), tuple(st.blocked), st.ready, st.returned, st.error, len(st.path), st.maxc)

    def _watch(self, st: _State, seen: dict, n: int) -> None:
        """Raise ``_Livelock`` when the run is back in a state it was in at an earlier sample: the explorer
        is deterministic on a state, so it would go round the same cycle forever. Nothing in the cycle
        counts a loop iteration (the counters are part of the state) and no decision is taken (the path
        length is too): no loop activation bounds it, and the path is feasible, so the cycle is a real
        infinite run of the network (the explorer's worklist is fair: every enabled actor is queued). A cycle
        in which a merge chose between ready inputs is not reported (it may rest on an unfair choice).
        States with more than ``WATCH_TOKENS`` queued tokens are neither kept nor compared (memory)."""
        if sum(map(len, st.chans)) > WATCH_TOKENS:
            return
        key = self._exact_key(st)
        h = hash(key)
        for n0, k0, forks in seen.get(h, ()):
            # a merge that chose between ready inputs in the cycle could choose otherwise (a fair merge
            # eventually takes the other input): only a choice-free cycle is a livelock
            if k0 == key and forks == self.merge_forks:
                raise _Livelock(self._cycle(st, n - n0), st.returned)
        seen.setdefault(h, []).append((n, key, self.merge_forks))

    def _cycle(self, st: _State, period: int) -> list[str]:
        """The firings of the shortest round of the repeating cycle (replayed on a copy of ``st`` until it is
        back in ``st``'s state; ``period`` attempts at most, the repetition the watch saw)."""
        cp = st.copy()
        key = self._exact_key(st)
        out: list[str] = []
        for _ in range(period):
            if not cp.work:
                break
            k = cp.work.popleft()
            cp.queued[k] = False
            before = cp.states[k]
            try:
                fired = self._try_fire(cp, self.actors[k], [])
            except (_Pruned, _Livelock):
                break
            if fired:
                if not cp.queued[k]:
                    cp.queued[k] = True
                    cp.work.append(k)
                a = self.actors[k]
                name = self.names.get(a.op.results[0], "") if a.op.results else ""
                moved = f" ({before} -> {cp.states[k]})" if before != cp.states[k] else ""
                out.append(f"{a.op.name}{' ' + name if name else ''}{moved}")
            if self._exact_key(cp) == key:
                break
        return out

    def _try_fire(self, st: _State, a: _Actor, pending: list) -> bool:
        """Fire the first rule of ``a`` whose inputs are ready and whose guard holds (False: none fired,
        or the actor waits for a symbolic decision)."""
        k = a.index
        chans = st.chans
        regs = st.regs[k]
        for cr in a.crules[st.states[k]]:
            for _, cid in cr.pull:
                if not chans[cid]:
                    break
            else:
                heads = cr.heads0.copy()
                for i, cid in cr.pull:
                    heads[i] = chans[cid][0]
                if cr.guard is not None:
                    if not _concrete(heads, cr.gports, regs, cr.gleaves[1]):
                        got = self._attempt(st, a, cr, heads, pending)
                        if got is None:
                            continue
                        return got
                    if not cr.gfast(heads, regs, None):
                        continue
                # a concrete decision: the rule fires
                if cr.loop:
                    st.counters[k] += 1
                    if st.counters[k] > CONCRETE_CAP:
                        raise _Pruned("loop")
                elif cr.reset:
                    st.counters[k] = 0
                if a.arbitrary:
                    self._fork_merge(st, a, cr, pending)
                self._fire(st, a, cr, heads)
                return True
        return False

    def _attempt(self, st: _State, a: _Actor, cr: _CRule, heads: list, pending: list) -> Optional[bool]:
        """Rule ``cr`` of actor ``a`` with its inputs ready: True when it fired, None when its guard is
        false (the next rule is tried), False when the actor waits: its guard is symbolic and must be
        decided, which is deferred (the actor is blocked) while other firings are possible."""
        k = a.index
        g = self._guard(a, cr, heads, st.regs[k])
        symbolic = isinstance(g, z3.ExprRef)
        if symbolic:
            gid = self._zid(g)
            if cr.loop and st.counters[k] >= self.k:
                # the bound: this activation may not continue again
                hit = st.decided.get(gid)
                if hit is None:
                    m = self._feasible(st, z3.Not(g))
                    if m is None:
                        raise _Pruned()
                    self._assume(st, g, False)
                    st.model = m
                elif hit[1]:
                    raise _Pruned()
                return None
            if self.deciding != k and gid not in st.decided:
                # decisions wait until nothing concrete can fire (a canonical point where runs meet)
                if k not in st.blocked:
                    st.blocked.append(k)
                return False
            g = self._decide(st, g, pending, k, cr.loop, gid)
        if not g:
            return None
        if cr.loop:
            st.counters[k] += 1
            if st.counters[k] > CONCRETE_CAP:
                raise _Pruned("loop")
            if symbolic and st.counters[k] > st.maxc:
                st.maxc = st.counters[k]
        elif cr.reset:
            st.counters[k] = 0
        if a.arbitrary:
            self._fork_merge(st, a, cr, pending)
        self._fire(st, a, cr, heads)
        return True

    def _fork_merge(self, st: _State, a: _Actor, taken: _CRule, pending: list) -> None:
        """A merge may take any ready input: queue the runs that take the later ready ones."""
        later = False
        for cr in a.crules[st.states[a.index]]:
            if cr is taken:
                later = True
                continue
            if later and all(cid in self.forever or st.chans[cid] for _, _, cid in cr.reads):
                other = st.copy()
                heads: list = [None] * len(a.machine.inputs)
                for _, i, cid in cr.reads:
                    heads[i] = self.forever[cid] if cid in self.forever else other.chans[cid][0]
                self._fire(other, a, cr, heads)
                if not other.queued[a.index]:
                    other.queued[a.index] = True
                    other.work.append(a.index)
                pending.append(other)
                self.merge_forks += 1

    def _fire(self, st: _State, a: _Actor, cr: _CRule, heads: list) -> None:
        k = a.index
        regs = st.regs[k]
        values = []
        for oi, relevant, e, leaves, fast, t, ports in cr.emits:
            if not relevant:
                values.append((oi, TOKEN if isinstance(t, NoneType) else OPAQUE))
            elif fast is not None and _concrete(heads, ports, regs, leaves[1]):
                values.append((oi, fast(heads, regs, None)))
            else:
                values.append((oi, self._eval(a, e, leaves, fast, heads, regs, t)))
        if cr.updates:
            new = [(r, OPAQUE if fast is _SKIP
                    else fast(heads, regs, None) if fast is not None and _concrete(heads, ports, regs, leaves[1])
                    else self._eval(a, e, leaves, fast, heads, regs, t))
                   for r, e, leaves, fast, t, ports in cr.updates]
            for r, v in new:
                regs[r] = v
        eff = cr.effect
        if eff is not None:
            if isinstance(eff, Complete):
                st.returned = True
            elif isinstance(eff, Fail):
                st.error = f"{eff.code} at {a.op.name} ({a.op.loc})"
        chans = st.chans
        for _, cid in cr.pull:
            chans[cid].popleft()
        queued, work, consumer = st.queued, st.work, self.chan_consumer
        for oi, v in values:
            for cid in a.outputs[oi]:
                chans[cid].append(v)
                ck = consumer[cid][0]
                if not queued[ck]:
                    queued[ck] = True
                    work.append(ck)
        st.states[k] = cr.next
        st.steps += 1
        self.fired += 1
        if st.steps > STEP_CAP:
            raise _Pruned("firing")

    def _verdict(self, st: _State) -> Optional[tuple[str, str]]:
        left = [(self.names.get(self.chan_value[c], "?"), len(q)) for c, q in enumerate(st.chans)
                if len(q) > self.allowance[c] and c not in self.forever]
        latched = [a for a in self.actors if st.states[a.index] in a.machine.residual_states]
        if not st.returned:
            where = ", ".join(f"{n} x{c}" for n, c in left[:6]) or "no channel"
            return "deadlock", f"the return never fires (tokens waiting: {where})"
        if left or latched:
            parts = [f"{n} x{c}" for n, c in left[:6]]
            parts += [f"{a.op.name} {self.names.get(a.op.results[0], '') if a.op.results else ''} latched in "
                      f"'{st.states[a.index]}'" for a in latched[:4]]
            return "residual", "tokens left after the return: " + ", ".join(parts)
        return None

    # ------------------------------------------------------------------ search
    def explore(self, k: int) -> BmcResult:
        """Every run with at most ``k`` iterations per loop activation (symbolic decisions), smallest
        bounds first: runs wait in a queue ordered by the most iterations they used so far, so when the
        budget runs out every run within a smaller bound is already done."""
        t0 = time.perf_counter()
        self.k = k
        self.paths = self.pruned = self.merged = 0
        seq = 0
        heap: list = [(0, 0, 0, self.initial())]
        capped: dict[str, int] = {}
        first_cap = k + 1  # the smallest level at which a cap cut a run (bounds from there on are incomplete)
        waiting: dict[Any, list[_State]] = {None: []}  # coarse key -> states at a checkpoint (None: not keyed yet)
        while heap:
            level, _, _, st = heapq.heappop(heap)
            if st.dead:
                continue
            if st.ready and self.merge:
                st = self._merge_waiting(st, waiting)
            pending: list[_State] = []
            try:
                bad = self.run_path(st, pending, level)
            except _Pruned as e:
                self.pruned += 1
                if e.cap is not None:
                    capped[e.cap] = capped.get(e.cap, 0) + 1
                    first_cap = min(first_cap, st.maxc)
                bad = None
                st = None  # type: ignore[assignment]
            except _Livelock as e:
                res = BmcResult("violation", st.maxc, self.paths + 1, self.pruned, "livelock",
                                f"the network fires forever {'after' if e.returned else 'without reaching'} "
                                f"the return: a cycle of {len(e.schedule)} firing(s) that no loop activation "
                                f"bounds repeats", capped=capped, schedule=e.schedule)
                res.arguments = self._model_args(st)
                res.seconds = time.perf_counter() - t0
                return res
            except (_OutOfLimit, z3.Z3Exception) as out:
                done = min([level, first_cap] + [e[0] for e in heap] + [p.maxc for p in pending]) - 1
                why = out.why if isinstance(out, _OutOfLimit) else f"a branch query failed ({out})"
                return BmcResult("budget", min(done, k), self.paths, self.pruned,
                                 seconds=time.perf_counter() - t0, capped=capped, why=why)
            for p in pending:
                seq += 1
                heapq.heappush(heap, (p.maxc, p.steps, seq, p))
            if len(heap) > PENDING_CAP:
                capped["memory"] = capped.get("memory", 0) + len(heap)
                done = min([level, first_cap] + [e[0] for e in heap]) - 1
                return BmcResult("capped", min(done, k), self.paths, self.pruned,
                                 seconds=time.perf_counter() - t0, capped=capped)
            if st is None:
                continue
            if bad in ("requeue", "checkpoint"):
                if bad == "checkpoint":
                    st.ckey = st.keys = None
                    waiting[None].append(st)
                seq += 1
                heapq.heappush(heap, (st.maxc, st.steps, seq, st))
                continue
            self.paths += 1
            if bad is not None:
                res = BmcResult("violation", st.maxc, self.paths, self.pruned, bad[0], bad[1], capped=capped)
                res.arguments = self._model_args(st)
                res.seconds = time.perf_counter() - t0
                return res
        if capped:
            return BmcResult("capped", min(k, first_cap - 1), self.paths, self.pruned,
                             seconds=time.perf_counter() - t0, capped=capped)
        return BmcResult("ok", k, self.paths, self.pruned, seconds=time.perf_counter() - t0)

    # ------------------------------------------------------------------ merging runs
    @staticmethod
    def _coarse_key(st: _State) -> tuple:
        """What two states must share to be compared value by value (cheap: no value looked at)."""
        return (tuple(st.states), tuple(st.counters), st.maxc, st.returned, st.error, tuple(map(len, st.chans)))

    @staticmethod
    def _plain_key(st: _State) -> tuple:
        """Every concrete value of a state (terms only marked): what must agree before terms are printed."""

        def val(v: Any) -> Any:
            return (type(v).__name__, repr(v)) if type(v) in _PLAIN else "t" if isinstance(v, z3.ExprRef) else "o"

        return (tuple(tuple(val(x) for x in regs.values()) for regs in st.regs),
                tuple(tuple(val(x) for x in q) for q in st.chans))

    def _fine_key(self, st: _State) -> tuple[tuple, list]:
        """Every register and channel value, with the names of fresh constants (``fresh``: per-run
        data, choices) replaced by their order of first appearance, and the sorts of those constants:
        states equal up to the names of their fresh symbols get equal keys. Also the symbols in that
        order. Terms are compared by Z3's own printing (``sexpr``), which determines a term once the
        sorts of its constants are fixed; argument and size symbols keep their names."""
        order: dict[str, int] = {}
        syms: list = []

        def canon(m: re.Match) -> str:
            name = m.group(0)
            j = order.get(name)
            if j is None:
                c = self._fresh_by_name.get(name)
                if c is None:  # not one of ours: compare it by name
                    return name
                j = order[name] = len(syms)
                syms.append(c)
            return f"~{j}~"

        def val(v: Any) -> tuple:
            if isinstance(v, z3.ExprRef):
                hit = self._sexprs.get(v.get_id())
                if hit is None:
                    hit = self._sexprs[v.get_id()] = (v, v.sexpr())  # keeps ``v`` (its id) alive
                return ("t", _FRESH_NAME.sub(canon, hit[1]))
            if v is OPAQUE:
                return ("o",)
            if v is TOKEN:
                return ("k",)
            return (type(v).__name__, repr(v))  # repr: -0.0 and 0.0 (or 1 and True) stay apart

        key = tuple(tuple(val(x) for x in regs.values()) for regs in st.regs)
        key += tuple(tuple(val(x) for x in q) for q in st.chans)
        return key + (tuple(c.sort().sexpr() for c in syms),), syms

    def _plain_key_of(self, st: _State) -> tuple:
        if st.keys is None:
            st.keys = (self._plain_key(st), None)
        return st.keys[0]

    def _fine_key_of(self, st: _State) -> tuple:
        if st.keys is None or st.keys[1] is None:
            st.keys = (self._plain_key_of(st), self._fine_key(st))
        return st.keys[1]

    def _merge_waiting(self, st: _State, waiting: dict) -> _State:
        """Merge every state waiting at a checkpoint that equals ``st`` up to fresh-symbol names.

        The merged state is ``st`` with each differing fresh symbol renamed to a new one, and its path
        condition is the disjunction of the (renamed) path conditions: the runs it explores are exactly
        the union of the runs of the states merged, so nothing is lost and nothing is added.
        """
        waiting[st.ckey].remove(st)
        if self.compared >= MERGE_PATIENCE and not self.merged:
            return st  # this network's runs do not meet: stop paying for the comparisons
        if not any(o for b in waiting.values() for o in b if not o.dead):
            return st  # nobody to meet: no key computed
        for o in waiting.pop(None):  # key the runs that arrived since the last comparison
            if not o.dead:
                o.ckey = self._coarse_key(o)
                waiting.setdefault(o.ckey, []).append(o)
        waiting[None] = []
        st.ckey = self._coarse_key(st)
        bucket = waiting.get(st.ckey, [])
        mates = [o for o in bucket if not o.dead]
        if not mates:
            return st
        plain = self._plain_key_of(st)
        mates = [o for o in mates if self._plain_key_of(o) == plain]
        if not mates:
            return st
        self.compared += 1
        key, syms = self._fine_key_of(st)
        group = [(st, syms)]
        for o in mates:
            k2, s2 = self._fine_key_of(o)
            if k2 == key:
                group.append((o, s2))
        if len(group) == 1:
            return st
        cols = list(zip(*[g[1] for g in group])) if syms else []
        new = [col[0] if all(c.eq(col[0]) for c in col) else self.fresh("merged", col[0].sort()) for col in cols]
        renames = [[(s_, c) for s_, c in zip(g[1], new) if not s_.eq(c)] for g in group]
        paths = [g[0].path for g in group]
        common = 0
        while all(common < len(p) for p in paths) and all(p[common] is paths[0][common] for p in paths):
            common += 1
        prefix = paths[0][:common]
        pre = conjunction(prefix) if prefix else None
        if pre is not None and any(r and not z3.substitute(pre, *r).eq(pre) for r in renames):
            prefix, common = [], 0
        parts = []
        for p, r in zip(paths, renames):
            rest = p[common:]
            term = conjunction(rest) if len(rest) > 1 else rest[0] if rest else z3.BoolVal(True)
            parts.append(z3.substitute(term, *r) if r else term)
        out = st.copy()
        if renames[0]:
            r0 = renames[0]

            def rw(x: Any) -> Any:
                return z3.substitute(x, *r0) if isinstance(x, z3.ExprRef) else x

            out.regs = [{r: rw(v) for r, v in regs.items()} for regs in out.regs]
            out.chans = [deque(rw(v) for v in q) for q in out.chans]
        out.path = prefix + [disjunction(parts)]
        out.decided, out.model = {}, None
        n = len(self.actors)
        out.work, out.queued, out.blocked, out.ready = deque(range(n)), [True] * n, [], False
        out.steps = min(g[0].steps for g in group)  # the step cap drops a merged run no earlier than any of its runs
        for g in group:
            g[0].dead = True
        for o, _ in group[1:]:
            bucket.remove(o)
        self.merged += len(group) - 1
        return out

    def _model_args(self, st: _State) -> dict:
        """Argument values (and memref sizes) of the violating path, small and non-negative when possible."""
        self._sync(st)
        # the verdict is already known: a model is a bonus, not a wait (bounded by a resource limit of its own,
        # and by 2 s when wall-clock limits are in force)
        self.solver.set("rlimit", rlimit_param(min(self.rlimit or MODEL_RLIMIT, MODEL_RLIMIT)))
        if self.deadline is not None:
            self.solver.set("timeout", 2000)
        syms = list(self.args.values()) + list(self.dims.values())
        m = None
        for lo, hi in ((0, 2 * self.k + 2), (-64, 1 << 16)):
            self.solver.push()
            self.solver.add(*[z3.And(c >= lo, c <= hi) for c in syms if z3.is_bv(c)])
            if self.solver.check() == z3.sat:
                m = self.solver.model()
            self.solver.pop()
            if m is not None:
                break
        if m is None:
            if self.solver.check() != z3.sat:
                return {}
            m = self.solver.model()
        out = {name: bv_value(m, c) for name, c in self.args.items()}
        out.update({f"{mem}.dim{k}": bv_value(m, c) for (mem, k), c in self.dims.items()})
        return out


def _symbols(t: z3.ExprRef) -> list[z3.ExprRef]:
    """The uninterpreted constants of a term."""
    out: dict[int, z3.ExprRef] = {}
    seen: set[int] = set()
    stack = [t]
    while stack:
        x = stack.pop()
        i = x.get_id()
        if i in seen:
            continue
        seen.add(i)
        if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out[i] = x
        else:
            stack.extend(x.children())
    return list(out.values())


def explore(func: Operation, k: int, budget: Optional[float] = None, merge: bool = True, assumptions: tuple = (),
            rlimit: Optional[int] = DEFAULT_RLIMIT, max_states: int = DEFAULT_MAX_STATES,
            max_units: Optional[int] = DEFAULT_BMC_RLIMIT) -> BmcResult:
    """All runs within bound ``k`` over the inputs ``assumptions`` allow, within ``max_states`` firings, each
    branch query within ``rlimit`` Z3 resource units and all of them within ``max_units`` (None: no limit),
    and, when ``budget`` is given, ``budget`` seconds in all:
    ``ok``, the smallest-bound ``violation``, or ``budget`` (``why`` names the limit that ran out) with the
    largest bound fully explored."""
    deadline = None if budget is None else time.perf_counter() + budget
    ex = Explorer(func, deadline, merge, assumptions, rlimit, max_states, budget, max_units)
    res = ex.explore(k)
    res.queries = ex.queries
    res.states = ex.fired
    res.units = ex.units
    return res


def _caps_text(capped: dict) -> str:
    return ", ".join(f"{n} run(s) cut by the {CAPS[c]}" for c, n in sorted(capped.items()))


def check_bmc(func: Operation, ctx: VerifyContext) -> list[Obligation]:
    """``bmc.K<k>.deadlock`` (every run within the bound reaches the return, without runtime error) and
    ``bmc.K<k>.residual`` (no run leaves a token), for every loop activation running at most K times;
    ``bmc.K<k>.livelock`` when a run cycles forever with no loop activation bounding it.

    Only the loop bound K may drop a run: a run cut by a cap (``CAPS``) or by a limit (the explored states,
    a query's resource units, or the time limit when one is set) makes the obligations unknown, naming the
    cap or limit and the largest bound fully explored."""
    k = ctx.bmc_k
    how = dict(method="simulation", rule="explicit-control exploration")
    if not func.regions or len(func.regions[0].blocks) != 1:
        return [Obligation(obligation_id("bmc.deadlock", "", None, k), "bmc", "unknown", 0.0,
                           "the function has no single-block body",
                           loc=func.loc, **how)]
    budget = _budget(ctx)
    if ctx.progress is not None:
        ctx.progress(f"bmc: exploring runs with at most {k} iterations per loop activation")
    res = explore(func, k, budget, assumptions=ctx.assumptions, rlimit=ctx.rlimit, max_states=ctx.max_states,
                  max_units=ctx.bmc_rlimit)
    note = "not a single SMT query: an explicit-control exploration, each branch decided by z3"
    ids = {"deadlock": obligation_id("bmc.deadlock", "", None, k),
           "residual": obligation_id("bmc.residual", "", None, k)}
    if res.status == "violation":
        cex = {"bound": res.bound, "kind": res.kind, "arguments": res.arguments, "report": res.detail}
        hit = "residual" if res.kind == "residual" else "deadlock"
        args = f" (arguments {res.arguments})" if res.arguments else ""
        out = []
        if res.kind == "livelock":
            cex["schedule"] = res.schedule
            cycle = "; ".join(res.schedule[:12]) + (" ..." if len(res.schedule) > 12 else "")
            out.append(Obligation(obligation_id("bmc.livelock", "", None, k), "bmc", "refuted", res.seconds,
                                  f"{res.detail}{args}: {cycle}", cex, func.loc, None, res.bound,
                                  nature="behaviour", **how))
            for key in ("deadlock", "residual"):
                out.append(Obligation(ids[key], "bmc", "unknown", 0.0, f"not decided: the exploration stopped at "
                                      f"a livelock with bound {res.bound} ({note})", None, func.loc, None, res.bound,
                                      **how))
            return sorted(out, key=lambda o: o.id)
        out.append(Obligation(ids[hit], "bmc", "refuted", res.seconds,
                              f"{res.kind} with at most {res.bound} iteration(s) per loop activation: "
                              f"{res.detail}{args}", cex, func.loc, None, res.bound, nature="behaviour", **how))
        other = "deadlock" if hit == "residual" else "residual"
        out.append(Obligation(ids[other], "bmc", "unknown", 0.0, f"not decided: the exploration stopped at a "
                              f"{res.kind} with bound {res.bound} ({note})", None, func.loc, None, res.bound, **how))
        return sorted(out, key=lambda o: o.id)
    caps = f"; {_caps_text(res.capped)}, so those runs were not checked" if res.capped else ""
    if res.bound < 0:
        why = res.why if res.status == "budget" else "a cap was hit"
        reached = (f"; reached: {res.paths} complete run(s), {res.pruned} run prefix(es) dropped, "
                   f"{res.queries} branch queries, {res.states} states")
        return [Obligation(oid, "bmc", "unknown", res.seconds,
                           f"{why} before bound 0 was explored{caps}{reached} ({note})",
                           None, func.loc, None, None, **how) for oid in ids.values()]
    if res.bound < k and res.status == "budget":
        short = f" (requested K={k}: {res.why})"
    elif res.bound < k:
        short = f" (requested K={k}: a cap cut runs with {res.bound + 1} iteration(s))"
    else:
        short = ""
    scope = (f"{res.paths} run(s) with every loop activation at most {res.bound} iteration(s){short}; "
             f"{res.pruned} run prefix(es) dropped{caps}; {note}")
    # data are abstracted here: a runtime error that depends on data values (an index, a divisor) is the safe.*
    # obligations' business, so the claim names control only
    what = {"deadlock": "every run's control reaches the return (data abstracted: data-dependent runtime errors are "
                        "the safe.* obligations')",
            "residual": "no run leaves a token in a channel or an operator"}
    # The obligation is named for K: a run cut short by the budget or by a cap is "unknown" (holding only
    # up to the smaller bound it reached), never "proved".
    status = "proved" if res.bound >= k and res.status == "ok" else "unknown"
    if res.paths == 0:  # every run was cut at the bound (a loop that may never end): nothing was checked
        status = "unknown"
        scope = f"no run ends within the bound, nothing was checked; {scope}"
    return [Obligation(ids[key], "bmc", status, res.seconds, f"{what[key]}: {scope}", None, func.loc, None,
                       res.bound, **how) for key in ("deadlock", "residual")]


def _budget(ctx: VerifyContext) -> Optional[float]:
    """Seconds the exploration may take: the per-obligation timeout, cut to what is left of the function's
    budget; None when neither is set (then only the deterministic limits apply)."""
    return ctx.limit()


__all__ = ["BmcResult", "check_bmc", "control_values", "explore"]
