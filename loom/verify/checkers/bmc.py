"""The bounded cross-check (``loom.verify.bmc``, V2) as a checker; a failing run is replayed on the source."""

from __future__ import annotations

import dataclasses

from loom.ir.core import Operation
from loom.verify import expected as _expected
from loom.verify.bmc import explore
from loom.verify.checkers.base import Facts
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.refine.replay import source_error


class BmcChecker:
    """Every run up to trip count K ends with no deadlock and no residual token."""

    name, kind = "bmc", "bmc"
    reads: tuple[str, ...] = ()

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]:
        out = explore.check_bmc(func, ctx)
        return [blame_input(o, facts.source) for o in out] if facts.source is not None else out

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]:
        return _expected.bmc_ids(ctx.bmc_k)


def blame_input(ob: Obligation, source: Operation) -> Obligation:
    """A BMC run that ends in a runtime error, replayed on the source: when the source stops with an error on
    the same arguments, the refutation is a finding about the input program (say which inputs are legal), not a
    lowering bug; it stays refuted, as a DFG run that fails is still one."""
    cex = ob.counterexample or {}
    if ob.status != "refuted" or cex.get("kind") != "error" or "arguments" not in cex:
        return ob
    err = source_error(source, cex["arguments"])
    if err is None:
        return ob
    note = (f" -- the source stops on these arguments too ({err.code} {err.message}): a property of the input "
            "program, not a lowering bug -- say what inputs are legal with --assume or {loom.range = [lo, hi]}")
    return dataclasses.replace(ob, detail=ob.detail + note,
                               counterexample={**cex, "finding": "input", "source_error": f"{err.code} {err.message}"})


CHECKER = BmcChecker()
