"""Access invariants, domain independence and done postdominance (``loom.verify.memory.structure``)."""

from __future__ import annotations

from loom.ir.core import Operation
from loom.verify import expected as _expected
from loom.verify.checkers.base import Facts
from loom.verify.obligation import Obligation, VerifyContext


class StructureChecker:
    """The memory structure obligations of the function's layout."""

    name, kind = "structure", "structure"
    reads = ("layout", "structure_obligations")

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        return list(facts.structure_obligations)

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return _expected.structure_ids(facts.layout)


CHECKER = StructureChecker()
