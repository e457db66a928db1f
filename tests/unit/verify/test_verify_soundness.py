"""Verdicts that can be trusted: caps and time limits give "unknown" (never "proved"), livelocks are found,
every obligation says how it was decided, and what was not checked is said (issues 12 and 13)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from loom.mlir import parse_file
from loom.sim import simulate
from loom.verify import VerifyContext, verify_file, verify_function
from loom.verify.bmc import explore as bmc
from loom.verify.bmc import limits as bmc_limits
from loom.verify.lemmas.check import LemmaCache
from loom.verify.obligation import METHODS, NATURES
from loom.verify.report import human_of, json_of, junit_of, sarif_of

from support.paths import DATA, ROOT

DATA = DATA / "handwritten"


def dfg(name: str):
    return [f for f in parse_file(DATA / name).functions() if f.name == "handshake.func"][0]


def by_id(report) -> dict:
    return {o.id: o for o in report.obligations}


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loom", "verify", "-q", *args], check=False,
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)


# ---------------------------------------------------------------------------- caps and livelock (issue 13)
def test_the_merge_spin_reproducer_is_a_livelock_not_a_proof():
    obs = bmc.check_bmc(dfg("bad_merge_spin.mlir"), VerifyContext(bmc_k=2, timeout=20))
    got = {o.id: o for o in obs}
    live = got["bmc.K2.livelock"]
    assert live.status == "refuted" and live.nature == "behaviour"
    assert live.counterexample["arguments"] == {"c": 0}
    assert live.counterexample["schedule"] == ["handshake.merge %m", "handshake.sink", "handshake.fork %fb"]
    assert all(got[k].status == "unknown" for k in ("bmc.K2.deadlock", "bmc.K2.residual"))
    # the schedule is real: with those arguments the simulator never completes
    res = simulate(dfg("bad_merge_spin.mlir"), {"c": False}, max_steps=5000)
    assert res.status == "error" and "RT_SIM_STEP_LIMIT" in str(res.error)


def test_a_run_cut_by_the_per_loop_cap_is_unknown_and_names_the_cap():
    obs = bmc.check_bmc(dfg("ok_branch_long_loop.mlir"), VerifyContext(bmc_k=2, timeout=20))
    assert {o.id for o in obs} == {"bmc.K2.deadlock", "bmc.K2.residual"}
    for o in obs:
        assert o.status == "unknown", o.detail
        assert "per-loop cap" in o.detail and str(bmc.CONCRETE_CAP) in o.detail


def test_a_run_cut_by_the_firing_cap_is_unknown_and_names_the_cap(monkeypatch):
    monkeypatch.setattr(bmc_limits, "STEP_CAP", 2_000)
    monkeypatch.setattr(bmc_limits, "CONCRETE_CAP", 100_000)  # the loop header is bounded: let the firing cap cut first
    obs = bmc.check_bmc(dfg("ok_cmerge_count_up.mlir"), VerifyContext(bmc_k=2, timeout=20))
    for o in obs:
        assert o.status == "unknown" and "firing cap" in o.detail, o.detail


def test_the_memory_cap_is_unknown_too(monkeypatch):
    """Runs waiting beyond the queue cap are not explored: never proved."""
    monkeypatch.setattr(bmc_limits, "PENDING_CAP", 0)
    obs = bmc.check_bmc(dfg("ok_cmerge_if.mlir"), VerifyContext(bmc_k=2, timeout=20))
    assert all(o.status == "unknown" and "memory cap" in o.detail for o in obs), [o.detail for o in obs]


def test_without_a_cap_the_same_networks_are_still_proved():
    obs = bmc.check_bmc(dfg("ok_cmerge_if.mlir"), VerifyContext(bmc_k=2, timeout=20))
    assert all(o.status == "proved" for o in obs), [o.detail for o in obs]


# ---------------------------------------------------------------------------- time limits (issue 12)
def test_gcd_with_a_data_dependent_control_merge_loop_finishes_within_its_budget():
    t0 = time.perf_counter()
    out = cli("--timeout", "2", "--budget", "4", str(DATA / "slow_gcd_join_back.mlir"))
    took = time.perf_counter() - t0
    assert out.returncode == 3, out.stdout + out.stderr
    assert took < 4 + 8, took  # the budget, plus interpreter start-up and the watchdog's grace
    assert "REFUTED" not in out.stdout and re.search(r"unknown\s+bmc\.K4\.deadlock", out.stdout)


def test_a_cmerge_loop_header_bounds_the_gcd_and_its_zero_fixed_point_is_refuted():
    """The same gcd with a br back edge is CIRCT's loop header: typed as a carry, bounded in the explorer."""
    out = cli("--timeout", "2", "--budget", "4", str(DATA / "bad_gcd_cmerge_zero.mlir"))
    assert out.returncode == 1, out.stdout + out.stderr
    assert re.findall(r"REFUTED\s+(\S+)", out.stdout) == ["len.L0.terminates"], out.stdout
    assert "a=0" in out.stdout and not re.search(r"^\s+unknown\s", out.stdout, re.M), out.stdout


