"""Operator lemmas and stream preconditions (``loom.verify.lemmas``) as a checker."""

from __future__ import annotations

from loom.ir.core import Operation
from loom.verify import expected as _expected
from loom.verify.checkers.base import Facts
from loom.verify.lemmas import check as lemmas
from loom.verify.obligation import Obligation, VerifyContext


class LemmasChecker:
    """Every operator table's lemmas and every stream's termination precondition."""

    name, kind = "lemmas", "fsm"
    reads: tuple[str, ...] = ()

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        return lemmas.check_lemmas(func, ctx, facts.cache, facts.source)

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return _expected.lemma_ids(func)


CHECKER = LemmasChecker()
