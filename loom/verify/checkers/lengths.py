"""Stream lengths, balance and clock classes (``loom.verify.lengths``, V2) as a checker."""

from __future__ import annotations

from loom.ir.core import Operation
from loom.verify.checkers.base import Facts
from loom.verify.ids import ObligationId
from loom.verify.lengths import check as lengths
from loom.verify.lengths import repeat
from loom.verify.obligation import Obligation, VerifyContext


class LengthsChecker:
    """Lengths for all trip counts; with an SCF source, a refuted or assumed termination is replayed on it."""

    name, kind = "lengths", "length"
    reads = ("lengths", "length_obligations")

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        out = list(facts.length_obligations)
        if facts.source is None:
            return out
        return [_refute_by_repeat(_replay_divergence(o, facts.source), func, facts.source, ctx) for o in out]

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return []  # the loops and values it names come from the analysis itself


def _terminates(ob: Obligation) -> bool:
    oid = ObligationId.try_parse(ob.id)
    return oid is not None and oid.family == "len.terminates"


def _replay_divergence(ob: Obligation, source: Operation) -> Obligation:
    """A refuted ``len.W.terminates`` replayed on the source too (``replay_source_divergence``)."""
    if ob.status != "refuted" or not _terminates(ob):
        return ob
    return lengths.replay_source_divergence(ob, source)


def _refute_by_repeat(ob: Obligation, func: Operation, source: Operation, ctx: VerifyContext) -> Obligation:
    """An ``assumed`` termination refuted by a source run that repeats the loop's state (``refute_by_repeat``)."""
    if ob.status != "assumed":
        return ob
    return repeat.refute_by_repeat(ob, func, source, ctx)


CHECKER = LengthsChecker()
