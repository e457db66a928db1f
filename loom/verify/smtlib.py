"""loom's own SMT-LIB2 printer: the archived text of a query, independent of the solver's printer.

Z3's ``to_smt2`` changes between releases (declaration order, ``let`` numbering,
quoting), so a proof archive printed with it differs from machine to machine.
This printer walks the query's terms itself and writes one canonical form:

* ``(set-logic ALL)``, then datatypes (dependency order, ties by name), then
  uninterpreted sorts and functions, sorted by name;
* the arguments of commutative operators (``and``, ``or``, ``=``, ``bvadd``, ...)
  are printed in the order of a structural digest, because Z3's simplifier
  orders them by internal AST ids, which differ between releases;
* the assertions (a conjunction) are printed in digest order, each once;
* every term used more than once is named once with ``define-fun`` (``_tN``,
  numbered in post-order of a left-to-right walk over the assertions), so the
  text stays linear in the size of the DAG;
* symbols that are not SMT-LIB simple symbols are quoted ``|...|`` (or made
  simple when they contain ``|`` or ``\\``); numerals are printed from their value.

The text depends on the terms alone: not on the Z3 version, the Python version,
the hash seed, the order in which the process built other terms, or the path.
"""

from __future__ import annotations

import hashlib
import re
from fractions import Fraction
from typing import Iterable, Sequence

import z3

_SIMPLE = re.compile(r"^[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*$")
_RESERVED = frozenset(
    "! _ as BINARY DECIMAL exists HEXADECIMAL forall let match NUMERAL par STRING".split()
)


class Unprintable(Exception):
    """A term this printer has no SMT-LIB form for (the caller reports the obligation without a script)."""


def symbol(name: str) -> str:
    """``name`` as an SMT-LIB symbol: simple when it can be, otherwise quoted (one-to-one)."""
    if _SIMPLE.match(name) and name not in _RESERVED:
        return name
    if "|" not in name and "\\" not in name:
        return f"|{name}|"
    return "|" + name.replace("\\", "_bs_").replace("|", "_bar_") + "|"


def sort_text(s: z3.SortRef) -> str:
    """The SMT-LIB name of a sort."""
    k = s.kind()
    if k == z3.Z3_BOOL_SORT:
        return "Bool"
    if k == z3.Z3_INT_SORT:
        return "Int"
    if k == z3.Z3_REAL_SORT:
        return "Real"
    if k == z3.Z3_BV_SORT:
        return f"(_ BitVec {s.size()})"
    if k == z3.Z3_ARRAY_SORT:
        return f"(Array {sort_text(s.domain())} {sort_text(s.range())})"
    if k == z3.Z3_FLOATING_POINT_SORT:
        return f"(_ FloatingPoint {s.ebits()} {s.sbits()})"
    if k == z3.Z3_ROUNDING_MODE_SORT:
        return "RoundingMode"
    if k in (z3.Z3_DATATYPE_SORT, z3.Z3_UNINTERPRETED_SORT):
        return symbol(s.name())
    raise Unprintable(f"sort {s} has no SMT-LIB form here")


def _numeral(e: z3.ExprRef) -> str:
    if z3.is_bv_value(e):
        return f"(_ bv{e.as_long()} {e.size()})"
    if z3.is_int_value(e):
        v = e.as_long()
        return str(v) if v >= 0 else f"(- {-v})"
    if z3.is_rational_value(e):
        f = Fraction(e.numerator_as_long(), e.denominator_as_long())
        num = f"{abs(f.numerator)}.0" if f.denominator == 1 else f"(/ {abs(f.numerator)}.0 {f.denominator}.0)"
        return num if f >= 0 else f"(- {num})"
    if z3.is_fp_value(e) or z3.is_fprm_value(e):
        return e.sexpr()  # fixed by the standard: (fp #b.. #b.. #b..) / RNE etc.
    raise Unprintable(f"numeral {e} has no SMT-LIB form here")


# Z3 operators whose own name is not the SMT-LIB one (``if``, the internal division variants).
_RENAMED = {
    z3.Z3_OP_ITE: "ite",
    z3.Z3_OP_IFF: "=",
    z3.Z3_OP_BSDIV_I: "bvsdiv",
    z3.Z3_OP_BUDIV_I: "bvudiv",
    z3.Z3_OP_BSREM_I: "bvsrem",
    z3.Z3_OP_BUREM_I: "bvurem",
    z3.Z3_OP_BSMOD_I: "bvsmod",
}


