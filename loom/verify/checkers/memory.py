"""Memory ordering of every domain with a store (``loom.verify.memory.order``) as a checker."""

from __future__ import annotations

import importlib

from loom.ir.core import Operation
from loom.verify import expected as _expected
from loom.verify.checkers.base import Facts
from loom.verify.obligation import Obligation, VerifyContext


# imported with the checker, as when the checker called it itself: a --jobs unit forks from the process that loaded
# the checkers, so it inherits the module instead of importing it again in every unit (CPU per unit); the facts
# import it where they run it
importlib.import_module("loom.verify.memory.order")


class MemoryChecker:
    """Program order of conflicting accesses (against the SCF source's order when there is one)."""

    name, kind = "memory", "memory"
    reads = ("layout", "order_obligations")

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        return list(facts.order_obligations)

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return _expected.memory_ids(facts.layout)


CHECKER = MemoryChecker()
