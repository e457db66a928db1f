"""``SimResult``: what one token-level simulation of a handshake.func produced."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from loom.diagnostics import LoomError
from loom.ir.core import Operation


@dataclass(frozen=True)
class SafetyViolation:
    """A safety monitor of the RTL (``loom.hdl.monitors.safety``) that fired in co-simulation: the ``safe.*``
    obligation, the runtime error the SCF source stops with there, the first cycle, the DFG op's location."""

    obligation: str
    code: str
    cycle: int
    loc: Any = None


@dataclass
class SimResult:
    """Outcome of ``simulate``.

    ``results`` are runtime values of the source results (the return operands
    without the trailing none done token), ``memrefs`` the final contents of
    every memref argument (flat row-major runtime values), ``residual_tokens``
    the tokens left in channels plus the ops latched mid-burst, ``channels`` the
    number of tokens that crossed each channel, ``steps`` the number of firings.
    ``deadlock_report`` explains, for humans, which ops hold tokens and which
    ports they wait on (empty when nothing is stuck).
    """

    status: str
    results: list[Any] = field(default_factory=list)
    memrefs: dict[str, list[Any]] = field(default_factory=dict)
    residual_tokens: int = 0
    channels: dict[str, int] = field(default_factory=dict)
    error: Optional[LoomError] = None
    steps: int = 0
    deadlock_report: str = ""
    quiescent: bool = True
    safety: list[SafetyViolation] = field(default_factory=list)  # RTL co-simulation only (loom sim --rtl)

    def to_json(self, func: Optional[Operation] = None) -> dict:
        """The ../shared/DESIGN.md ``loom sim --json`` document (types taken from ``func`` when given)."""
        from loom.runtime import run_result_json

        return run_result_json(
            self.status, self.results, self.memrefs, self.residual_tokens, self.channels, self.error, func=func
        )
