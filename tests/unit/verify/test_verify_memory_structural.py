"""The structural decision of memory-order queries agrees with Z3 on every pair it is used for.

``check_memory_order`` proves a pair without a solver call when
``pair_violation_possible`` says its violation formula is unsatisfiable. These
tests solve each pair's formula with Z3 and demand the same answer, in both
directions, on the examples (program order), the legacy corpus (race freedom),
mutants whose ctrl-done network is broken (real violations) and generated kernels.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import z3

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.sim.names import value_name_map
from loom.testing.differential import check_lowering
from loom.testing.scf_gen import GenConfig, generate_program
from loom.verify.memory.order import Unrecognized, check_memory_order, domain_pairs, source_keys
from loom.verify.mutate import BY_NAME, mutants
from loom.verify.obligation import VerifyContext
from loom.verify.memory.structure import memory_layout

from support.paths import ROOT, SHARED

EXAMPLES = sorted((ROOT / "examples").glob("*.scf.mlir"))


def _names(func):
    ops = list(func.regions[0].entry.ops)
    return value_name_map(func, list(dict.fromkeys(v for op in ops for v in list(op.operands) + list(op.results))))


def agreement(func, source) -> tuple[int, int]:
    """(pairs with a violation, pairs without) -- asserting the structural verdict equals Z3's on each."""
    layout = memory_layout(func)
    names = _names(func)
    key_sets = [None]
    if source is not None:
        keys, _ = source_keys(source, layout)
        if keys is not None:
            key_sets.append(keys)
    sat = unsat = 0
    for keys in key_sets:
        for d in layout.domains:
            if not any(a.kind == "store" for a in d.accesses):
                continue
            try:
                dp = domain_pairs(layout, d, names, keys)
            except Unrecognized:
                continue
            for x, y in dp.pairs:
                s = z3.Solver()
                s.add(dp.query(x, y, "q").violation)
                r = s.check()
                assert r in (z3.sat, z3.unsat)
                fast = dp.violation_possible(x, y)
                assert fast == (r == z3.sat), (d.name, x.name, y.name, keys is not None, fast, r)
                sat, unsat = sat + (r == z3.sat), unsat + (r == z3.unsat)
    return sat, unsat


def lowered(path: Path):
    m = parse_file(path)
    out = lower_module(m, None, LowerOptions())
    dfg = next(f for f in out.functions() if f.name == "handshake.func")
    src = next(f for f in m.functions() if f.name == "func.func")
    return out, dfg, src


@pytest.mark.shared
def test_examples_and_corpus_agree():
    total_unsat = 0
    for p in EXAMPLES:
        _, dfg, src = lowered(p)
        total_unsat += agreement(dfg, src)[1]
    for p in sorted((SHARED / "corpus" / "loom-legacy").glob("*.mlir")):
        for f in parse_file(p).functions():
            if f.name == "handshake.func":
                total_unsat += agreement(f, None)[1]
    assert total_unsat > 30


def test_broken_networks_agree_and_are_refuted_with_a_schedule():
    """Mutants that swap accesses or re-point / drop done edges: every pair's verdict agrees with Z3,
    violations exist, and the checker refutes them with a counterexample whether or not it prints
    SMT-LIB2 (the structural shortcut only ever proves)."""
    ops = [BY_NAME[n] for n in ("access_swap", "done_repoint", "done_drop")]
    sat = refuted = 0
    for p in EXAMPLES:
        out, dfg, src = lowered(p)
        for mu in mutants(out, dfg.attributes["sym_name"].value, ops, per_operator=2):
            sat += agreement(mu.func, src)[0]
            fast = check_memory_order(mu.func, VerifyContext(timeout=30), src)
            full = check_memory_order(mu.func, VerifyContext(timeout=30, want_smt2=True), src)
            assert [(o.id, o.status) for o in fast] == [(o.id, o.status) for o in full]
            for o in fast:
                if o.status == "refuted":
                    refuted += 1
                    assert o.counterexample and o.counterexample["schedule"]
    assert sat > 0 and refuted > 0


KERNELS = 60 if os.environ.get("CI") == "true" else 15


def test_generated_kernels_agree():
    """Fresh kernels every run (seed in the message). On each: the structural verdict equals Z3's on every
    pair; a DFG with a store domain of two or more accesses compares pairs (no vacuous pass); and the
    lowering is checked by an oracle that shares no code with the memory-order checker -- the SCF
    interpreter against the token simulator on the kernel's inputs -- so a memory-order refutation
    of such a kernel would be a false alarm."""
    base = random.SystemRandom().randrange(2**32)
    rng = random.Random(base)
    compared = 0
    for _ in range(KERNELS):
        seed = rng.randrange(2**32)
        prog = generate_program(random.Random(seed), GenConfig(max_ops=60), seed=seed)
        out = lower_module(prog.module, prog.func_name, LowerOptions())
        dfg = next(f for f in out.functions() if f.name == "handshake.func")
        src = next(f for f in prog.module.functions()
                   if f.name == "func.func" and f.attributes["sym_name"].value == prog.func_name)
        sat, unsat = agreement(dfg, src)
        busy = [d for d in memory_layout(dfg).domains
                if any(a.kind == "store" for a in d.accesses) and len(d.accesses) >= 2]
        assert not busy or sat + unsat > 0, (base, seed, [d.name for d in busy])
        compared += sat + unsat
        cmp = check_lowering(prog.module, prog.func_name, prog.inputs, LowerOptions(), text=False)
        assert cmp.ok, (base, seed, cmp.detail)
        refuted = [o.id for o in check_memory_order(dfg, VerifyContext(timeout=30), src) if o.status == "refuted"]
        assert not refuted, (base, seed, refuted)
    assert compared > 0, base


def test_examples_memory_order_needs_no_solver_call(monkeypatch):
    """Every order obligation of the examples is decided on its structure (a regression guard for the
    shortcut: ~36k pairs of a 5k-op DFG used to be one Z3 query each); with SMT-LIB2 wanted, every
    obligation is still a solved query."""
    import loom.verify.memory.order as mo

    calls = []
    real = mo.QuerySession.check

    def counting(self, assertions):
        calls.append(1)
        return real(self, assertions)

    monkeypatch.setattr(mo.QuerySession, "check", counting)
    n = 0
    for p in EXAMPLES:
        _, dfg, src = lowered(p)
        obs = check_memory_order(dfg, VerifyContext(timeout=30), src)
        assert all(o.status == "proved" for o in obs)
        n += len(obs)
    assert n > 10 and not calls
    _, dfg, src = lowered(EXAMPLES[0])
    obs = check_memory_order(dfg, VerifyContext(timeout=30, want_smt2=True), src)
    assert obs and len(calls) == len(obs) and all(o.status == "proved" for o in obs)
    # each is a real query with its script, or false by Z3's simplifier alone (then a rule, no script)
    assert all((o.method == "smt") == bool(o.smt2) for o in obs)
    assert all(o.method in ("smt", "typing rule") for o in obs)
