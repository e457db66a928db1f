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
``plain_bmc`` in ``loom.verify.bmc.plain`` is the unreduced baseline the benchmark compares.

The explorer is split by concern, one module each: ``slicing`` (which values reach a guard), ``values``
(opaque and concrete tokens), ``network`` and ``build`` (actors, channels), ``state`` (one point of the
exploration), ``evaluate`` (expressions on a state), ``decide`` (the solver and forks), ``fire`` (the step
rules), ``livelock`` (the repeated-state watch), ``merge`` (runs that meet), ``search`` (the queue and
``Explorer``), ``check`` (the obligations); ``limits`` and ``outcome`` hold the caps and the result. This
module is the entry point and keeps the public names.
"""

from __future__ import annotations

from loom.verify.bmc.check import check_bmc
from loom.verify.bmc.limits import (CAPS, CONCRETE_CAP, LIVELOCK_AFTER, MERGE_PATIENCE, MODEL_RLIMIT, PENDING_CAP,
                                    STEP_CAP, WATCH_TOKENS)
from loom.verify.bmc.outcome import BmcResult
from loom.verify.bmc.search import Explorer, explore
from loom.verify.bmc.slicing import control_values
from loom.verify.bmc.values import OPAQUE, Opaque

__all__ = ["BmcResult", "CAPS", "CONCRETE_CAP", "Explorer", "LIVELOCK_AFTER", "MERGE_PATIENCE", "MODEL_RLIMIT",
           "OPAQUE", "Opaque", "PENDING_CAP", "STEP_CAP", "WATCH_TOKENS", "check_bmc", "control_values", "explore"]
