"""The verifier's facts about one DFG function, published as one frozen value for what reads the verifier's results.

The RTL monitors (``loom.hdl.monitors``, so ``loom hdl``, ``loom sim --rtl`` and ``loom verify --rtl``) state the
verifier's obligations as SVA; what they need to know is what the verifier's analyses found: the clock calculus
(each value's clock class, the loops with their openers and gates, the ops with a balance obligation), the memory
layout (domains and their accesses), the instance correspondence and order of every ordered access pair
(``loom.verify.memory.shape``), and the obligation IDs the checkers report. ``dfg_facts`` computes all of it from
the function (and its SCF source) with the same calls the checkers of ``loom verify`` make (``analyze`` and
``obligations``, ``memory_layout``, ``check_structure``, ``check_memory_order``), so the two always agree. It
raises on failure: a graph whose facts cannot be computed gets no RTL at all, never RTL with its monitors
silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from loom.ir.core import Operation
from loom.verify.ids import ObligationId
from loom.verify.lengths.check import LengthAnalysis, analyze, balance_targets, obligations
from loom.verify.lengths.clock import Loop
from loom.verify.memory.order import check_memory_order
from loom.verify.memory.shape import OrderShape, order_shape
from loom.verify.memory.structure import Layout, check_structure, memory_layout
from loom.verify.obligation import VerifyContext


@dataclass(frozen=True)
class LoopFacts:
    """One loop of the clock calculus: the loop (name, kind, opener) and its gate (the op with a
    ``len.after_cond`` check of this loop), None when it has none."""

    loop: Loop
    gate: Optional[Operation]


@dataclass(frozen=True)
class DfgFacts:
    """What the verifier knows of one handshake.func, for everything that reads its results without re-running
    its analyses: ``lengths`` (clock classes, value names, typing checks), ``loops`` (structure), ``balance``
    (``balance.<op>`` ID and op, op order), ``layout`` (memory domains and accesses), ``shapes`` (the order shape
    of every ordered access pair, by access names) and the obligation IDs of the lengths (``length_ids``) and the
    memory checkers (``memory_ids``: structure, then order), in report order."""

    func: Operation
    source: Optional[Operation]
    lengths: LengthAnalysis
    loops: tuple[LoopFacts, ...]
    balance: tuple[tuple[str, Operation], ...]
    layout: Layout
    shapes: tuple[tuple[tuple[str, str], OrderShape], ...]
    length_ids: tuple[str, ...]
    memory_ids: tuple[str, ...]

    def shape(self, first: str, second: str) -> Optional[OrderShape]:
        """The order shape of the ordered pair of accesses ``first`` and ``second`` (None: no such pair)."""
        return dict(self.shapes).get((first, second))


def _gate(a: LengthAnalysis, lp: Loop) -> Optional[Operation]:
    """The gate of loop ``lp``: the op of its ``len.after_cond`` check."""
    return next((c.op for c in a.typing.checks if c.family == "len.after_cond" and c.loop is lp), None)


def _shapes(layout: Layout, ids: tuple[str, ...], source: Optional[Operation]) -> tuple:
    """(access pair, order shape) of every ``mem.<D>.order.<X><<Y>`` obligation whose accesses the layout has."""
    acc = {x.name: x for x in layout.accesses}
    out: dict[tuple[str, str], OrderShape] = {}
    for oid in ids:
        parsed = ObligationId.try_parse(oid)
        if parsed is None or parsed.family != "mem.order.pair":
            continue
        first, second = parsed.params
        if first in acc and second in acc and (first, second) not in out:
            out[(first, second)] = order_shape(layout, acc[first], acc[second], source)
    return tuple(out.items())


def dfg_facts(func: Operation, source: Optional[Operation] = None, ctx: Optional[VerifyContext] = None) -> DfgFacts:
    """The facts of ``func`` (a handshake.func; ``source``: the SCF func.func it was lowered from, which fixes the
    program order of its accesses). Deterministic; raises whatever the analyses raise (``LoomError`` for bad
    input), never returns partial facts."""
    ctx = ctx if ctx is not None else VerifyContext()
    a = analyze(func, ctx)
    length_ids = tuple(o.id for o in obligations(a, ctx))
    layout = memory_layout(func)
    memory_ids = tuple(o.id for o in check_structure(func, ctx, layout) + check_memory_order(func, ctx, source, layout))
    return DfgFacts(
        func=func,
        source=source,
        lengths=a,
        loops=tuple(LoopFacts(lp, _gate(a, lp)) for lp in a.typing.loops),
        balance=tuple(balance_targets(a)),
        layout=layout,
        shapes=_shapes(layout, memory_ids, source),
        length_ids=length_ids,
        memory_ids=memory_ids,
    )