def test_the_explorer_never_outlives_its_budget():
    t0 = time.perf_counter()
    res = bmc.explore(dfg("slow_gcd_join_back.mlir"), 4, 1.0)
    assert time.perf_counter() - t0 < 3.0
    assert res.status == "budget" and res.bound < 4


def test_a_budget_bounds_the_whole_function_and_lists_what_it_skipped():
    """matmul takes ~0.7 s in all; a budget far below that (0.3 s was, before the lemmas got faster, but the last
    checker could then start in time) must skip a checker and say so."""
    t0 = time.perf_counter()
    [r] = verify_file(ROOT / "examples" / "matmul.scf.mlir", VerifyContext(budget=0.05), cache=LemmaCache())
    assert time.perf_counter() - t0 < 0.05 + 2.5
    assert not [o for o in r.obligations if o.status == "refuted"]
    unknown = [o for o in r.obligations if o.status == "unknown"]
    assert unknown and r.exit_code() == 3
    assert any(o.id.startswith("internal.") and "budget" in o.detail for o in unknown)


def test_a_sub_millisecond_timeout_is_no_time_at_all():
    """No solver query may prove anything with less than 1 ms (it used to switch the limit off)."""
    [r] = verify_file(ROOT / "examples" / "dot.scf.mlir", VerifyContext(timeout=0.0004), cache=LemmaCache())
    smt = [o for o in r.obligations if o.method == "smt"]
    assert smt and all(o.status == "unknown" for o in smt), [o.id for o in smt if o.status != "unknown"]


def test_lengths_logic_keeps_a_limit_below_one_millisecond():
    from loom.verify.lengths.logic import Logic

    s = Logic(0.0004).solver()
    s.add(True)
    assert str(s.check()) == "unknown"


@pytest.mark.parametrize("flag,value", [("--timeout", "inf"), ("--timeout", "nan"), ("--timeout", "-1"),
                                        ("--timeout", "0"), ("--budget", "inf"), ("--budget", "-3")])
def test_time_limits_must_be_positive_and_finite(flag, value):
    out = cli(flag, value, str(DATA / "ok_cmerge_if.mlir"), timeout=60)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and "OverflowError" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and flag in out.stderr, out.stderr


# ---------------------------------------------------------------------------- how, and what was not checked
def test_every_obligation_says_how_it_was_decided_in_every_format():
    r = verify_function(dfg("bad_cross_domain.mlir"), VerifyContext(bmc_k=2, timeout=20), cache=LemmaCache())
    assert all(o.method in METHODS for o in r.obligations)
    doc = json_of([r])
    assert all("method" in o and "rule" in o for o in doc["obligations"])
    text = human_of([r], verbose=True)
    assert "[graph: domain independence]" in text and "[smt" in text
    cases = ET.fromstring(junit_of([r])).iter("testcase")
    assert all(c.find("properties/property[@name='method']") is not None for c in cases)
    results = sarif_of([r])["runs"][0]["results"]
    assert all(res["properties"]["method"] in METHODS for res in results)


