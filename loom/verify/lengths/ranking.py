"""Termination of while loops (``len.<W>.terminates``): ranking functions and recurrence sets.

A while loop W of the length calculus is a group of carries/invariants on one
condition ``d`` (specs/verification-lengths.md section 2). Every value of the
loop is a Z3 term over the loop's coordinate ``j``: the carry outputs are
``If(j == 0, seed, fresh(j))`` and the feedback ``b`` of a carry at position j
is what the carry emits at position j + 1 (``balance`` of the carry checks that
``b`` carries one token per true condition). So one *generic iteration* is

    j >= 0,  cond(j),  out_c(j + 1) == b_c(j)   for every carry c of W

with everything else (loaded data, trip counts of inner loops, floats)
uninterpreted -- any value at all.

**Ranking function** (``prove_ranking``). Candidates come from the comparisons
the condition is built of (``arith.cmpi`` reached from ``d`` through and/or/
xor/select/mux and copies): for ``lhs < rhs`` the distance ``rhs - lhs`` and
for ``lhs > rhs`` the distance ``lhs - rhs`` (both orientations are tried, so
the sign of the step the body applies decides), computed exactly: both sides
sign- (signed predicates) or zero-extended (unsigned) by two bits, so the
difference never wraps (the no-wrap side condition is part of the query, not
assumed); for ``==``/``!=`` also the distance modulo 2^w; when the condition is
not only a conjunction, the maximum of two distances; and the indicator of the
condition (a loop that runs at most once). A candidate r is a ranking function
when this is unsat:

    generic iteration  /\\  not (r(j) >= 0  /\\  r(j + 1) < r(j))

Then, in every run, the ranks of the iterations that run form a strictly
decreasing sequence of non-negative integers: finite, so the condition is false
at some position and the loop ends. (A maximum is checked part by part: one
part non-negative, both decreasing.) When no candidate holds alone, an
inductive invariant (``invariant``: Houdini over the recurrence templates below,
from the start of every activation) is added to the hypotheses, and its own
start and step become part of the obligation. The obligation's SMT-LIB2 script
is one query, the disjunction of every violation; it is decided disjunct by
disjunct (each is far easier at the bit level than the whole), which is
exactly the whole query. Applications of uninterpreted functions to the
positions j, j + 1, 0 become constants (``positions``).

Soundness: the real values of a run interpret every term (data as whatever
was loaded); the only symbol that presumes the loop ends, ``N_W``, occurs at
positions j and j + 1 only, where any ``N_W > j + 1`` gives the real values.

**Recurrence set** (``find_recurrence``). A set R of control states (a
conjunction of template predicates over the carries the condition reads, the
loop's invariants and the comparisons' operands: the condition's comparisons
and their negations, sign, extreme-value (INT_MAX, INT_MIN, -1) and low-bit
(mod 2, 4, 8) facts, and order/equality between two values) is a proof of
divergence when

    (1) some arguments activate the loop with its seeds in R       (sat, a model)
    (2) R(j) implies cond(j)                                        (unsat of the negation)
    (3) R(j) /\\ generic iteration implies R(j + 1)                   (unsat of the negation)

-- every iteration from those arguments stays in R and continues: the loop
never ends. R is found Houdini-style from a seed state: the templates true on
it, minus those a counterexample to (3) falsifies, to a fixpoint; when the
result does not imply the condition, the next seed is searched outside it.
Seeds are searched with no constraint first, then with one value pinned to an
extreme, then with the parity of an operand of an (in)equality exit test
pinned (``SEEDS_PER_START`` seeds each): an odd bound that an even counter
steps over (``while (i != n) i += 2``) is reached only from such a seed. (1) is decided only when the seeds,
the condition at the first position and the activation are exact functions of
the arguments (no loaded or abstracted value), so the model is a real input;
(2) and (3) hold for every value of everything abstracted, so they hold for
the program's data.

Every query has a deterministic resource limit (``RLIMIT``, Z3's ``rlimit``),
plus the user's ``--timeout``/``--budget`` when given, and a loop gets at most
``MAX_QUERIES`` queries; a query that runs out decides nothing (the obligation
stays ``assumed``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

import z3
from z3 import z3core as _c

from loom.semantics.ops import CMPI_Z3
from loom.verify.lengths.clock import Loop
from loom.verify.lengths.values import symbol
from loom.verify.terms import raw_children, raw_contains

RLIMIT = 4_000_000  # Z3 resource units per query (deterministic, unlike a time limit)
MAX_CANDIDATES = 24  # ranking candidates tried per loop
MAX_ATOMS = 6  # comparisons of the condition used to make candidates and templates
SEEDS_PER_START = 2  # seeds tried per start of the recurrence search (any value; each extreme value)
MAX_TEMPLATES = 160  # template predicates per recurrence search or invariant
STEM = 4  # iterations of the stem shown with a recurrence set
MAX_QUERIES = 96  # solver queries per while loop, all checks together

SIGNED = ("slt", "sle", "sgt", "sge")
UNSIGNED = ("ult", "ule", "ugt", "uge")
UPWARD = ("slt", "sle", "ult", "ule")  # lhs below rhs while the comparison holds: rhs - lhs >= 0


@dataclass
class Atom:
    """A comparison the loop condition is built from: ``lhs pred rhs`` (terms at position j)."""

    pred: str
    lhs: z3.BitVecRef
    rhs: z3.BitVecRef
    names: tuple[str, str]


@dataclass
class WhileView:
    """What the termination checks need of one while loop (terms at the loop's position ``j``)."""

    loop: Loop
    cond: z3.BoolRef  # the condition at position j
    steps: list[z3.BoolRef]  # out_c(j + 1) == b_c(j) for every carry c of the loop
    atoms: list[Atom]
    state: list[tuple[str, z3.ExprRef]]  # the control state: carry name, its value at position j
    activation: z3.BoolRef  # the loop is activated (function level: over the arguments)
    args: dict[str, z3.ExprRef]  # the function's integer arguments
    axioms: Callable[[list[z3.BoolRef]], list[z3.BoolRef]]  # user assumptions and trip-count facts
    solver: Callable[[], z3.Solver]  # a solver with the user's time limit (if any)
    exact: Callable[[z3.ExprRef], bool]  # the term is a function of the arguments alone
    invariants: list[tuple[str, z3.ExprRef]] = field(default_factory=list)  # loop-invariant values: name, term
    disjunctive: bool = True  # the condition is built with an or, a select or a mux (not only ands)
    stem: Optional[Callable[[z3.ModelRef, int], list[dict[str, object]]]] = None  # states 0..k under a model
    constants: dict = field(default_factory=dict)  # ``positions``: application id -> (application, constant)
    left: int = MAX_QUERIES  # queries left for this loop (``_solver``)


@dataclass
class Ranking:
    """A proved ranking function."""

    text: str
    query: list[z3.BoolRef]  # the unsat query (its SMT-LIB2 script is the obligation's)
    tried: int
    seconds: float
    invariant: list[str] = field(default_factory=list)  # the inductive invariant it needed (none: empty)


@dataclass
class Recurrence:
    """A closed recurrence set entered from ``args``: the loop never ends on them."""

    args: dict[str, object]
    invariant: list[str]  # the set, one predicate per entry
    stem: list[dict[str, object]]  # control state at iterations 0, 1, ... (all in the set)
    seconds: float
    queries: int = 0


@dataclass
class _Candidate:
    text: str
    term: z3.BitVecRef
    parts: tuple[z3.BitVecRef, ...] = ()  # a maximum (or a sum): the distances it is the larger (the sum) of
    summed: bool = False  # ``term`` is the sum of ``parts``, not their maximum


def _next(w: WhileView, term: z3.ExprRef) -> z3.ExprRef:
    return z3.substitute(term, (w.loop.j, w.loop.j + 1))


class _Exhausted(z3.Solver):
    """The loop's query budget is used up: every check is unknown (never a verdict)."""

    def check(self, *assumptions):  # type: ignore[override]
        return z3.unknown


def _solver(w: "WhileView") -> z3.Solver:
    """A solver for the next query about ``w`` (at most ``MAX_QUERIES`` per loop, a deterministic limit)."""
    w.left -= 1
    return w.solver() if w.left >= 0 else _Exhausted()


def _check(s: z3.Solver) -> z3.CheckSatResult:
    s.set("rlimit", RLIMIT)
    return s.check()


def _all(*xs: z3.BoolRef) -> z3.BoolRef:
    """A conjunction that is never ``(and x)`` (one argument is not SMT-LIB: the scripts are archived)."""
    return xs[0] if len(xs) == 1 else z3.And(*xs) if xs else z3.BoolVal(True)


def _any(*xs: z3.BoolRef) -> z3.BoolRef:
    return xs[0] if len(xs) == 1 else z3.Or(*xs) if xs else z3.BoolVal(False)


def generic_iteration(w: WhileView) -> list[z3.BoolRef]:
    return [w.loop.j >= 0, w.cond, *w.steps]


def positions(w: WhileView, query: list[z3.BoolRef]) -> list[z3.BoolRef]:
    """``query`` with every application of an uninterpreted function to a loop position (``f(j)``,
    ``f(j + 1)``, ``f(0)``) replaced by a constant named after it (``f@j_L0``, ``f@j_L0+1``, ``f@0``).

    The queries only ever compare positions j and j + 1 (and 0 when a set must hold at the start): the
    applications differ in their position, so the constants are as constrained as the applications were
    (Ackermann's reduction; two syntactically different applications that could be equal, which the
    queries never make, would only become less constrained -- an ``unsat`` stays a proof). The query is then
    bit-vectors with a few integer atoms on j, which Z3 bit-blasts instead of combining theories: the
    disjunctive ranking queries take a hundredth of the time."""
    found = _position_apps(query, w.loop.j.get_id())
    if not found:
        return query
    pairs = []
    memo = w.constants  # one constant per application for the whole loop, so models read back consistently
    for app in sorted(found.values(), key=lambda x: x.sexpr()):
        hit = memo.get(app.get_id())
        if hit is None:
            where = ",".join(" ".join(a.sexpr().split()).replace("(+ ", "").replace(")", "").replace(" ", "+")
                             for a in app.children())
            name, k = symbol(f"{app.decl().name()}@{where}"), 1
            taken = {c.decl().name() for _, c in memo.values()}
            while name in taken:  # two applications must never share a constant (that would equate them)
                name, k = symbol(f"{app.decl().name()}@{where}#{k}"), k + 1
            hit = memo[app.get_id()] = (app, z3.Const(name, app.sort()))  # the app keeps its id alive
        pairs.append(hit)
    return [z3.substitute(q, *pairs) for q in query]


SMALL = 8  # a witness's integer arguments are looked for in [-SMALL, SMALL] first (readable reports)


def small_model(solver: Callable[[], z3.Solver], query: list[z3.BoolRef],
                args: list[z3.ExprRef]) -> tuple[Optional[z3.ModelRef], int]:
    """A model of ``query``, with every integer argument in [-SMALL, SMALL] when there is one such (then
    non-negative ones first), and the number of queries asked; None when unsat or undecided."""
    ints = [a for a in args if z3.is_bv(a)]
    asked = 0
    tries = [[z3.And(a >= 0, a <= SMALL) for a in ints], [z3.And(a >= -SMALL, a <= SMALL) for a in ints], []]
    for extra in (tries if ints else [[]]):
        s = solver()
        s.add(*query, *extra)
        asked += 1
        if _check(s) == z3.sat:
            return s.model(), asked
    return None, asked


def _holds(w: WhileView, m: z3.ModelRef, pred: z3.BoolRef) -> bool:
    """``pred`` is true in a model of a query that went through ``positions``."""
    return z3.is_true(m.eval(positions(w, [pred])[0], model_completion=True))


def _position_apps(query: list[z3.BoolRef], jid: int) -> dict[int, z3.ExprRef]:
    """``positions``' applications: every uninterpreted application in ``query`` with an integer argument that
    mentions j (id ``jid``) or is a literal, by id, in the order a depth-first walk (last argument first) meets
    them; their arguments are not entered. Walks the raw terms: a wrapper per subterm was most of the time."""
    if not query:
        return {}
    ctx = query[0].ctx
    ref = ctx.ref()
    found: dict[int, z3.ExprRef] = {}
    seen: set[int] = set()
    todo = [q.as_ast() for q in query]
    while todo:
        a = todo.pop()
        i = _c.Z3_get_ast_id(ref, a)
        if i in seen:
            continue
        seen.add(i)
        args = raw_children(ref, a)
        if args and _c.Z3_get_ast_kind(ref, a) == z3.Z3_APP_AST and _c.Z3_get_decl_kind(
                ref, _c.Z3_get_app_decl(ref, _c.Z3_to_app(ref, a))) == z3.Z3_OP_UNINTERPRETED and any(
                raw_contains(ref, x, jid) or _c.Z3_is_numeral_ast(ref, x) for x in args if _is_int(ref, x)):
            found[i] = z3.z3._to_expr_ref(a, ctx)
            continue
        todo.extend(args)
    return found


def _is_int(ref, a) -> bool:
    return _c.Z3_get_sort_kind(ref, _c.Z3_get_sort(ref, a)) == z3.Z3_INT_SORT


# ---------------------------------------------------------------------------------------------- ranking
def _widen(x: z3.BitVecRef, signed: bool, bits: int = 2) -> z3.BitVecRef:
    return z3.SignExt(bits, x) if signed else z3.ZeroExt(bits, x)


def candidates(atoms: list[Atom], disjunctive: bool = True, cond: Optional[z3.BoolRef] = None) -> list[_Candidate]:
    """Ranking candidates from the condition's comparisons, most natural first (sums of two distances when
    the condition is a conjunction, maxima of two when it may be a disjunction)."""
    singles: list[list[_Candidate]] = []
    for a in atoms[:MAX_ATOMS]:
        l, r = a.names
        w = a.lhs.size()
        if a.pred in SIGNED or a.pred in UNSIGNED:
            signed = a.pred in SIGNED
            how = "" if signed else " (unsigned)"
            up = _Candidate(f"{r} - {l}{how}", _widen(a.rhs, signed) - _widen(a.lhs, signed))
            down = _Candidate(f"{l} - {r}{how}", _widen(a.lhs, signed) - _widen(a.rhs, signed))
            singles.append([up, down] if a.pred in UPWARD else [down, up])
        else:  # eq / ne: the distance modulo 2^w (a counter stepping by one towards the other side), or exact
            singles.append([
                _Candidate(f"({r} - {l}) mod 2^{w}", z3.ZeroExt(2, a.rhs - a.lhs)),
                _Candidate(f"({l} - {r}) mod 2^{w}", z3.ZeroExt(2, a.lhs - a.rhs)),
                _Candidate(f"{r} - {l}", _widen(a.rhs, True) - _widen(a.lhs, True)),
                _Candidate(f"{l} - {r}", _widen(a.lhs, True) - _widen(a.rhs, True)),
            ])
    out = [c for group in singles for c in group]
    if cond is not None:  # a loop that runs at most once: the rank is 1 while the condition holds, then 0
        out.append(_Candidate("[the condition holds] (it runs at most once)",
                              z3.If(cond, z3.BitVecVal(1, 2), z3.BitVecVal(0, 2))))
    # a conjunction whose iterations each advance one of several counters (a merge: i++ or j++) decreases no
    # distance alone, but their sum: bounded below where every comparison holds
    ordered = [a for a in atoms[:MAX_ATOMS] if a.pred in SIGNED or a.pred in UNSIGNED]
    for i in range(0 if disjunctive else len(ordered)):
        for k in range(i + 1, len(ordered)):
            parts, texts = [], []
            for a in (ordered[i], ordered[k]):
                signed = a.pred in SIGNED
                lo, hi = (a.lhs, a.rhs) if a.pred in UPWARD else (a.rhs, a.lhs)
                nlo, nhi = a.names if a.pred in UPWARD else a.names[::-1]
                wl, wh = _same_width(_widen(lo, signed, 3), _widen(hi, signed, 3))  # a sum of two: one bit more
                parts.append(wh - wl)
                texts.append(f"{nhi} - {nlo}{'' if signed else ' (unsigned)'}")
            x, y = _same_width(*parts)
            out.append(_Candidate(f"({texts[0]}) + ({texts[1]})", x + y, (x, y), summed=True))
    # a disjunction of comparisons is bounded by none of them alone: the larger of two distances is
    for i in range(len(singles) if disjunctive else 0):
        for k in range(i + 1, len(singles)):
            for x in singles[i][:2]:
                for y in singles[k][:2]:
                    a, b = _same_width(x.term, y.term)
                    out.append(_Candidate(f"max({x.text}, {y.text})", z3.If(a >= b, a, b), (a, b)))
    seen: set[int] = set()
    unique = []
    for c in out:
        # deduplicated by the simplified term, but the query keeps the subtraction: the simplifier writes
        # a - b as a + (-1)*b, and a multiplication is bit-blasted as one (many times slower)
        key = z3.simplify(c.term)
        if key.get_id() in seen or z3.is_bv_value(key):
            continue
        seen.add(key.get_id())
        unique.append(c)
    return unique[:MAX_CANDIDATES]


def _same_width(a: z3.BitVecRef, b: z3.BitVecRef) -> tuple[z3.BitVecRef, z3.BitVecRef]:
    wa, wb = a.size(), b.size()
    if wa < wb:
        a = z3.SignExt(wb - wa, a)
    elif wb < wa:
        b = z3.SignExt(wa - wb, b)
    return a, b


def ranking_query(w: WhileView, rank: "z3.BitVecRef | _Candidate",
                  inv: Optional[list["_Template"]] = None) -> tuple[list[z3.BoolRef], list[list[z3.BoolRef]]]:
    """The query that is satisfiable iff ``rank`` is not shown a ranking function, and its disjuncts, each
    a query of its own (the query is unsat iff every disjunct is).

    Without an invariant: some generic iteration does not keep ``rank`` non-negative and strictly
    decreasing. With an invariant I: also, some activation starts outside I or some generic iteration
    inside I leaves it. A maximum ``max(r1, r2)`` is checked part by part -- one of them is non-negative and
    both strictly decrease, which makes the maximum a ranking function. A sum ``r1 + r2`` too -- both are
    non-negative, neither increases and one of them strictly decreases, which makes the sum one (comparing
    two sums of differences is an adder-equivalence problem a bit-level solver can take minutes on, each part
    alone takes milliseconds). The disjuncts are decided one by
    one: comparing two maxima of differences, or all the facts at once, is many times harder for the
    solver at the bit level than each fact alone."""
    parts = rank.parts if isinstance(rank, _Candidate) and rank.parts else (
        (rank.term,) if isinstance(rank, _Candidate) else (rank,))
    zero = z3.BitVecVal(0, parts[0].size())
    if isinstance(rank, _Candidate) and rank.summed:
        # none strictly decreases: as none increases (the cases before), all stay equal -- an equality is far
        # cheaper at the bit level than the ordering
        bad = [z3.Not(r >= zero) for r in parts] + [z3.Not(_next(w, r) <= r) for r in parts] + \
            [_all(*[_next(w, r) == r for r in parts])]
    else:
        bad = [z3.Not(_any(*[r >= zero for r in parts]))] + [z3.Not(_next(w, r) < r) for r in parts]
    gen = generic_iteration(w)
    here = [t.pred for t in inv] if inv else []
    cases: list[list[z3.BoolRef]] = []
    if here:
        cases.append([w.activation, z3.Not(_all(*[_at(w, p, 0) for p in here]))])
        cases.append(gen + here + [z3.Not(_all(*[_next(w, p) for p in here]))])
    cases += [gen + here + [b] for b in bad]
    whole = [_any(*[_all(*c) for c in cases])]
    return positions(w, w.axioms(whole) + whole), [positions(w, w.axioms(c) + c) for c in cases]


def _refuted_by_none(w: WhileView, cases: list[list[z3.BoolRef]]) -> tuple[bool, int]:
    """Every disjunct unsat (in order, stopping at the first that is not), and the queries asked."""
    asked = 0
    for q in cases:
        s = _solver(w)
        s.add(*q)
        asked += 1
        if _check(s) != z3.unsat:
            return False, asked
    return True, asked


def prove_ranking(w: WhileView) -> tuple[Optional[Ranking], int]:
    """The first candidate proved a ranking function (None if none is), and the number of queries asked:
    first on the generic iteration alone, then under an inductive invariant (``invariant``)."""
    t0 = time.perf_counter()
    asked = 0
    cands = candidates(w.atoms, w.disjunctive, w.cond)
    for c in cands:
        whole, cases = ranking_query(w, c)
        ok, n = _refuted_by_none(w, cases)
        asked += n
        if ok:
            return Ranking(c.text, whole, asked, time.perf_counter() - t0), asked
    if not cands:
        return None, asked
    inv, more = invariant(w)
    asked += more
    if not inv:
        return None, asked
    for c in cands:
        whole, cases = ranking_query(w, c, inv)
        ok, n = _refuted_by_none(w, cases[2:])  # initiation and consecution: shown by ``invariant``
        asked += n
        if ok:
            shown = [t.text for t in _minimal(w, inv)]
            return Ranking(c.text, whole, asked, time.perf_counter() - t0, shown), asked
    return None, asked


def invariant(w: WhileView) -> tuple[list["_Template"], int]:
    """The strongest conjunction of templates that holds at the first position of every activation and
    that every generic iteration keeps (Houdini: drop what a counterexample falsifies, to a fixpoint)."""
    kept = templates(w)
    asked = 0
    while kept:  # initiation: every activation starts inside
        s = _solver(w)
        body = [w.activation, z3.Not(_all(*[_at(w, t.pred, 0) for t in kept]))]
        s.add(*positions(w, w.axioms(body) + body))
        asked += 1
        r = _check(s)
        if r == z3.unsat:
            break
        if r != z3.sat:
            return [], asked
        m = s.model()
        kept = [t for t in kept if _holds(w, m, _at(w, t.pred, 0))]
    closed, n = _consecution(w, kept)
    return (closed if closed is not None else []), asked + n


def _consecution(w: WhileView, kept: list["_Template"]) -> tuple[Optional[list["_Template"]], int]:
    """Houdini's consecution: drop the templates a generic iteration from inside falsifies, to a fixpoint. The
    closed subset (maybe empty) and the queries asked; None when a query is undecided or drops nothing."""
    asked = 0
    while kept:
        s = _solver(w)
        here = [t.pred for t in kept]
        body = generic_iteration(w) + here + [z3.Not(_all(*[_next(w, p) for p in here]))]
        s.add(*positions(w, w.axioms(body) + body))
        asked += 1
        r = _check(s)
        if r == z3.unsat:
            break
        if r != z3.sat:
            return None, asked
        m = s.model()
        drop = [t for t in kept if not _holds(w, m, _next(w, t.pred))]
        if not drop:
            return None, asked
        kept = [t for t in kept if t not in drop]
    return kept, asked


# ---------------------------------------------------------------------------------------------- recurrence
@dataclass
class _Template:
    text: str
    pred: z3.BoolRef  # over values at position j
    extreme: bool = False  # also tried as a seed constraint: a value at INT_MAX, INT_MIN or -1, or a parity


def _cmp_text(pred: str) -> str:
    return {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=",
            "ult": "<u", "ule": "<=u", "ugt": ">u", "uge": ">=u"}[pred]


_CMP = CMPI_Z3  # the scalar-op table's reading of each cmpi predicate


def templates(w: WhileView) -> list[_Template]:
    """Predicates a recurrence set is a conjunction of (the seed state picks the ones that hold on it)."""
    out: list[_Template] = []
    for a in w.atoms[:MAX_ATOMS]:
        l, r = a.names
        p = _CMP[a.pred](a.lhs, a.rhs)
        out.append(_Template(f"{l} {_cmp_text(a.pred)} {r}", p))
        out.append(_Template(f"!({l} {_cmp_text(a.pred)} {r})", z3.Not(p)))
    values: list[tuple[str, z3.ExprRef]] = list(w.state) + list(w.invariants)
    for a in w.atoms[:MAX_ATOMS]:
        values += [(a.names[0], a.lhs), (a.names[1], a.rhs)]
    seen: set[int] = set()
    terms: list[tuple[str, z3.ExprRef]] = []
    for name, t in values:
        if t.get_id() not in seen and (z3.is_bv(t) or z3.is_bool(t)):
            seen.add(t.get_id())
            terms.append((name, t))
    # most telling first (a cap cuts the tail): relations between two values, then one value's sign and
    # extremes, then its low bits
    for i, (n1, t1) in enumerate(terms):
        for n2, t2 in terms[i + 1:]:
            if not (z3.is_bv(t1) and z3.is_bv(t2)) or t1.size() != t2.size():
                continue
            for pred in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"):
                out.append(_Template(f"{n1} {_cmp_text(pred)} {n2}", _CMP[pred](t1, t2)))
    lows: list[_Template] = []
    # an (in)equality exit test can be stepped over: the parity of its operands is also tried as a seed
    stepped_over = {n for a in w.atoms[:MAX_ATOMS] if a.pred in ("eq", "ne") for n in a.names}
    for name, t in terms:
        if z3.is_bool(t):
            out += [_Template(name, t), _Template(f"!{name}", z3.Not(t))]
            continue
        if z3.is_bv_value(z3.simplify(t)):
            continue
        zero = z3.BitVecVal(0, t.size())
        out += [_Template(f"{name} == 0", t == zero), _Template(f"{name} != 0", t != zero),
                _Template(f"{name} < 0", t < zero), _Template(f"{name} >= 0", t >= zero),
                _Template(f"{name} > 0", t > zero), _Template(f"{name} <= 0", t <= zero)]
        w_ = t.size()
        if w_ > 1:  # the extreme values, where a comparison against the bound always holds
            smax, smin = (1 << (w_ - 1)) - 1, -(1 << (w_ - 1))
            out += [_Template(f"{name} == {smax}", t == z3.BitVecVal(smax, w_), True),
                    _Template(f"{name} == {smin}", t == z3.BitVecVal(smin, w_), True),
                    _Template(f"{name} == -1", t == z3.BitVecVal(-1, w_), True)]
        for k in (1, 2, 3):
            if t.size() > k:
                low = z3.Extract(k - 1, 0, t)
                for c in range(1 << k):
                    lows.append(_Template(f"{name} mod {1 << k} == {c}", low == z3.BitVecVal(c, k),
                                          k == 1 and name in stepped_over))
    out += sorted(lows, key=lambda x: x.text.count("mod 8"))  # mod 2 and 4 of every value before mod 8
    return out[:MAX_TEMPLATES]


def _at(w: WhileView, term: z3.ExprRef, k: int) -> z3.ExprRef:
    return z3.simplify(z3.substitute(term, (w.loop.j, z3.IntVal(k))))


def find_recurrence(w: WhileView) -> tuple[Optional[Recurrence], int]:
    """A closed recurrence set entered from some arguments (None if none is found), and the queries asked."""
    t0 = time.perf_counter()
    asked = 0
    first = [w.activation, _at(w, w.cond, 0)] + [_at(w, t, 0) for _, t in w.state]
    if not all(w.exact(x) for x in first):
        return None, asked  # the first iteration depends on abstracted data: no exact entry
    temps = templates(w)
    if not temps:
        return None, asked
    # seeds: any first, then with one value at an extreme (where a comparison against a bound always holds,
    # e.g. while x >= b with b = INT_MIN); after each failed set the next seed is searched outside it
    starts: list[list[z3.BoolRef]] = [[]] + [[_at(w, t.pred, 0)] for t in temps
                                             if t.extreme and w.exact(_at(w, t.pred, 0))]
    for extra in starts:
        blocked: list[z3.BoolRef] = []
        for _ in range(SEEDS_PER_START):
            got, n = _recurrence_from(w, temps, extra + blocked)
            asked += n
            if got is None:
                break  # no seed there (or undecided): the next start
            model, kept, found = got
            if found:
                args = {name: _py(model.eval(c, model_completion=True)) for name, c in w.args.items()}
                stem = w.stem(model, STEM) if w.stem is not None else []
                inv = _minimal(w, kept)
                return Recurrence(args, [t.text for t in inv], stem, time.perf_counter() - t0, asked), asked
            # no seed in this set can diverge inside it: look elsewhere
            blocked.append(z3.Not(_at(w, _all(*[t.pred for t in kept]), 0)) if kept else z3.BoolVal(False))
        if w.left <= 0:
            break
    return None, asked


def _recurrence_from(w: WhileView, temps: list["_Template"], extra: list[z3.BoolRef]
                     ) -> tuple[Optional[tuple[z3.ModelRef, list["_Template"], bool]], int]:
    """One seed under ``extra`` and the strongest closed conjunction of templates containing it: (model, set,
    whether the set lies inside the condition), or None when there is no seed or a query is undecided."""
    asked = 0
    # (1) a seed: arguments that activate the loop and run its first iteration
    body = [w.activation, _at(w, w.cond, 0), *extra]
    model, n = small_model(lambda: _solver(w), w.axioms(body) + body, list(w.args.values()))
    asked += n
    if model is None:
        return None, asked
    # only predicates exact on the seed (functions of the arguments): then the real seed is in the set
    kept = [t for t in temps if w.exact(_at(w, t.pred, 0)) and _holds(w, model, _at(w, t.pred, 0))]
    # (3) Houdini: drop every predicate a generic iteration from the set can falsify, to a fixpoint
    closed, n = _consecution(w, kept)
    asked += n
    if closed is None:
        return None, asked
    kept = closed
    if not kept:
        return (model, kept, False), asked
    # (2) the set lies inside the condition
    s = _solver(w)
    body = [w.loop.j >= 0, _all(*[t.pred for t in kept]), z3.Not(w.cond)]
    s.add(*positions(w, w.axioms(body) + body))
    asked += 1
    r = _check(s)
    if r not in (z3.sat, z3.unsat):
        return None, asked
    return (model, kept, r == z3.unsat), asked


def _minimal(w: WhileView, kept: list[_Template]) -> list[_Template]:
    """The predicates of a proved set, without those the others imply at the same position (for the report)."""
    out = list(kept)
    for t in reversed(list(out)):  # the later (pairwise) predicates go first: an equality is kept over two <=

        rest = [x.pred for x in out if x is not t]
        if not rest:
            continue
        s = z3.Solver()
        s.add(_all(*rest), z3.Not(t.pred))
        if _check(s) == z3.unsat:
            out.remove(t)
    return out


def _py(v: z3.ExprRef) -> object:
    if z3.is_bv_value(v):
        return v.as_signed_long()
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    return str(v)


__all__ = ["Atom", "WhileView", "Ranking", "Recurrence", "candidates", "prove_ranking", "find_recurrence",
           "ranking_query"]
