"""The clock inference's loop structure (``loom.verify.lengths.inference``): streams open loops, gates close
their bodies, carries/invariants are segmented over a loop condition; primed buffers as carries, delay lines and
token rings."""

from __future__ import annotations

from typing import Optional

import z3

from loom.dialects.dataflow import stream_params
from loom.ir.core import Operation, Value
from loom.ir.types import NoneType
from loom.semantics.handshake_ops import copied_value
from loom.verify.lengths.clock import (
    EMPTY,
    AnyClock,
    Clock,
    Loop,
    raw_clock,
    split,
    when,
)
from loom.verify.lengths.idioms import (
    TokenRing,
)
from loom.verify.lengths.conditions import successor_facts
from loom.verify.lengths.logic import Outcome

from loom.verify.lengths.typed import (Check, Typed, activation_root, _first_cond, _index_facts,
                                       _constant_trips)
from loom.verify.lengths.typer_base import TyperBase


class TyperLoops(TyperBase):
    """The loop-structure rules of ``Typer``."""

    def _stream(self, op: Operation) -> None:
        n_checks = len(self.checks)
        p = self.same(op, op.operands, "len.raw")
        start, step, bound = (self.t(v).term for v in op.operands)
        if isinstance(p, AnyClock):
            self.unknown_op(op, "the stream is activated by an always-ready source")
            # start, step and bound are all offered forever (ANY comes only from always-ready sources): after
            # every exit the stream is activated again
            self.forever[op] = ("its start, step and bound all come from always-ready sources, so it is "
                                "activated again after every exit and never stops emitting")
            return
        if p.is_empty:  # dead code (e.g. under a constant-false branch): never activated
            for r in op.results:
                self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
            return
        m = self.machines[op]
        step_op, cont = stream_params(op)
        # Streams share a loop only when they are copies of one activation: equal clocks and operand terms
        # and the same tokens behind the operands (a stream started by another loop's exit token has the
        # same counts but runs after it: sharing would pair iterations that never coexist).
        roots = tuple(id(activation_root(v)) for v in op.operands)
        key = (p.key, step_op, cont, start.get_id(), step.get_id(), bound.get_id(), roots)
        loop = self.loop_index.get(key)
        idx, cont_v = op.results
        if loop is None:
            loop = Loop(len(self.loops), "for", op, p, step_op, cont)
            loop.start, loop.step, loop.bound = start, step, bound
            loop.first_cond = _first_cond(m, start, step, bound)
            loop.trips = _constant_trips(step_op, cont, start, step, bound)
            loop.index_term = self.fresh(idx, raw_clock(loop))
            loop.holds = _first_cond(m, loop.index_term, step, bound)
            loop.facts, loop.exact = _index_facts(loop)
            self.loops.append(loop)
            self.loop_index[key] = loop
            self.logic.add_loop(loop)
        # The stream's own operand check is its loop's len.raw obligation.
        for c in self.checks[n_checks:]:
            c.loop = loop
        if len(self.checks) == n_checks:
            self.checks.append(Check(op, "len.raw", loop, "the stream's operands arrive together", p, p, None, None,
                                     Outcome("proved", "single activation clock")))
        rc = raw_clock(loop)
        self.assign(idx, Typed(rc, loop.index_term))
        self.assign(cont_v, Typed(rc, loop.cont))

    def _gate(self, op: Operation) -> None:
        v, c_v = op.operands
        n_checks = len(self.checks)
        c = self.same(op, [v, c_v], "len.after_cond")
        if isinstance(c, Clock) and c.is_empty:
            for r in op.results:
                self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
            return
        loop = self._loop_condition(op, c_v, c, "raw")
        if loop is None:
            return
        for ch in self.checks[n_checks:]:
            ch.loop = loop
        self.gates[op] = loop
        body, _ = when(c, loop.cont, self.memo)
        self.checks.append(Check(op, "len.after_cond", loop, "after_value/after_cond: N tokens per activation",
                                 body, body, None, None, Outcome("proved", "gate of the loop's raw condition")))
        self.assign(op.results[0], Typed(body, self.t(v).term))
        self.assign(op.results[1], Typed(body, loop.after))

    def _loop_condition(self, op: Operation, c_v: Value, c: "Clock | AnyClock", shape: str) -> Optional[Loop]:
        """The loop whose raw (``shape='raw'``) condition ``c_v`` is, or None (recorded as unknown)."""
        if isinstance(c, AnyClock) or c.inner is None:
            self.unknown_op(op, f"{self.name(c_v)} is not the condition of a loop")
            return None
        loop = c.inner
        _, inner = split(c, loop, self.memo)
        term = self.t(c_v).term
        want_inner, want_term = ([], loop.cont) if shape == "raw" else ([loop.cont], loop.after)
        if [x.get_id() for x in inner] != [x.get_id() for x in want_inner]:
            self.unknown_op(op, f"{self.name(c_v)} is not the {shape} condition of {loop.name}")
            return None
        if term.get_id() != want_term.get_id() and not self._valid(c, term == want_term, succ=True):
            self.unknown_op(op, f"{self.name(c_v)} is not the {shape} condition of {loop.name}")
            return None
        return loop

    def _valid(self, clock: Clock, prop: z3.BoolRef, succ: bool = False) -> bool:
        """``prop`` holds at every coordinate of ``clock`` for all trip counts (``succ``: with what the streams'
        tables say about neighbouring positions, to recognise a loop condition the DFG computes)."""
        body = self.logic.domain(clock.levels) + list(clock.conds) + [z3.Not(prop)]
        if succ:
            body += [f for lp in clock.levels for f in successor_facts(lp)]
        s = self.logic.solver()
        s.add(*self.logic.axioms(body), *body)
        self.logic.queries += 1
        return s.check() == z3.unsat

    def _segment(self, op: Operation) -> None:
        """carry/invariant with typed a and d."""
        d_v = self.carry_view(op)[0]
        d = self.t(d_v)
        self._segment_with(op, d.clock, self.canonical(d.clock, d.term) if z3.is_bool(d.term) else d.term)

    def _primed(self, op: Operation) -> None:
        """The primed buffer of a proved primed select: per activation it offers its muxes 0 and then the
        condition's tokens but the last (which stays to prime the next activation), i.e. the select is
        ``j > 0`` on the condition's clock (always 0 for a flat condition)."""
        ps = self.primed[op]
        shapes = {self.shape_of[m] for m in ps.muxes if m in self.shape_of}
        c = self.t(op.operands[0]).clock
        if len(shapes) != 1 or isinstance(c, AnyClock):
            self.unknown_op(op, "the muxes this primed buffer selects could not be typed as carries")
            return
        shape, loop = shapes.pop()
        term = z3.BoolVal(False) if shape == "flat" or loop is None else z3.Not(loop.j == 0)
        self.assign(op.results[0], Typed(c, term))

    def _delay(self, op: Operation) -> None:
        """A delay line: a primed buffer (k initial tokens) whose input is typed without its output. It
        offers its k initial tokens, then its input's tokens in order; consumers that take exactly as many
        tokens as its input carries (its input's clock C, checked where they are consumed) take the k initial
        ones and all but the last k input tokens, which stay in it -- exactly the tokens that re-arm it for the
        next run (``loom.semantics.rest``). So its output is on C, its value opaque (shifted by k tokens)."""
        c = self.t(op.operands[0]).clock
        r = op.results[0]
        self.assign(r, Typed(c, self.fresh(r, c)))

    def _ring_others(self, ring: TokenRing) -> list[Value]:
        """The inputs of the ring's first consumer other than the ring's own token."""
        own = ring.buffer.results[0]
        return [v for v in ring.consumers[0].operands if copied_value(v) is not own]

    def _ring(self, op: Operation) -> None:
        """A token ring: its consumer fires at most once per run (its other inputs are on a function-level
        clock C), taking the initial token; the ring must send back exactly one token per firing (its input
        on C, checked with the feedback), which re-arms the buffer. Inside a loop the order of the returned
        tokens is not shown: unknown."""
        ring = self.rings[op]
        clocks = [self.t(v).clock for v in self._ring_others(ring)]
        c = next((x for x in clocks if isinstance(x, Clock)), None)
        if c is None:
            self.unknown_op(op, "the token ring's consumer has no input besides the ring to take its rate from")
            return
        if c.levels:
            if op.operands[0] in self.types:  # its input does not wait for the ring's consumer: a delay line
                self._delay(op)
                return
            self.unknown_op(op, "the token ring's consumer fires inside a loop: that the ring returns each token "
                                "before the next firing needs it is not shown (only a function-level ring is typed)")
            return
        init = op.attributes["initValues"].elements[0]  # type: ignore[union-attr]
        r = op.results[0]
        term = (self.values.token() if isinstance(r.type, NoneType)
                else self.values.literal(getattr(init, "value", 0), r.type))
        ring.typed = True
        self.deferred.append((op, f"the ring sends back one token per firing of {ring.consumers[0].name}", c,
                              op.operands[0], None))
        self.assign(r, Typed(c, term))

    def _segment_with(self, op: Operation, dclock: "Clock | AnyClock", dterm: z3.ExprRef) -> None:
        d_v, a_v, b_v = self.carry_view(op)
        a = self.t(a_v)
        o = op.results[0]
        if isinstance(dclock, AnyClock):
            self.unknown_op(op, f"the condition {self.name(d_v)} comes from an always-ready source")
            return
        if isinstance(a.clock, AnyClock):
            self.unknown_op(op, f"the seed {self.name(a_v)} comes from an always-ready source")
            return
        cl = self.cmerge_loops.get(op)
        if cl is not None and a.clock.levels:
            # a second entry token could arrive while the loop runs, and the merge could take it early
            self.unknown_op(op, f"the loop header's entry {self.name(a_v)} is inside a loop: that one activation "
                                "runs at a time is not shown (only a function-level entry is typed)")
            return
        shape = None
        loop = dclock.inner
        if loop is not None:
            _, inner = split(dclock, loop, self.memo)
            ids = [x.get_id() for x in inner]
            if not ids and (dterm.get_id() == loop.cont.get_id()
                            or self._valid(dclock, dterm == loop.cont, succ=True)):
                shape = "raw"
            elif ids == [loop.cont.get_id()] and (dterm.get_id() == loop.after.get_id()
                                                   or self._valid(dclock, dterm == loop.after, succ=True)):
                shape = "after_cond"
        if shape is None and (dclock.is_empty or self._valid(dclock, z3.Not(dterm))):
            shape = "flat"  # every d token is false: one segment of length one per token
        if shape is None:
            self.unknown_op(op, f"the condition {self.name(d_v)} is neither a loop's raw condition nor its "
                                "after_cond (no segment structure the calculus knows)")
            return
        if shape == "flat":
            expected = dclock
            what = f"one {self.name(a_v)} token per {self.name(d_v)} token (every condition is false)"
        else:
            assert loop is not None
            outer, _ = split(dclock, loop, self.memo)
            extra = [loop.n >= 1] if shape == "after_cond" else []
            expected = Clock(dclock.levels[:-1], outer + extra)
            need = " (after_cond is empty when the loop runs 0 times: needs N >= 1)" if extra else ""
            what = f"one {self.name(a_v)} token per activation of {loop.name}{need}"
        self.check(op, what, expected, a.clock, a_v, d_v)
        self.shape_of[op] = (shape, loop)
        if op.name == "dataflow.invariant":
            term = a.term
        elif shape == "flat":
            term = a.term
        else:
            assert loop is not None
            term = z3.If(loop.j == 0, a.term, self.fresh(o, dclock))
        if b_v is None and (op in self.cmerge_loops or op in self.header_of):
            self._several_backs(op, dclock, dterm)
        if b_v is not None:
            fb, _ = when(dclock, dterm, self.memo)
            b = b_v
            self.deferred.append((op, f"{self.name(b)} carries one token per true condition", fb, b, d_v))
        self.assign(o, Typed(dclock, term))
        if cl is not None:
            cl.typed = True
            idx = op.results[1]
            first = self.values.literal(cl.entry, idx.type)
            later = self.values.literal(cl.backs[0], idx.type) if len(cl.backs) == 1 else self.fresh(idx, dclock)
            index = first if shape == "flat" or loop is None else z3.If(loop.j == 0, first, later)
            self.assign(idx, Typed(dclock, index))

    def _several_backs(self, op: Operation, dclock: "Clock | AnyClock", dterm: z3.ExprRef) -> None:
        """Feedback checks of a loop header with several back edges (the loop body's last branches): together
        they carry one token per true condition, one edge at a time; each index mux's input for edge k
        carries exactly edge k's tokens."""
        fb, _ = when(dclock, dterm, self.memo)
        cl = self.cmerge_loops.get(op) or self.header_of[op]
        backs = [cl.cmerge.operands[k] for k in cl.backs]
        if op is cl.cmerge:
            names = ", ".join(self.name(v) for v in backs)
            self.deferred_union.append((op, f"{names} together carry one token per true condition", fb, backs))
            return
        for k, v in zip(cl.backs, backs):
            d = op.operands[1 + k]
            self.deferred.append((op, f"{self.name(d)} carries one token per token of the back edge {self.name(v)}",
                                  None, d, v))
