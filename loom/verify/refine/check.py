"""Refinement: the DFG computes what its SCF source computes, for every trip count and branch outcome.

Translation validation by a simulation relation. Both sides are evaluated
symbolically at a *generic* iteration of every loop (``refine_scf``,
``refine_dfg``); loops and memory accesses are paired by the source location
the lowering keeps on the ops. For each pair of loops a relation between their
state variables (DFG carries / stream index vs. the source's induction variable
and iter_args) is found as the greatest inductive set of equalities (Houdini:
start from every same-sorted pair, drop a pair whose initial values or
next-iteration values cannot be proved equal assuming the rest, repeat). Under
that relation the obligations are:

* ``refine.loop@L:C.cond``: the DFG loop continues exactly when the source loop does
  (so both run the same number of iterations in every activation);
* ``refine.loop@L:C.activation``: the DFG starts the loop whenever the source runs at
  least one iteration of it, and never runs an iteration the source does not;
* ``refine.load@L:C`` / ``refine.store@L:C``: the access runs under the same
  condition, in the same loop nest, at the same address (and stores the same value);
* ``refine.result<k>``: the returned values are equal.

Every query is discharged by Z3 on bit-vectors (integer ops exact), with floats,
division and math as uninterpreted functions (the lowering never rewrites them),
and loaded values shared by the two sides -- sound because the address
obligations prove the same cells are read and the memory-order obligations prove
that stores reach memory in program order. Loop exit values are related by
axioms that hold whenever the relation is inductive and the continue conditions
agree; each axiom is guarded by the conditions under which it was proved.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

import z3

from loom.diagnostics import LoomError
from loom.ir.core import Operation
from loom.mlir import value_names
from loom.ir.types import IndexType, IntegerType, MemRefType
from loom.verify.ids import oid as obligation_id
from loom.verify.lengths.values import symbol
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.refine.dfg import DfgModel
from loom.verify.refine.model import Ctx, Event, Frame, StateVar, TermValues, Unsupported, dim_term, source_position
from loom.verify.refine.scf import ScfModel
from loom.verify.assume import to_z3
from loom.verify.solve import QueryResult, QuerySession, conjunction, substitute_all
from loom.verify.memory.structure import Layout, memory_layout

KIND = "refinement"
MAX_CELL = 1 << 16  # a witness address at or above this is not used to size a replay's buffer


@dataclass(eq=False)
class Rel:
    """A candidate relation between a DFG and a source state variable: ``dfg == source + offset``
    (the lowering may bias an index, e.g. an unsigned loop's stream runs 2^63 above the source's IV)."""

    a: StateVar
    b: StateVar
    offset: Optional[z3.ExprRef] = None
    widen: str = ""  # "sext" / "zext": the DFG value is the source's, extended (a narrow IV on an index stream)

    def holds(self, x: z3.ExprRef, y: z3.ExprRef) -> z3.BoolRef:
        if self.widen:
            extra = x.size() - y.size()
            y = z3.SignExt(extra, y) if self.widen == "sext" else z3.ZeroExt(extra, y)
        return x == (y if self.offset is None else y + self.offset)

    @property
    def text(self) -> str:
        off = "" if self.offset is None else f" + {_fmt(self.offset)}"
        rhs = f"{self.widen}({self.b.name})" if self.widen else self.b.name
        return f"{self.a.name}={rhs}{off}"


@dataclass(eq=False)
class LoopPair:
    """A DFG loop and the source loop it was lowered from, with their state relation."""

    d: Frame
    s: Frame
    parent: Optional["LoopPair"]
    relation: list[Rel] = field(default_factory=list)
    bounds: list[tuple[StateVar, str]] = field(default_factory=list)  # (state var, "sge"/"uge"): never below its start
    dropped: list[str] = field(default_factory=list)


_RULE = "identical terms (the symbolic evaluation makes both sides the same term)"


class Refinement:
    """One run of the check over one (DFG, source) pair."""

    def __init__(self, func: Operation, source: Operation, ctx: VerifyContext, layout: Layout) -> None:
        self.ctx = ctx
        self.values = TermValues()
        self.names = value_names(func)
        self.scf = ScfModel(source, self.values, value_names(source))
        self.dfg = DfgModel(func, self.values, layout, self.names)
        self.session = QuerySession(ctx.limit, ctx.want_smt2, [to_z3(ctx.assumptions, self._argument)], ctx.rlimit)
        self.labels = {**self.scf.labels, **self.dfg.labels}
        self.pairs: dict[Frame, LoopPair] = {}  # both sides' frames -> their pair
        self.unpaired: list[tuple[Frame, str]] = []
        self.obligations: list[Obligation] = []
        self._exits: Optional[dict[str, object]] = None  # exit symbol -> the loop (pair) that defines it
        self.constants = _Constants()
        self._relevant: Optional[set[str]] = None
        self._answers: dict[tuple, QueryResult] = {}
        self._alive: list = []

    def _argument(self, name: str) -> Optional[z3.ExprRef]:
        """The source's constant for integer argument ``name`` (None: not an integer argument)."""
        from loom.runtime import function_arg_names

        func = self.scf.func
        for a, n in zip(func.regions[0].entry.args, function_arg_names(func)):
            if n == name and isinstance(a.type, (IndexType, IntegerType)):
                return z3.Const(symbol(f"arg:{n}"), self.values.sort(a.type))
        return None

    # ------------------------------------------------------------------ pairing
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

    # ------------------------------------------------------------------ assumptions
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

    # ------------------------------------------------------------------ relations (Houdini)
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

    # ------------------------------------------------------------------ obligations
    def emit(self, oid: str, goal_facts: list[z3.BoolRef], goal: z3.BoolRef, loc, what: str,
             show: dict[str, tuple]) -> None:
        t0 = time.perf_counter()
        r = self.prove(goal_facts, goal)
        secs = time.perf_counter() - t0
        if r.status == "unsat":
            self.obligations.append(Obligation(oid, KIND, "proved", secs, what, None, loc, r.smt2 or None,
                                               method=r.method, rule=_RULE if r.trivial else ""))
            return
        if r.status != "sat":
            self.obligations.append(Obligation(oid, KIND, "unknown", secs, f"{what}: solver gave up ({r.reason})",
                                               None, loc, r.smt2 or None))
            return
        cex = self.counterexample(r.model, goal_facts, show)
        shown = ", ".join(f"{k}: {v}" for k, v in cex["terms"].items())
        vals = ", ".join(f"{k} = {v}" for k, v in list(cex["values"].items())[:8])
        detail = f"NOT {what}: {shown}" + (f" when {vals}" if vals else "")
        self.obligations.append(Obligation(oid, KIND, "refuted", secs, detail, cex, loc, r.smt2 or None,
                                           nature="behaviour"))

    def counterexample(self, model, facts, show: dict[str, tuple]) -> dict:
        terms = {}
        for label, (term,) in show.items():
            try:
                terms[label] = _fmt(model.eval(term, model_completion=True))
            except z3.Z3Exception:
                terms[label] = "?"
        names: set[str] = set()
        for t in [*facts, *[t for (t,) in show.values()]]:
            names |= self.constants(t)
        values = {}
        for d in model.decls() if model is not None else []:
            n = d.name()
            if n in names and n in self.labels and d.arity() == 0:
                v = model[d]
                if z3.is_bv_value(v) or z3.is_true(v) or z3.is_false(v):  # not the solver's names of floats
                    values[self.labels[n]] = _fmt(v)
        return {"terms": terms, "values": dict(sorted(values.items())), "arguments": self.arguments(model),
                **self.memory(model, names)}

    def memory(self, model, names: set[str]) -> dict:
        """``{"memory": {arg: [cell, ...]}}``: the cells of memref arguments the witness reads -- every source
        load whose value symbol the query mentions, ``{"address", "value"}`` (the linear offset into the
        argument and the value read, both from the model) -- and writes (every source store, ``{"address"}``),
        so the replay can size the buffers and fill them so those loads read the witness's values; {} when
        the witness names no cell (float loads are uninterpreted: their values are no numbers)."""
        from loom.verify.refine.model import load_symbol

        out: dict[str, list[dict]] = {}
        if model is None:
            return {}
        for ev in self.scf.events:
            if ev.kind not in ("load", "store") or ev.addr is None or not ev.root.startswith("arg:"):
                continue
            addr = model.eval(ev.addr, model_completion=True)
            if not z3.is_bv_value(addr) or addr.as_long() >= MAX_CELL:
                continue
            cell: dict = {"address": addr.as_long()}
            if ev.kind == "load":
                sym = load_symbol(self.values, ev.key, ev.op.results[0].type)
                if sym.decl().name() not in names:
                    continue
                v = model.eval(sym, model_completion=True)
                if z3.is_bv_value(v):
                    cell["value"] = v.as_signed_long()
                elif z3.is_true(v) or z3.is_false(v):
                    cell["value"] = int(z3.is_true(v))
                else:
                    continue
                cell["load"] = f"{ev.key.line}:{ev.key.col}"
            cells = out.setdefault(ev.root[len("arg:"):], [])
            if cell not in cells:
                cells.append(cell)
        return {"memory": out} if out else {}

    def arguments(self, model) -> dict:
        """The function arguments the counterexample picks: scalars, and memref sizes as ``name.dimK``
        (the shape of ``loom sim`` inputs that replay it)."""
        out: dict = {}
        if model is None:
            return out
        from loom.runtime import function_arg_names

        for a, n in zip(self.scf.func.regions[0].entry.args, function_arg_names(self.scf.func)):
            if isinstance(a.type, MemRefType):
                for k in range(a.type.rank):
                    if a.type.shape[k] is None:
                        v = model.eval(dim_term(self.values, f"arg:{n}", a.type, k), model_completion=True)
                        if z3.is_bv_value(v):
                            out[f"{n}.dim{k}"] = v.as_signed_long()
                continue
            v = model.eval(z3.Const(symbol(f"arg:{n}"), self.values.sort(a.type)), model_completion=True)
            if z3.is_bv_value(v):
                out[n] = v.as_signed_long()
            elif z3.is_true(v) or z3.is_false(v):
                out[n] = int(z3.is_true(v))
        return out

    def unknown(self, oid: str, why: str, loc) -> None:
        self.obligations.append(Obligation(oid, KIND, "unknown", 0.0, why, None, loc, method="none"))

    def check_loops(self) -> None:
        for f, why in self.unpaired:
            if f.side != "scf" or self.irrelevant(f):
                continue
            first = _at_init(f, f.cont) if f.cont is not None else None
            oid = obligation_id("refine.at", "loop", _at(f))
            if first is None:
                self.unknown(oid, f"{f.name} cannot be related to the DFG: {why}", f.op.loc)
                continue
            t0 = time.perf_counter()
            r = self.prove(self.side_context(f.outer), z3.Not(z3.And(f.pc, first)))
            if r.status == "unsat":
                self.obligations.append(Obligation(oid, KIND, "proved", time.perf_counter() - t0,
                                                   f"{f.name} never runs an iteration (the DFG has no loop for it)",
                                                   None, f.op.loc, r.smt2 or None, method=r.method,
                                                   rule=_RULE if r.trivial else ""))
            elif self.determined(f):
                self.obligations.append(Obligation(
                    oid, KIND, "proved", time.perf_counter() - t0,
                    f"{f.name} needs no DFG loop: each result anything reads is its start value or the one "
                    "value every iteration yields (the obligations reading it check that value)", None, f.op.loc,
                    method="typing rule", rule="loop result determined by its start value"))
            else:
                self.unknown(oid, f"{f.name} cannot be related to the DFG: {why}", f.op.loc)
        for lp in self.loop_pairs():
            s, d = lp.s, lp.d
            oid = obligation_id("refine.at", "loop", _at(s))
            rel = ", ".join(r.text for r in lp.relation) or "nothing"
            if s.cont is None or d.cont is None:
                self.unknown(obligation_id("refine.loop", "", _at(s), "cond"),
                             f"no continue condition for {s.name}: {s.why_not or d.why_not}", s.op.loc)
            else:
                raw = self.context(lp, "raw")
                self.emit(obligation_id("refine.loop", "", _at(s), "cond"), raw, s.cont == d.cont, s.op.loc,
                          f"the DFG loop continues exactly when {s.name} does (state related: {rel})",
                          {"DFG continues": (d.cont,), "source continues": (s.cont,)})
            outer = self.outer(lp)
            fd = _at_init(d, d.cont) if d.cont is not None else None
            fs = _at_init(s, s.cont) if s.cont is not None else None
            if d.raw_events or s.raw_events:
                goal = d.pc == s.pc
            elif fd is None or fs is None:
                self.unknown(obligation_id("refine.loop", "", _at(s), "activation"),
                             f"the first continue condition of {s.name} is not known", s.op.loc)
                continue
            else:
                goal = z3.And(z3.Implies(z3.And(d.pc, fd), s.pc), z3.Implies(z3.And(s.pc, fs), d.pc))
            self.emit(obligation_id("refine.loop", "", _at(s), "activation"), outer, goal, s.op.loc,
                      f"the DFG runs {s.name} whenever the source runs an iteration of it, and only then",
                      {"DFG starts it": (d.pc,), "source starts it": (s.pc,)})

    def irrelevant(self, f: Frame) -> bool:
        """A source loop none of whose results (nor those of loops inside it) reaches anything observable
        (the lowering may drop such a loop; the accesses inside it are obligations of their own, which
        must then show they never run). Refinement is partial correctness: termination is the length and
        BMC obligations' business."""
        inside = lambda ctx: any(g is f for g, _ in ctx)  # noqa: E731
        exits = {sv.exit.decl().name() for g in self.scf.frames if g is f or inside(g.outer) for sv in g.state}
        return not (exits & self.relevant())

    def determined(self, f: Frame) -> bool:
        """Every result of source loop ``f`` that matters is fixed by ``side_axioms`` whenever the loop
        runs (passed through unchanged, or the same value in every iteration), and no loop inside it
        has results that matter."""
        names = self.relevant()
        owned = self.owned(f)
        if f.cont is None or _at_init(f, f.cont) is None:
            return False  # the axioms need the first continue condition
        for g in self.scf.frames:
            if g is not f and any(h is f for h, _ in g.outer):
                if any(sv.exit.decl().name() in names for sv in g.state):
                    return False
        for sv in f.state:
            if sv.exit.decl().name() not in names:
                continue
            if sv.next is None:
                return False
            if not (sv.next.eq(sv.sym) or not (self.constants(sv.next) & owned)):
                return False
        return True

    def relevant(self) -> set[str]:
        """Source symbols something observable depends on: the events' conditions, addresses and values
        and every loop's activation and continue condition, closed under the state variables' initial and
        next values (a state variable nothing observable reads, and the loop results feeding only it, are
        not relevant). Terms are simplified first (``x - x`` reads nothing)."""
        if self._relevant is not None:
            return self._relevant
        names: set[str] = set()
        for e in self.scf.events:
            for t in (e.pc, e.addr, e.value):
                if t is not None:
                    names |= self.constants(z3.simplify(t))
        for g in self.scf.frames:
            for t in (g.pc, g.cont):
                if t is not None:
                    names |= self.constants(z3.simplify(t))
        grew = True
        while grew:
            grew = False
            for g in self.scf.frames:
                for sv in g.state:
                    if sv.sym.decl().name() in names or sv.exit.decl().name() in names:
                        for t in (sv.init, sv.next):
                            if t is not None:
                                more = self.constants(z3.simplify(t)) - names
                                if more:
                                    names |= more
                                    grew = True
        self._relevant = names
        return names

    def check_events(self) -> None:
        src: dict[tuple, list[Event]] = {}
        for e in self.scf.events:
            src.setdefault((e.kind, e.key), []).append(e)
        dfg: dict[tuple, list[Event]] = {}
        for e in self.dfg.events:
            dfg.setdefault((e.kind, e.key), []).append(e)
        for e in self.scf.events + self.dfg.events:
            if e.ctx and e.ctx[-1][1] == "raw":
                e.ctx[-1][0].raw_events = True
                if e.ctx[-1][0] in self.pairs:
                    lp = self.pairs[e.ctx[-1][0]]
                    lp.d.raw_events = lp.s.raw_events = True
        for key in sorted(set(src) | set(dfg), key=_event_order):
            ss, ds = src.get(key, []), dfg.get(key, [])
            kind = key[0]
            oid = (obligation_id("refine.result", "", None, key[1]) if kind == "result"
                   else obligation_id("refine.at", kind, (key[1].line, key[1].col)))
            loc = ss[0].op.loc if ss else ds[0].op.loc
            if len(ss) > 1 or len(ds) > 1:
                self.unknown(oid, f"{len(ss)} source and {len(ds)} DFG {kind}s share this location", loc)
                continue
            if not ds:
                if not ss[0].dead:  # a load nothing reads the value of has no effect to preserve
                    self.missing(oid, ss[0], "the DFG never performs it", loc)
                continue
            if not ss:
                self.missing(oid, ds[0], "the source has no such access", loc)
                continue
            self.compare(oid, ss[0], ds[0], loc)

    def missing(self, oid: str, e: Event, why: str, loc) -> None:
        """An event only one side has: fine only if it can never happen."""
        if e.why_not or e.pc is None:
            self.unknown(oid, f"{e.kind} at {loc}: {why}, and its condition is unknown ({e.why_not})", loc)
            return
        facts = self.side_context(e.ctx)
        self.emit(oid, facts, z3.Not(e.pc), loc, f"the {e.kind} never runs ({why})", {"runs": (e.pc,)})

    def side_context(self, ctx: Ctx) -> list[z3.BoolRef]:
        """What holds at a generic iteration of ``ctx`` on one side alone."""
        out: list[z3.BoolRef] = []
        for f, phase in ctx:
            out.append(f.pc)
            if phase == "body" and f.cont is not None:
                out.append(f.cont)
                first = _at_init(f, f.cont)
                if first is not None:
                    out.append(first)
        return out

    def compare(self, oid: str, s: Event, d: Event, loc) -> None:
        why = s.why_not or d.why_not
        if why or s.pc is None or d.pc is None:
            self.unknown(oid, f"cannot relate the {s.kind}: {why or 'unknown firing condition'}", loc)
            return
        lp, bad = self.common_context(s.ctx, d.ctx)
        if bad:
            self.emit_refuted(oid, f"the DFG runs the {s.kind} {bad}", loc)
            return
        phase = s.ctx[-1][1] if s.ctx else "body"
        facts = self.context(lp, phase) if lp is not None else []
        parts = [s.pc == d.pc]
        show: dict[str, tuple] = {"DFG runs it": (d.pc,), "source runs it": (s.pc,)}
        what = "runs under the same condition"
        if s.kind in ("load", "store"):
            if s.root != d.root and (s.root.startswith("arg:") or d.root.startswith("arg:")):
                self.emit_refuted(oid, f"the DFG accesses {d.root} where the source accesses {s.root}", loc)
                return
            parts.append(z3.Implies(s.pc, s.addr == d.addr))
            show.update({"DFG address": (d.addr,), "source address": (s.addr,)})
            what += ", at the same address"
        if s.kind in ("store", "result"):
            parts.append(z3.Implies(s.pc, s.value == d.value))
            show.update({"DFG value": (d.value,), "source value": (s.value,)})
            what += ", with the same value"
        label = f"{s.kind} at {loc.line}:{loc.col}" if s.kind != "result" else f"result #{s.key}"
        self.emit(oid, facts, z3.And(*parts), loc, f"the {label} {what} as in the source", show)

    def emit_refuted(self, oid: str, why: str, loc) -> None:
        self.obligations.append(Obligation(oid, KIND, "refuted", 0.0, why, {"reason": why}, loc, method="graph",
                                           rule="access pairing by source location", nature="behaviour"))

    def common_context(self, sctx: Ctx, dctx: Ctx) -> tuple[Optional[LoopPair], str]:
        if len(sctx) != len(dctx):
            return None, f"in {len(dctx)} nested loop(s) where the source has {len(sctx)}"
        lp = None
        for (fs, ps), (fd, pd) in zip(sctx, dctx):
            p = self.pairs.get(fs)
            if p is None or p.d is not fd:
                return None, f"in a different loop than {fs.name}"
            if ps != pd:
                return None, f"in the {pd} phase of {fs.name} (the source: {ps})"
            lp = p
        return lp, ""


