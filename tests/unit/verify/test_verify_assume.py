"""Input assumptions (``--assume``, ``{loom.range}``), findings about the source, and stated termination."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.verify.assume import holds, parse_assumption, to_z3
from loom.verify.lemmas.findings import INT_MAX, INT_MIN, wraps

from support.cli import loom_here
from support.paths import ROOT

FREE = ROOT / "examples" / "findings" / "free_bounds.scf.mlir"


def loom(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loom", *args], capture_output=True, text=True, cwd=cwd)


def _json(*args: str) -> tuple[int, dict]:
    r = loom("verify", "--json", *args)
    return r.returncode, json.loads(r.stdout)


def test_free_bounds_are_refuted_as_a_finding_about_the_source():
    code, doc = _json(str(FREE))
    assert code == 1
    bad, oob = [o for o in doc["obligations"] if o["status"] != "proved"]
    assert bad["id"] == "fsm.stream.pre.%index" and bad["status"] == "refuted"
    # a[i] for free bounds also leaves a (the safety obligation, replayed on the source)
    assert oob["id"] == "safe.load@5:5.bounds" and oob["counterexample"]["finding"] == "input"
    cex = bad["counterexample"]
    assert cex["finding"] == "input" and cex["wraps"] is True and cex["source_loop"].endswith(":4:3")
    assert "its induction variable wraps too" in bad["detail"] and "not a lowering bug" in bad["detail"]
    a = cex["arguments"]
    # the replay is independent of the solver: the refuting bounds really make a step-3 loop wrap
    assert wraps("+=", "<", int(a["lb"]), 3, int(a["ub"]))


def test_a_dfg_without_its_source_says_the_finding_is_about_the_dfg(tmp_path):
    assert loom_here("compile", str(FREE), "-o", str(tmp_path)).returncode == 0
    code, doc = _json(str(tmp_path / "free_bounds.dfg.mlir"))
    (bad,) = [o for o in doc["obligations"] if o["status"] == "refuted" and o["kind"] != "safety"]
    assert bad["counterexample"]["finding"] == "dfg"


def test_assume_proves_every_obligation_and_every_format_lists_it(tmp_path):
    junit, sarif = tmp_path / "r.xml", tmp_path / "r.sarif"
    legal = "0 <= lb && ub <= dim(a) && ub <= 1048576"
    code, doc = _json(str(FREE), "--assume", legal, "--junit", str(junit), "--sarif", str(sarif))
    assert code == 0 and doc["summary"]["proved"] == doc["summary"]["total"]
    assert doc["summary"]["functions"][0]["assumptions"] == [f"{legal} (--assume)"]
    props = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert props["assume.0"] == f"{legal} (--assume)"
    run = json.loads(sarif.read_text())["runs"][0]
    assert run["properties"]["assumptions"] == {"free_bounds": [f"{legal} (--assume)"]}
    text = loom("verify", "-q", str(FREE), "--assume", "ub <= 1048576").stdout
    assert "assuming ub <= 1048576 (--assume)" in text


def test_an_assumption_that_leaves_the_wrap_possible_still_refutes():
    code, doc = _json(str(FREE), "--assume", "lb >= 0")
    assert code == 1
    assert any(o["status"] == "refuted" for o in doc["obligations"])


def test_loom_range_is_carried_through_compile_and_used_by_verify(tmp_path):
    src = tmp_path / "k.scf.mlir"
    src.write_text(FREE.read_text().replace(
        "%lb: index, %ub: index) -> i32 {",
        '%lb: index {loom.range = [0, 4096]}, %ub: index {loom.range = [0, 4096]}) -> i32 '
        'attributes {loom.assume = ["ub <= dim(a)"]} {'))
    want = ["ub <= dim(a) (loom.assume)", "0 <= lb <= 4096 (loom.range of %lb)", "0 <= ub <= 4096 (loom.range of %ub)"]
    code, doc = _json(str(src))
    assert code == 0 and doc["summary"]["functions"][0]["assumptions"] == want
    assert loom_here("compile", str(src), "-o", str(tmp_path / "o")).returncode == 0
    dfg = tmp_path / "o" / "k.dfg.mlir"
    assert "{loom.range = [0, 4096]}" in dfg.read_text() and 'loom.assume = ["ub <= dim(a)"]' in dfg.read_text()
    code, doc = _json(str(dfg))
    assert code == 0 and doc["summary"]["functions"][0]["assumptions"] == want


@pytest.mark.parametrize(
    "text, message",
    [
        ("nope <= 3", "'nope' is not an argument of @free_bounds"),
        ("a <= 3", "argument 'a' has type memref<?xi32>"),
        ("ub <=", "expected comparisons"),
        ("ub <= 3 &&", "expected comparisons"),
        ("ub / 2 <= 3", "cannot read"),
        ("ub * lb <= 3", "expected comparisons"),
    ],
)
def test_bad_assumptions_are_one_line_usage_errors(text, message):
    r = loom("verify", str(FREE), "--assume", text)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr


def test_chains_and_conjunctions_parse():
    a = parse_assumption("0 <= n <= 10 && m != -3")
    assert [str(c) for c in a.atoms] == ["0 <= n", "n <= 10", "m != -3"]
    assert a.names() == {"n", "m"}


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["<", "<=", ">", ">=", "==", "!="]),
    st.integers(-(1 << 70), 1 << 70),
    st.integers(-(1 << 63), (1 << 63) - 1),
    st.sampled_from([8, 32, 64]),
    st.booleans(),
)
def test_z3_form_agrees_with_python_arithmetic(op, literal, value, width, literal_left):
    """The bit-vector encoding (signed, literals outside the range folded) against plain Python integers."""
    lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    value = max(lo, min(hi, value))
    a = parse_assumption(f"{literal} {op} n" if literal_left else f"n {op} {literal}")
    n = z3.BitVec("n", width)
    f = to_z3([a], lambda name: n if name == "n" else None)
    got = z3.is_true(z3.simplify(z3.substitute(f, (n, z3.BitVecVal(value, width)))))
    assert got == holds([a], {"n": value})


def _wraps_by_running(start: int, step: int, bound: int, cond: str, cap: int = 10_000):
    """The stream's own 64-bit loop, run step by step: True when the next index leaves the range."""
    ok = {"<": lambda x: x < bound, "<=": lambda x: x <= bound, ">": lambda x: x > bound,
          ">=": lambda x: x >= bound, "!=": lambda x: x != bound}[cond]
    x = start
    for _ in range(cap):
        if not ok(x):
            return False
        x += step
        if not INT_MIN <= x <= INT_MAX:
            return True
    return None


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["<", "<=", ">", ">=", "!="]),
    st.integers(-40, 40),
    st.integers(-60, 60),
    st.integers(-60, 60),
    st.booleans(),
)
def test_wrap_replay_agrees_with_running_the_loop(cond, step, start_off, bound_off, high):
    base = INT_MAX - 30 if high else INT_MIN + 30
    start, bound = base + start_off, base + bound_off
    start = max(INT_MIN, min(INT_MAX, start))
    bound = max(INT_MIN, min(INT_MAX, bound))
    ran = _wraps_by_running(start, step, bound, cond)
    if ran is None or step == 0:
        return  # never ends within the cap without wrapping (e.g. moving away from a far bound) / zero step
    assert wraps("+=", cond, start, step, bound) == ran