def _head(d: z3.FuncDeclRef, syms: dict[str, str]) -> str:
    """The operator as written in an application: plain, indexed ``(_ f i j)``, or a datatype tester."""
    k = d.kind()
    if k == z3.Z3_OP_DT_IS:
        return f"(_ is {symbol(_tester_constructor(d))})"
    if k == z3.Z3_OP_UNINTERPRETED:
        return syms[d.name()]
    if k in (
        z3.Z3_OP_DT_CONSTRUCTOR,
        z3.Z3_OP_DT_ACCESSOR,
    ):
        return symbol(d.name())
    params = list(d.params())
    if k == z3.Z3_OP_BNUM or any(not isinstance(p, int) for p in params):
        raise Unprintable(f"operator {d} has no SMT-LIB form here")
    name = _RENAMED.get(k, d.name())
    return f"(_ {name} {' '.join(str(p) for p in params)})" if params else name


def _tester_constructor(d: z3.FuncDeclRef) -> str:
    """The constructor that a datatype tester ``is(C)`` tests for."""
    dt = d.domain(0)
    for i in range(dt.num_constructors()):
        if dt.recognizer(i).eq(d):
            return dt.constructor(i).name()
    raise Unprintable(f"tester {d} of no constructor")


class _Walk:
    """One left-to-right walk over the assertions: every node once (post-order), declarations and sorts."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.order: list[z3.ExprRef] = []  # post-order, each node once
        self.decls: dict[str, z3.FuncDeclRef] = {}
        self.sorts: dict[int, z3.SortRef] = {}

    def sort(self, s: z3.SortRef) -> None:
        k = s.kind()
        if k == z3.Z3_ARRAY_SORT:
            self.sort(s.domain())
            self.sort(s.range())
        elif k in (z3.Z3_DATATYPE_SORT, z3.Z3_UNINTERPRETED_SORT):
            if s.get_id() not in self.sorts:
                self.sorts[s.get_id()] = s
                if k == z3.Z3_DATATYPE_SORT:
                    for i in range(s.num_constructors()):
                        c = s.constructor(i)
                        for j in range(c.arity()):
                            self.sort(c.domain(j))

    def run(self, roots: Sequence[z3.ExprRef]) -> None:
        stack: list[tuple[z3.ExprRef, bool]] = [(r, False) for r in reversed(roots)]
        while stack:
            e, done = stack.pop()
            i = e.get_id()
            if done:
                self.order.append(e)
                continue
            if i in self.seen:
                continue
            self.seen.add(i)
            if z3.is_quantifier(e) or z3.is_var(e):
                raise Unprintable("quantified queries are not archived")
            self.sort(e.sort())
            d = e.decl()
            if d.kind() == z3.Z3_OP_UNINTERPRETED:
                prev = self.decls.get(d.name())
                if prev is not None and not prev.eq(d):
                    raise Unprintable(f"two declarations named {d.name()}")
                self.decls[d.name()] = d
                for j in range(d.arity()):
                    self.sort(d.domain(j))
            stack.append((e, True))
            for c in reversed(e.children()):
                stack.append((c, False))


def _is_leaf(e: z3.ExprRef) -> bool:
    return e.num_args() == 0


def _datatype_decl(s: z3.DatatypeSortRef) -> str:
    cons = []
    for i in range(s.num_constructors()):
        c = s.constructor(i)
        fields = "".join(
            f" ({symbol(s.accessor(i, j).name())} {sort_text(c.domain(j))})" for j in range(c.arity())
        )
        cons.append(f"({symbol(c.name())}{fields})")
    return f"(declare-datatypes (({symbol(s.name())} 0)) (({' '.join(cons)})))"


def _datatype_order(sorts: Iterable[z3.SortRef]) -> list[z3.SortRef]:
    """Datatypes so that each comes after the datatypes its fields use (ties by name)."""
    dts = {s.name(): s for s in sorts if s.kind() == z3.Z3_DATATYPE_SORT}
    deps: dict[str, set[str]] = {}
    for name, s in dts.items():
        used: set[str] = set()
        for i in range(s.num_constructors()):
            c = s.constructor(i)
            used |= {c.domain(j).name() for j in range(c.arity()) if c.domain(j).name() in dts}
        deps[name] = used - {name}
    out: list[z3.SortRef] = []
    placed: set[str] = set()
    while len(placed) < len(dts):
        ready = sorted(n for n in dts if n not in placed and deps[n] <= placed)
        if not ready:
            raise Unprintable("mutually recursive datatypes are not archived")
        placed.add(ready[0])
        out.append(dts[ready[0]])
    return out


# Operators whose arguments may come in any order: printed sorted by a structural key, because Z3's
# simplifier orders them by internal AST ids, which differ between Z3 releases and processes.
_COMMUTATIVE = frozenset(
    (
        z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_XOR, z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT, z3.Z3_OP_IFF,
        z3.Z3_OP_ADD, z3.Z3_OP_MUL, z3.Z3_OP_BADD, z3.Z3_OP_BMUL, z3.Z3_OP_BAND, z3.Z3_OP_BOR,
        z3.Z3_OP_BXOR, z3.Z3_OP_BNAND, z3.Z3_OP_BNOR, z3.Z3_OP_BXNOR,
    )
)


def _body(e: z3.ExprRef, args: Sequence[str], syms: dict[str, str]) -> str:
    """The text of one node, given the texts of its (already ordered) arguments."""
    d = e.decl()
    if z3.is_bv_value(e) or z3.is_int_value(e) or z3.is_rational_value(e) or z3.is_fp_value(e):
        return _numeral(e)
    if d.kind() == z3.Z3_OP_CONST_ARRAY:
        return f"((as const {sort_text(e.sort())}) {args[0]})"
    if not args:
        return _head(d, syms)
    return f"({_head(d, syms)} {' '.join(args)})"


def _declared_symbols(names: Iterable[str]) -> dict[str, str]:
    """Each declared name's symbol; a name that had to be rewritten never takes another name's symbol."""
    out = {n: symbol(n) for n in sorted(names)}
    exact = {s for n, s in out.items() if s.strip("|") == n}  # symbols that spell their name as it is
    taken = set(exact)
    for n, s in out.items():
        if s.strip("|") == n:
            continue
        k, candidate = 0, s
        while candidate in taken:
            k += 1
            candidate = f"|{s.strip('|')}.{k}|"
        out[n] = candidate
        taken.add(candidate)
    return out


def _keys(order: Sequence[z3.ExprRef], syms: dict[str, str]) -> dict[int, str]:
    """A structural digest per node (children first): equal digests mean equal terms up to argument order."""
    keys: dict[int, str] = {}
    for e in order:
        kids = [keys[c.get_id()] for c in e.children()]
        if e.decl().kind() in _COMMUTATIVE:
            kids.sort()
        text = _body(e, kids, syms) + " : " + sort_text(e.sort())
        keys[e.get_id()] = hashlib.sha256(text.encode()).hexdigest()[:24]
    return keys


def _ordered_children(e: z3.ExprRef, keys: dict[int, str]) -> list[str]:
    """The digests of ``e``'s arguments, in canonical order."""
    kids = [keys[c.get_id()] for c in e.children()]
    if e.decl().kind() in _COMMUTATIVE:
        kids.sort()
    return kids


