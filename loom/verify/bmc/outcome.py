"""What an exploration ends with: its result record, and the exceptions that cut a run or the whole search."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


class Pruned(Exception):
    """The run leaves the bound (a loop would need more than K iterations), its path is infeasible, or it
    hits one of ``CAPS`` (``cap`` names it: such a run is not covered by the bound, so nothing it could
    show was checked)."""

    def __init__(self, cap: Optional[str] = None) -> None:
        super().__init__(cap or "bound")
        self.cap = cap


class OutOfLimit(Exception):
    """A limit of the exploration ran out (``kind``: ``time``, ``states`` or ``rlimit``; ``why`` in words):
    the runs not yet explored were not checked."""

    def __init__(self, kind: str, why: str) -> None:
        super().__init__(why)
        self.kind = kind
        self.why = why


class Livelock(Exception):
    """The run came back to a state it was in before, with no loop activation counting and no decision
    taken in between: it repeats the cycle of ``schedule`` (firings ``actor: rule``) forever."""

    def __init__(self, schedule: list[str], returned: bool) -> None:
        super().__init__("livelock")
        self.schedule = schedule
        self.returned = returned


@dataclass
class BmcResult:
    """Outcome of the exploration up to one bound."""

    status: str  # "ok", "violation", "budget" (a limit ran out: ``why``), "capped"
    bound: int
    paths: int = 0
    pruned: int = 0
    kind: str = ""  # deadlock | residual | error | livelock
    detail: str = ""
    arguments: dict = field(default_factory=dict)
    trips: list = field(default_factory=list)
    seconds: float = 0.0
    capped: dict = field(default_factory=dict)  # CAPS key -> runs it cut (those runs were not checked)
    schedule: list = field(default_factory=list)  # a livelock's repeating cycle of firings
    queries: int = 0  # branch feasibility queries asked (what a run out of time reached)
    why: str = ""  # status "budget": the limit that ran out, in words
    states: int = 0  # firings made (what ``max_states`` bounds)
    units: int = 0  # Z3 resource units the branch queries used (what ``max_units`` bounds)
