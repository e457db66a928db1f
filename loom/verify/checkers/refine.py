"""Refinement against the SCF source (``loom.verify.refine``) as a checker; without a source, one entry."""

from __future__ import annotations

from loom.ir.core import Operation
from loom.verify.checkers.base import Facts
from loom.verify.ids import ObligationId
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.refine import check as refine


class RefineChecker:
    """What the DFG computes equals what its source computes; ``unchecked`` (or ``unknown`` with
    ``require_source``) when the DFG came without its source."""

    name, kind = "refine", "refinement"
    reads = ("layout", "structured_source")

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        if facts.source is None:
            return [not_checked_refinement(func, ctx)]
        return refine.check_refinement(func, ctx, facts.source, facts.layout, facts.structured_source)

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return []


def not_checked_refinement(func: Operation, ctx: VerifyContext) -> Obligation:
    """The ``refine`` entry of a DFG verified without its SCF source: nothing says what it computes.

    ``unchecked`` (no effect on the exit code), or ``unknown`` with ``ctx.require_source``."""
    status = "unknown" if ctx.require_source else "unchecked"
    return Obligation(str(ObligationId("refine")), "refinement", status, 0.0,
                      "not checked (no --source): what the DFG computes was not compared with an SCF source; "
                      "pass --source IN.scf.mlir (or verify the .scf.mlir)", None, func.loc, method="none")


CHECKER = RefineChecker()
