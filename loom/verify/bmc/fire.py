"""Firing rules: a run fires concrete rules until quiescence, deferring symbolic decisions to a checkpoint."""

from __future__ import annotations

import time
from typing import Any, Optional

import z3

from loom.ir.types import NoneType
from loom.semantics.routes import route_full
from loom.semantics.expr import TOKEN
from loom.semantics.machine import Complete, Fail
from loom.verify.bmc import limits
from loom.verify.bmc.network import Actor, CRule
from loom.verify.bmc.outcome import OutOfLimit, Pruned
from loom.verify.bmc.state import State
from loom.verify.bmc.values import OPAQUE, SKIP, concrete


def has_room(chans: list, room: tuple) -> bool:
    """Whether every bounded route (entry channel, exit channels, places) can take one more token."""
    return not any(route_full(len(chans[entry]), (len(chans[c]) for c in exits), cap) for entry, exits, cap in room)


class Firing:
    """The explorer's step rules (``loom.semantics`` tables on the state) and a finished run's verdict."""

    def run_path(self, st: State, pending: list, level: int) -> Any:
        """Fire until quiescence: (kind, detail) of a violation, None for a clean run, ``"requeue"``
        when the run just went beyond ``level`` iterations in some activation (it waits its turn), or
        ``"checkpoint"`` when only symbolic decisions are left (it waits in the queue, where runs that
        reached the same state merge; popped again, it decides for its first blocked actor)."""
        actors = self.actors
        try_fire = self._try_fire
        n = 0
        every = max(64, len(actors))  # states sampled for the livelock watch (a bounded overhead)
        seen: dict[int, list[tuple[int, tuple]]] = {}
        while True:
            work, queued = st.work, st.queued
            while work:
                n += 1
                if self.fired > self.max_states:
                    raise OutOfLimit("states", f"the limit of {self.max_states} explored states (firings) ran out")
                if n & 255 == 0 and self.deadline is not None and time.perf_counter() > self.deadline:
                    raise self._time_out()
                if n > limits.LIVELOCK_AFTER and n % every == 0:
                    self._watch(st, seen, n)
                k = work.popleft()
                queued[k] = False
                if try_fire(st, actors[k], pending):
                    if not queued[k]:
                        queued[k] = True
                        work.append(k)
                    if st.error is not None:
                        return "error", st.error
                    if st.maxc > level:
                        return "requeue"
            if not st.blocked:
                return self._verdict(st)
            if not st.ready:
                st.ready = True
                return "checkpoint"
            st.ready = False
            k = min(st.blocked)
            st.blocked.remove(k)
            self.deciding = k
            try:
                fired = self._try_fire(st, actors[k], pending)
            finally:
                self.deciding = None
            if fired and not st.queued[k]:
                st.queued[k] = True
                st.work.append(k)
            if st.error is not None:
                return "error", st.error
            if st.maxc > level:
                return "requeue"

    def _try_fire(self, st: State, a: Actor, pending: list) -> bool:
        """Fire the first rule of ``a`` whose inputs are ready and whose guard holds (False: none fired,
        or the actor waits for a symbolic decision)."""
        k = a.index
        chans = st.chans
        regs = st.regs[k]
        for cr in a.crules[st.states[k]]:
            for _, cid in cr.pull:
                if not chans[cid]:
                    break
            else:
                heads = cr.heads0.copy()
                for i, cid in cr.pull:
                    heads[i] = chans[cid][0]
                if cr.guard is not None:
                    if not concrete(heads, cr.gports, regs, cr.gleaves[1]):
                        got = self._attempt(st, a, cr, heads, pending)
                        if got is None:
                            continue
                        return got
                    if not cr.gfast(heads, regs, None):
                        continue
                if cr.room and not has_room(st.chans, cr.room):
                    return False  # a bounded route it emits into is full: wait for its consumer
                # a concrete decision: the rule fires
                self._advance(st, a, cr, heads, pending, symbolic=False)
                return True
        return False

    def _attempt(self, st: State, a: Actor, cr: CRule, heads: list, pending: list) -> Optional[bool]:
        """Rule ``cr`` of actor ``a`` with its inputs ready: True when it fired, None when its guard is
        false (the next rule is tried), False when the actor waits: its guard is symbolic and must be
        decided, which is deferred (the actor is blocked) while other firings are possible."""
        k = a.index
        g = self._guard(a, cr, heads, st.regs[k])
        symbolic = isinstance(g, z3.ExprRef)
        if symbolic:
            gid = self._zid(g)
            if cr.loop and st.counters[k] >= self.k:
                # the bound: this activation may not continue again
                hit = st.decided.get(gid)
                if hit is None:
                    m = self._feasible(st, z3.Not(g))
                    if m is None:
                        raise Pruned()
                    self._assume(st, g, False)
                    st.model = m
                elif hit[1]:
                    raise Pruned()
                return None
            if self.deciding != k and gid not in st.decided:
                # decisions wait until nothing concrete can fire (a canonical point where runs meet)
                if k not in st.blocked:
                    st.blocked.append(k)
                return False
            g = self._decide(st, g, pending, k, cr.loop, gid)
        if not g:
            return None
        if cr.room and not has_room(st.chans, cr.room):
            return False  # decided, but a bounded route it emits into is full: wait for its consumer
        self._advance(st, a, cr, heads, pending, symbolic=symbolic)
        return True

    def _advance(self, st: State, a: Actor, cr: CRule, heads: list, pending: list, *, symbolic: bool) -> None:
        """Rule ``cr`` of ``a`` fires: count a loop's activations (a symbolic decision raises the deepest count,
        ``maxc``) or reset them, fork the other branch of an arbitrary merge, then move the tokens."""
        k = a.index
        if cr.loop:
            st.counters[k] += 1
            st.fp += self.w_count[k]
            if st.counters[k] > limits.CONCRETE_CAP:
                raise Pruned("loop")
            if symbolic and st.counters[k] > st.maxc:
                st.maxc = st.counters[k]
        elif cr.reset:
            st.fp -= self.w_count[k] * st.counters[k]
            st.counters[k] = 0
        if a.arbitrary:
            self._fork_merge(st, a, cr, pending)
        self._fire(st, a, cr, heads)

    def _fork_merge(self, st: State, a: Actor, taken: CRule, pending: list) -> None:
        """A merge may take any ready input: queue the runs that take the later ready ones."""
        later = False
        for cr in a.crules[st.states[a.index]]:
            if cr is taken:
                later = True
                continue
            if later and all(cid in self.forever or st.chans[cid] for _, _, cid in cr.reads):
                other = st.copy()
                heads: list = [None] * len(a.machine.inputs)
                for _, i, cid in cr.reads:
                    heads[i] = self.forever[cid] if cid in self.forever else other.chans[cid][0]
                self._fire(other, a, cr, heads)
                if not other.queued[a.index]:
                    other.queued[a.index] = True
                    other.work.append(a.index)
                pending.append(other)
                self.merge_forks += 1

    def _fire(self, st: State, a: Actor, cr: CRule, heads: list) -> None:
        """Fire rule ``cr`` of ``a``: emit, update registers, pop the read inputs, push, move to the next state."""
        k = a.index
        regs = st.regs[k]
        values = []
        for oi, relevant, e, leaves, fast, t, ports in cr.emits:
            if not relevant:
                values.append((oi, TOKEN if isinstance(t, NoneType) else OPAQUE))
            elif fast is not None and concrete(heads, ports, regs, leaves[1]):
                values.append((oi, fast(heads, regs, None)))
            else:
                values.append((oi, self._eval(a, e, leaves, fast, heads, regs, t)))
        if cr.updates:
            new = [(r, OPAQUE if fast is SKIP
                    else fast(heads, regs, None) if fast is not None and concrete(heads, ports, regs, leaves[1])
                    else self._eval(a, e, leaves, fast, heads, regs, t))
                   for r, e, leaves, fast, t, ports in cr.updates]
            regs = st.regs_of(k)
            for r, v in new:
                regs[r] = v
        eff = cr.effect
        if eff is not None:
            if isinstance(eff, Complete):
                st.returned = True
            elif isinstance(eff, Fail):
                st.error = f"{eff.code} at {a.op.name} ({a.op.loc})"
        w_chan = self.w_chan
        fp = st.fp
        queued, work, consumer, freed = st.queued, st.work, self.chan_consumer, self.freed
        for _, cid in cr.pull:
            st.chan(cid).popleft()
            fp -= w_chan[cid]
            if freed and cid in freed and not queued[freed[cid]]:  # a bounded route's room: its producer may fire
                queued[freed[cid]] = True
                work.append(freed[cid])
        for oi, v in values:
            for cid in a.outputs[oi]:
                st.chan(cid).append(v)
                fp += w_chan[cid]
                ck = consumer[cid][0]
                if not queued[ck]:
                    queued[ck] = True
                    work.append(ck)
        if cr.next != st.states[k]:
            fp += self.w_state[k] * (a.state_code[cr.next] - a.state_code[st.states[k]])
            st.states[k] = cr.next
        st.fp = fp
        st.steps += 1
        self.fired += 1
        if st.steps > limits.STEP_CAP:
            raise Pruned("firing")

    def _verdict(self, st: State) -> Optional[tuple[str, str]]:
        """A finished run's violation (deadlock, or tokens left or latched after the return), None when clean."""
        left = [(self.names.get(self.chan_value[c], "?"), len(q)) for c, q in enumerate(st.chans)
                if len(q) > self.allowance[c] and c not in self.forever]
        latched = [a for a in self.actors if st.states[a.index] in a.machine.residual_states]
        if not st.returned:
            where = ", ".join(f"{n} x{c}" for n, c in left[:6]) or "no channel"
            full = [f"{self.names.get(self.chan_value[e], '?')} ({cap}/{cap})" for e, exits, cap in self.routes
                    if not has_room(st.chans, ((e, exits, cap),))]
            held = f"; full bounded routes: {', '.join(full[:6])}" if full else ""
            return "deadlock", f"the return never fires (tokens waiting: {where}{held})"
        if left or latched:
            parts = [f"{n} x{c}" for n, c in left[:6]]
            parts += [f"{a.op.name} {self.names.get(a.op.results[0], '') if a.op.results else ''} latched in "
                      f"'{st.states[a.index]}'" for a in latched[:4]]
            return "residual", "tokens left after the return: " + ", ".join(parts)
        return None
