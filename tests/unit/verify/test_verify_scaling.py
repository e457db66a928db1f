"""What keeps ``loom verify`` linear in the size of a DFG (issue 28, item 9), checked against the plain searches.

``done.postdom`` searched forward from every done token (quadratic in the accesses); now one backward pass
(``_may_leak``) says which done tokens can reach a value the return does not wait for, and only those are
searched. The pass must never miss one: checked here on every mutant of the examples (dropped and re-pointed
ctrl-done edges are among the operators).
"""

from __future__ import annotations

import pytest

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.verify.memory import structure
from loom.diagnostics import LoomError
from loom.verify.mutate import OPERATORS, mutants

from support.paths import DATA, ROOT


def _funcs(name: str):
    """The example's DFG and every mutant of it, operator by operator (an operator whose mutant the IR
    verifier rejects ends that operator's list: those are not DFGs the checker sees)."""
    module = lower_module(parse_file(ROOT / "examples" / f"{name}.scf.mlir"), None, LowerOptions())
    func = next(f for f in module.functions() if f.name == "handshake.func")
    yield func
    for op in OPERATORS:
        found = mutants(module, func.attributes["sym_name"].value, [op])
        while True:
            try:
                yield next(found).func
            except (StopIteration, LoomError):
                break


@pytest.mark.parametrize("name", ["saxpy", "histogram", "matmul"])
def test_the_backward_pass_finds_every_done_the_search_would_refute(name):
    refuted = 0
    for func in _funcs(name):
        layout = structure.memory_layout(func)
        good, preds, ctrl = structure.return_reach(layout, layout.done_owner())
        leaks = structure._may_leak(layout, ctrl - good, preds, good)
        for d in layout.done_owner():
            if structure._first_bad(layout, d, good) is not None:
                refuted += 1
                assert d in leaks
    assert refuted > 0  # the mutants do break the network somewhere


# ---------------------------------------------------------------------------- safety of a DFG alone
# Every safety query carried every division lemma of the function (a DFG of n ops: O(n) queries of O(n) lemmas,
# 10 s of Z3 at 2,122 ops, unfinished after minutes at 5,022); a query now carries the lemmas its terms reach
# (loom.verify.safety.slicing). Counted in assertions handed to the solver, not seconds.

def _generated(target: int):
    """A lowered generated kernel (``loom.testing.scf_gen``) with about ``target`` DFG ops, and its op count."""
    import random

    from loom.testing.scf_gen import GenConfig, generate_program

    p = generate_program(random.Random(1), GenConfig(max_ops=target))
    m = lower_module(p.module, p.func_name, LowerOptions())
    f = next(g for g in m.functions() if g.name == "handshake.func")
    return f, len(f.regions[0].entry.ops)


def _safety_queries(func, monkeypatch, whole: bool = False):
    """The obligations of ``DfgSafetyCheck`` on ``func`` and the size of every query it asked (``whole``: with
    the slicing off, as before)."""
    from loom.verify.obligation import VerifyContext
    from loom.verify.safety import check as safety_check
    from loom.verify.safety.dfg import DfgSafetyCheck

    sizes: list[int] = []
    real = safety_check.run_query

    def counting(assertions, **kw):
        sizes.append(len(assertions))
        return real(assertions, **kw)

    monkeypatch.setattr(safety_check, "run_query", counting)
    if whole:
        monkeypatch.setattr(safety_check.Slicer, "keep", lambda self, a, closed=True: list(a))
    obs = DfgSafetyCheck(func, VerifyContext()).obligations()
    monkeypatch.undo()
    return obs, sizes


def test_dfg_safety_queries_grow_with_their_sites_not_with_the_function(monkeypatch):
    # 227 and 869 ops: the sliced queries grow x5.1, the whole ones (before the slicing) x13.3, over a limit of x7.7
    (small, n1), (large, n2) = _generated(150), _generated(600)
    assert n2 >= 3 * n1
    _, q1 = _safety_queries(small, monkeypatch)
    _, q2 = _safety_queries(large, monkeypatch)
    # linear: the assertions of all queries together grow like the ops (x2 margin); all lemmas in every
    # query grew like ops^2
    assert sum(q2) / sum(q1) < 2 * n2 / n1, (n1, sum(q1), n2, sum(q2))


def test_sliced_safety_queries_give_the_same_obligations(monkeypatch):
    func, _ = _generated(600)
    sliced, q = _safety_queries(func, monkeypatch)
    whole, w = _safety_queries(func, monkeypatch, whole=True)
    key = lambda o: (o.id, o.status, o.detail, o.rule, o.method, repr(o.counterexample))
    assert [key(o) for o in sliced] == [key(o) for o in whole]
    assert sum(q) < sum(w) / 2  # and the slicing did cut the queries


def test_a_loop_contexts_sites_are_grouped_in_bounded_chunks_with_the_same_verdicts(monkeypatch):
    # one grouped query per loop context grew with the function (its top level: thousands of sites at 41,169 ops),
    # and ran to the resource limit three times over (first slice, closed slice, whole query); its sites are now
    # asked GROUP_SITES at a time, in order: the same verdicts, and no grouped query names more sites than that
    import re

    from loom.verify.obligation import VerifyContext
    from loom.verify.safety import check as safety_check
    from loom.verify.safety.dfg import DfgSafetyCheck

    func, _ = _generated(150)

    def run(limit: int):
        monkeypatch.setattr(safety_check, "GROUP_SITES", limit)
        obs = DfgSafetyCheck(func, VerifyContext()).obligations()
        said = [re.search(r"one query with (?:the )?(\d+) (?:of the \d+ )?sites", o.rule or "") for o in obs]
        sizes = [int(m.group(1)) for m in said if m]
        return [(o.id, o.status) for o in obs], sizes, [o.rule for o in obs]

    whole, whole_sizes, _ = run(10**9)
    chunked, chunked_sizes, rules = run(4)
    assert chunked == whole
    assert max(whole_sizes) > 4 and chunked_sizes and max(chunked_sizes) <= 4, (whole_sizes, chunked_sizes)
    assert any(" of the " in (r or "") for r in rules), rules  # a chunk names its context's size


