"""Shared result types of ``loom verify``: one Obligation per proved/refuted property.

Every checker (lemmas, lengths, memory order, structure, BMC) returns a list of
Obligations; the driver collects them into a VerifyReport.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

from loom.ir.location import Location

if TYPE_CHECKING:
    from loom.verify.assume import Assumption

KINDS = ("fsm", "length", "balance", "memory", "structure", "bmc", "refinement", "safety", "mapping")
# "assumed": stated and relied on, not checked (a while loop's termination: partial correctness); exit 0
# "unchecked": deliberately not checked (refinement without a source); exit 0
STATUSES = ("proved", "refuted", "unknown", "assumed", "unchecked")
# How a verdict was reached: ``smt`` -- a non-trivial solver query (the only method with an SMT-LIB2
# script); ``typing rule`` -- a rule of a calculus applied to the IR; ``graph`` -- an exact check over
# the graph; ``simulation`` -- running tables on concrete (or control-exact symbolic) values;
# ``none`` -- nothing was decided (not checked, skipped, crashed).
METHODS = ("smt", "typing rule", "graph", "simulation", "none")
# What a refutation is: a ``behaviour`` some run shows (deadlock, residual, race, wrong length or value),
# or a ``spec rule`` -- structure the specs make mandatory, whatever the runs do.
NATURES = ("behaviour", "spec rule")


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
    method: str = "smt"                  # one of METHODS
    rule: str = ""                       # the typing rule, graph check or simulation that decided it
    nature: str | None = None            # refutations: one of NATURES

    def how(self) -> str:
        """The method, with the rule or check that applied it: ``graph: done postdominance``."""
        return f"{self.method}: {self.rule}" if self.rule else self.method


RLIMIT_MAX = 2**32 - 1  # Z3's rlimit parameter is an unsigned 32-bit count of resource units
# Deterministic limits (specs/verification.md section 0): the same on every machine and under any load, so
# a verdict never depends on either. Chosen from measurements with tools/verdict_sweep.py: every example,
# test kernel and corpus file needs far less, so none of their verdicts depends on them.
DEFAULT_RLIMIT = 50_000_000  # Z3 resource units per solver check (--rlimit)
DEFAULT_MAX_STATES = 2_000_000  # firings the BMC exploration may make per function (--max-states)
DEFAULT_BMC_RLIMIT = 5_000_000  # Z3 resource units of all the BMC's branch queries per function (--bmc-rlimit)


@dataclass
class VerifyContext:
    """Options shared by all checkers of one ``loom verify`` run."""

    timeout: float | None = None   # seconds per obligation; a timeout gives status "unknown", never "proved"
    bmc_k: int = 4                 # trip counts 0..K for the BMC cross-check
    want_smt2: bool = False
    progress: Callable[[str], None] | None = None
    # what legal inputs are (``--assume``, ``loom.range``): every obligation is proved under these only
    assumptions: tuple["Assumption", ...] = ()
    budget: float | None = None    # seconds per function, all its obligations together
    deadline: float | None = None  # ``time.perf_counter()`` at which the current function's budget ends
    require_source: bool = False   # a DFG without its SCF source: refinement "unknown" instead of "unchecked"
    # deterministic limits, always in force (with --timeout/--budget too): what runs out is "unknown"
    rlimit: int = DEFAULT_RLIMIT          # Z3 resource units per solver check
    max_states: int = DEFAULT_MAX_STATES  # firings of the BMC exploration per function
    bmc_rlimit: int = DEFAULT_BMC_RLIMIT  # Z3 resource units of the BMC's branch queries together, per function

    def __post_init__(self) -> None:
        for flag, value in (("timeout", self.timeout), ("budget", self.budget)):
            if value is not None:
                check_seconds(value, flag)
        for flag, count, top in (("rlimit", self.rlimit, RLIMIT_MAX), ("max_states", self.max_states, None),
                                 ("bmc_rlimit", self.bmc_rlimit, None)):
            if isinstance(count, bool) or not isinstance(count, int) or count < 1 or (top is not None and count > top):
                raise ValueError(f"{flag} must be an integer in 1..{top if top is not None else 'inf'} "
                                 f"(got {count!r})")

    @property
    def wall_clock(self) -> bool:
        """Whether any wall-clock limit applies (``--timeout`` or ``--budget``): without one, no verdict
        depends on time."""
        return self.timeout is not None or self.budget is not None

    def limits(self) -> dict:
        """The limits the verdicts were reached under, as reports record them."""
        return {"rlimit": self.rlimit, "max_states": self.max_states, "bmc_rlimit": self.bmc_rlimit,
                "bmc_k": self.bmc_k, "timeout": self.timeout, "budget": self.budget}

    def limit(self) -> Optional[float]:
        """Seconds the next obligation (or query) may take: the per-obligation timeout, cut to what is left
        of the function's budget; None when neither is set. Never negative: 0 means no time at all, which
        every checker answers with "unknown"."""
        left = None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        if self.timeout is None:
            return left
        return self.timeout if left is None else min(self.timeout, left)


def check_seconds(value: float, flag: str) -> float:
    """A time limit as given on the command line: finite and positive (``ValueError`` with one line)."""
    if math.isnan(value) or math.isinf(value) or value <= 0:
        raise ValueError(f"{flag} must be a positive, finite number of seconds (got {value!r})")
    return value
