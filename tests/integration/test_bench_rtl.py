"""benchmarks/bench_rtl.py: which obligations and .sby tasks it compares, and its Z3 side on a real example."""

from __future__ import annotations

import importlib.util
import json
import sys

from loom.hdl.emit import emit

from support.hdl import ROOT, dfg_func

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
    run = br.verify_run(path)
    z3_s, matched = run.seconds(obligations)
    assert matched == len(obligations) and 0 < z3_s <= run.wall


def test_geomean():
    assert abs(br.geomean([2.0, 8.0]) - 4.0) < 1e-12


def test_dfg_obligations_are_the_monitored_ones():
    """The DFG-level comparison takes exactly the obligations with a monitor (kind dfg), none of the fsm ones."""
    func, _ = dfg_func(ROOT / "examples" / "dot.scf.mlir")
    props = json.loads(emit(func, "dot").files["dot.props.json"])
    dob = br.dfg_obligations(props)
    fsm, _ = br.rtl_obligations(props)
    assert dob and not (dob & fsm)
    assert any(o.startswith("len.") for o in dob) and any(o.startswith("balance.") for o in dob)
    assert dob == {p["obligation"] for p in props["properties"] if p.get("kind") == "dfg"}


def test_an_unfinished_proof_is_a_lower_bound():
    """A dfg_prove that timed out or pruned a monitor is no proof: its seconds and ratio print with '>'."""
    done, open_ = br.Measured(4.0, True), br.Measured(60.0, False, "timeout")
    assert done.cell() == "4.0" and open_.cell() == ">60"
    assert br._ratio(done, 0.5) == ("8x", 8.0)
    assert br._ratio(open_, 0.5) == (">120x", 120.0)


def test_verify_time_counts_the_orphaned_solvers_cpu(tmp_path):
    """--verify-time: smtbmc never waits for its solver, so the solver's CPU seconds reach the bench only as the
    subreaper of loom's process tree; a fake loom leaving a busy grandchild behind shows they are counted."""
    fake = tmp_path / "loom"
    fake.write_text(f"""#!{sys.executable}
import os, time
if os.fork() == 0:  # the 'solver': orphaned at once, busy for 0.6 s of CPU
    t = time.process_time()
    while time.process_time() - t < 0.6:
        pass
    os._exit(0)
print("  3 RTL verdicts, all agree with Z3")
""")
    fake.chmod(0o755)
    (row,) = br.verify_times([tmp_path / "k.mlir"], None, loom=str(fake))
    name, wall, cpu, code, summary = row
    assert code == 0 and summary == "3 RTL verdicts, all agree with Z3"
    assert cpu >= 0.5, row


def test_prove_table_lists_what_stays_bounded(monkeypatch, capsys):
    """--prove: per example the len/balance monitors task dfg_prove tries, how many it proved, and the obligation
    IDs of those left to the bounded task (a fake prove stands in for SymbiYosys: it proves all but two)."""
    import loom.hdl.formal.invariants as inv

    def fake(wd, stem, d, invs, files, timeout=None, rounds=6):
        tried = inv.targets(d)
        return inv.ProofResult(tried[2:], tried[:2], [], [], "pass")

    monkeypatch.setattr(inv, "prove", fake)
    (row,) = br.prove_table([ROOT / "examples" / "dot.scf.mlir"], None, 1)
    stem, tried, proved, status, cpu = row
    assert (stem, proved, status) == ("dot", tried - 2, "pass") and tried == 22
    out = capsys.readouterr().out
    assert "dot" in out and ("len." in out or "balance." in out)
