"""Every op the front end knows in func/scf/memref/arith/math/ub can be executed by the interpreter."""

from __future__ import annotations

from loom.dialects.registry import known_ops
from loom.interp import HANDLERS
from loom.semantics.scalar import SCALAR_OPS

STRUCTURAL = {"func.func", "func.return", "memref.global", "scf.condition", "scf.yield"}


def test_scalar_semantics_cover_every_registered_scalar_op():
    scalar = {o for o in known_ops() if o.split(".")[0] in ("arith", "math", "ub")}
    assert scalar, "the registry lists no arith/math/ub ops"
    assert sorted(scalar - SCALAR_OPS) == []


def test_interpreter_handles_every_registered_structured_op():
    structured = {o for o in known_ops() if o.split(".")[0] in ("func", "scf", "memref")}
    assert sorted(structured - set(HANDLERS) - STRUCTURAL) == []
