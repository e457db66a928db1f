"""The ``Checker`` protocol and the ``Facts`` every checker of one function shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Protocol

from loom.ir.core import Operation
from loom.verify.lemmas.check import LemmaCache
from loom.verify.memory.structure import Layout
from loom.verify.obligation import Obligation, VerifyContext


@dataclass
class Facts:
    """What the driver computes once per function for all its checkers: the SCF source it was lowered from
    (None for a DFG verified alone), its memory layout and the operator-lemma cache shared between functions."""

    source: Optional[Operation]
    layout: Layout
    cache: LemmaCache = field(default_factory=LemmaCache)


class Checker(Protocol):
    """One family of obligations: ``check`` decides them; ``expected`` lists the IDs it would report, so a
    crash or a used-up budget still lists each as ``unknown`` (empty when they depend on the analysis)."""

    name: str  # as ``verify_function(checkers=...)`` names it
    kind: str  # the obligation kind of its ``internal.<name>`` entry

    def check(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[Obligation]: ...

    def expected(self, func: Operation, ctx: VerifyContext, facts: Facts) -> list[str]: ...
