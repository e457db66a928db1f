"""The explorer's run merging changes how much work BMC does, never what it finds.

Runs that meet in the same state (up to the names of fresh symbols) are merged
into one whose path condition is the disjunction of theirs. These tests compare
the verdict and the smallest violating bound with merging on and off, on examples
with data-dependent branches and on their mutants, and pin the work BMC does on
the examples (runs and solver queries) so a change that silently loses the
reduction fails here rather than only in the benchmark.
"""

from __future__ import annotations

import functools
import time

import pytest

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.verify.bmc.explore import Explorer, explore
from loom.verify.mutate import BY_NAME, mutants

from support.paths import ROOT

BRANCHY = ["clamp_count", "collatz", "find_first", "histogram"]
OPERATORS = ["branch_force_true", "cond_br_swap", "mux_swap", "fork_drop", "memcarry_after_to_raw"]


@functools.cache
def compiled(name: str):
    m = lower_module(parse_file(ROOT / "examples" / f"{name}.scf.mlir"), None, LowerOptions())
    return m, next(f for f in m.functions() if f.name == "handshake.func")


def run(func, k: int, merge: bool):
    ex = Explorer(func, time.perf_counter() + 60, merge)
    return ex, ex.explore(k)


@pytest.mark.parametrize("name", BRANCHY)
def test_merging_keeps_verdicts_on_mutants(name):
    m, f = compiled(name)
    fname = f.attributes["sym_name"].value
    cases = [f] + [mu.func for mu in mutants(m, fname, [BY_NAME[o] for o in OPERATORS], per_operator=1)]
    violations = 0
    for g in cases:
        merged, plain = explore(g, 2, 60, merge=True), explore(g, 2, 60, merge=False)
        assert merged.status == plain.status, (name, merged, plain)
        if plain.status == "violation":
            violations += 1
            assert merged.bound == plain.bound, (name, merged, plain)
            assert merged.arguments.keys() == plain.arguments.keys()
    assert violations > 0  # the mutants do break something: the comparison is not vacuous


def test_data_dependent_branches_merge():
    """clamp_count branches three ways per iteration on loaded data: without merging its runs grow as
    3^K, with merging linearly."""
    _, f = compiled("clamp_count")
    ex_m, res_m = run(f, 4, True)
    ex_p, res_p = run(f, 4, False)
    assert res_m.status == res_p.status == "ok"
    assert ex_m.merged > 0 and res_m.paths * 5 <= res_p.paths
    assert ex_m.queries < ex_p.queries


# Work on the examples at K=4 (measured: clamp_count 11 runs / 107 queries, matmul 85 / 211,
# collatz 10 / 50, stencil2d 21 / 51); the bounds leave some room for harmless changes.
WORK = {"clamp_count": (15, 140), "matmul": (85, 260), "collatz": (14, 70), "stencil2d": (21, 70)}


@pytest.mark.parametrize("name", sorted(WORK))
def test_work_on_examples_stays_bounded(name):
    _, f = compiled(name)
    ex, res = run(f, 4, True)
    runs, queries = WORK[name]
    assert res.status == "ok" and res.bound == 4
    assert res.paths <= runs and ex.queries <= queries, (res.paths, ex.queries)


def test_merging_keeps_verdicts_on_generated_kernels_and_their_mutants():
    import random

    from loom.testing.scf_gen import GenConfig, generate_program

    compared = violations = 0
    for seed in range(4):
        p = generate_program(random.Random(900 + seed), GenConfig(max_ops=30, max_trip=2, max_depth=2))
        m = lower_module(p.module, p.func_name, LowerOptions())
        f = next(g for g in m.functions() if g.name == "handshake.func")
        ops = [BY_NAME[o] for o in ("cond_br_swap", "branch_force_true", "fork_dup")]
        for g in [f] + [mu.func for mu in mutants(m, p.func_name, ops, per_operator=1)]:
            merged, plain = explore(g, 2, 60, merge=True), explore(g, 2, 60, merge=False)
            assert merged.status == plain.status, (seed, merged, plain)
            if plain.status == "violation":
                violations += 1
                assert merged.bound == plain.bound, (seed, merged, plain)
            compared += 1
    assert compared > 8 and violations > 0
