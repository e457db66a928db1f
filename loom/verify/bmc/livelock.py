"""The livelock watch: a run back in an exactly equal state, with nothing counted in between, cycles forever."""

from __future__ import annotations

from typing import Any

import z3

from loom.verify.bmc import limits
from loom.verify.bmc.outcome import Livelock, Pruned
from loom.verify.bmc.state import State


class LivelockWatch:
    """The explorer's sampled state memory of one run and the replay that names a cycle's firings."""

    def _exact_key(self, st: State) -> tuple:
        """Everything the rest of a run depends on (terms by identity: they are alive in the state)."""

        def val(v: Any) -> Any:
            return self._zid(v) if isinstance(v, z3.ExprRef) else (type(v).__name__, repr(v))

        return (tuple(st.states), tuple(tuple(val(x) for x in r.values()) for r in st.regs),
                tuple(tuple(val(x) for x in q) for q in st.chans), tuple(st.counters), tuple(st.work),
                tuple(st.queued), tuple(st.blocked), st.ready, st.returned, st.error, len(st.path), st.maxc)

    def _watch(self, st: State, seen: dict, n: int) -> None:
        """Raise ``Livelock`` when the run is back in a state it was in at an earlier sample: the explorer
        is deterministic on a state, so it would go round the same cycle forever. Nothing in the cycle
        counts a loop iteration (the counters are part of the state) and no decision is taken (the path
        length is too): no loop activation bounds it, and the path is feasible, so the cycle is a real
        infinite run of the network (the explorer's worklist is fair: every enabled actor is queued). A cycle
        in which a merge chose between ready inputs is not reported (it may rest on an unfair choice).
        States with more than ``limits.WATCH_TOKENS`` queued tokens are neither kept nor compared (memory)."""
        if sum(map(len, st.chans)) > limits.WATCH_TOKENS:
            return
        key = self._exact_key(st)
        h = hash(key)
        for n0, k0, forks in seen.get(h, ()):
            # a merge that chose between ready inputs in the cycle could choose otherwise (a fair merge
            # eventually takes the other input): only a choice-free cycle is a livelock
            if k0 == key and forks == self.merge_forks:
                raise Livelock(self._cycle(st, n - n0), st.returned)
        seen.setdefault(h, []).append((n, key, self.merge_forks))

    def _cycle(self, st: State, period: int) -> list[str]:
        """The firings of the shortest round of the repeating cycle (replayed on a copy of ``st`` until it is
        back in ``st``'s state; ``period`` attempts at most, the repetition the watch saw)."""
        cp = st.copy()
        key = self._exact_key(st)
        out: list[str] = []
        for _ in range(period):
            if not cp.work:
                break
            k = cp.work.popleft()
            cp.queued[k] = False
            before = cp.states[k]
            try:
                fired = self._try_fire(cp, self.actors[k], [])
            except (Pruned, Livelock):
                break
            if fired:
                if not cp.queued[k]:
                    cp.queued[k] = True
                    cp.work.append(k)
                a = self.actors[k]
                name = self.names.get(a.op.results[0], "") if a.op.results else ""
                moved = f" ({before} -> {cp.states[k]})" if before != cp.states[k] else ""
                out.append(f"{a.op.name}{' ' + name if name else ''}{moved}")
            if self._exact_key(cp) == key:
                break
        return out