def check_refinement(func: Operation, ctx: VerifyContext, source: Optional[Operation] = None,
                     layout: Optional[Layout] = None) -> list[Obligation]:
    """The refinement obligations of ``func`` against its SCF ``source`` (none without a source)."""
    if source is None:
        return []
    t0 = time.perf_counter()
    model_source = _structured(source)
    files = {source_position(op.loc).file for op in source.walk()}
    if not any(source_position(op.loc).file in files for op in func.regions[0].entry.ops):
        return [Obligation("refine.model", KIND, "unknown", 0.0,
                           f"the DFG carries no location in {sorted(files)[0]}: write it with `loom compile "
                           "--debug-info` to check it against its source", None, func.loc, method="none")]
    try:
        r = Refinement(func, model_source, ctx, layout if layout is not None else memory_layout(func))
    except Unsupported as e:
        loc = e.op.loc if e.op is not None else func.loc
        return [Obligation("refine.model", KIND, "unknown", time.perf_counter() - t0,
                           f"the DFG cannot be related to its source: {e.reason}", None, loc, method="none")]
    r.pair_loops()
    r.relate()
    r.check_events()
    r.check_loops()
    confirm(r.obligations, source, func)  # replayed against the function as written
    return r.obligations


_UNSTRUCTURED = ("func.call", "memref.copy")


