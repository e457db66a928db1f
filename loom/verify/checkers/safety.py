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

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        if facts.source is not None:
            return safety.check_safety(facts.structured_source, ctx, facts.source)
        return dfg.check_dfg_safety(func, ctx, facts.layout)  # no source: the DFG's own addresses and arith ops

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return []


CHECKER = SafetyChecker()