# ---------------------------------------------------------------------------- lemmas of a wide table
# An extmemory's balance table has a rule per port and a counter per port and shape; each rule's framed step
# negated the whole next-state invariant (every port's conjunct), so a table of P ports asked P steps of O(P)
# terms -- 24.5 s of the lemmas' 18,039-op run. A step now negates only the conjuncts of what it moves
# (loom.verify.lemmas.induction._Conjuncts): each step's size is the same at any width.

def test_a_wide_tables_framed_steps_do_not_grow_with_its_ports():
    from loom.ir.types import MemRefType, i32
    from loom.semantics import memory_ops
    from loom.verify.lemmas.contracts import contracts_for
    from loom.verify.lemmas.induction import framed_parts, split_unsat_framed
    from loom.verify.terms import term_ids
    from loom.verify.z3model import MachineModel

    widest = {}
    for ld, st in ((7, 6), (28, 24)):
        machine = memory_ops.memory(MemRefType((None,), i32), ld, st, external=True)
        (c,) = contracts_for(machine)
        parts = framed_parts(MachineModel(machine, f"scale{ld}", data_mode="uf"), c)
        assert parts is not None and len(parts.steps) == len(machine.rules) >= ld + st
        widest[ld] = max(len(term_ids(s)) for s in parts.steps)
        assert split_unsat_framed(MachineModel(machine, f"scale{ld}b", data_mode="uf"), c, None)  # still proved
    assert widest[28] == widest[7], widest


def test_the_first_slice_leaves_out_what_only_the_model_extension_needs():
    """One division by a variable reaches every lemma of its function in the closed slice (its kept result is not
    fixed exactly, so a dropped lemma could clash with it); the first slice keeps only what the query's terms
    reach. Both are subsets of the query; the closed one is equisatisfiable with it and its model extends."""
    import z3

    from loom.verify.safety.slicing import Slicer

    f = z3.Function("udiv_t", z3.BitVecSort(8), z3.BitVecSort(8), z3.BitVecSort(8))
    xs = [z3.BitVec(f"sx{i}", 8) for i in range(10)]
    y, d = z3.BitVec("sy", 8), z3.BitVec("sd", 8)
    sl = Slicer()
    exact = []
    for x in xs:  # exact lemmas of divisions by 3
        q = f(x, 3)
        exact.append(z3.And(z3.UGE(x, q * 3), z3.ULT(x - q * 3, 3)))
        sl.add(exact[-1], [q], True)
    facts = z3.Implies(d != 0, z3.ULE(f(y, d), y))
    sl.add(facts, [f(y, d)], False)
    query = [*exact, facts, z3.UGT(f(y, d), 5)]
    closed, first = sl.keep(query), sl.keep(query, closed=False)
    assert len(closed) == len(query)  # the whole rule pulled every lemma of udiv_t
    assert first == [facts, query[-1]]
    s = z3.Solver()
    s.add(*first)
    assert s.check() == z3.sat
    whole = z3.Solver()
    whole.add(*query)
    assert whole.check() == z3.sat


def test_no_witness_is_searched_for_once_the_replay_budget_is_spent(monkeypatch, tmp_path):
    # at 50,009 ops a safety part could afford five runs of the simulator, and afterwards every site the solver could
    # not prove still asked a few witness queries (slices and whole query each) whose inputs could never run: most
    # of the part's CPU. With the budget spent the search is skipped; a run that never happens changes nothing
    from loom.verify.obligation import VerifyContext
    from loom.verify.safety import dfg
    from loom.verify.safety.replay import Replays

    from loom.cli import main
    from loom.verify.driver import functions_to_verify

    assert main(["compile", str(DATA / "safety" / "rem_arg.scf.mlir"), "-o", str(tmp_path)]) == 0  # a refuted site
    func = functions_to_verify(tmp_path / "rem_arg.dfg.mlir")[0][0]
    refuted = [o.id for o in dfg.DfgSafetyCheck(func, VerifyContext()).obligations() if o.status == "refuted"]
    assert refuted
    monkeypatch.setattr(dfg, "REPLAY_OPS", 0)
    searched: list[str] = []
    real = Replays._replay_within

    def counting(self, site, *args):
        searched.append(site.oid)
        return real(self, site, *args)

    monkeypatch.setattr(Replays, "_replay_within", counting)
    skipped = dfg.DfgSafetyCheck(func, VerifyContext()).obligations()
    assert not searched
    monkeypatch.setattr(dfg.DfgSafetyCheck, "_replay", Replays._replay)  # the search as before: nothing replays
    searching = dfg.DfgSafetyCheck(func, VerifyContext()).obligations()
    assert searched  # it did search
    key = lambda o: (o.id, o.status, o.detail)  # noqa: E731
    assert [key(o) for o in skipped] == [key(o) for o in searching]
    assert all("replay budget ran out" in o.detail for o in skipped if o.id in refuted)
