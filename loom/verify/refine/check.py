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
from typing import Optional

import z3

from loom.diagnostics import LoomError
from loom.ir.core import Operation
from loom.mlir import value_names
from loom.ir.types import IndexType, IntegerType
from loom.verify.ids import numbered, oid as obligation_id
from loom.verify.lengths.values import symbol
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.refine.dfg import DfgModel
from loom.verify.refine.model import Ctx, Event, Frame, TermValues, Unsupported, source_position
from loom.verify.refine.scf import ScfModel
from loom.verify.assume import to_z3
from loom.verify.solve import QueryResult, QuerySession
from loom.verify.memory.structure import Layout, memory_layout
from loom.verify.refine.pairs import KIND, _RULE, LoopPair, _at, _at_init, _Constants, _event_order
from loom.verify.refine.evidence import RefinementEvidence
from loom.verify.refine.relations import RefinementRelations


class Refinement(RefinementRelations, RefinementEvidence):
    """One run of the check over one (DFG, source) pair: queries and loop pairing (``RefinementQueries``), loop
    relations (``RefinementRelations``), reporting (``RefinementEvidence``); the loop and event checks here."""

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
                     layout: Optional[Layout] = None, structured: Optional[Operation] = None) -> list[Obligation]:
    """The refinement obligations of ``func`` against its SCF ``source`` (none without a source); ``layout``
    and ``structured`` (``_structured(source)``) when the caller has them."""
    if source is None:
        return []
    t0 = time.perf_counter()
    model_source = structured if structured is not None else _structured(source)
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
    for o, text in zip(r.obligations, numbered([o.id for o in r.obligations])):
        o.id = text  # the copies of an inlined loop share its C position: refine.loop@5:3.cond, ...cond#2
    return r.obligations


_UNSTRUCTURED = ("func.call", "memref.copy")


def _structured(source: Operation) -> Operation:
    """The function the lowering lowers (calls inlined, a CFG lifted to scf, copies expanded, dynamically sized
    scratch buffers made arguments the host allocates) when ``source`` needs that; ``source`` itself otherwise.
    Refutations still replay the function as written."""
    from loom.lower.host_alloc import host_buffers

    if not any(op.name in _UNSTRUCTURED or op.dialect == "cf" for op in source.walk()) and not host_buffers(source):
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


__all__ = ["Refinement", "check_refinement"]

