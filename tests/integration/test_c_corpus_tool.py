"""tools/c_corpus.py's own logic, on fixed text: how it reads a ``loom verify -q`` run (the corpus tables in
specs/frontend-c.md are counted from these lines) and which kernels --only and --every keep."""

from __future__ import annotations

import importlib.util
import json

from support.paths import ROOT


def _tool():
    spec = importlib.util.spec_from_file_location("c_corpus_tool", ROOT / "tools" / "c_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


VERIFY_OUT = """loom verify: k.c @k
  unknown  balance.%u.1_inv                                   0.140s  [smt]  not decided
  REFUTED  safe.load@124:19.bounds                            0.318s  [smt: safety condition, witness replayed] (behaviour)  index out of bounds
  REFUTED  refine.store@9:3                                   0.1s  [smt]  differs
  unknown  safe.store@127:45.bounds                           1.257s  [smt]  did not replay
  355 obligations: 351 proved, 2 refuted, 2 unknown (20.83 s)
  counterexamples:
  - safe.load@124:19.bounds at /tmp/x/k.scf.mlir:34:9 (behaviour): an index is not below its dimension
    op: memref.load
    error: RT_MEMREF_OUT_OF_BOUNDS memref.load: index [1] is out of bounds of memref 'g_row_ptr' of shape [1]
    finding: input
    inputs: g_num_vertices=1, g_row_ptr=[0], g_col_idx=[0, 7, 2], v=[]
    replayed: scf interpreter
  - refine.store@9:3 at /tmp/x/k.scf.mlir:9:3 (behaviour): differs
    op: memref.store
"""


def test_verify_summary_names_faults_and_unknowns():
    line = _tool().summarize_verify(0, VERIFY_OUT, "")
    assert line == ("355 obligations: 351 proved, 2 refuted, 2 unknown (20.83 s)"
                    "; refuted beyond replayed safety: refine.store@9:3"
                    "; refuted: safe.load@124:19.bounds RT_MEMREF_OUT_OF_BOUNDS on g_num_vertices=1, g_row_ptr=[1 items], "
                    "g_col_idx=[3 items], v=[0 items]"
                    " | refine.store@9:3"
                    "; unknown: balance.%u.1_inv, safe.store@127:45.bounds")


def test_witness_arrays_are_shown_by_shape():
    """A 2-D array parameter (orb_descriptor's ``pairs[][4]``) by its shape, not by bracket pieces."""
    shape = _tool().arrays_by_shape
    assert shape("img=[1.5, 2], n=1, pairs=[[0, 1, 2, 3], [4, 5, 6, 7]], e=[]") == (
        "img=[2 items], n=1, pairs=[2x4 items], e=[0 items]")
    assert shape("a=[[[1], [2]]], b=[[]]") == "a=[1x2x1 items], b=[1x0 items]"


def test_verify_summary_of_a_failed_run():
    tool = _tool()
    assert tool.summarize_verify(2, "", "k.c:3:1: error: [CPL_C_X] no\n") == "failed: k.c:3:1: error: [CPL_C_X] no"
    assert tool.summarize_verify(1, "", "") == "failed: exit 1"


def test_select_filters_by_name_then_samples():
    from pathlib import Path

    kernels = [(Path("a.c"), "f"), (Path("a.c"), "g"), (Path("b.c"), "f"), (Path("b.c"), "h")]
    select = _tool().select
    assert select(kernels, [], 1) == kernels
    assert select(kernels, ["f"], 1) == [(Path("a.c"), "f"), (Path("b.c"), "f")]
    assert select(kernels, ["f", "h"], 2) == [(Path("a.c"), "f"), (Path("b.c"), "h")]
    assert select(kernels, [], 3) == [(Path("a.c"), "f"), (Path("b.c"), "h")]


def test_a_record_is_complete_when_every_stage_asked_for_passed(tmp_path):
    import argparse

    tool = _tool()
    args = argparse.Namespace(rtl=False, map=False, verify=True)
    base = {"file": "a.c", "func": "f", "scf": "ok", "compile": "ok", "native": "equal"}
    assert not tool._complete(base, args)
    assert tool._complete({**base, "verify": "3 obligations: 2 proved, 1 refuted, 0 unknown (1 s)"}, args)
    assert not tool._complete({**base, "verify": "failed: exit 1"}, args)
    assert not tool._complete({**base, "verify": "3 obligations: 3 proved", "timeout": "over 300 s"}, args)
    out = tmp_path / "run.json"
    tool.save([{"file": "b.c", "func": "g"}, base], out)  # what a run cut short leaves, sorted
    assert [r["file"] for r in json.loads(out.read_text())] == ["a.c", "b.c"]
    assert not list(tmp_path.glob("*.part"))
