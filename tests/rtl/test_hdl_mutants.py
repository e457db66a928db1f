"""Mutants matched to SymbiYosys: a DFG fault Z3 refutes fails bounded SBY on its RTL with the same ID.

The classifier and the SBY runner are ``tests/support/mutants.py`` (its docstring says what matched / beyond /
no RTL form / not in RTL yet mean); ``tools/rtl_mutants.py`` runs every mutant of every example with them (the
CI step). This module keeps the default run fast: the mutants of ``dot`` are verified by Z3 and classified
(3 s), and the ``PER_EXAMPLE`` = 2 matched ones with the shallowest counterexample run in SBY (one task each,
arguments pinned to Z3's counterexample: 4-6 s each; 17 s in all on the loaded 2-core machine). ``LOOM_SBY_EXAMPLES=a,b`` picks other examples,
``LOOM_SBY_MUTANTS=all`` runs every matched mutant of them.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from support.hdl import need
from support.mutants import classify, run_sby

SAMPLE = os.environ.get("LOOM_SBY_EXAMPLES", "dot").split(",")
PER_EXAMPLE = None if os.environ.get("LOOM_SBY_MUTANTS") == "all" else 2


@pytest.fixture(scope="module")
def classified():
    return {name: classify(name) for name in SAMPLE}


def test_every_refuted_mutant_is_accounted_for(classified, capsys):
    counts = Counter(r.kind for rows in classified.values() for r in rows)
    with capsys.disabled():
        tally = ", ".join(f"{k}: {n}" for k, n in sorted(counts.items()))
        print(f"\n  mutants of {', '.join(SAMPLE)}: {tally}")
        for rows in classified.values():
            for r in rows:
                if r.kind != "matched":
                    print(f"    {r.kind:<15} {r.name}: {r.why or 'refuted ' + ', '.join(r.refuted[:4])}")
    assert counts["matched"] >= 2
    for rows in classified.values():
        for r in rows:
            if r.kind == "no RTL form":
                assert all(i.startswith("refine.") for i in r.refuted)
            if r.kind == "matched":  # the replayed ID is one Z3 refuted and one the RTL has a property for
                assert r.target in r.rtl and r.target in r.refuted and r.depth and r.task
                assert "a_cex_" in r.files[f"{r.example}.sv"]


def _sample(classified):
    out = []
    for rows in classified.values():
        matched = sorted((r for r in rows if r.kind == "matched"), key=lambda r: r.depth)
        out += matched[:PER_EXAMPLE]
    return out


def test_matched_mutants_fail_sby_with_a_z3_refuted_id(classified, tmp_path, capsys):
    need("yowasp-sby")
    need("yices-smt2")
    sample = _sample(classified)
    assert sample
    for k, r in enumerate(sample):
        o = run_sby(r, tmp_path / f"m{k}")
        with capsys.disabled():
            print(f"  {r.name}: z3 refutes {r.target} at {r.pinned}; SBY {r.task} fails "
                  f"{', '.join(f'{lbl} ({ob})' for lbl, ob in o.failed) or 'nothing'} [{o.seconds:.0f}s]")
        assert o.agrees, (r.name, o.problem)
