"""The verifier's facts about one DFG function in one run: one object, each part computed on first use and cached.

Every reader of the verifier's analyses reads them here: the checkers of ``loom verify`` (``loom.verify.checkers``,
through the ``Checker`` protocol's ``facts`` input) and the RTL monitors and helper invariants of ``loom hdl``,
``loom sim --rtl`` and ``loom verify --rtl`` (``loom.hdl.monitors``, ``loom.hdl.formal``). The parts are the
clock calculus (``lengths``: each value's clock class; ``loops`` with their openers and gates; ``balance``: the ops
with a balance obligation) and its obligations, the memory layout (domains and their accesses), the structure and
order obligations, the instance correspondence and order of every ordered access pair (``shapes``,
``loom.verify.memory.shape``) and the SCF source as the lowering reads it (``structured_source``).

Lazy, because a part costs what a checker costs: the lengths and memory-order parts run their proofs, so
computing every part up front would run them ahead of ``--jobs`` (each checker in a process of its own),
``--budget`` and ``--checkers``. A part is computed where it is first read -- in the checker that used to compute
it, under the same context -- so verdicts and Z3's work are what they were. Each checker of a run reads a copy of
the facts as ``driver.prepare`` left them (``under``), as each ``loom verify`` unit does in a process of its own: a
part holding solver terms belongs to its checker's solver state (``loom.verify.isolation``). Per run, never global: a
``DfgFacts`` belongs to one function and one ``VerifyContext`` (``under`` gives the same function's facts under
another context, keeping the parts no context changes); there is no module-level cache.

A failure is never a different result: a part whose computation raised raises the same exception on every later
read (it is not computed a second way). The driver reports a checker's crash as ``unknown``; ``loom hdl`` stops
with the ``LoomError`` of bad input or an ``HDL_FACTS`` error (``loom.hdl.monitors.design_facts``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import FrozenInstanceError, dataclass
from typing import TYPE_CHECKING, Any, Callable, Generic, Optional, TypeVar

from loom.ir.core import Operation
from loom.verify.lemmas.check import LemmaCache
from loom.verify.memory.structure import Layout, check_structure, memory_layout
from loom.verify.obligation import Obligation, VerifyContext

if TYPE_CHECKING:
    from loom.verify.lengths.check import LengthAnalysis
    from loom.verify.lengths.clock import Loop
    from loom.verify.memory.shape import OrderShape

# The analyses' modules are imported by the parts that run them, not here: importing the facts (every checker
# does, through the Checker protocol) must not import them ahead of the checkers that use them -- some make solver
# terms when imported, and the order those are made in is part of the Z3 state every forked --jobs unit inherits
# (a satisfiable query's witness can change with it).

T = TypeVar("T")


@dataclass(frozen=True)
class LoopFacts:
    """One loop of the clock calculus: the loop (name, kind, opener) and its gate (the op with a
    ``len.after_cond`` check of this loop), None when it has none."""

    loop: Loop
    gate: Optional[Operation]


@dataclass(frozen=True)
class _Failed:
    """A part whose computation raised: the exception, re-raised on every read."""

    error: Exception


class _Part(Generic[T]):
    """A part of ``DfgFacts``: computed on its first read, then cached (its value, or the exception it raised)."""

    def __init__(self, compute: Callable[["DfgFacts"], T], context_free: bool = False) -> None:
        self.compute = compute
        self.context_free = context_free  # does not depend on the VerifyContext: ``under`` keeps it
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, facts: Optional["DfgFacts"], owner: Optional[type] = None) -> Any:
        if facts is None:
            return self
        parts = facts._parts
        if self.name not in parts:
            facts.computed[self.name] += 1
            try:
                parts[self.name] = self.compute(facts)
            except Exception as e:  # cached: a later reader gets this failure, never a second computation
                parts[self.name] = _Failed(e)
        got = parts[self.name]
        if isinstance(got, _Failed):
            raise got.error
        return got


def part(context_free: bool = False) -> Callable[[Callable[["DfgFacts"], T]], _Part[T]]:
    """Declare a lazily computed, cached part of ``DfgFacts``."""
    return lambda compute: _Part(compute, context_free)


class DfgFacts:
    """What the verifier knows of one handshake.func (``func``, lowered from the SCF ``source`` when given) in
    one run under ``ctx``: each part computed on first read and cached. ``computed`` counts each part's
    computations (at most one each); the object cannot be changed from outside."""

    def __init__(self, func: Operation, source: Optional[Operation] = None, ctx: Optional[VerifyContext] = None,
                 cache: Optional[LemmaCache] = None) -> None:
        init = object.__setattr__
        init(self, "func", func)
        init(self, "source", source)
        init(self, "ctx", ctx if ctx is not None else VerifyContext())
        init(self, "cache", cache if cache is not None else LemmaCache())  # operator lemmas, shared by functions
        init(self, "_parts", {})
        init(self, "computed", Counter())

    func: Operation
    source: Optional[Operation]
    ctx: VerifyContext
    cache: LemmaCache
    _parts: dict[str, Any]
    computed: Counter

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: the facts of a run are read, never written")

    def under(self, ctx: VerifyContext) -> "DfgFacts":
        """The facts of the same function under ``ctx`` (e.g. with a deadline): the parts no context changes
        that are computed already are kept, the others are computed again on first read."""
        other = DfgFacts(self.func, self.source, ctx, self.cache)
        keep = {n for n, p in vars(DfgFacts).items() if isinstance(p, _Part) and p.context_free}
        other._parts.update({n: v for n, v in self._parts.items() if n in keep})
        return other

    def require(self, *names: str) -> "DfgFacts":
        """Compute the parts ``names`` now (raising the first failure): for a reader that must not start
        without them."""
        for n in names:
            getattr(self, n)
        return self

    # ------------------------------------------------------------------ parts that no context changes
    @part(context_free=True)
    def layout(self) -> Layout:
        """The memory layout: domains and their accesses (``loom.verify.memory.structure``)."""
        return memory_layout(self.func)

    @part(context_free=True)
    def structured_source(self) -> Optional[Operation]:
        """The SCF source as the lowering reads it (calls inlined, a CFG lifted to scf), None without one."""
        from loom.verify.refine.check import _structured

        return _structured(self.source) if self.source is not None else None

    # ------------------------------------------------------------------ the clock calculus
    @part()
    def lengths(self) -> "LengthAnalysis":
        """The clock calculus of the function: each value's clock and length class, the loops, the checks."""
        from loom.verify.lengths.check import analyze

        return analyze(self.func, self.ctx)

    @part()
    def length_obligations(self) -> tuple[Obligation, ...]:
        """``len.*``, ``balance.*`` and ``class.*``, decided (the lengths checker's proofs)."""
        from loom.verify.lengths.check import no_body, obligations

        missing = no_body(self.func)
        return (missing,) if missing is not None else tuple(obligations(self.lengths, self.ctx))

    @part()
    def length_ids(self) -> tuple[str, ...]:
        """The lengths checker's obligation IDs, in report order."""
        return tuple(o.id for o in self.length_obligations)

    @part()
    def loops(self) -> tuple[LoopFacts, ...]:
        """Every loop of the clock calculus with its gate."""
        a = self.lengths
        return tuple(LoopFacts(lp, _gate(a, lp)) for lp in a.typing.loops)

    @part()
    def balance(self) -> tuple[tuple[str, Operation], ...]:
        """(``balance.<op>`` ID, op) of every op with a balance obligation, in op order."""
        from loom.verify.lengths.check import balance_targets

        return tuple(balance_targets(self.lengths))

    # ------------------------------------------------------------------ memory
    @part()
    def structure_obligations(self) -> tuple[Obligation, ...]:
        """Access invariants, domain independence, done postdominance (the structure checker's)."""
        return tuple(check_structure(self.func, self.ctx, self.layout))

    @part()
    def order_obligations(self) -> tuple[Obligation, ...]:
        """``mem.<D>.order.*`` of every domain with a store (the memory checker's proofs)."""
        from loom.verify.memory.order import check_memory_order

        return tuple(check_memory_order(self.func, self.ctx, self.source, self.layout))

    @part()
    def memory_ids(self) -> tuple[str, ...]:
        """The structure and memory checkers' obligation IDs (structure, then order), in report order."""
        return tuple(o.id for o in self.structure_obligations + self.order_obligations)

    @part()
    def shapes(self) -> tuple[tuple[tuple[str, str], "OrderShape"], ...]:
        """(access pair, order shape) of every ``mem.<D>.order.<X><<Y>`` obligation whose accesses the layout
        has, by access names."""
        return _shapes(self.layout, self.memory_ids, self.source)

    def shape(self, first: str, second: str) -> Optional["OrderShape"]:
        """The order shape of the ordered pair of accesses ``first`` and ``second`` (None: no such pair)."""
        return dict(self.shapes).get((first, second))


# the parts the DFG-level monitors read: ``dfg_facts`` and ``loom hdl`` compute them before any RTL is written
MONITOR_PARTS = ("lengths", "loops", "balance", "length_ids", "layout", "memory_ids", "shapes")


def _gate(a: "LengthAnalysis", lp: "Loop") -> Optional[Operation]:
    """The gate of loop ``lp``: the op of its ``len.after_cond`` check."""
    return next((c.op for c in a.typing.checks if c.family == "len.after_cond" and c.loop is lp), None)


def _shapes(layout: Layout, ids: tuple[str, ...], source: Optional[Operation]) -> tuple:
    """(access pair, order shape) of every ``mem.<D>.order.<X><<Y>`` obligation whose accesses the layout has."""
    from loom.verify.ids import ObligationId
    from loom.verify.memory.shape import order_shape

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
    program order of its accesses) with every part the monitors read computed now. Deterministic; raises
    whatever the analyses raise (``LoomError`` for bad input), never returns partial facts."""
    return DfgFacts(func, source, ctx).require(*MONITOR_PARTS)