def _structured(source: Operation) -> Operation:
    """The function the lowering lowers (calls inlined, a CFG lifted to scf, copies expanded) when
    ``source`` needs that; ``source`` itself otherwise. Refutations still replay the function as written."""
    if not any(op.name in _UNSTRUCTURED or op.dialect == "cf" for op in source.walk()):
        return source
    parent = source.parent_op
    if parent is None:
        return source
    from loom.ir.core import Module
    from loom.lower.function import structured_kernel

    try:
        return structured_kernel(Module(parent), source.attributes["sym_name"].value)
    except LoomError:
        return source


def confirm(obligations: list[Obligation], source: Operation, func: Operation) -> None:
    """Keep a refutation only when running both programs on the witness's inputs shows a difference;
    otherwise the witness may be an unreachable state and the verdict is "unknown" (``refine_replay``)."""
    from loom.verify.refine.replay import replay

    seen: dict[str, Optional[dict]] = {}
    for ob in obligations:
        if ob.status != "refuted":
            continue
        args = (ob.counterexample or {}).get("arguments", {})
        key = repr(sorted(args.items()))
        memory = (ob.counterexample or {}).get("memory", {})
        key = repr((key, sorted((k, repr(v)) for k, v in memory.items())))
        if key not in seen:
            seen[key] = replay(source, func, args, memory)
        diff = seen[key]
        if diff is not None:
            ob.counterexample = {**(ob.counterexample or {}), "replay": diff}
            ob.detail += f"; running both on {diff['inputs']}: {diff['why']}"
        else:
            ob.status = "unknown"
            ob.detail = ("not proved: " + ob.detail.removeprefix("NOT ") + " -- but both programs agree when run "
                         "on inputs built from it (the state may be unreachable; the loop relation found may be "
                         "too weak)")


