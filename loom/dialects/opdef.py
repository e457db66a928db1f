"""``OpDef``: what loom knows about one op (syntax, verifier, structural traits)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from loom.dialects.syntax import OpSyntax
from loom.ir.core import Operation


@dataclass(frozen=True)
class OpDef:
    """Everything loom knows about one op name."""

    name: str
    syntax: Optional[OpSyntax] = None
    verify: Optional[Callable[..., None]] = None  # verify(op, ctx) raises VerifyError
    terminator: bool = False
    isolated: bool = False  # IsolatedFromAbove: regions see no outer SSA names
    default_dialect: Optional[str] = None  # bare op names inside its regions resolve here
    graph_regions: bool = False  # regions have no SSA dominance (any order, cycles)
    normalize: Optional[Callable[[Operation], None]] = None  # applied right after parsing
