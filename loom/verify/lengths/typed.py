"""The clock inference's data (``loom.verify.lengths.inference``): a value's clock and term (``Typed``), side
conditions (``Check``), firing groups, while-loop hypotheses, the result (``Typing``) and the helpers its phases
share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import z3

from loom.ir.core import OpResult, Operation, Value
from loom.semantics.handshake_ops import copied_value
from loom.semantics.machine import Machine
from loom.verify.lengths.clock import (
    FreeVars,
    TermMap,
    AnyClock,
    Clock,
    Loop,
)
from loom.verify.lengths.idioms import (
    CmergeLoop,
    PrimedSelect,
    TokenRing,
)
from loom.verify.lengths.logic import Outcome
from loom.verify.lengths.ranking import (Ranking, Recurrence)


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
