"""Runtime-error safety (``loom.verify.safety``) as a checker: on the SCF source, else on the DFG itself."""

from __future__ import annotations

from typing import Optional

from loom.ir.core import Operation
from loom.verify.checkers.base import Facts
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.safety import check as safety
from loom.verify.safety import dfg

# a function of this many DFG ops or more has its sites cut into parts (one ``--jobs`` unit each, see ``parts``):
# at 46,463 ops the one safety unit took 68 s CPU, more than the rest of the run on one of two cores; a part
# builds the function's model again (~8 s CPU there), so a part is not made much smaller than this
PART_OPS = 20_000


class SafetyChecker:
    """No access out of bounds, no division by zero, ... on every run; the source's ops when there is one."""

    name, kind = "safety", "safety"
    reads = ("structured_source",)

    def parts(self, func: Operation) -> int:
        """How many runs of its sites (in order) ``func``'s safety is cut into: one per ``PART_OPS`` DFG ops
        (from its size alone, known before any solver work, so a run's units are the same with any ``--jobs``)."""
        body = func.regions[0].entry if func.regions and func.regions[0].blocks else None
        return max(1, (len(body.ops) if body is not None else 0) // PART_OPS)

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts,
              part: Optional[int] = None) -> list[Obligation]:
        """Every part's obligations in order, or part ``part``'s only."""
        n = self.parts(func)
        if facts.source is not None:
            return safety.check_safety(facts.structured_source, ctx, facts.source, n, part)
        # no source: the DFG's own addresses and arith ops, over a layout of its own -- not the facts' (built before
        # a --jobs unit forks): its witnesses depend on which objects it allocates (the report changed with it)
        return dfg.check_dfg_safety(func, ctx, parts=n, only=part)

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return []


CHECKER = SafetyChecker()
