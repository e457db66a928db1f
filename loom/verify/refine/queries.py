"""The refinement check's queries: pairing the DFG's loops with the source's, the facts each query assumes (loop
levels, contexts, exit axioms) and ``prove`` (``loom.verify.refine.check``)."""

from __future__ import annotations

from typing import Optional

import z3

from loom.verify.refine.model import Frame
from loom.verify.solve import conjunction, substitute_all
from loom.verify.refine.pairs import LoopPair, _at_init, _bound


class RefinementQueries:
    """Loop pairing, assumptions and proving of ``Refinement`` (its state is set by ``Refinement.__init__``)."""

    def pair_loops(self) -> None:
        by_loc: dict[object, list[Frame]] = {}
        for f in self.dfg.frames:
            by_loc.setdefault((f.loc, f.kind), []).append(f)
        for s in sorted(self.scf.frames, key=lambda f: f.depth):
            cands = by_loc.get((s.loc, s.kind), [])
            parent = self.pairs.get(s.parent) if s.parent is not None else None
            if s.parent is not None and parent is None:
                self.unpaired.append((s, "its enclosing loop has no DFG counterpart"))
                continue
            cands = [d for d in cands if (d.parent is None) == (s.parent is None)
                     and (parent is None or d.parent is parent.d)]
            if len(cands) > 1:  # copies of one inlined C loop share a source position; the op's own location
                exact = [d for d in cands if str(d.op.loc) == str(s.op.loc)]  # (the SCF line) tells them apart
                cands = exact if len(exact) == 1 else cands
            if len(cands) != 1:
                why = "no DFG loop" if not cands else f"{len(cands)} DFG loops"
                self.unpaired.append((s, f"{why} carries its source location"))
                continue
            lp = LoopPair(cands[0], s, parent)
            self.pairs[s] = self.pairs[cands[0]] = lp
        for d in self.dfg.frames:
            if d not in self.pairs:
                self.unpaired.append((d, "no source loop at its location"))

    def loop_pairs(self) -> list[LoopPair]:
        out = list(dict.fromkeys(self.pairs.values()))
        return sorted(out, key=lambda p: p.s.depth)

    def level(self, lp: LoopPair, phase: str) -> list[z3.BoolRef]:
        """What holds at a generic iteration of a pair of loops (in the given phase)."""
        facts: list[z3.BoolRef] = [lp.d.pc, lp.s.pc]
        facts += [r.holds(r.a.sym, r.b.sym) for r in lp.relation]
        facts += [_bound(sv, kind, sv.sym) for sv, kind in lp.bounds]
        if phase == "body":
            for f in (lp.d, lp.s):
                if f.cont is not None:
                    facts.append(f.cont)
                    first = _at_init(f, f.cont)
                    if first is not None:
                        facts.append(first)
        return facts

    def context(self, lp: Optional[LoopPair], phase: str = "body") -> list[z3.BoolRef]:
        """Facts of every loop pair from the top down to ``lp`` (``lp`` in ``phase``; each enclosing loop in
        the phase ``lp`` sits in: a loop in a while's before-region runs in its raw phase)."""
        if lp is None:
            return []
        return self.outer(lp) + self.level(lp, phase)

    def outer(self, lp: LoopPair) -> list[z3.BoolRef]:
        """Facts of the loops enclosing ``lp``, each in the phase the source loop sits in."""
        out: list[z3.BoolRef] = []
        for fs, phase in lp.s.outer:
            p = self.pairs.get(fs)
            if p is not None:
                out += self.level(p, phase)
        return out

    def axioms(self, lp: LoopPair) -> list[z3.BoolRef]:
        """Exit values of a loop pair, each guarded by the context it was proved in: related state is
        equal at the exit when both sides run the loop, plus what each side's loop says on its own."""
        outer = self.outer(lp)
        out: list[z3.BoolRef] = []
        if lp.relation:
            guard = conjunction([*outer, lp.d.pc, lp.s.pc])
            out.append(z3.Implies(guard, conjunction([r.holds(r.a.exit, r.b.exit) for r in lp.relation])))
        out += self.side_axioms(lp.d, outer, self.owned(lp.d))
        out += self.side_axioms(lp.s, outer, self.owned(lp.s))
        return out

    def owned(self, f: Frame) -> set[str]:
        """Names of the symbols that belong to loop ``f``'s iterations (its state, reads, inner loops)."""
        return (self.dfg if f.side == "dfg" else self.scf).owned.get(f, set())

    def side_axioms(self, f: Frame, outer: list[z3.BoolRef], owned: set[str]) -> list[z3.BoolRef]:
        """Exit values of one loop whenever ``outer`` holds and it is activated: a state variable it passes
        through unchanged exits with its initial value; otherwise, with no iteration, the initial value,
        and after at least one, the value every iteration yields when that value reads nothing of the loop."""
        guard = conjunction([*outer, f.pc])
        first = _at_init(f, f.cont) if f.cont is not None else None
        out: list[z3.BoolRef] = []
        for sv in f.state:
            if sv.init is None:
                continue
            if sv.next is not None and sv.next.eq(sv.sym):
                out.append(z3.Implies(guard, sv.exit == sv.init))
                continue
            if first is None:
                continue
            out.append(z3.Implies(z3.And(guard, z3.Not(first)), sv.exit == sv.init))
            if sv.next is not None and not (self.constants(sv.next) & owned):
                out.append(z3.Implies(z3.And(guard, first), sv.exit == sv.next))
        return out

    def with_axioms(self, facts: list[z3.BoolRef]) -> list[z3.BoolRef]:
        """``facts`` plus the exit axioms of every loop whose exit values they mention (transitively)."""
        if self._exits is None:
            self._exits = {}
            for lp in self.loop_pairs():
                for f in (lp.d, lp.s):
                    for sv in f.state:
                        self._exits[sv.exit.decl().name()] = lp
            for f, _ in self.unpaired:
                for sv in f.state:
                    self._exits.setdefault(sv.exit.decl().name(), f)
        out = list(facts)
        done: set[int] = set()
        todo = list(facts)
        while todo:
            names: set[str] = set()
            for t in todo:
                names |= self.constants(t)
            todo = []
            for n in sorted(names):
                owner = self._exits.get(n)
                if owner is None or id(owner) in done:
                    continue
                done.add(id(owner))
                ax = self.axioms(owner) if isinstance(owner, LoopPair) else self.side_axioms(
                    owner, self.side_context(owner.outer), self.owned(owner))
                out += ax
                todo += ax
        return out

    def prove(self, facts: list[z3.BoolRef], goal: z3.BoolRef):
        """Check ``facts => goal``. A DFG state symbol that a fact equates to a source term is replaced by
        that term everywhere first (the query stays equivalent: the equality is kept), so the two sides'
        copies of one computation become the same Z3 term and cancel before any bit-blasting."""
        subst: dict[int, tuple] = {}
        for f in facts:
            if z3.is_eq(f):
                lhs, rhs = f.arg(0), f.arg(1)
                if (z3.is_const(lhs) and lhs.decl().kind() == z3.Z3_OP_UNINTERPRETED
                        and lhs.decl().name().startswith("dfg:") and lhs.get_id() not in subst):
                    subst[lhs.get_id()] = (lhs, rhs)
        query = facts + [z3.Not(goal)]
        if self.values.lemmas:  # the division lemmas about terms this query can mention
            names: set[str] = set()
            for q in query:
                names |= self.constants(q)
            query += [lem for lem in self.values.lemmas if self.constants(lem) <= names]
        if subst:
            pairs = list(subst.values())
            query = substitute_all(query, pairs)
            query = [q for q in query if not z3.is_true(q)] + [a == b for a, b in pairs]
        query = self.with_axioms(query)
        key = tuple(q.get_id() for q in query)
        got = self._answers.get(key)
        if got is None:
            got = self._answers[key] = self.session.check(query)
            self._alive.append(query)  # keep the terms (and so their ids) alive while the key is cached
        return got
