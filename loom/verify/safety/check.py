"""Safety obligations of an SCF function: no run stops with a runtime error, for every trip count.

One obligation per ``Site`` (``loom.verify.safety.sites``), id
``safe.<op>@<line>:<col>.<what>``. Each is one Z3 query: the site's error condition
under its path condition, the facts of the loops around it (``loom.verify.safety.loops``),
the input assumptions (arguments, memref elements ``a[*]`` and sizes ``dim(a)``) and
the size facts of memref arguments. Memory contents are free unless assumed.

* unsat: **proved** -- no run reaches the op with the error condition true;
* sat: the model is turned into inputs (scalars, memref sizes, memory filled with the
  values the model's loads read), preferring small ones, and the SCF interpreter runs
  them; only when it stops with the site's runtime error *at that op* is the
  obligation **refuted**, with those inputs (``finding: input``: the fault is the
  program's, on inputs the assumptions allow);
* otherwise **unknown**, with the reason (the model did not replay, a construct the
  model does not cover, the solver's limit).
"""

from __future__ import annotations

import time
from typing import Any, Optional

import z3

from loom.ir.core import Operation
from loom.ir.types import IndexType, IntegerType, MemRefType
from loom.runtime import function_arg_names
from loom.verify.assume import dim_of, to_z3
from loom.verify.lengths.values import symbol
from loom.verify.ids import numbered
from loom.verify.inputs import DIM_CAP, describe
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.refine.model import _DIV_REM, TermValues, dim_term
from loom.verify.safety.loops import LoopFacts, nonneg_dims
from loom.verify.safety.replay import Replays
from loom.verify.safety.sites import SafetyModel, Site, memref_args
from loom.verify.safety.slicing import Query, Slicer
from loom.verify.solve import QueryResult, run_query

KIND = "safety"
ASSUMES = ("memref dimensions < 2^48",)
# from this many assertions on, a query is first asked of the unclosed slice and may take its witness from a slice
# (``SafetyCheck._ask``); a smaller one is asked as before (cheap there, and its reports keep their witnesses)
LARGE_QUERY = 128
# at most this many sites of one loop context are asked in one grouped query (``SafetyCheck._groups``): the query of
# all the sites of a large function's top level grew with the function and ran to the resource limit (three times:
# the first slice, the closed slice, the whole query), 25 s CPU each at 41,169 ops; a chunk's query stays small
GROUP_SITES = 32
# the resource units the whole queries of ``LARGE_QUERY`` assertions or more (``SafetyCheck._ask``'s last resort, when
# no slice decided) may spend together in one function, as a share of the run's per-query rlimit, split equally over
# its parts. Such a query of a large function keeps most of its division lemmas (thousands of 64-bit multiplications)
# and ran to the rlimit, ~30 s CPU each; at 50,009 ops every site whose first slice's witness did not replay asked
# two (without and with the loops' invariants), and one part ran for many minutes. A fifth: with a whole rlimit a
# part's share still went into one query (24 s CPU, unknown anyway). Deterministic, as the rlimit is.
WHOLE_QUERY_RLIMITS = 0.2
WHOLE_SPENT = "the function's resource units for large whole queries ran out"
# a whole query of more assertions than this is not asked at all (unknown, saying so): Z3 bit-blasts its thousands of
# 64-bit multiplications (the division lemmas a division by a variable keeps) before its rlimit counts much, so even
# the share above cost 15.5 s CPU for one query at 50,009 ops (4,532 assertions, unknown); none of 46,463 or 50,009
# ops' whole queries (4,166-4,532 assertions) ever decided, and 5,022 and 18,039 ops ask none. Deterministic: a count.
WHOLE_QUERY_MAX = 2_000


