"""``OpDef``: what loom knows about one op (syntax, verifier, structural traits, token semantics)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from loom.dialects.syntax import OpSyntax
from loom.ir.core import Operation


@dataclass(frozen=True)
class OpDef:
    """Everything loom knows about one op name."""

    name: str
    syntax: OpSyntax | None = None
    verify: Callable[..., None] | None = None  # verify(op, ctx) raises VerifyError
    terminator: bool = False
    isolated: bool = False  # IsolatedFromAbove: regions see no outer SSA names
    default_dialect: str | None = None  # bare op names inside its regions resolve here
    graph_regions: bool = False  # regions have no SSA dominance (any order, cycles)
    normalize: Callable[[Operation], None] | None = None  # applied right after parsing
    # machine(op): the op's state-machine table (loom.semantics.Machine), built from a verified op; the
    # simulator, the Z3 model and the HDL read it through loom.semantics.machine_for
    machine: Callable[[Operation], object] | None = None