# ---------------------------------------------------------------------------------------------- helpers


def _candidates(a: StateVar, b: StateVar, outer: list[tuple]) -> list[Rel]:
    """Relations worth trying between a DFG and a source state variable: equality (up to a constant
    offset the initial values show, reading enclosing loops' DFG state through their candidate
    relations ``outer``), or equality after sign/zero extension of a narrower source value."""
    if a.sym.sort() == b.sym.sort():
        rels = [Rel(a, b)]
    elif z3.is_bv(a.sym) and z3.is_bv(b.sym) and a.sym.size() > b.sym.size():
        rels = [Rel(a, b, None, "sext"), Rel(a, b, None, "zext")]
    else:
        return []
    if z3.is_bv(a.sym):
        for r in rels:
            assert a.init is not None and b.init is not None
            a_init = substitute_all([a.init], outer)[0] if outer else a.init
            off = z3.simplify(a_init - r.holds(a.init, b.init).arg(1))
            if z3.is_bv_value(off) and off.as_long() != 0:
                r.offset = off
    return rels


def _bound(sv: StateVar, kind: str, x: z3.ExprRef) -> z3.BoolRef:
    """``x`` is not below the state variable's value at the loop's start (signed or unsigned)."""
    assert sv.init is not None
    return x >= sv.init if kind == "sge" else z3.UGE(x, sv.init)


