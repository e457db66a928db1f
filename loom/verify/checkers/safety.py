"""Runtime-error safety (``loom.verify.safety``) as a checker: on the SCF source, else on the DFG itself."""

from __future__ import annotations

from loom.ir.core import Operation
from loom.verify.checkers.base import Facts
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.safety import check as safety
from loom.verify.safety import dfg


class SafetyChecker:
    """No access out of bounds, no division by zero, ... on every run; the source's ops when there is one."""

    name, kind = "safety", "safety"
    reads = ("structured_source",)

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        if facts.source is not None:
            return safety.check_safety(facts.structured_source, ctx, facts.source)
        # no source: the DFG's own addresses and arith ops, over a layout of its own -- not the facts' (built before
        # a --jobs unit forks): its witnesses depend on which objects it allocates (the report changed with it)
        return dfg.check_dfg_safety(func, ctx)

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return []


CHECKER = SafetyChecker()
