"""tools/rtl_evidence.py, the CI evidence step, on its core path in seconds: the per-trip-count depth measured by
RTL co-simulation, and one bounded ``dfg`` run of an example at trip count 0 (the full run, every example over
trip counts 0-3 and every corpus function's deadlock, is the evidence step of ``.ci/run``)."""

from __future__ import annotations

import importlib.util
import sys

from support.hdl import ROOT, dfg_func, need

SPEC = importlib.util.spec_from_file_location("rtl_evidence", ROOT / "tools" / "rtl_evidence.py")
rtl_evidence = importlib.util.module_from_spec(SPEC)
sys.modules["rtl_evidence"] = rtl_evidence  # dataclasses look their module up
SPEC.loader.exec_module(rtl_evidence)


def test_depth_per_trip_count_is_the_last_transfer_of_the_whole_run():
    """The cycle of the last transfer grows with the trip count (the bench ends a few quiet cycles later: the
    depth must not be read from its end cycle, which once made every depth negative)."""
    need("iverilog")
    from loom.hdl.formal.depth import RUN_SLACK, measured_depth, trip_cycles

    func, _ = dfg_func(ROOT / "examples" / "dot.scf.mlir")
    cycles = [trip_cycles(func, n) for n in range(4)]
    assert all(c is not None and c > 0 for c in cycles), cycles
    # 3 iterations of a body bound by its 2-cycle memory: at least 3 cycles each (the placed RTL's II is 3)
    assert cycles == sorted(cycles) and cycles[3] >= cycles[0] + 9, cycles
    depths = rtl_evidence.bound_depths(func)
    assert depths == {k: max(cycles[: k + 1]) + RUN_SLACK for k in range(4)}
    assert measured_depth(func, 3) >= cycles[3]


def test_one_bound_of_one_example_passes_bounded(tmp_path):
    need("iverilog")
    need("yowasp-sby")
    need("yices-smt2")
    r = rtl_evidence.run_example("dot", ROOT / "examples" / "dot.scf.mlir", 120.0, tmp_path, bounds=(0,))
    assert r.status == "pass", rtl_evidence.example_line(r)
    (run,) = r.runs
    assert run.bound == 0 and run.depth > 4 and r.monitors > 20
    line = rtl_evidence.example_line(r)
    assert line.startswith("example dot: pass trip counts 0-0 bounded ") and f"n<=0:pass@{run.depth}/" in line


def test_an_on_chip_lookup_answered_in_the_cycle_of_its_request_passes_whole_runs(tmp_path):
    """popcount_lut's table is an on-chip memory: with transparent channels its load's request and done fire in one
    cycle, which mem.access's monitor must count as an answered request (it once failed ob_mem_access_ld1 at step
    66 of the whole runs, where co-simulation agreed)."""
    need("iverilog")
    need("yowasp-sby")
    need("yices-smt2")
    r = rtl_evidence.run_example("popcount_lut", ROOT / "examples" / "popcount_lut.scf.mlir", 300.0, tmp_path,
                                 bounds=(3,), task="dfg_ref")
    assert r.status == "pass", rtl_evidence.example_line(r)