def _at(f: Frame) -> tuple[int, int]:
    """The source line and column of loop ``f`` (the location of its ``refine.loop@L:C`` IDs)."""
    return f.loc.line, f.loc.col


def _at_init(f: Frame, term: z3.BoolRef) -> Optional[z3.BoolRef]:
    """``term`` with the loop's state at its initial values (None if some initial value is unknown)."""
    if any(sv.init is None for sv in f.state):
        return None
    return z3.substitute(term, *f.init_subst()) if f.state else term


class _Constants:
    """Names of the uninterpreted constants of a term, memoised per AST node (queries share most terms)."""

    def __init__(self) -> None:
        self.memo: dict[int, frozenset[str]] = {}
        self.alive: list[z3.ExprRef] = []  # AST ids are reused once a term is freed: keep every term seen

    def __call__(self, term: z3.ExprRef) -> frozenset[str]:
        memo = self.memo
        self.alive.append(term)
        ctx = term.ctx_ref()
        stack = [(term.as_ast(), False)]
        while stack:
            a, expanded = stack.pop()
            i = z3.Z3_get_ast_id(ctx, a)
            if i in memo:
                continue
            if z3.Z3_get_ast_kind(ctx, a) != z3.Z3_APP_AST:
                memo[i] = frozenset()
                continue
            n = z3.Z3_get_app_num_args(ctx, a)
            if n == 0:
                d = z3.Z3_get_app_decl(ctx, a)
                uninterpreted = z3.Z3_get_decl_kind(ctx, d) == z3.Z3_OP_UNINTERPRETED
                memo[i] = frozenset([z3.Z3_get_symbol_string(ctx, z3.Z3_get_decl_name(ctx, d))]) if uninterpreted \
                    else frozenset()
                continue
            args = [z3.Z3_get_app_arg(ctx, a, k) for k in range(n)]
            if expanded:
                out: frozenset[str] = frozenset()
                for b in args:
                    out |= memo[z3.Z3_get_ast_id(ctx, b)]
                memo[i] = out
            else:
                stack.append((a, True))
                stack.extend((b, False) for b in args)
        return memo[z3.Z3_get_ast_id(ctx, term.as_ast())]


def _fmt(v) -> str:
    if z3.is_bv_value(v):
        s = v.as_signed_long()
        return str(s)
    return str(v)


def _event_order(key: tuple):
    kind, k = key
    if kind == "result":
        return (1, 0, 0, k)
    return (0, k.line, k.col, 0 if kind == "load" else 1)


__all__ = ["Refinement", "check_refinement"]
