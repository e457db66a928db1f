"""The ``Checker`` protocol and the facts every checker of one function shares (``loom.verify.facts``)."""

from __future__ import annotations

from typing import Protocol

from loom.ir.core import Operation
from loom.verify.facts import DfgFacts
from loom.verify.obligation import Obligation, VerifyContext

# what the driver hands every checker of one function: the lazily computed facts of the run (the SCF source,
# the memory layout, the clock calculus, the memory obligations, the operator-lemma cache ...), each part
# computed by its first reader -- each checker reads its own copy, as in a ``loom verify`` unit of its own; the
# same kind of object ``loom hdl``'s monitors read
Facts = DfgFacts


class Checker(Protocol):
    """One family of obligations: ``check`` decides them; ``expected`` lists the IDs it would report, so a
    crash or a used-up budget still lists each as ``unknown`` (empty when they depend on the analysis).
    Both read what the verifier's analyses found from ``facts`` rather than computing it again."""

    name: str  # as ``verify_function(checkers=...)`` names it
    kind: str  # the obligation kind of its ``internal.<name>`` entry
    reads: tuple[str, ...]  # the parts of the facts ``check`` and ``expected`` read (and those they compute from)

    def check(self, func: Operation, ctx: VerifyContext, facts: DfgFacts) -> list[Obligation]: ...

    def expected(self, func: Operation, ctx: VerifyContext, facts: DfgFacts) -> list[str]: ...