def test_while_loop_termination_is_stated_not_hidden(tmp_path):
    junit = tmp_path / "c.xml"
    code, doc = _json(str(ROOT / "examples" / "collatz.scf.mlir"), "--junit", str(junit))
    assert code == 0
    assumed = [o for o in doc["obligations"] if o["status"] == "assumed"]
    assert [o["id"] for o in assumed] == ["len.L0.terminates"]
    counting = [o for o in doc["obligations"] if o["kind"] in ("length", "balance") and o["status"] == "proved"]
    assert counting and all(o["assumes"] == ["L0 terminates"] for o in counting)
    assert all(o["assumes"] == [] for o in doc["obligations"] if o["kind"] == "fsm")
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("skipped") == "1"
    text = loom("verify", str(ROOT / "examples" / "collatz.scf.mlir")).stdout
    assert "(if L0 terminates)" in text and "1 assumed" in text


FREE_STEP = """func.func @strided(%a: memref<?xf64>, %lb: index, %ub: index, %step: index) -> f64 {
  %zf = arith.constant 0.0 : f64
  %s = scf.for %i = %lb to %ub step %step iter_args(%acc = %zf) -> (f64) {
    %v = memref.load %a[%i] : memref<?xf64>
    %acc2 = arith.addf %acc, %v : f64
    scf.yield %acc2 : f64
  }
  return %s : f64
}
"""


