"""The refinement check's relation candidates and loop pairs (``loom.verify.refine.check``): ``Rel`` (a DFG state
variable equals a source one, up to an offset or an extension), ``LoopPair`` and the helpers the check's phases
share."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import z3

from loom.verify.refine.model import Frame, StateVar, inline_path
from loom.verify.solve import substitute_all


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


def _nth(k) -> int:
    """k of an access located ``loc("access k"(...))`` (the front end's k-th access at one position), else 1."""
    m = re.match(r'^loc\("access (\d+)"\(', k.text or "")
    return int(m[1]) if m else 1


def _event_order(key: tuple):
    """Results last; accesses by source position, the copies of an inlined helper's op by their call sites."""
    kind, k = key
    if kind == "result":
        return (1, 0, 0, (), k)
    return (0, k.line, k.col, inline_path(k), 0 if kind == "load" else 1, _nth(k))
