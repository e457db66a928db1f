"""One point of the exploration: the whole network's state and the path that reached it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Optional

import z3


@dataclass(eq=False)
class State:
    """One point of the exploration: every actor's state/registers, every channel, the path."""

    states: list[str]
    regs: list[dict[str, Any]]
    chans: list[deque]
    counters: list[int]
    work: deque
    queued: list[bool]
    returned: bool = False
    error: Optional[str] = None
    path: list = field(default_factory=list)  # the path condition: one assumed literal per decision
    decided: dict = field(default_factory=dict)  # term id -> (term, bool)
    steps: int = 0
    maxc: int = 0  # most iterations any activation ran on a symbolic decision (the run's bound)
    model: Optional[z3.ModelRef] = None  # a model of ``path``, when known
    blocked: list = field(default_factory=list)  # actors waiting for an undecided symbolic guard
    ready: bool = False  # at a checkpoint: the next run_path decides for the first blocked actor
    dead: bool = False  # merged into another state (skipped when popped)
    ckey: Any = None  # its coarse key while waiting at a checkpoint (computed when another run waits too)
    keys: Optional[tuple] = None  # its plain and fine keys while waiting (computed once, when compared)

    def copy(self) -> "State":
        return State(list(self.states), [dict(r) for r in self.regs], [deque(c) for c in self.chans],
                      list(self.counters), deque(self.work), list(self.queued), self.returned, self.error,
                      list(self.path), dict(self.decided), self.steps, self.maxc, self.model,
                      list(self.blocked), self.ready)
