"""Shared vocabulary of the refinement check: loop frames, state variables, observable events, terms.

Both sides (the SCF source and the DFG) are evaluated into the same shape: every
value is a Z3 term over *generic-iteration symbols* -- one per loop-state variable
per loop (its value at the current iteration), one per load (the value it reads
at the current iteration), the function arguments, and one *exit* symbol per
state variable (its value when the loop ends). A value's path condition (``pc``)
says when it exists, from the function entry down through every enclosing loop
activation and branch. Loads are named by the source location of the memref op
they come from, so a DFG load and the source load it was lowered from read the
same symbol (justified by the address and memory-order obligations).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import z3

from loom.ir.core import Operation
from loom.ir.location import Location
from loom.ir.types import IndexType, MemRefType
from loom.verify.lengths.values import Values, symbol
from loom.verify.terms import constants as term_constants

INDEX = IndexType()


def true() -> z3.BoolRef:
    """``True`` as a term of z3py's default context (made per call: a verification unit has a context of its own,
    ``loom.verify.isolation``)."""
    return z3.BoolVal(True)


class Unsupported(Exception):
    """A value the refinement check cannot give a term (the obligations that need it are unknown)."""

    def __init__(self, reason: str, op: Optional[Operation] = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.op = op


class TermValues(Values):
    """The length calculus' value terms, plus what division by a constant ``c > 0`` means: ``x = q*c + r``
    without wrap-around, ``0 <= r < c`` (unsigned; signed: ``|r| < c`` with the dividend's sign), so
    addresses the lowering delinearizes are recognised as the source's and ``2 % 5`` is 2. Division stays
    an uninterpreted function otherwise (exact 64-bit division makes every query slow)."""

    def __init__(self) -> None:
        super().__init__()
        self.lemmas: list[z3.BoolRef] = []
        self._seen: set[tuple] = set()
        self.load_names: dict[Location, str] = {}  # see load_symbol

    def scalar(self, op, args):
        if op.name in _DIV_REM:  # fold ``0 % 5`` and the like: the dividend may only simplify to a literal
            simple = [z3.simplify(a) for a in args]
            if all(z3.is_bv_value(a) for a in simple):
                args = simple
        out = super().scalar(op, args)
        pair = _DIV_REM.get(op.name)
        if pair is not None and len(args) == 2 and z3.is_bv(args[0]):
            c = z3.simplify(args[1])
            if z3.is_bv_value(c) and c.as_signed_long() > 0 and (op.name, args[0].get_id(), c.as_long()) not in self._seen:
                self._seen.add((op.name, args[0].get_id(), c.as_long()))
                div, rem = (self._apply_like(op, name, args) for name in pair)
                x, w, k = args[0], args[0].size(), c.as_long()
                # x = q*c + r with no wrap-around, written with plain bit-vector comparisons against
                # constants (SMT-LIB has no overflow predicates: every solver must read the proofs)
                if op.name.endswith("ui"):
                    top = (1 << w) - 1
                    exact = [z3.ULT(rem, c), z3.ULE(div, z3.BitVecVal(top // k, w)),
                             z3.ULE(div * c, z3.BitVecVal(top, w) - rem)]
                else:  # truncating: the remainder has the dividend's sign
                    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
                    exact = [rem < c, rem > -c, div <= z3.BitVecVal(hi // k, w), div >= z3.BitVecVal(-(-lo // k), w),
                             z3.Implies(x >= 0, rem >= 0), z3.Implies(x < 0, rem <= 0),
                             z3.If(rem >= 0, div * c <= z3.BitVecVal(hi, w) - rem,
                                   div * c >= z3.BitVecVal(lo, w) - rem)]
                self.lemmas.append(z3.And(div * c + rem == x, *exact))
        return out

    def _apply_like(self, op, name: str, args) -> z3.ExprRef:
        """The term ``scalar`` gives op ``name`` on ``args`` (same attributes: none for div/rem)."""
        return self._uf(f"{name}[]#0", args, op.results[0].type)


_DIV_REM = {
    "arith.divui": ("arith.divui", "arith.remui"),
    "arith.remui": ("arith.divui", "arith.remui"),
    "arith.divsi": ("arith.divsi", "arith.remsi"),
    "arith.remsi": ("arith.divsi", "arith.remsi"),
}


@dataclass(eq=False)
class StateVar:
    """One loop-carried value: its generic-iteration symbol, its initial and next-iteration terms."""

    name: str
    sym: z3.ExprRef
    exit: z3.ExprRef
    init: Optional[z3.ExprRef] = None
    next: Optional[z3.ExprRef] = None
    why_not: str = ""  # why init/next could not be given a term (then it takes part in no relation)


@dataclass(eq=False)
class Frame:
    """One loop on one side: a scf.for/scf.while, or a DFG stream / while-carry group."""

    side: str  # "dfg" | "scf"
    kind: str  # "for" | "while"
    op: Operation
    loc: Location
    name: str
    pc: z3.BoolRef = field(default_factory=true)  # activation condition (full path condition of the loop op)
    state: list[StateVar] = field(default_factory=list)
    cont: Optional[z3.BoolRef] = None  # continue condition over the state symbols
    why_not: str = ""  # why cont could not be given a term
    raw_events: bool = False  # some observable event runs in the raw (N+1) phase
    outer: tuple = ()  # the context the loop is activated in (a ``Ctx``)

    @property
    def parent(self) -> Optional["Frame"]:
        """The innermost loop the loop is activated in."""
        return frame_of(self.outer)

    @property
    def depth(self) -> int:
        return len(self.outer)

    def init_subst(self) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        return [(s.sym, s.init) for s in self.state if s.init is not None]

    def exit_subst(self) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        return [(s.sym, s.exit) for s in self.state]


Ctx = tuple[tuple[Frame, str], ...]  # enclosing loops, outermost first, each with "raw" or "body"


def frame_of(ctx: Ctx) -> Optional[Frame]:
    return ctx[-1][0] if ctx else None


@dataclass(eq=False)
class Event:
    """An observable action: a load or store (with address) or a returned value."""

    kind: str  # "load" | "store" | "result"
    key: object  # source location of the access, or the result index
    op: Operation
    ctx: Ctx
    pc: Optional[z3.BoolRef]
    root: str = ""
    addr: Optional[z3.ExprRef] = None
    value: Optional[z3.ExprRef] = None
    why_not: str = ""
    dead: bool = False  # a load whose value nothing uses: no observable effect (the lowering may drop it)


_SIMPLE_LOC = re.compile(r'^loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)$')
_CALLSITE_LOC = re.compile(r'^loc\((?:"(?:[^"\\]|\\.)*"\()?(?:callsite\()?"((?:[^"\\]|\\.)*)":(\d+):(\d+)[) ]')
_POSITION = re.compile(r'"(?:[^"\\]|\\.)*":(\d+):(\d+)')


def source_position(loc: Location) -> Location:
    """Where an op comes from: its ``loc("file":line:col)`` attribute when it has one (a DFG printed with
    debug info), else where its text is. The lowering copies each source op's location onto what it emits.

    An inlined copy of a helper's op (``loc(callsite("f.c":L:C at ...))``, the C front end's mark of clang's
    ``inlinedAt``) or the k-th memory access at one C position (``loc("access k"(...))``: a struct's fields
    copied at one call) is at ``L:C`` but keeps its location text, so that the copies of one helper inlined at
    several calls, or the accesses of one expression, are distinct positions (each pairs with its own copy on
    the other side)."""
    if loc.text:
        m = _SIMPLE_LOC.match(loc.text)
        if m:
            return Location(_unescape(m.group(1)), int(m.group(2)), int(m.group(3)))
        m = _CALLSITE_LOC.match(loc.text)
        if m:
            return Location(_unescape(m.group(1)), int(m.group(2)), int(m.group(3)), loc.text)
    return Location(loc.file, loc.line, loc.col)


def _unescape(name: str) -> str:
    return name.replace('\\"', '"').replace("\\\\", "\\")


def inline_path(pos: Location) -> tuple[tuple[int, int], ...]:
    """The call sites (line, column; innermost first) an inlined position (``source_position`` of a callsite
    location) was inlined at; () for any other -- orders the copies of one helper op by where they were called."""
    if not pos.text or "callsite(" not in pos.text:
        return ()
    return tuple((int(a), int(b)) for a, b in _POSITION.findall(pos.text))[1:]


def exit_reads(term: z3.ExprRef, owned: set[str]) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
    """Substitution pairs for the loads of a loop that a value leaving it reads at its last condition
    evaluation: ``load@L`` (current iteration) -> ``exit:load@L`` (the read at the exit; one name on both
    sides, like the loads themselves)."""
    return [(t, z3.Const(symbol("exit:" + n), t.sort())) for n, t in constants(term).items()
            if n in owned and n.startswith("load@")]


def load_symbol(values: "TermValues", loc: Location, t) -> z3.ExprRef:
    """The value a load at source location ``loc`` reads at the current iteration (shared by both sides).

    Named ``load@line:col#k``, ``k`` numbering the distinct locations in the order they are first asked
    for (the source side is built first): no file path in the name, so the SMT-LIB2 text does not depend
    on where the sources sit, and two locations never share a symbol."""
    names = values.load_names
    name = names.get(loc)
    if name is None:
        name = names[loc] = f"load@{loc.line}:{loc.col}#{len(names)}"
    return z3.Const(symbol(name), values.sort(t))


def bv64(values: Values, term: z3.ExprRef) -> z3.ExprRef:
    """An index-like term as a 64-bit vector (addresses are compared as 64-bit linear offsets)."""
    if z3.is_bool(term):
        term = z3.If(term, z3.BitVecVal(1, 64), z3.BitVecVal(0, 64))
    if not z3.is_bv(term):
        raise Unsupported("an address that is not an integer")
    w = term.size()
    if w < 64:
        return z3.ZeroExt(64 - w, term)
    if w > 64:
        return z3.Extract(63, 0, term)
    return term


def dim_term(values: Values, root: str, t: MemRefType, k: int) -> z3.ExprRef:
    """Size of dimension ``k`` of root buffer ``root``: the static size, or ``dim:root`` applied to ``k``."""
    size = t.shape[k]
    if size is not None:
        return z3.BitVecVal(size, 64)
    return values.apply(f"memref.dim({root})", [z3.BitVecVal(k, 64)], INDEX)


def row_major(values: Values, root: str, t: MemRefType) -> list[z3.ExprRef]:
    """Row-major strides of a root buffer (identity layout)."""
    strides: list[z3.ExprRef] = []
    acc: z3.ExprRef = z3.BitVecVal(1, 64)
    for k in reversed(range(t.rank)):
        strides.append(acc)
        acc = z3.simplify(acc * dim_term(values, root, t, k))
    return list(reversed(strides))


def linear(offset: z3.ExprRef, strides: list[z3.ExprRef], indices: list[z3.ExprRef]) -> z3.ExprRef:
    out = offset
    for s, i in zip(strides, indices):
        out = out + s * i
    return z3.simplify(out)


def constants(term: z3.ExprRef) -> dict[str, z3.ExprRef]:
    """The uninterpreted constants of ``term`` by name, in the order a depth-first walk meets them."""
    return term_constants(term)


def mentions(term: z3.ExprRef, names: set[str]) -> Optional[str]:
    """The first uninterpreted constant of ``term`` whose name is in ``names`` (None if there is none)."""
    return next((n for n in constants(term) if n in names), None)
