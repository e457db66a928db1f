"""The division lemmas one safety query needs, so a query's size follows its sites and not the whole function.

Every division or remainder of the function adds a lemma about its result application (``TermValues``'
exact quotient/remainder by a positive constant, ``SafetyValues``' facts for any other divisor), and every
query used to carry all of them: a DFG of n ops asked O(n) queries of O(n) lemmas each. A query keeps only the
lemmas its terms reach (``Slicer.keep``), and the two are equisatisfiable:

* each dropped lemma constrains only the applications it owns (``f(x, d)``), and the true quotient or remainder
  satisfies every lemma of that function (the exact ones and the facts alike), so a model of the slice extends
  to the dropped lemmas by giving their applications the true value;
* that extension clashes only where a dropped application takes the same arguments as a kept application of
  the same function whose value no exact lemma fixes (a bare application, or one with facts only): then every
  lemma of that function is kept.

So an ``unsat`` or ``sat`` answer of the slice is the whole query's, and a model of the slice extends to one of
the whole query agreeing on every term of the slice (specs/verification-safety.md gives the argument).

The second rule can keep most of a large function (one division by a variable reaches every lemma of its
function): ``keep(..., closed=False)`` leaves it out, a plain subset of the query whose ``unsat`` is the query's
and which is asked first.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

import z3

from loom.verify.terms import applications


@dataclass
class _Lemma:
    """One lemma: its term, the applications it owns, whether it fixes them exactly, and every application in it."""

    term: z3.BoolRef
    owned: tuple[int, ...]
    exact: bool
    apps: dict[int, int] = field(default_factory=dict)  # every application in it: id -> its function's id


class Query(Sequence):
    """A query's assertions: the facts every query of a function repeats (``base``, pinned by ``Slicer.pin``), then
    its own. ``Slicer.keep`` slices it without reading the base again: a large function's base holds every division
    lemma, and walking it once per query made a function's queries O(sites x lemmas)."""

    def __init__(self, base: tuple, rest: Sequence[z3.BoolRef]) -> None:
        self.base, self.rest = base, list(rest)

    def __len__(self) -> int:
        return len(self.base) + len(self.rest)

    def __iter__(self) -> Iterator[z3.BoolRef]:
        return chain(self.base, self.rest)

    def __getitem__(self, k):
        return list(self)[k]


@dataclass
class Slicer:
    """The lemmas of one model's division results, indexed by the applications they own."""

    lemmas: list[_Lemma] = field(default_factory=list)
    by_app: dict[int, list[int]] = field(default_factory=dict)  # application id -> owning lemmas
    by_decl: dict[int, list[int]] = field(default_factory=dict)  # function id -> lemmas owning one of its applications
    decl_of: dict[int, int] = field(default_factory=dict)  # owned application id -> its function id
    exact_apps: set[int] = field(default_factory=set)  # applications an exact lemma fixes
    ids: set[int] = field(default_factory=set)  # the lemma terms' ids
    # the applications of the assertions every query repeats (``pin``), by their ids: the caller keeps those terms
    # alive, so an id stays theirs (holding other terms here would change which ids Z3 reuses, and so its models)
    pinned: dict[int, dict[int, int]] = field(default_factory=dict)
    base: tuple = ()  # the assertions pinned last: a ``Query`` over them is sliced without reading them again
    base_reached: dict[int, int] = field(default_factory=dict)  # the applications of its assertions but the lemmas
    base_always: list[int] = field(default_factory=list)  # positions in it of what every slice keeps (no lemma)
    base_at: dict[int, list[int]] = field(default_factory=dict)  # a lemma term's id -> its positions in it

    def pin(self, assertions: Sequence[z3.BoolRef]) -> tuple:
        """Walk ``assertions`` once for every later ``keep`` (the caller keeps them alive); returns them as the base
        of later ``Query``s."""
        self.base = tuple(assertions)
        self.base_reached, self.base_always, self.base_at = {}, [], {}
        for k, a in enumerate(self.base):
            i = a.get_id()
            if i in self.ids:
                self.base_at.setdefault(i, []).append(k)
                continue
            self.base_always.append(k)
            got = self.pinned.setdefault(i, applications(a))
            self.base_reached.update(got)
        return self.base

    def add(self, term: z3.BoolRef, owned: Sequence[z3.ExprRef], exact: bool) -> None:
        """Register ``term``, a lemma about the applications ``owned`` (``exact``: it fixes their values)."""
        apps = applications(term)
        if not owned or any(o.get_id() not in apps for o in owned):
            return  # not of the expected shape: never dropped (it stays out of the index)
        j = len(self.lemmas)
        self.lemmas.append(_Lemma(term, tuple(o.get_id() for o in owned), exact, apps))
        self.ids.add(term.get_id())
        for o in owned:
            d = o.decl().get_id()
            self.by_app.setdefault(o.get_id(), []).append(j)
            self.decl_of[o.get_id()] = d
            lst = self.by_decl.setdefault(d, [])
            if not lst or lst[-1] != j:
                lst.append(j)
            if exact:
                self.exact_apps.add(o.get_id())

    def keep(self, assertions: Sequence[z3.BoolRef], closed: bool = True) -> list[z3.BoolRef]:
        """``assertions`` without the registered lemmas its other terms do not reach (see the module docstring);
        ``closed=False`` leaves out the second rule (every lemma of a function with a kept result no exact lemma
        fixes): a subset of the query, so its ``unsat`` is still the query's, but not its ``sat``."""
        if not self.lemmas:
            return list(assertions)
        based = isinstance(assertions, Query) and assertions.base is self.base
        own = assertions.rest if based else list(assertions)
        ids = [a.get_id() for a in own]  # once (the base's were read by ``pin``)
        reached: dict[int, int] = dict(self.base_reached) if based else {}
        seen: set[int] = set()
        for a, i in zip(own, ids):
            if i in self.ids:
                continue
            got = self.pinned.get(i)
            reached.update(got if got is not None else applications(a, seen))
        kept: set[int] = set()
        whole: set[int] = set()  # functions all of whose lemmas are kept
        todo = list(reached.items())
        while todo:
            i, d = todo.pop()
            owners = list(self.by_app.get(i, ()))
            if closed and d in self.by_decl and d not in whole and i not in self.exact_apps:
                whole.add(d)  # a kept value no exact lemma fixes: a dropped lemma of d could clash with it
                owners += self.by_decl[d]
            for j in owners:
                if j in kept:
                    continue
                kept.add(j)
                for x, dx in self.lemmas[j].apps.items():
                    if x not in reached:
                        reached[x] = dx
                        todo.append((x, dx))
        keep_ids = {self.lemmas[j].term.get_id() for j in kept}
        mine = [a for a, i in zip(own, ids) if i not in self.ids or i in keep_ids]
        if not based:
            return mine
        at = sorted(chain(self.base_always, *(self.base_at.get(i, ()) for i in keep_ids)))  # the base's order
        return [self.base[k] for k in at] + mine
