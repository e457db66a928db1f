"""The search: runs wait in a queue ordered by the bound they used, smallest first; ``Explorer`` ties it together."""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import z3

from loom.ir.core import Operation, Value
from loom.runtime import function_arg_names
from loom.semantics.build import Machines
from loom.sim.names import value_name_map
from loom.verify.assume import to_z3
from loom.verify.bmc.build import NetworkBuilder
from loom.verify.bmc.decide import Decisions
from loom.verify.bmc.evaluate import Evaluation
from loom.verify.bmc.fire import Firing
from loom.verify.bmc import limits
from loom.verify.bmc.livelock import LivelockWatch
from loom.verify.bmc.merge import Merging
from loom.verify.bmc.network import Actor
from loom.verify.bmc.outcome import BmcResult, Livelock, OutOfLimit, Pruned
from loom.verify.bmc.slicing import control_values
from loom.verify.bmc.state import State
from loom.verify.collector import collector_paused
from loom.verify.obligation import DEFAULT_BMC_RLIMIT, DEFAULT_MAX_STATES, DEFAULT_RLIMIT


class Explorer(NetworkBuilder, Evaluation, Decisions, Firing, LivelockWatch, Merging):
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
        tables = Machines()  # ops of one signature share one (immutable) table
        self._machines = {op: tables(op) for op in body.ops}
        self.relevant = control_values(func, self._machines)
        self.arg_names = function_arg_names(func)
        self.solver = z3.Solver()
        self.fresh_count = 0
        self.actors: list[Actor] = []
        self.chan_consumer: list[tuple[int, int]] = []
        self.chan_value: list[Value] = []  # the value each channel carries (named in reports)
        self.allowance: list[int] = []  # tokens a channel may keep at the end (re-arming a primed buffer)
        self.forever: dict[int, Any] = {}
        self.args: dict[str, z3.ExprRef] = {}
        self.paths = 0
        self.pruned = 0
        self.w_chan: list[int] = []  # fingerprint weights per channel, actor state and loop counter (``build``)
        self.w_state: list[int] = []
        self.w_count: list[int] = []
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
        """A new constant ``hint!N`` of ``sort`` (per-run data, choices, merged symbols), remembered by name."""
        self.fresh_count += 1
        name = f"{hint}!{self.fresh_count}"
        c = self._fresh_by_name[name] = z3.Const(name, sort)
        return c

    def explore(self, k: int) -> BmcResult:
        """Every run with at most ``k`` iterations per loop activation (symbolic decisions), smallest
        bounds first: runs wait in a queue ordered by the most iterations they used so far, so when the
        budget runs out every run within a smaller bound is already done."""
        t0 = time.perf_counter()
        self.k = k
        self.paths = self.pruned = self.merged = 0
        q = _Queue([(0, 0, 0, self.initial())])
        capped: dict[str, int] = {}
        first_cap = k + 1  # the smallest level at which a cap cut a run (bounds from there on are incomplete)
        while q.heap:
            level, _, _, st = heapq.heappop(q.heap)
            if st.dead:
                continue
            if st.ready and self.merge:
                st = self._merge_waiting(st, q.waiting)
            pending: list[State] = []
            try:
                bad = self.run_path(st, pending, level)
            except Pruned as e:
                self.pruned += 1
                if e.cap is not None:
                    capped[e.cap] = capped.get(e.cap, 0) + 1
                    first_cap = min(first_cap, st.maxc)
                bad = None
                st = None  # type: ignore[assignment]
            except Livelock as e:
                return self._livelock(st, e, capped, t0)
            except (OutOfLimit, z3.Z3Exception) as out:
                done = min([level, first_cap] + q.levels() + [p.maxc for p in pending]) - 1
                why = out.why if isinstance(out, OutOfLimit) else f"a branch query failed ({out})"
                return BmcResult("budget", min(done, k), self.paths, self.pruned,
                                 seconds=time.perf_counter() - t0, capped=capped, why=why)
            for p in pending:
                q.push(p)
            if len(q.heap) > limits.PENDING_CAP:
                capped["memory"] = capped.get("memory", 0) + len(q.heap)
                done = min([level, first_cap] + q.levels()) - 1
                return BmcResult("capped", min(done, k), self.paths, self.pruned,
                                 seconds=time.perf_counter() - t0, capped=capped)
            if st is None:
                continue
            if bad in ("requeue", "checkpoint"):
                if bad == "checkpoint":
                    st.ckey = st.keys = st.coarse = None
                    q.waiting[None].append(st)
                q.push(st)
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

    def _livelock(self, st: State, e: Livelock, capped: dict, t0: float) -> BmcResult:
        """The violation a livelock is, with the arguments of its path."""
        res = BmcResult("violation", st.maxc, self.paths + 1, self.pruned, "livelock",
                        f"the network fires forever {'after' if e.returned else 'without reaching'} "
                        f"the return: a cycle of {len(e.schedule)} firing(s) that no loop activation "
                        f"bounds repeats", capped=capped, schedule=e.schedule)
        res.arguments = self._model_args(st)
        res.seconds = time.perf_counter() - t0
        return res


@dataclass
class _Queue:
    """The runs waiting to be explored (a heap: fewest iterations used first, then fewest firings, then
    arrival) and, among them, those waiting at a checkpoint (by merge bucket; None: not filed yet)."""

    heap: list
    seq: int = 0
    waiting: dict = field(default_factory=lambda: {None: []})

    def push(self, st: State) -> None:
        """Queue ``st`` behind every run of its level and firings already queued."""
        self.seq += 1
        heapq.heappush(self.heap, (st.maxc, st.steps, self.seq, st))

    def levels(self) -> list[int]:
        """The iterations used by each queued run."""
        return [e[0] for e in self.heap]


def explore(func: Operation, k: int, budget: Optional[float] = None, merge: bool = True, assumptions: tuple = (),
            rlimit: Optional[int] = DEFAULT_RLIMIT, max_states: int = DEFAULT_MAX_STATES,
            max_units: Optional[int] = DEFAULT_BMC_RLIMIT) -> BmcResult:
    """All runs within bound ``k`` over the inputs ``assumptions`` allow, within ``max_states`` firings, each
    branch query within ``rlimit`` Z3 resource units and all of them within ``max_units`` (None: no limit),
    and, when ``budget`` is given, ``budget`` seconds in all:
    ``ok``, the smallest-bound ``violation``, or ``budget`` (``why`` names the limit that ran out) with the
    largest bound fully explored."""
    deadline = None if budget is None else time.perf_counter() + budget
    with collector_paused():
        ex = Explorer(func, deadline, merge, assumptions, rlimit, max_states, budget, max_units)
        res = ex.explore(k)
    res.queries = ex.queries
    res.states = ex.fired
    res.units = ex.units
    return res


