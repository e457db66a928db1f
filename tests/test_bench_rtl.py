"""benchmarks/bench_rtl.py: which obligations and .sby tasks it compares, and its Z3 side on a real example."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from hdl_support import ROOT, dfg_func
from loom.hdl.emit import emit

_spec = importlib.util.spec_from_file_location("bench_rtl", ROOT / "benchmarks" / "bench_rtl.py")
br = importlib.util.module_from_spec(_spec)
sys.modules["bench_rtl"] = br
_spec.loader.exec_module(br)


def test_obligations_come_from_props_json():
    """Component properties map to task `components`; a property in the top file would add task `top`; the
    bounded monitors (kind dfg/liveness) are left out: the benchmark compares proofs for all trip counts."""
    path = ROOT / "examples" / "collatz.scf.mlir"
    func, _ = dfg_func(path)
    e = emit(func, "collatz")
    props = json.loads(e.files["collatz.props.json"])
    obligations, tasks = br.rtl_obligations(props)
    assert "fsm.carry[i64].shape" in obligations and all(o.startswith("fsm.") for o in obligations)
    assert tasks == {"components"}
    assert any(p.get("kind") in ("dfg", "liveness") for p in props["properties"])  # present, and left out
    props["properties"].append({"obligation": "len.x", "file": props["file"]})
    assert br.rtl_obligations(props) == (obligations | {"len.x"}, {"components", "top"})
    z3_s, all_s, matched = br.verify_seconds(path, obligations)
    assert matched == len(obligations) and 0 < z3_s <= all_s


def test_geomean():
    assert abs(br.geomean([2.0, 8.0]) - 4.0) < 1e-12