def script(assertions: Sequence[z3.BoolRef]) -> str:
    """The canonical SMT-LIB2 script of the conjunction of ``assertions``: declarations, asserts, check-sat.

    Terms are identified by their structural digest, not by Z3's AST identity, so two
    terms that differ only in the order of commutative arguments are one term.
    """
    w = _Walk()
    w.run(list(assertions))
    syms = _declared_symbols(w.decls)
    keys = _keys(w.order, syms)
    node: dict[str, z3.ExprRef] = {}
    for e in w.order:
        node.setdefault(keys[e.get_id()], e)
    kids = {k: _ordered_children(e, keys) for k, e in node.items()}
    # the query is a conjunction: its assertions in digest order, each once
    roots = sorted({keys[r.get_id()] for r in assertions})
    refs: dict[str, int] = {k: 0 for k in node}
    for k in roots:
        refs[k] += 1
    for ks in kids.values():
        for c in ks:
            refs[c] += 1
    lines = ["(set-logic ALL)"]
    sorts = list(w.sorts.values())
    for s in sorted((s for s in sorts if s.kind() == z3.Z3_UNINTERPRETED_SORT), key=lambda s: s.name()):
        lines.append(f"(declare-sort {symbol(s.name())} 0)")
    lines += [_datatype_decl(s) for s in _datatype_order(sorts)]
    for name in sorted(w.decls, key=lambda n: syms[n]):
        d = w.decls[name]
        dom = " ".join(sort_text(d.domain(j)) for j in range(d.arity()))
        lines.append(f"(declare-fun {syms[name]} ({dom}) {sort_text(d.range())})")
    taken = set(syms.values()) | {symbol(s.name()) for s in sorts}
    text: dict[str, str] = {}
    n = 0
    stack: list[tuple[str, bool]] = [(r, False) for r in reversed(roots)]
    while stack:  # post-order, left to right in canonical argument order
        k, done = stack.pop()
        if not done:
            if k not in text:
                text[k] = ""  # visiting
                stack.append((k, True))
                stack += [(c, False) for c in reversed(kids[k]) if c not in text]
            continue
        e = node[k]
        body = _body(e, [text[c] for c in kids[k]], syms)
        if refs[k] > 1 and not _is_leaf(e):
            n += 1
            name = f"_t{n}"
            while name in taken:
                n += 1
                name = f"_t{n}"
            lines.append(f"(define-fun {name} () {sort_text(e.sort())} {body})")
            body = name
        text[k] = body
    lines += [f"(assert {text[r]})" for r in roots]
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"
