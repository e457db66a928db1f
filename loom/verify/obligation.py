"""Shared result types of ``loom verify``: one Obligation per proved/refuted property.

Every checker (lemmas, lengths, memory order, structure, BMC) returns a list of
Obligations; the driver collects them into a VerifyReport.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from loom.ir.location import Location

if TYPE_CHECKING:
    from loom.verify.assume import Assumption

KINDS = ("fsm", "length", "balance", "memory", "structure", "bmc", "refinement")
# "assumed": not checked but stated, e.g. the termination of a while loop (partial correctness); exit 0
STATUSES = ("proved", "refuted", "unknown", "assumed")


@dataclass
class Obligation:
    """One verification obligation and its verdict."""

    id: str                 # stable, e.g. "len.L0.after_cond", "balance.%12", "mem.A.order.st3<ld5", "mem.indep.A|B", "done.postdom", "fsm.gate.shape", "bmc.K4.deadlock"
    kind: str               # "fsm" | "length" | "balance" | "memory" | "structure" | "bmc"
    status: str             # "proved" | "refuted" | "unknown"
    seconds: float
    detail: str             # one human line: what was proved or what is wrong
    counterexample: dict | None = None   # JSON-able: trip counts, branch outcomes, op, channel, token trace
    loc: Location | None = None          # source op of the obligation (for SARIF: file:line:col)
    smt2: str | None = None              # self-contained SMT-LIB2 script; a stock solver answers `unsat` iff proved (None when not a single SMT query, e.g. BMC; say so in detail)
    bounded: int | None = None           # K when the result holds only up to bound K
    assumes: tuple[str, ...] = ()        # what the verdict relies on that is not proved (e.g. "L0 terminates")


@dataclass
class VerifyContext:
    """Options shared by all checkers of one ``loom verify`` run."""

    timeout: float | None = None   # seconds per obligation; a timeout gives status "unknown", never "proved"
    bmc_k: int = 4                 # trip counts 0..K for the BMC cross-check
    want_smt2: bool = False
    progress: Callable[[str], None] | None = None
    # what legal inputs are (``--assume``, ``loom.range``): every obligation is proved under these only
    assumptions: tuple["Assumption", ...] = ()
