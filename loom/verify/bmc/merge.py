"""Merging runs that wait at a checkpoint in states equal up to the names of their fresh symbols."""

from __future__ import annotations

import re
from collections import deque
from itertools import compress, count
from operator import is_not
from typing import Any

import z3

from loom.semantics.expr import TOKEN
from loom.verify.bmc import limits
from loom.verify.bmc.state import State
from loom.verify.bmc.values import OPAQUE, PLAIN
from loom.verify.solve import conjunction, disjunction

FRESH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*![0-9]+")  # ``Explorer.fresh`` names (checked by lookup)


class Merging:
    """The explorer's merge of waiting runs: coarse, plain and fine keys, then one state for the group."""

    @staticmethod
    def _bucket(st: State) -> tuple:
        """Where a waiting state is filed: the fingerprint of its coarse key (``State.fp``, no state walked)."""
        return (st.fp, st.maxc, st.returned, st.error)

    @staticmethod
    def _coarse_key(st: State) -> tuple:
        """What two states must share to be compared value by value (no value looked at); computed only for
        states that share a bucket, once per wait."""
        if st.coarse is None:
            st.coarse = (tuple(st.states), tuple(st.counters), st.maxc, st.returned, st.error,
                         tuple(map(len, st.chans)))
        return st.coarse

    @staticmethod
    def _plain_equal(a: State, b: State) -> bool:
        """Do ``a`` and ``b`` hold the same concrete values everywhere (terms only marked)? What must agree
        before terms are printed. Registers and channels the two still share (copy on write) are equal
        without a look."""

        def val(v: Any) -> Any:
            return (type(v).__name__, repr(v)) if type(v) in PLAIN else "t" if isinstance(v, z3.ExprRef) else "o"

        for xs, ys, items in ((a.regs, b.regs, dict.values), (a.chans, b.chans, iter)):
            for i in compress(count(), map(is_not, xs, ys)):
                if tuple(map(val, items(xs[i]))) != tuple(map(val, items(ys[i]))):
                    return False
        return True

    def _fine_key(self, st: State) -> tuple[tuple, list]:
        """Every register and channel value, with the names of fresh constants (``fresh``: per-run
        data, choices) replaced by their order of first appearance, and the sorts of those constants:
        states equal up to the names of their fresh symbols get equal keys. Also the symbols in that
        order. Terms are compared by Z3's own printing (``sexpr``), which determines a term once the
        sorts of its constants are fixed; argument and size symbols keep their names."""
        order: dict[str, int] = {}
        syms: list = []

        def canon(m: re.Match) -> str:
            name = m.group(0)
            j = order.get(name)
            if j is None:
                c = self._fresh_by_name.get(name)
                if c is None:  # not one of ours: compare it by name
                    return name
                j = order[name] = len(syms)
                syms.append(c)
            return f"~{j}~"

        def val(v: Any) -> tuple:
            if isinstance(v, z3.ExprRef):
                hit = self._sexprs.get(v.get_id())
                if hit is None:
                    hit = self._sexprs[v.get_id()] = (v, v.sexpr())  # keeps ``v`` (its id) alive
                return ("t", FRESH_NAME.sub(canon, hit[1]))
            if v is OPAQUE:
                return ("o",)
            if v is TOKEN:
                return ("k",)
            return (type(v).__name__, repr(v))  # repr: -0.0 and 0.0 (or 1 and True) stay apart

        key = tuple(tuple(val(x) for x in regs.values()) for regs in st.regs)
        key += tuple(tuple(val(x) for x in q) for q in st.chans)
        return key + (tuple(c.sort().sexpr() for c in syms),), syms

    def _fine_key_of(self, st: State) -> tuple:
        """``_fine_key`` of ``st``, computed once per wait."""
        if st.keys is None:
            st.keys = self._fine_key(st)
        return st.keys

    def _merge_waiting(self, st: State, waiting: dict) -> State:
        """Merge every state waiting at a checkpoint that equals ``st`` up to fresh-symbol names.

        The merged state is ``st`` with each differing fresh symbol renamed to a new one, and its path
        condition is the disjunction of the (renamed) path conditions: the runs it explores are exactly
        the union of the runs of the states merged, so nothing is lost and nothing is added.
        """
        waiting[st.ckey].remove(st)
        if self.compared >= limits.MERGE_PATIENCE and not self.merged:
            return st  # this network's runs do not meet: stop paying for the comparisons
        if not any(o for b in waiting.values() for o in b if not o.dead):
            return st  # nobody to meet: no key computed
        for o in waiting.pop(None):  # file the runs that arrived since the last comparison
            if not o.dead:
                o.ckey = self._bucket(o)
                waiting.setdefault(o.ckey, []).append(o)
        waiting[None] = []
        st.ckey = self._bucket(st)
        bucket = waiting.get(st.ckey, [])
        mates = self._mates(st, bucket)
        if not mates:
            return st
        self.compared += 1
        key, syms = self._fine_key_of(st)
        group = [(st, syms)]
        for o in mates:
            k2, s2 = self._fine_key_of(o)
            if k2 == key:
                group.append((o, s2))
        if len(group) == 1:
            return st
        out = self._merged(st, group)
        for g in group:
            g[0].dead = True
        for o, _ in group[1:]:
            bucket.remove(o)
        self.merged += len(group) - 1
        return out

    def _mates(self, st: State, bucket: list) -> list:
        """The live states of ``st``'s bucket with its coarse key and its concrete values, in filing order."""
        mates = [o for o in bucket if not o.dead]
        if not mates:
            return mates
        coarse = self._coarse_key(st)
        return [o for o in mates if self._coarse_key(o) == coarse and self._plain_equal(st, o)]

    def _merged(self, st: State, group: list) -> State:
        """One state for ``group`` (``st`` first, each with its fresh symbols in key order): the differing
        symbols renamed to new ones, the path the disjunction of the renamed paths after their common prefix."""
        syms = group[0][1]
        cols = list(zip(*[g[1] for g in group])) if syms else []
        new = [col[0] if all(c.eq(col[0]) for c in col) else self.fresh("merged", col[0].sort()) for col in cols]
        renames = [[(s_, c) for s_, c in zip(g[1], new) if not s_.eq(c)] for g in group]
        paths = [g[0].path for g in group]
        common = 0
        while all(common < len(p) for p in paths) and all(p[common] is paths[0][common] for p in paths):
            common += 1
        prefix = paths[0][:common]
        pre = conjunction(prefix) if prefix else None
        if pre is not None and any(r and not z3.substitute(pre, *r).eq(pre) for r in renames):
            prefix, common = [], 0
        parts = []
        for p, r in zip(paths, renames):
            rest = p[common:]
            term = conjunction(rest) if len(rest) > 1 else rest[0] if rest else z3.BoolVal(True)
            parts.append(z3.substitute(term, *r) if r else term)
        out = st.copy()
        if renames[0]:
            _rename(out, renames[0])
        out.path = prefix + [disjunction(parts)]
        out.decided, out.model = {}, None
        n = len(self.actors)
        out.work, out.queued, out.blocked, out.ready = deque(range(n)), [True] * n, [], False
        out.steps = min(g[0].steps for g in group)  # the step cap drops a merged run no earlier than any of its runs
        return out


def _rename(st: State, subst: list) -> None:
    """Apply ``subst`` to every term of ``st``; registers and channels holding no term stay shared."""

    def rw(x: Any) -> Any:
        return z3.substitute(x, *subst) if isinstance(x, z3.ExprRef) else x

    def has_term(xs: Any) -> bool:
        return any(isinstance(x, z3.ExprRef) for x in xs)

    st.regs = [{r: rw(v) for r, v in regs.items()} if has_term(regs.values()) else regs for regs in st.regs]
    st.chans = [deque(rw(v) for v in q) if has_term(q) else q for q in st.chans]