class SafetyValues(TermValues):
    """The refinement model's value terms, with what a bound needs of integer division by a divisor that is not
    a constant (a constant one has the refinement model's exact lemmas): the quotient and remainder stay
    uninterpreted, with the facts that hold whenever the divisor is not zero -- ``x % d < d`` and
    ``x % d <= x``, ``x / d <= x`` (unsigned), and for a non-negative dividend and positive divisor the same
    signed. Exact 64-bit division bit-blasts into queries many times slower; these facts prove the bounds
    kernels compute (``h[x % bins]``, a loop to ``n / k``), and a refutation is replayed anyway. Where the
    divisor is zero no run gets past the op: its ``divzero`` obligation stops it first."""

    FACTS = ("arith.divui", "arith.remui", "arith.divsi", "arith.remsi")

    def __init__(self) -> None:
        super().__init__()
        self.slicer = Slicer()  # which lemma owns which result: a query carries only those it reaches

    def scalar(self, op, args):
        before = len(self.lemmas)
        out = super().scalar(op, args)
        if len(self.lemmas) > before and op.name in _DIV_REM:  # the exact lemma of a division by a constant
            simple = [z3.simplify(a) for a in args]  # the arguments TermValues gave the quotient and remainder
            used = simple if all(z3.is_bv_value(a) for a in simple) else args
            self.slicer.add(self.lemmas[-1], [self._apply_like(op, name, used) for name in _DIV_REM[op.name]], True)
        if op.name in self.FACTS and len(args) == 2 and all(z3.is_bv(a) for a in args) and len(out) == 1:
            x, d, r = args[0], args[1], out[0]
            if z3.is_bv(r) and r.size() == x.size() == d.size() and not z3.is_bv_value(z3.simplify(d)):
                zero = z3.BitVecVal(0, d.size())
                if op.name == "arith.remui":
                    fact = z3.And(z3.ULT(r, d), z3.ULE(r, x))
                elif op.name == "arith.divui":
                    fact = z3.ULE(r, x)
                elif op.name == "arith.remsi":
                    fact = z3.And(z3.Implies(z3.And(x >= 0, d > 0), z3.And(r >= 0, r < d, r <= x)),
                                  z3.Implies(x >= 0, r >= 0), z3.Implies(x < 0, r <= 0))
                else:
                    fact = z3.Implies(z3.And(x >= 0, d > 0), z3.And(r >= 0, r <= x))
                self.lemmas.append(z3.Implies(d != zero, fact))
                self.slicer.add(self.lemmas[-1], [r], False)
        return out


