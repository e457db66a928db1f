"""One point of the exploration: the whole network's state and the path that reached it.

A fork copies a state: the per-actor and per-channel lists are copied shallowly (pointer copies) and the
register dicts and channel deques they hold are shared until one side changes one (``chan``, ``regs_of``:
copy on write), so a fork costs no Python-level work per actor or channel. ``fp`` is a running fingerprint of
what the merge's coarse key compares (actor states, loop counters, channel lengths), kept up to date by the
step rules, so a waiting run is bucketed without looking at the whole state.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Optional

import z3

_MASK = (1 << 64) - 1


def weight(i: int, salt: int) -> int:
    """A fixed pseudo-random 64-bit weight of position ``i`` (splitmix64): fingerprints are sums of them."""
    z = (i * 0x9E3779B97F4A7C15 + salt * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


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
    keys: Optional[tuple] = None  # its fine key while waiting (computed once, when compared)
    coarse: Optional[tuple] = None  # its exact coarse key while waiting (computed when a run shares its bucket)
    fp: int = 0  # fingerprint of states, counters and channel lengths (``Explorer.fingerprint``; kept current)
    own_chans: set = field(default_factory=set)  # channels whose deque only this state holds (written in place)
    own_regs: set = field(default_factory=set)  # actors whose register dict only this state holds

    def copy(self) -> "State":
        """An independent state: what both now share is copied by whichever side writes it first."""
        self.own_chans, self.own_regs = set(), set()
        return State(list(self.states), list(self.regs), list(self.chans),
                     list(self.counters), deque(self.work), list(self.queued), self.returned, self.error,
                     list(self.path), dict(self.decided), self.steps, self.maxc, self.model,
                     list(self.blocked), self.ready, fp=self.fp)

    def chan(self, cid: int) -> deque:
        """Channel ``cid``'s deque, to be written (copied first when shared with another state)."""
        q = self.chans[cid]
        if cid not in self.own_chans:
            q = self.chans[cid] = deque(q)
            self.own_chans.add(cid)
        return q

    def regs_of(self, k: int) -> dict[str, Any]:
        """Actor ``k``'s registers, to be written (copied first when shared with another state)."""
        r = self.regs[k]
        if k not in self.own_regs:
            r = self.regs[k] = dict(r)
            self.own_regs.add(k)
        return r
