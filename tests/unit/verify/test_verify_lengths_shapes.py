"""Issue 24 (items 4, 5): shapes of hand-written DFGs the length calculus used to get wrong, as twin pairs.

Each pair under tests/data/handwritten has an inputs file (``<name>.inputs.json``) and is checked two ways:
``loom verify`` (the clock calculus, with its refutations replayed) and ``loom sim`` (the token simulator).

* ``ok_exit_test_raw``: the loop's exit test compares the raw index with an invariant of the raw condition
  -- a boundary computation, refuted before as a body-local consumer (class.%idx '(behaviour)') though
  every run ends clean; ``bad_exit_split_after`` splits the exit value on after_cond instead.
* ``ok_body_next_cond``: ``(i + 1) < n`` computed in the body re-arms an invariant and drives the memory
  carry where after_cond would; ``bad_body_next_cond_raw`` computes i + 1 from the raw index.
* ``ok_capture_at_k``: a token captured at iteration ``i == k`` and taken by a function-level mux;
  ``bad_capture_found_le`` selects it for ``k <= n`` (no token exists for k = n).
* ``ok_primed_fib``: a primed buffer on a carry (Fibonacci's previous value); ``bad_primed_fib_raw`` feeds
  it the carry's raw output.

Correct DFGs get no unknown (every obligation proved); each faulty twin is refuted, and every refuted
length obligation carries the token-simulator run that shows it, which ``loom sim`` reproduces.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from loom.mlir import parse_file, parse_text
from loom.sim import simulate
from loom.verify.driver import verify_function
from loom.verify.lengths.check import check_lengths
from loom.verify.lemmas.check import LemmaCache
from loom.verify.obligation import VerifyContext

from support.cli import loom_here
from support.paths import DATA, ROOT

DATA = DATA / "handwritten"
TWINS = {
    "ok_exit_test_raw": "bad_exit_split_after",
    "ok_body_next_cond": "bad_body_next_cond_raw",
    "ok_capture_at_k": "bad_capture_found_le",
    "ok_primed_fib": "bad_primed_fib_raw",
}
CTX = VerifyContext(bmc_k=3, timeout=20)
CACHE = LemmaCache()
LENGTHS = ("len.", "balance.", "class.", "idiom.")


def dfg(name: str):
    return [f for f in parse_file(DATA / f"{name}.mlir").functions() if f.name == "handshake.func"][0]


def inputs(name: str) -> dict:
    return json.loads((DATA / f"{name}.inputs.json").read_text())


def lengths(name: str):
    return check_lengths(dfg(name), CTX)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loom", *args], check=False, capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


# ---------------------------------------------------------------------------- correct DFGs: no unknown
@pytest.mark.parametrize("name", sorted(TWINS))
def test_correct_shape_is_proved_without_unknowns(name):
    obs = verify_function(dfg(name), CTX, cache=CACHE).obligations
    bad = [f"{o.id}: {o.status}: {o.detail}" for o in obs if o.status in ("refuted", "unknown")]
    assert not bad, bad
    assert any(o.id.startswith("balance.") for o in obs)


@pytest.mark.parametrize("name", sorted(TWINS))
def test_correct_shape_runs_clean_in_the_simulator(name):
    """``loom sim`` on the inputs file: the run completes and leaves no token."""
    out = loom_here("sim", str(DATA / f"{name}.mlir"), "--inputs", str(DATA / f"{name}.inputs.json"),
                    "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    doc = json.loads(out.stdout)
    assert doc["status"] == "completed" and doc["residual_tokens"] == 0, doc


def test_exit_test_on_the_raw_clock_is_a_raw_class_not_a_body_local_fault():
    """The computed exit test fires N+1 times, at the exit too: a pure op on the raw clock, no fault. Its
    condition is the stream's own (j < N), so the exit split projects like one on the stream's condition."""
    obs = {o.id: o for o in lengths("ok_exit_test_raw")}
    assert "class.%idx2#0" not in obs  # the raw index copy no body-local consumer reads (the load reads %iv)
    assert obs["class.%idx"].status == "proved" and "(raw)" in obs["class.%idx"].detail
    assert "(raw)" in obs["class.%acc"].detail and "(body)" in obs["class.%acc_t"].detail
    assert obs["class.%acc_f"].status == "proved" and "1 token per run" in obs["class.%acc_f"].detail
    assert obs["balance.%acc"].status == "proved" and obs["len.L0.after_cond"].status == "proved"


def test_a_gate_on_the_computed_exit_test_is_a_gate_of_the_loop():
    """The gate may read the computed exit test (idx < invariant-of-raw(n)) instead of the stream's condition:
    every length obligation is proved (the DFG's safety model does not relate its body index to n then, so
    only the length calculus is asked here)."""
    text = (DATA / "ok_exit_test_raw.mlir").read_text()
    text = text.replace("%mf:2 = handshake.fork [2] %more : i1", "%mf:3 = handshake.fork [3] %more : i1")
    text = text.replace("%iv, %ac = dataflow.gate %idx2#1, %cf#1", "handshake.sink %cf#1 : i1\n"
                        "    %iv, %ac = dataflow.gate %idx2#1, %mf#2")
    f = [g for g in parse_text(text, "gate_more.mlir").functions() if g.name == "handshake.func"][0]
    obs = {o.id: o for o in check_lengths(f, CTX)}
    assert all(o.status == "proved" for o in obs.values()), [(o.id, o.detail) for o in obs.values()
                                                              if o.status != "proved"]
    assert obs["len.L0.after_cond"].status == "proved"
    for inputs in ({"a": [3, 4, 5], "n": 3}, {"a": [], "n": 0}):
        res = simulate(f, inputs)
        assert res.status == "completed" and res.residual_tokens == 0


def test_a_memory_access_at_the_exit_position_is_still_body_local():
    """Only memory accesses are body-local: ok_exit_test_raw with the load reading the raw index (its ctrl
    carry and done split on the computed exit test, so the load itself is balanced) accesses a[n] at the
    exit: refuted, and the replayed run shows the load taking N+1 addresses for N iterations."""
    text = (DATA / "ok_exit_test_raw.mlir").read_text()
    text = text.replace("%idx2:2 = handshake.fork [2] %idx : index", "%idx2:3 = handshake.fork [3] %idx : index")
    text = text.replace("handshake.load [%iv]", "handshake.load [%idx2#2]")
    text = text.replace("%mf:2 = handshake.fork [2] %more : i1", "%mf:4 = handshake.fork [4] %more : i1")
    text = text.replace("%mctl = dataflow.carry %ac2#0, %mem_t, %body_done",
                        "handshake.sink %ac2#0 : i1\n    %mctl = dataflow.carry %mf#2, %mem_t, %body_done")
    text = text.replace("%body_done, %exit_done = handshake.cond_br %ac2#1, %ld_done",
                        "handshake.sink %ac2#1 : i1\n    %body_done, %exit_done = handshake.cond_br %mf#3, %ld_done")
    text = text.replace("%iv, %ac = dataflow.gate", "%iv_unused, %ac = dataflow.gate")
    text = text.replace("%ac2:2 = handshake.fork [2] %ac : i1",
                        "handshake.sink %iv_unused : index\n    %ac2:2 = handshake.fork [2] %ac : i1")
    f = [g for g in parse_text(text, "raw_load.mlir").functions() if g.name == "handshake.func"][0]
    obs = {o.id: o for o in check_lengths(f, CTX)}
    cls = [o for o in obs.values() if o.id.startswith("class.") and o.status == "refuted"]
    assert cls and "body-local handshake.load" in cls[0].detail, [(o.id, o.status) for o in obs.values()]
    run = cls[0].counterexample["replay"]
    assert "consumed 2 token(s)" in run["why"] and run["status"] == "completed", run
    # the load's N+1 data tokens then meet the body's accumulator: that imbalance is refuted too, shown apart
    nxt = obs["balance.%next"]
    assert nxt.status == "refuted" and nxt.counterexample["replay"]["residual_channels"], nxt.detail


def test_computed_after_cond_is_the_gates_after_cond():
    obs = {o.id: o for o in lengths("ok_body_next_cond")}
    for oid in ("balance.%kb", "balance.%mctl", "balance.%body_done", "class.%kb", "class.%mctl"):
        assert obs[oid].status == "proved", (oid, obs[oid].detail)
    assert "N_L0 per activation of L0 (body)" in obs["class.%kb"].detail


def test_captured_token_is_on_the_activation_clock():
    obs = {o.id: o for o in lengths("ok_capture_at_k")}
    assert obs["balance.%x"].status == "proved" and obs["balance.%x"].method == "smt"


def test_primed_buffer_on_a_carry_is_a_delay_line():
    obs = {o.id: o for o in lengths("ok_primed_fib")}
    assert all(o.status == "proved" for o in obs.values()), [(o.id, o.detail) for o in obs.values()
                                                              if o.status != "proved"]
    assert "balance.%prev" not in obs  # typed (no side condition of its own): its consumer checks its clock
    assert obs["balance.%next"].status == "proved" and obs["balance.%cur"].status == "proved"
    # the same buffer on the carry's feedback edge (the feedback lags one iteration): a delay line too
    text = (DATA / "ok_primed_fib.mlir").read_text().replace(
        "%cur = dataflow.carry %cf#0, %one, %next", "%cur = dataflow.carry %cf#0, %one, %fb").replace(
        "    %next = arith.addi %prev, %ct#1 : index",
        "    %next = arith.addi %prev, %ct#1 : index\n"
        "    %fb = handshake.buffer [1] seq %next {initValues = [0]} : index")
    f = [g for g in parse_text(text, "fb.mlir").functions() if g.name == "handshake.func"][0]
    obs = {o.id: o for o in check_lengths(f, CTX)}
    assert all(o.status == "proved" for o in obs.values()), [(o.id, o.detail) for o in obs.values()
                                                              if o.status != "proved"]
    res = simulate(f, {"n": 5})
    assert res.status == "completed" and res.residual_tokens == 0


# ---------------------------------------------------------------------------- faulty twins: replayed refutations
@pytest.mark.parametrize("name", sorted(TWINS.values()))
def test_faulty_twin_is_refuted_with_a_replayed_run(name):
    obs = lengths(name)
    refuted = [o for o in obs if o.status == "refuted"]
    assert refuted, [(o.id, o.status) for o in obs]
    for o in refuted:
        assert o.nature == "behaviour" and o.id.startswith(LENGTHS)
        run = o.counterexample["replay"]
        assert {"inputs", "status", "residual_channels", "why"} <= set(run), run
        # the attached run is what the token simulator does on those inputs (deterministic)
        res = simulate(dfg(name), run["inputs"], max_steps=200_000)
        assert res.status == run["status"], (o.id, res.status, run)
        assert res.status == "deadlock" or res.residual_tokens > 0, (o.id, run)
        if run["residual_channels"]:
            assert res.residual_tokens > 0


@pytest.mark.parametrize("name", sorted(TWINS.values()))
def test_faulty_twin_fails_in_the_simulator_and_in_verify(name):
    out = loom_here("sim", str(DATA / f"{name}.mlir"), "--inputs", str(DATA / f"{name}.inputs.json"),
                    "--json")
    doc = json.loads(out.stdout)
    assert doc["status"] == "deadlock" or doc["residual_tokens"] > 0, doc
    ver = _cli("verify", "-q", "--bmc-k", "2", str(DATA / f"{name}.mlir"))
    assert ver.returncode == 1 and "REFUTED  balance." in ver.stdout and "replay: " in ver.stdout, ver.stdout


def test_a_witness_no_run_shows_is_not_reported_refuted():
    """In bad_primed_fib_raw the addition's clock is garbage once its inputs disagree: the calculus also counts
    a token more on the carry's feedback than it consumes, which no run does (the addition never fires
    there). That obligation is unknown with what the runs showed, not a behaviour refutation."""
    obs = {o.id: o for o in lengths("bad_primed_fib_raw")}
    assert obs["balance.%next"].status == "refuted"
    cur = obs["balance.%cur"]
    assert cur.status == "unknown" and "does not show it" in cur.detail and cur.nature is None, cur.detail


# ---------------------------------------------------------------------------- the RTL monitors read the same clocks
def test_rtl_class_monitors_state_the_raw_clock_of_the_exit_test():
    """The RTL form of class.* (loom/hdl/monitors/classes.py) takes the clock from the same checks: the exit
    test's raw index copy has no body-local consumer, hence no body-class monitor; the raw channels are
    compared with the stream's own raw condition and the exit split's sides with its true tokens / the guard."""
    from loom.hdl.emit import emit

    mons = {m.obligation: m for m in emit(dfg("ok_exit_test_raw"), "xt").design.monitors.props}
    assert "class.%idx2#0" not in mons
    assert mons["class.%idx"].statement.startswith("raw class") and "%cont" in mons["class.%idx"].statement
    assert mons["class.%acc"].statement.startswith("raw class")
    assert mons["class.%acc_t"].statement.startswith("body class")
    assert mons["class.%acc_f"].statement.startswith("once class")


@pytest.mark.sby_slow
def test_rtl_monitors_hold_on_the_exit_test_dfg(tmp_path):
    """A bounded SymbiYosys run of every DFG-level monitor of ok_exit_test_raw (n <= 2, a whole run) finds no
    violation: the RTL agrees with Z3's proofs, and it did not refute the exit test as the old rule did."""
    from support.hdl import need
    from loom.hdl.emit import emit, write_all
    from loom.hdl.formal.sby import run_task

    need("yowasp-sby")
    need("yices-smt2")
    e = emit(dfg("ok_exit_test_raw"), "xt", rtl_bound=2, dfg_depth=45)
    assert any(m.obligation == "class.%acc" for m in e.design.monitors.props)
    write_all(tmp_path, e.files)
    v = run_task(tmp_path, "xt.sby", "dfg", timeout=900)
    assert v.status == "pass", (v.failed, v.log[-1500:])