def test_a_free_step_is_refuted_as_the_source_s_undefined_step(tmp_path):
    """A step the source leaves undefined (zero or negative) is blamed on the input program: the stream
    precondition names scf.for's positive-step rule, and the BMC run that fails on a zero step says the source
    stops on the same arguments (replayed in the interpreter), instead of a bare DFG runtime error."""
    src = tmp_path / "strided.scf.mlir"
    src.write_text(FREE_STEP)
    code, doc = _json(str(src))
    assert code == 1
    bad = {o["id"]: o for o in doc["obligations"] if o["status"] == "refuted"}
    pre = bad["fsm.stream.pre.%index"]
    step = int(pre["counterexample"]["arguments"]["step"])
    assert pre["counterexample"]["finding"] == "input"
    if step <= 0:
        assert "scf.for leaves undefined" in pre["detail"] and "wraps too" not in pre["detail"]
    run = bad["bmc.K4.deadlock"]
    assert run["counterexample"]["kind"] == "error" and "RT_DATAFLOW_STREAM_ZERO_STEP" in run["detail"]
    assert run["counterexample"]["finding"] == "input"
    assert run["counterexample"]["source_error"].startswith("RT_SCF_FOR_STEP")
    assert "the source stops on these arguments too" in run["detail"]
    # the same refutation on the DFG alone names no source
    assert loom_here("compile", str(src), "-o", str(tmp_path)).returncode == 0
    code, doc = _json(str(tmp_path / "strided.dfg.mlir"))
    run = next(o for o in doc["obligations"] if o["id"] == "bmc.K4.deadlock")
    assert run["status"] == "refuted" and "finding" not in run["counterexample"]


def test_findings_name_a_non_positive_scf_for_step():
    """The stream-precondition note for scf.for steps the source leaves undefined (signed: <= 0)."""
    from loom.interp.ops_scf import FOR_STEP
    from loom.mlir import parse_text
    from loom.verify.lemmas import findings
    from loom.verify.obligation import Obligation

    module = parse_text(FREE_STEP, "strided.scf.mlir")
    func = next(op for op in module.walk() if op.name == "func.func")
    loop = next(op for op in func.walk() if op.name == "scf.for")

    class Stream:  # the stream the loop was lowered to: only its location matters here
        loc = loop.loc

    for step, says in ((-2, "scf.for leaves undefined"), (0, "scf.for leaves undefined")):
        ob = Obligation("fsm.stream.pre.%index", "fsm", "refuted", 0.0, "pre -- x", counterexample={
            "operands": {"start": 2, "step": step, "bound": 3}, "arguments": {"lb": 2, "ub": 3, "step": step}})
        got = findings.classify(ob, Stream(), "+=", "<", func)  # type: ignore[arg-type]
        assert says in got.detail and FOR_STEP in got.detail, got.detail


def test_linear_assumptions_state_what_sizes_a_merge_needs(tmp_path):
    """Sums and constant multiples (over the mathematical integers): a merge of a and b into out needs
    dim(a) + dim(b) <= dim(out); with it every safety obligation is proved, without it out's store is refuted."""
    from loom.verify.assume import Sum

    a = parse_assumption("dim(a) + dim(b) <= dim(out) && 0 <= n - 1 < 2 * m")
    assert isinstance(a.atoms[0].left, Sum) and a.names() == {"dim(a,0)", "dim(b,0)", "dim(out,0)", "n", "m"}
    assert holds([a], {"n": 3, "m": 2}) and not holds([a], {"n": 0, "m": 2}) and not holds([a], {"n": 9, "m": 2})
    src = tmp_path / "cat.scf.mlir"
    text = """func.func @cat(%a: memref<?xi32>, %b: memref<?xi32>, %out: memref<?xi32>) ASSUME{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %na = memref.dim %a, %c0 : memref<?xi32>
  %nb = memref.dim %b, %c0 : memref<?xi32>
  scf.for %i = %c0 to %na step %c1 {
    %v = memref.load %a[%i] : memref<?xi32>
    memref.store %v, %out[%i] : memref<?xi32>
  }
  scf.for %j = %c0 to %nb step %c1 {
    %v = memref.load %b[%j] : memref<?xi32>
    %k = arith.addi %na, %j : index
    memref.store %v, %out[%k] : memref<?xi32>
  }
  return
}
"""
    src.write_text(text.replace("ASSUME", 'attributes {loom.assume = ["dim(a) + dim(b) <= dim(out)"]} '))
    code, doc = _json(str(src))
    assert code == 0 and all(o["status"] == "proved" for o in doc["obligations"] if o["kind"] == "safety")
    src.write_text(text.replace("ASSUME", 'attributes {loom.assume = ["dim(a) <= dim(out)"]} '))
    code, doc = _json(str(src))
    bad = [o["id"] for o in doc["obligations"] if o["status"] == "refuted"]
    assert code == 1 and bad == ["safe.store@13:5.bounds"]
