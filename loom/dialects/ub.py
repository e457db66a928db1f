"""ub dialect: ``ub.poison : T`` (an undefined value)."""

from __future__ import annotations

from loom.dialects.checks import VerifyContext, counts
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import AttrDict, Format, ResultSig
from loom.ir.core import Operation


def verify_poison(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=0, results=1)


OPS = [OpDef("ub.poison", Format(AttrDict(), ResultSig()), verify_poison)]
