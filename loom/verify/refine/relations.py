"""The refinement check's loop relations: the greatest inductive set of state equalities of each loop pair, by
Houdini (``loom.verify.refine.check``)."""

from __future__ import annotations


import z3

from loom.verify.refine.pairs import LoopPair, _bound, _candidates
from loom.verify.refine.queries import RefinementQueries


class RefinementRelations(RefinementQueries):
    """``relate``: the state relation of every loop pair (Houdini), on top of the queries."""

    def relate(self) -> None:
        """Houdini over every loop pair at once (an enclosing loop's relation may need its inner loops'
        exit axioms). A candidate's constant offset is read through the enclosing loops' candidate
        relations; with several candidates for one DFG symbol, each reading gives its own candidate."""
        pairs = self.loop_pairs()
        options: dict[int, list[tuple]] = {}  # DFG state symbol id -> [(symbol, source term)], outside in
        for lp in pairs:
            views = [[opts[min(j, len(opts) - 1)] for opts in options.values()]
                     for j in range(min(4, max((len(o) for o in options.values()), default=1)))]
            for a in lp.d.state:
                for b in lp.s.state:
                    if a.init is None or b.init is None:
                        continue
                    seen: set[str] = set()
                    for view in views:
                        for rel in _candidates(a, b, view):
                            if rel.text not in seen:
                                seen.add(rel.text)
                                lp.relation.append(rel)
            for r in lp.relation:  # read later loops' initial values through this one's state and exits
                options.setdefault(r.a.sym.get_id(), []).append((r.a.sym, r.holds(r.a.sym, r.b.sym).arg(1)))
                options.setdefault(r.a.exit.get_id(), []).append((r.a.exit, r.holds(r.a.exit, r.b.exit).arg(1)))
            for f in (lp.d, lp.s):  # induction variables only: what unsigned and widened loops need
                sv = f.state[0] if f.kind == "for" and f.state else None
                if sv is not None and sv.init is not None and sv.next is not None and z3.is_bv(sv.sym):
                    lp.bounds += [(sv, "sge"), (sv, "uge")]
        self._houdini(pairs)
        # again, reading initial values through the relations as pruned: an offset that only shows once
        # the right one of several candidates is known (e.g. a biased IV starting at an earlier loop's result)
        for _ in range(3):
            exact: list[tuple] = []
            for lp in pairs:
                for r in lp.relation:
                    exact.append((r.a.sym, r.holds(r.a.sym, r.b.sym).arg(1)))
                    exact.append((r.a.exit, r.holds(r.a.exit, r.b.exit).arg(1)))
            first = list({a.get_id(): (a, b) for a, b in reversed(exact)}.values())
            added = False
            for lp in pairs:
                have = {r.text for r in lp.relation} | set(lp.dropped)
                for a in lp.d.state:
                    for b in lp.s.state:
                        if a.init is not None and b.init is not None:
                            for rel in _candidates(a, b, first):
                                if rel.text not in have:
                                    have.add(rel.text)
                                    lp.relation.append(rel)
                                    added = True
                added |= self._offset_from_model(lp, have)
            if not added:
                break
            self._houdini(pairs)

    def _offset_from_model(self, lp: LoopPair, have: set[str]) -> bool:
        """Two for loops whose induction variables are still unrelated: take the offset between their
        start values from one model of the enclosing context (Houdini then checks it like any other).
        Catches starts that are equal only through facts, e.g. two exits known equal by an axiom."""
        if lp.d.kind != "for" or lp.s.kind != "for" or not lp.d.state or not lp.s.state:
            return False
        a, b = lp.d.state[0], lp.s.state[0]
        if any(r.a is a and r.b is b for r in lp.relation) or a.init is None or b.init is None:
            return False
        if not (z3.is_bv(a.sym) and z3.is_bv(b.sym)) or a.sym.size() < b.sym.size():
            return False
        added = False
        for rel in (_candidates(a, b, []) or []):
            diff = a.init - rel.holds(a.init, b.init).arg(1)
            res = self.session.check(self.with_axioms(self.outer(lp) + [lp.d.pc, lp.s.pc]))
            if res.status != "sat" or res.model is None:
                continue
            off = res.model.eval(diff, model_completion=True)
            if not z3.is_bv_value(off):
                continue
            rel.offset = off if off.as_long() != 0 else None
            if rel.text not in have:
                have.add(rel.text)
                lp.relation.append(rel)
                added = True
        return added

    def _houdini(self, pairs: list[LoopPair]) -> None:
        """Drop every candidate whose initial or next-iteration instance is not implied by the rest."""
        changed = True
        while changed:
            changed = False
            for lp in pairs:
                keep = []
                outer = self.outer(lp) + [lp.d.pc, lp.s.pc]
                for rel in lp.relation:
                    a, b = rel.a, rel.b
                    ok = self.prove(outer, rel.holds(a.init, b.init)).status == "unsat"
                    if ok:
                        ok = a.next is not None and b.next is not None and self.prove(
                            self.context(lp), rel.holds(a.next, b.next)).status == "unsat"
                    if ok:
                        keep.append(rel)
                    else:
                        changed = True
                        lp.dropped.append(rel.text)
                lp.relation = keep
                kept = []
                for sv, kind in lp.bounds:
                    assert sv.next is not None
                    if self.prove(self.context(lp), _bound(sv, kind, sv.next)).status == "unsat":
                        kept.append((sv, kind))
                    else:
                        changed = True
                lp.bounds = kept