def test_refutations_say_behaviour_or_spec_rule_and_sarif_levels_follow():
    spec = verify_function(dfg("bad_cross_domain.mlir"), VerifyContext(bmc_k=2, timeout=20), cache=LemmaCache())
    behave = verify_function(dfg("bad_cycle_deadlock.mlir"), VerifyContext(bmc_k=2, timeout=20),
                             cache=LemmaCache())
    for r in (spec, behave):
        for o in r.obligations:
            if o.status == "refuted":
                assert o.nature in NATURES, o.id
    indep = [o for o in spec.obligations if o.id.startswith("mem.indep.") and o.status == "refuted"]
    assert indep and all(o.nature == "spec rule" for o in indep)
    dead = by_id(behave)["bmc.K2.deadlock"]
    assert dead.status == "refuted" and dead.nature == "behaviour"
    levels = {res["properties"]["obligation"]: (res["level"], res["properties"].get("nature"))
              for res in sarif_of([spec, behave])["runs"][0]["results"] if res["kind"] == "fail"}
    assert all(lv == ("error" if nat == "behaviour" else "warning") for lv, nat in levels.values()), levels
    assert "(spec rule)" in human_of([spec]) and "(behaviour)" in human_of([behave])
    assert {o["nature"] for o in json_of([spec])["obligations"] if o["status"] == "refuted"} >= {"spec rule"}


def test_a_dfg_without_its_source_says_refinement_was_not_checked(tmp_path):
    f = str(DATA / "ok_cmerge_if.mlir")
    junit, sarif = tmp_path / "r.xml", tmp_path / "r.sarif"
    out = cli("--json", "--junit", str(junit), "--sarif", str(sarif), f)
    assert out.returncode == 0, out.stdout + out.stderr
    doc = json.loads(out.stdout)
    [entry] = [o for o in doc["obligations"] if o["id"] == "refine"]
    assert entry["status"] == "unchecked" and entry["detail"].startswith("not checked (no --source)")
    case = [c for c in ET.parse(junit).iter("testcase") if c.get("name") == "refine"][0]
    assert "not checked (no --source)" in case.find("skipped").get("message")
    res = [x for x in json.loads(sarif.read_text())["runs"][0]["results"]
           if x["properties"]["obligation"] == "refine"][0]
    assert res["kind"] == "notApplicable" and "not checked (no --source)" in res["message"]["text"]
    r = verify_function(dfg("ok_cmerge_if.mlir"), VerifyContext(bmc_k=1, timeout=20), cache=LemmaCache())
    assert re.search(r"skipped\s+refine .*not checked \(no --source\)", human_of([r]))
    assert r.exit_code() == 0
    strict = cli("--require-source", f)
    assert strict.returncode == 3 and re.search(r"unknown\s+refine", strict.stdout), strict.stdout


def test_a_crash_in_one_lemma_keeps_the_other_lemmas_listed(monkeypatch):
    from loom.verify.lemmas import check as lemmas

    real = lemmas.prove

    def flaky(machine, contract, name, **kw):
        if machine.op_name == "handshake.fork":
            raise RuntimeError("boom")
        return real(machine, contract, name, **kw)

    monkeypatch.setattr(lemmas, "prove", flaky)
    r = verify_function(dfg("ok_cmerge_if.mlir"), VerifyContext(bmc_k=1, timeout=20), cache=LemmaCache(),
                        checkers=("lemmas",))
    got = by_id(r)
    forks = [o for oid, o in got.items() if oid.startswith("fsm.fork[")]
    assert forks and all(o.status == "unknown" and "boom" in o.detail for o in forks)
    assert any(oid.startswith("fsm.cond_br[") and o.status == "proved" for oid, o in got.items())
    assert "internal.lemmas" not in got


def test_a_crashed_or_skipped_checker_still_lists_its_obligations(monkeypatch):
    """internal.<checker> says what happened; the obligations the checker would have reported are listed
    as unknown next to it (never dropped)."""
    from loom.verify.memory import order as memory_order

    def boom(*args, **kw):
        raise RuntimeError("boom")

    monkeypatch.setattr(bmc, "check_bmc", boom)
    monkeypatch.setattr(memory_order, "check_memory_order", boom)  # what the registry's memory checker calls
    r = verify_function(dfg("bad_cross_domain.mlir"), VerifyContext(bmc_k=3, timeout=20), cache=LemmaCache())
    got = by_id(r)
    for oid in ("internal.bmc", "bmc.K3.deadlock", "bmc.K3.residual", "internal.memory"):
        assert got[oid].status == "unknown" and "boom" in got[oid].detail, oid
    orders = [o for o in r.obligations if re.match(r"mem\.[^.]+\.order$", o.id)]
    assert orders and all(o.status == "unknown" for o in orders)
    assert any(o.id.startswith("mem.indep.") and o.status == "refuted" for o in r.obligations)  # others still run
