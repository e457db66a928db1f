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

from collections.abc import Sequence
from dataclasses import dataclass, field

import z3

from loom.verify.terms import applications


@dataclass
class _Lemma:
    """One lemma: its term, the applications it owns, whether it fixes them exactly, and every application in it."""

    term: z3.BoolRef
    owned: tuple[int, ...]
    exact: bool
    apps: dict[int, int] = field(default_factory=dict)  # every application in it: id -> its function's id


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

    def pin(self, assertions: Sequence[z3.BoolRef]) -> None:
        """Walk ``assertions`` once for every later ``keep`` (the caller keeps them alive)."""
        for a in assertions:
            if a.get_id() not in self.ids:
                self.pinned.setdefault(a.get_id(), applications(a))

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
        ids = [a.get_id() for a in assertions]  # once: a query repeats the whole lemma set
        rest = [a for a, i in zip(assertions, ids) if i not in self.ids]
        reached: dict[int, int] = {}
        seen: set[int] = set()
        for a in rest:
            got = self.pinned.get(a.get_id())
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
        return [a for a, i in zip(assertions, ids) if i not in self.ids or i in keep_ids]
