"""The clock inference's while loops (``loom.verify.lengths.inference``): a carry whose condition is computed from
its own output opens a loop by hypothesis, confirmed once the condition's clock is derived; a loop that feeds back
its state unchanged never ends, and termination is tried by ranking functions and recurrence sets."""

from __future__ import annotations

import time
from typing import Optional

import z3

from loom.ir.core import OpResult, Operation, Value
from loom.semantics.handshake_ops import copied_value
from loom.verify.lengths.clock import (
    EMPTY,
    AnyClock,
    Loop,
    raw_clock,
)
from loom.verify.lengths.ranking import (Atom, WhileView, find_recurrence, prove_ranking,
                                        small_model)
from loom.verify.lengths.values import _predicate

from loom.verify.lengths.typed import (Hypothesis, Typed, _Control, _BOOLEAN_WALK, FIXED_POINT_UNROLL,
                                       _uninterpreted, py_value)
from loom.verify.lengths.typer_base import TyperBase


class TyperWhile(TyperBase):
    """The while-loop phase of ``Typer``."""

    def _hypothesize(self) -> bool:
        """When stuck: open a while loop for the first carry/invariant whose seed is typed but whose
        condition is not (it is computed from the loop's own outputs)."""
        segments = self._segments()
        for g in segments:
            if id(g) in self.done_groups:
                continue
            op = g.op
            d_v, a_v, b_v = self.carry_view(op)
            if d_v in self.types or a_v not in self.types:
                continue
            p = self.t(a_v).clock
            if isinstance(p, AnyClock):
                continue
            if p.is_empty:  # never seeded: never fires, so d (and b) must stay empty too
                self.done_groups.add(id(g))
                self.deferred.append((op, f"{self.name(d_v)} carries no token (the seed never arrives)", EMPTY,
                                      d_v, a_v))
                if b_v is not None:
                    self.deferred.append((op, f"{self.name(b_v)} carries no token (the seed never "
                                              "arrives)", EMPTY, b_v, a_v))
                self.assign(op.results[0], Typed(EMPTY, self.fresh(op.results[0], EMPTY)))
                return True
            root = copied_value(d_v)
            hyp = self.hyps.get(root)
            if hyp is None:
                loop = Loop(len(self.loops), "while", op, p)
                self.loops.append(loop)
                self.logic.add_loop(loop)
                hyp = self.hyps[root] = Hypothesis(loop, raw_clock(loop), op)
            self.done_groups.add(id(g))
            hyp.members.append(op)
            self._segment_with(op, hyp.clock, hyp.loop.cont)
            # every other carry/invariant on the same condition (or a fork/buffer/br copy of it) joins
            # this loop now
            for g2 in segments:
                if (id(g2) not in self.done_groups
                        and copied_value(self.carry_view(g2.op)[0]) is root
                        and self.carry_view(g2.op)[1] in self.types):
                    self.done_groups.add(id(g2))
                    hyp.members.append(g2.op)
                    self._segment_with(g2.op, hyp.clock, hyp.loop.cont)
            return True
        return False

    def _segments(self) -> list:
        """The carry/invariant groups, in group order (listed once: ``_hypothesize`` runs once per loop it opens,
        and scanning every group of a 46,463-op DFG each time was 12 million steps)."""
        got = getattr(self, "_segment_groups", None)
        if got is None:  # the groups are all made before the first drain
            got = self._segment_groups = [g for g in self.groups if g.kind == "segment"]
        return got

    def _confirm(self, d_v: Value, hyp: Hypothesis, typed: Typed) -> Typed:
        """d (a hypothesised while condition) got its real clock: check it, define N by its first false."""
        loop = hyp.loop
        out = self.check(hyp.opener, f"the loop condition {self.name(d_v)} carries N+1 tokens per activation "
                                     f"of {loop.name}", hyp.clock, typed.clock, d_v, None, "len.raw", loop)
        if out.status != "proved":
            hyp.confirmed = False
            return typed
        hyp.confirmed = True
        hyp.cond_term = typed.term
        first = z3.simplify(z3.substitute(typed.term, (loop.j, z3.IntVal(0))))
        loop.first_cond = first
        loop.holds = typed.term  # true exactly at positions j < N: relates the loop's data to N
        if z3.is_true(z3.simplify(typed.term)):
            self.unknown_op(hyp.opener, f"the condition of {loop.name} is constantly true: the loop never ends")
        self.cond_names.setdefault(loop.cont, self.name(d_v))
        return Typed(typed.clock, loop.cont)

    def _control_state(self, hyp: Hypothesis) -> Optional["_Control"]:
        """The carries that decide a while loop (those its condition reads, and those their feedback reads;
        others, such as a step counter, change every iteration without deciding anything), each with the
        fresh value standing for its later outputs. None when the loop is not one the checks can read."""
        if not hyp.confirmed or hyp.cond_term is None:
            return None
        cond = self.cond_term_bool(hyp.cond_term)
        carries = [op for op in hyp.members if self.is_carry(op)]
        feedback = {op: self.carry_view(op)[2] for op in carries}
        seeds = {op: self.carry_view(op)[1] for op in carries}
        if any(feedback[op] not in self.types or op.results[0] not in self.types for op in carries):
            return None

        def own(op: Operation) -> set[int]:  # the fresh values standing for the carry's later outputs
            seed = {x.decl().get_id() for x in _uninterpreted(self.t(seeds[op]).term)}
            out = {x.decl().get_id() for x in _uninterpreted(self.t(op.results[0]).term) if x.num_args() > 0}
            return out - seed  # (coordinates, 0-ary, are shared by every carry of the loop)

        decls = {op: own(op) for op in carries}
        used = {x.decl().get_id() for x in _uninterpreted(cond)}
        state: list[Operation] = []
        grew = True
        while grew:
            grew = False
            for op in carries:
                if op not in state and decls[op] & used:
                    state.append(op)
                    used |= {x.decl().get_id() for x in _uninterpreted(self.t(feedback[op]).term)}
                    grew = True
        if not state:
            return None
        apps: dict[Operation, z3.ExprRef] = {}
        for op in state:
            mine = [x for x in _uninterpreted(self.t(op.results[0]).term) if x.decl().get_id() in decls[op]]
            if len(mine) != 1:
                return None
            apps[op] = mine[0]
        return _Control(hyp, cond, carries, state, apps, {op: self.t(seeds[op]).term for op in state},
                        {op: self.t(feedback[op]).term for op in state})

    def _unrolled(self, cs: "_Control", k: int) -> Optional[tuple[list[dict], list[z3.BoolRef]]]:
        """The control states of iterations 0..k as terms over the arguments (the seeds, then each feedback
        evaluated on the previous state) and the condition at iterations 0..k-1; None when a step's state
        has another sort than the carry's."""
        loop = cs.hyp.loop
        current = dict(cs.seeds)
        states, conds = [current], []
        for i in range(k):
            at = [(loop.j, z3.IntVal(i))]
            here = [(z3.substitute(cs.apps[op], *at), current[op]) for op in cs.state]

            def now(term: z3.ExprRef) -> z3.ExprRef:
                return z3.simplify(z3.substitute(z3.simplify(z3.substitute(term, *at)), *here))

            conds.append(now(cs.cond))
            nxt = {op: now(cs.feedback[op]) for op in cs.state}
            if any(nxt[op].sort() != current[op].sort() for op in cs.state):
                return None
            states.append(nxt)
            current = nxt
        return states, conds

    def _fixed_point(self, hyp: Hypothesis) -> None:
        """A while loop that never ends (a lasso): some arguments make its iterations 0..k run (the
        condition holds) and iteration k feed back the state some iteration i <= k started from, so
        iterations i..k repeat forever (i = k: a fixed point). Decided only when the condition and the
        feedback are exact functions of the seeds and the arguments (no loaded or otherwise abstracted
        value), so a model is a real run."""
        cs = self._control_state(hyp)
        if cs is None:
            return
        loop = hyp.loop
        got = self._unrolled(cs, FIXED_POINT_UNROLL)
        if got is None:
            return
        states, conds = got
        allowed = {c.get_id() for c in self.logic.args.values()}
        held: list[z3.BoolRef] = [loop.activation.formula()]  # really activated with those arguments
        for k in range(FIXED_POINT_UNROLL):
            held.append(conds[k])
            nxt = states[k + 1]
            again = [z3.And(*[nxt[op] == states[i][op] for op in cs.state]) for i in range(k + 1)]
            claim = z3.And(*held, z3.Or(*again))
            if any(x.get_id() not in allowed for x in _uninterpreted(claim)):
                return  # depends on abstracted data or on trip counts: no exact verdict
            m, asked = small_model(self.logic.solver, self.logic.axioms([claim]) + [claim],
                                   list(self.logic.args.values()))
            self.logic.queries += asked
            if m is not None:
                used_args = {x.get_id() for x in _uninterpreted(claim)}
                args = {name: py_value(m.eval(c, model_completion=True))
                        for name, c in self.logic.args.items() if c.get_id() in used_args}
                back = next(i for i in range(k, -1, -1) if z3.is_true(m.eval(again[i], model_completion=True)))
                self.stuck[loop] = (hyp.opener, args, k, back)
                return

    def _termination(self, hyp: Hypothesis) -> None:
        """A while loop that is not stuck: prove it ends by a ranking function, or refute it with a closed
        recurrence set (``loom.verify.lengths.ranking``); else it stays assumed."""
        loop = hyp.loop
        view = self._while_view(hyp)
        if view is None:
            return
        t0 = time.perf_counter()
        rank, asked = prove_ranking(view)
        self.logic.queries += asked
        if rank is not None:
            self.ranked[loop] = rank
            return
        rec, asked2 = find_recurrence(view)
        self.logic.queries += asked2
        if rec is not None:
            self.recurrent[loop] = (hyp.opener, rec)
        self.tried[loop] = (asked + asked2, time.perf_counter() - t0)

    def _failing_ops(self) -> set[int]:
        """Ids of the ops with a check not proved; only the checks made since the last call are read (checks are
        only ever appended and their outcomes never change: a wide DFG has ~10^5 checks and dozens of loops)."""
        for c in self.checks[self.failing_read:]:
            if c.outcome.status != "proved":
                self.failing.add(id(c.op))
        self.failing_read = len(self.checks)
        return self.failing

    def _while_view(self, hyp: Hypothesis) -> Optional[WhileView]:
        """The generic iteration of a while loop (``ranking.WhileView``), or None when some carry of the loop
        is not fully typed and checked (then its outputs are not known to follow its feedback)."""
        loop = hyp.loop
        if not hyp.confirmed or hyp.cond_term is None:
            return None
        cond = self.cond_term_bool(hyp.cond_term)
        steps: list[z3.BoolRef] = []
        failing = self._failing_ops()
        for op in hyp.members:
            if op in self.unknown or op.results[0] not in self.types:
                return None
            if id(op) in failing:
                return None  # e.g. the feedback does not carry one token per true condition
            if not self.is_carry(op):
                continue
            b_v = self.carry_view(op)[2]
            if b_v is None or b_v not in self.types:
                return None
            out = self.t(op.results[0]).term
            steps.append(z3.substitute(out, (loop.j, loop.j + 1)) == self.t(b_v).term)
        atoms, disjunctive = self._atoms(copied_value(self.carry_view(hyp.opener)[0]))
        cs = self._control_state(hyp)
        state = [(self.name(op.results[0]), self.t(op.results[0]).term) for op in cs.state] if cs else []
        allowed = {c.get_id() for c in self.logic.args.values()}

        def exact(term: z3.ExprRef) -> bool:
            return all(x.get_id() in allowed for x in _uninterpreted(term))

        def stem(model: z3.ModelRef, k: int) -> list[dict[str, object]]:
            if cs is None:
                return []
            got = self._unrolled(cs, k)
            if got is None:
                return []
            out = []
            for st in got[0]:
                if not all(exact(t) for t in st.values()):
                    break
                out.append({self.name(op.results[0]): py_value(model.eval(st[op], model_completion=True))
                            for op in cs.state})
            return out

        invariants = [(self.name(op.results[0]), self.t(op.results[0]).term) for op in hyp.members
                      if op.name == "dataflow.invariant" and z3.is_bv(self.t(op.results[0]).term)]
        return WhileView(loop, cond, steps, atoms, state, loop.activation.formula(), dict(self.logic.args),
                         lambda body: self.logic.axioms(body), self.logic.solver, exact, invariants, disjunctive,
                         stem)

    def _atoms(self, root: Value) -> tuple[list[Atom], bool]:
        """The integer comparisons (``arith.cmpi``) a loop condition is computed from, through boolean ops,
        selects, muxes, branches and copies, and whether anything but an ``andi`` combines them."""
        atoms: list[Atom] = []
        disjunctive = False
        seen: set[int] = set()
        todo = [root]
        while todo and len(seen) < 64:
            v = copied_value(todo.pop(0))
            if id(v) in seen or not isinstance(v, OpResult):
                continue
            seen.add(id(v))
            op = v.op
            if op.name == "arith.cmpi":
                pred = _predicate(op)
                lhs, rhs = op.operands
                if pred is None or lhs not in self.types or rhs not in self.types:
                    continue
                lt, rt = self.t(lhs).term, self.t(rhs).term
                if z3.is_bv(lt) and z3.is_bv(rt) and lt.size() == rt.size():
                    atoms.append(Atom(pred, lt, rt, (self.name(lhs), self.name(rhs))))
                continue
            if op.name in _BOOLEAN_WALK:
                disjunctive |= op.name != "arith.andi"
                todo.extend(op.operands)
        return atoms, disjunctive

    @staticmethod
    def cond_term_bool(term: z3.ExprRef) -> z3.BoolRef:
        return term if z3.is_bool(term) else term != 0