class SafetyCheck(Replays):
    """The obligations of one source function (see the module docstring)."""

    replayed_by = "scf interpreter"
    whole_left: Optional[int] = None  # resource units left for large whole queries (None: no limit; ``start_part``)
    # the first slices of one site's ``_check`` that were satisfiable (their ids -> the answer and the slice): None
    # outside ``_check``
    sat_first: Optional[dict[tuple[int, ...], tuple[Any, list]]] = None

    def __init__(self, source: Operation, ctx: VerifyContext, original: Optional[Operation] = None) -> None:
        self.source = source
        self.original = original if original is not None else source  # the function as written: replays run it
        self.ctx = ctx
        self.values = SafetyValues()
        self.replays_cut = False  # a replay was skipped for a deterministic budget (``DfgSafetyCheck``)
        self.zero_globals: Optional[list[tuple[str, tuple, Any]]] = None  # ``_globals``' walk, done once
        self.model = self.build_model()
        self.names = function_arg_names(source)
        self.types = [a.type for a in source.regions[0].entry.args]
        self.dims: dict[tuple[str, int], z3.BitVecRef] = {}
        for n, t in memref_args(source):
            for k, s in enumerate(t.shape):
                if s is None:
                    self.dims[(n, k)] = dim_term(self.values, f"arg:{n}", t, k)
        assumed = to_z3(ctx.assumptions, self._arg, self._elements)
        # every query starts with these (``_ask`` adds them): their applications are walked once, here
        self.base = self.values.slicer.pin([x for x in (assumed, *nonneg_dims(list(self.dims.values()), DIM_CAP),
                                                         *self.values.lemmas) if not z3.is_true(x)])
        self.loops = LoopFacts(self.model, self._refute)

    def build_model(self):
        """The symbolic model with the sites (``SafetyModel``: the SCF source)."""
        return SafetyModel(self.source, self.values)

    # ------------------------------------------------------------------ symbols
    def _arg(self, name: str) -> Optional[z3.ExprRef]:
        d = dim_of(name)
        if d is not None:
            t = dict(zip(self.names, self.types)).get(d[0])
            if isinstance(t, MemRefType) and d[1] < t.rank:
                return dim_term(self.values, f"arg:{d[0]}", t, d[1])
            return None
        for n, t in zip(self.names, self.types):
            if n == name and isinstance(t, (IndexType, IntegerType)):
                return z3.Const(symbol(f"arg:{n}"), self.values.sort(t))
        return None

    def _elements(self, mem: str) -> list[z3.ExprRef]:
        return [_as_bv(self.model.load_terms[sym]) for sym, root in sorted(self.model.load_roots.items())
                if root == f"arg:{mem}"]

    def _query(self, own: list[z3.BoolRef], smt2: bool, model: bool = True, sat_checked: bool = False,
               witness: bool = False, weaker: bool = False):
        """The answer of ``_ask``."""
        return self._ask(own, smt2, model, sat_checked, witness, weaker)[0]

    def _ask(self, own: list[z3.BoolRef], smt2: bool, model: bool = True, sat_checked: bool = False,
             witness: bool = False, weaker: bool = False) -> tuple[Any, bool]:
        """The query of the function's base facts (``self.base``) and ``own``, through the preprocessing pipeline (a plain incremental solver was 3x slower here), under
        the run's deterministic resource limit (and its timeout, when the user gave one); ``model``: the caller
        reads a model; ``witness``: it replays it.

        Without a script to archive, the query is first asked of slices (``loom.verify.safety.slicing``), each
        when it drops at least half of the assertions. First the division lemmas its terms reach: a subset of
        the query, so its ``unsat`` is the answer; its ``sat`` is too when ``sat_checked`` -- the caller takes no
        verdict from a ``sat`` but checks it: it replays the model (and when that fails asks again with
        ``sat_checked=False``, ``_check``) or asks each site of a group alone (``_groups``). Then the
        closed slice (that and every lemma of a function one of whose kept results no exact lemma fixes): it is
        equisatisfiable with the whole query and each of its models extends to one of the whole query that
        agrees on every term of the slice, so its ``unsat`` and its ``sat`` with its model are the answer (the
        replay reads only terms of the query; specs/verification-safety.md). Only when neither decides is the
        whole query asked.

        A query under ``LARGE_QUERY`` assertions is asked as before the first slice: the closed slice, whose
        ``sat`` is not taken for a witness (the whole query gives it). Z3's models depend on every term and
        query the process made before, so asking the same queries in the same order is what keeps the witnesses
        of small functions' reports; the slices only pay on large ones. The flag says whether the answer is the
        whole query's (False: a ``sat`` of the first slice).

        ``weaker``: the caller reads a ``sat``'s model only to drop candidate invariants (``_refute``), so when the
        closed slice would be most of the query, the first slice's ``sat`` is the answer rather than the whole
        query's (a candidate its model falsifies may be dropped for nothing; what survives is still only called
        inductive on an ``unsat``). At 46,463 ops one loop's closed slice was the whole query (4,166 assertions:
        a division by a variable pulls in every division lemma) and ran to the resource limit, 29 s CPU, and the
        unknown answer left the loop no invariants at all."""
        assertions = Query(self.base, own)
        if not smt2 and len(assertions) < LARGE_QUERY:
            sliced = self.values.slicer.keep(assertions)
            if 2 * len(sliced) <= len(assertions):
                res = run_query(sliced, timeout=self.ctx.limit(), rlimit=self.ctx.rlimit, want_model=model,
                                want_smt2=False)
                if res.status == "unsat" or (res.status == "sat" and not witness):
                    return res, True
        elif not smt2:
            first = None  # the first slice's sat
            for closed in (False, True):
                sliced = self.values.slicer.keep(assertions, closed)
                if 2 * len(sliced) > len(assertions):
                    if closed and weaker and first is not None:
                        return first, False
                    continue
                key = None if closed or self.sat_first is None else tuple(a.get_id() for a in sliced)
                known = None if key is None else self.sat_first.get(key)
                if known is not None and not sat_checked:  # its sat again: asking it would only repeat that
                    first = known[0]
                    continue
                res = run_query(sliced, timeout=self.ctx.limit(), rlimit=self.ctx.rlimit, want_model=model,
                                want_smt2=False)
                if res.status == "unsat" or (res.status == "sat" and closed):
                    return res, True
                if key is not None and res.status == "sat":
                    self.sat_first[key] = (res, sliced)  # the terms stay alive, so the ids stay theirs
                if res.status == "sat" and sat_checked:
                    return res, False
                first = res if res.status == "sat" else None
        if smt2 or len(assertions) < LARGE_QUERY or self.whole_left is None:
            return run_query(list(assertions), timeout=self.ctx.limit(), rlimit=self.ctx.rlimit, want_model=model,
                             want_smt2=smt2), True
        return self._whole(list(assertions), model), True

    def _whole(self, assertions: list[z3.BoolRef], model: bool):
        """A large query asked whole, within what is left of the function's part's budget (``WHOLE_QUERY_RLIMITS``):
        unknown, saying so, once it is spent or when it is over ``WHOLE_QUERY_MAX`` assertions."""
        if len(assertions) > WHOLE_QUERY_MAX:
            return QueryResult("unknown", 0.0, "", reason=f"the whole query has {len(assertions)} assertions, over the "
                               f"{WHOLE_QUERY_MAX} one may have, and no slice of it decided")
        if self.whole_left <= 0:
            return QueryResult("unknown", 0.0, "", reason=WHOLE_SPENT)
        granted = min(self.ctx.rlimit, self.whole_left)
        res = run_query(assertions, timeout=self.ctx.limit(), rlimit=granted, want_model=model, want_smt2=False)
        self.whole_left -= max(res.rlimit_used, 1)
        if res.status == "unknown" and granted < self.ctx.rlimit:
            res.reason = f"{res.reason} ({WHOLE_SPENT})"
        return res

    def _refute(self, facts: list[z3.BoolRef], goals: list[z3.BoolRef]) -> Optional[list[bool]]:
        """None when every goal follows from the facts (and the base facts), else which goals a counter-model
        keeps."""
        # the goals' values only: any model gives the same invariants (Houdini's greatest fixed point)
        res = self._query([*facts, z3.Not(z3.And(*goals))], smt2=False, weaker=True)
        if res.status == "unsat":
            return None
        if res.status != "sat" or res.model is None:
            return [False] * len(goals)
        return [z3.is_true(res.model.eval(g, model_completion=True)) for g in goals]

    # ------------------------------------------------------------------ obligations
    def obligations(self, part: tuple[int, int] = (0, 1)) -> list[Obligation]:
        """The obligations of part ``(k, n)`` of the sites (``part_of``: the k-th of n runs of them, in order);
        every part with its own share of the replay budget, so a part's verdicts are the same asked alone (a
        ``--jobs`` unit) or after the others (``check_safety``)."""
        # Without archived scripts the sites of one loop context are first asked together: one query whose
        # unsat proves them all (most sites hold); a satisfiable one sends each to its own query. With
        # --emit-smt2 every obligation is its own query, so that each has its own script.
        lo, hi = part_of(len(self.model.sites), part)
        mine = self.model.sites[lo:hi]
        self.start_part(part[1])
        together: dict[int, tuple[str, float]] = {}
        if not self.ctx.want_smt2:
            together = self._groups(mine)
        out = []
        for site in mine:
            if self.ctx.progress is not None:
                self.ctx.progress(site.oid)
            grouped = together.get(id(site))
            if grouped is not None:
                n, secs = grouped
                out.append(Obligation(site.oid, KIND, "proved", secs, f"never: {site.message}", None, site.op.loc,
                                      None, method="smt", assumes=ASSUMES,
                                      rule=f"safety condition over every trip count (one query with {n} "
                                           "sites of its loop context)"))
                continue
            out.append(self._check(site))
        return _unique(out, [s.oid for s in self.model.sites], lo)

    def start_part(self, parts: int) -> None:
        """Reset what one of ``parts`` parts of the sites may spend: its share of the large whole queries' resource
        units (``DfgSafetyCheck``: and of its replays), so a part's verdicts are the same alone or after the others."""
        rlimit = self.ctx.rlimit
        self.whole_left = int(WHOLE_QUERY_RLIMITS * rlimit) // parts if rlimit and not self.ctx.want_smt2 else None

    def _tries(self, ctx) -> tuple[bool, ...]:
        """Without the loops' invariants, then with them (when some loop around carries state)."""
        return (False, True) if self.loops.needs_invariants(ctx) else (False,)

    def _groups(self, sites: list[Site]) -> dict[int, tuple[str, float]]:
        """Of ``sites``, those proved by one query per loop context (per ``GROUP_SITES`` of its sites, in order):
        id(site) -> (which of the context's sites the query had, in words; its seconds)."""
        by_ctx: dict[tuple, list[Site]] = {}
        for site in sites:
            if site.bad is not None:
                by_ctx.setdefault(tuple((id(f), ph) for f, ph in site.ctx), []).append(site)
        proved: dict[int, tuple[str, float]] = {}
        chunks = [(whole[k:k + GROUP_SITES], len(whole)) for whole in by_ctx.values()
                  for k in range(0, len(whole), GROUP_SITES)]
        for sites, of in chunks:
            if len(sites) < 2:
                continue
            t0 = time.perf_counter()
            any_bad = z3.Or(*[z3.And(s.pc, *self._passed(s), s.bad) for s in sites])
            for inv in self._tries(sites[0].ctx):
                facts = self.loops.at_site(sites[0].ctx, inv)
                if self._query([*facts, any_bad], smt2=False, model=False, sat_checked=True).status == "unsat":
                    secs = time.perf_counter() - t0
                    n = f"the {len(sites)}" if of == len(sites) else f"{len(sites)} of the {of}"
                    proved.update({id(s): (n, secs / len(sites)) for s in sites})
                    break
        return proved

    def _check(self, site: Site) -> Obligation:
        t0 = time.perf_counter()
        loc = site.op.loc
        if site.bad is None:
            return Obligation(site.oid, KIND, "unknown", time.perf_counter() - t0,
                              f"{site.message}: not decided -- {site.why_not}", None, loc, method="none",
                              assumes=ASSUMES)
        # a satisfiable first slice is replayed before the whole query is asked (``_ask``): a large function's
        # failing sites get their witness from a few lemmas; when that replay fails, the site is decided and
        # replayed as the whole query decides it
        # the first slices found satisfiable are remembered for the second ``_decide``, which would ask them again
        # only to go on to the closed slice and the whole query (at 50,009 ops: 602 queries, 9.6 s of a part's 59 s)
        self.sat_first = {}
        try:
            res, facts, exact = self._decide(site, sat_checked=True)
            shown = None
            if res.status == "sat" and not exact:
                shown = self._replay(site, facts, sat_checked=True)
                if shown is None:
                    res, facts, exact = self._decide(site, sat_checked=False)
        finally:
            self.sat_first = None
        secs = lambda: time.perf_counter() - t0  # noqa: E731
        if res.status == "unsat":
            return Obligation(site.oid, KIND, "proved", secs(), f"never: {site.message}", None, loc,
                              res.smt2 or None, method=res.method, rule="safety condition over every trip count",
                              assumes=ASSUMES)
        if res.status != "sat":
            return Obligation(site.oid, KIND, "unknown", secs(), f"{site.message}: not decided ({res.reason})",
                              None, loc, res.smt2 or None, method="smt", assumes=ASSUMES)
        if shown is None:
            shown = self._replay(site, facts)
        if shown is not None:
            inputs, err, values = shown
            detail = (f"{site.message}: the {self.replayed_by.replace('scf', 'SCF')} stops with {err} on inputs "
                      f"{describe(inputs)} "
                      "-- a fault of the input program; say which inputs are legal with --assume or loom.range")
            cex = {"inputs": inputs, "error": err, "finding": "input", "op": site.op.name,
                   "values": values, "replayed": self.replayed_by}
            return Obligation(site.oid, KIND, "refuted", secs(), detail, cex, loc, res.smt2 or None,
                              method="smt", rule="safety condition, witness replayed", nature="behaviour",
                              assumes=ASSUMES)
        cut = " (the function's replay budget ran out)" if self.replays_cut else ""
        return Obligation(site.oid, KIND, "unknown", secs(),
                          f"{site.message}: not proved -- the solver's witness (a generic iteration, which may be "
                          f"unreachable) did not replay to this error in the {self.replayed_by}{cut}", None, loc,
                          res.smt2 or None, method="smt", assumes=ASSUMES)

    def _decide(self, site: Site, sat_checked: bool) -> tuple[Any, list[z3.BoolRef], bool]:
        """The site's query (``_ask``), without the loops' invariants first and with them when needed; its answer,
        the facts it was asked under and whether the answer is the whole query's."""
        for inv in self._tries(site.ctx):  # the loops' own facts first; their invariants only when needed
            facts = [*self.loops.at_site(site.ctx, inv), site.pc, *self._passed(site)]
            res, exact = self._ask([*facts, site.bad], self.ctx.want_smt2, sat_checked=sat_checked, witness=True)
            if res.status == "unsat":
                break
        return res, facts, exact

    def _passed(self, site: Site) -> list[z3.BoolRef]:
        """The error conditions of the sites a run passes, in the same iteration, before it reaches ``site``:
        those of ops straight in a block enclosing ``site``'s op and before it there, and those of the ops
        enclosing it. A run that reaches the
        site did not stop at them (their own obligations say whether they can fail)."""
        at = self._sites_at()
        out: list[z3.BoolRef] = []
        x = site.op
        while x is not None and x is not self.source:
            if x is not site.op:  # an enclosing op's own checks ran before its body (a for's step, a copy's shapes)
                out += [z3.Not(p.bad) for p in at.get(id(x), ())]
            block = x.parent
            if block is None:
                break
            for y in block.ops:
                if y is x:
                    break
                out += [z3.Not(p.bad) for p in at.get(id(y), ())]
            if x is site.op:  # an op's earlier rules (divzero before overflow) passed too
                for p in at.get(id(x), ()):
                    if p is site:
                        break
                    out.append(z3.Not(p.bad))
            x = x.parent_op
        return out

    def _sites_at(self) -> dict[int, list[Site]]:
        """The sites with an error condition, by their op (once per check: every site's ``_passed`` reads it;
        rebuilding it per site made a large kernel's check quadratic in its sites)."""
        got = getattr(self, "_at_cache", None)
        if got is None:
            got = {}
            for s in self.model.sites:
                if s.bad is not None:
                    got.setdefault(id(s.op), []).append(s)
            self._at_cache = got
        return got


def check_safety(source: Operation, ctx: VerifyContext, original: Optional[Operation] = None,
                 parts: int = 1, only: Optional[int] = None) -> list[Obligation]:
    """The safety obligations of SCF function ``source`` (a func.func; ``original`` is the function as written
    when ``source`` is its structured kernel: replays run it): of every one of ``parts`` parts of its sites in
    order, or of part ``only``."""
    check = SafetyCheck(source, ctx, original)
    return [o for k in (range(parts) if only is None else (only,)) for o in check.obligations((k, parts))]


def part_of(count: int, part: tuple[int, int]) -> tuple[int, int]:
    """The sites ``[lo, hi)`` of part ``(k, n)`` of ``count`` sites: n runs of (nearly) equal length, in order."""
    k, n = part
    return k * count // n, (k + 1) * count // n


def _as_bv(t: z3.ExprRef) -> z3.ExprRef:
    return z3.If(t, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)) if z3.is_bool(t) else t


def _unique(obs: list[Obligation], every: list[str], start: int) -> list[Obligation]:
    """Ops that share a source position (a macro, an inlined call) get ``#2``, ``#3`` ... on later ids
    (``ids.numbered`` over ``every`` site's id, the numbering the RTL safety monitors follow; ``obs`` are the
    obligations of the sites from ``start`` on, one each)."""
    for o, text in zip(obs, numbered(every)[start:]):
        o.id = text
    return obs
