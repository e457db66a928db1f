"""Verdicts never depend on the machine or its load (issue 24, item 3).

Without --timeout or --budget no wall clock decides anything in ``loom verify``: every Z3 check runs under a
resource limit (``rlimit``, a count of the solver's work), the BMC cross-check under counts of explored states and
of its queries' resource units. What runs out is ``unknown`` and names the limit; with --timeout/--budget the wall
clock applies and what runs out is reported as a timeout. ``tools/verdict_sweep.py`` runs the same comparison over
every example, test kernel and corpus file.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time

import z3

from loom.map.mapper import MapFailure, map_dfg
from loom.verify import VerifyContext, verify_file
from loom.verify.obligation import DEFAULT_BMC_RLIMIT, DEFAULT_MAX_STATES, DEFAULT_RLIMIT
from loom.verify.report import json_of, junit_of, sarif_of
from loom.verify.solve import QuerySession, ScopedChecks, run_query

from support.paths import DATA, ROOT
from support.map import default_mesh, dfg_of_file

EXAMPLES = ROOT / "examples"
DATA = DATA

_spec = importlib.util.spec_from_file_location("verdict_sweep", ROOT / "tools" / "verdict_sweep.py")
sweep = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep)

# bmc (the 4-deep convolution: ~0.45M explored states; and an exploration its resource budget cuts), lemmas,
# lengths (a while loop in the gcd), memory order, refinement and safety (SCF sources), and a refuted DFG
UNDER_LOAD = [
    DATA / "kernels" / "conv4.scf.mlir",
    EXAMPLES / "matmul.scf.mlir",
    DATA / "handwritten" / "slow_gcd_join_back.mlir",
    DATA / "handwritten" / "bad_carry_on_after_cond.mlir",
]


def verify_json(*args: str, pin: bool = False) -> tuple[int, dict]:
    """``loom verify --json ARGS`` in a subprocess (pinned to one CPU with ``pin``): exit code and document."""
    cpu = min(os.sched_getaffinity(0))

    def one_cpu() -> None:
        os.sched_setaffinity(0, {cpu})

    r = subprocess.run([sys.executable, "-m", "loom", "verify", "--json", *args], capture_output=True, text=True,
                       cwd=ROOT, timeout=600, preexec_fn=one_cpu if pin else None)
    assert r.returncode in (0, 1, 3), r.stderr
    return r.returncode, json.loads(r.stdout)


def test_verdicts_are_the_same_idle_and_pinned_to_one_core_beside_a_cpu_hog():
    """The loaded run is pinned to one core and shares it with a busy loop: it loses its parallel workers
    (--jobs defaults to the cores) and half of its one core, so on an idle 2-core machine it runs about four
    times slower than the idle run -- one run slower than either of the two it replaces (pinned alone; beside
    two unpinned hogs), for 26 s of CPU instead of 41."""
    files = [str(p) for p in UNDER_LOAD]
    idle_code, idle = verify_json(*files)
    (hog,) = sweep.start_hogs(1)
    try:
        os.sched_setaffinity(hog.pid, {min(os.sched_getaffinity(0))})  # the core verify_json(pin=True) takes
        loaded_code, loaded = verify_json(*files, pin=True)
    finally:
        sweep.stop_hogs([hog])
    assert hog.poll() is not None  # the hog is gone
    want = sweep.verdicts(idle)
    assert idle_code == loaded_code == 1  # the refuted DFG
    assert sweep.verdicts(loaded) == want
    # what the runs decided: the convolution's BMC is proved, the gcd's exploration is cut by its resource budget
    assert want["conv4:bmc.K4.deadlock"][0] == "proved"
    gcd = want["gcd:bmc.K4.deadlock"]
    assert gcd[0] == "unknown" and f"joint resource limit of {DEFAULT_BMC_RLIMIT} rlimit units" in gcd[1]
    assert idle["summary"]["limits"] == {"rlimit": DEFAULT_RLIMIT, "max_states": DEFAULT_MAX_STATES,
                                         "bmc_rlimit": DEFAULT_BMC_RLIMIT, "bmc_k": 4, "timeout": None,
                                         "budget": None}


JUMPING_CLOCK = """
import json, sys, time
from loom.verify import VerifyContext, verify_file
from loom.verify.report import json_of
readings = [0]
if sys.argv[1] == "jump":  # a clock that jumps 1000 s at every reading
    now = [time.perf_counter()]
    def jumping():
        now[0] += 1000.0
        readings[0] += 1
        return now[0]
    time.perf_counter = time.monotonic = jumping
print(json.dumps(json_of(verify_file(sys.argv[2], VerifyContext()))))
print(readings[0])
"""


def test_no_wall_clock_decides_anything_without_timeout_or_budget():
    """A clock that jumps 1000 s at every reading changes no verdict: nothing compares time with a deadline.
    (Each run in a fresh process: Z3's work on a query depends on what the process built before.)"""
    for f in [EXAMPLES / "matmul.scf.mlir", EXAMPLES / "collatz.scf.mlir", DATA / "handwritten" / "bad_merge_spin.mlir"]:
        runs = {}
        for how in ("steady", "jump"):
            r = subprocess.run([sys.executable, "-c", JUMPING_CLOCK, how, str(f)], capture_output=True, text=True,
                               cwd=ROOT, timeout=600, check=True)
            doc, readings = (json.loads(line) for line in r.stdout.splitlines())
            assert (readings > 0) == (how == "jump")  # the clock was read (and ignored)
            runs[how] = sweep.verdicts(doc)
        assert runs["jump"] == runs["steady"], f.name


def _pigeons(n: int) -> list:
    xs = [z3.BitVec(f"pigeon{n}_{i}", 8) for i in range(n + 1)]
    return [z3.And(x >= 0, x < n) for x in xs] + [z3.Distinct(*xs)]


def test_a_query_that_exhausts_its_rlimit_is_unknown_and_says_so():
    hard = _pigeons(8)
    assert run_query(hard, want_smt2=False).status == "unsat"  # within the default limit
    r = run_query(hard, rlimit=1000, want_smt2=False)
    assert r.status == "unknown" and r.reason == "the resource limit of 1000 rlimit units ran out"
    s = QuerySession(None, want_smt2=False, rlimit=1000)
    got = s.check(hard)
    assert got.status == "unknown" and got.reason == "the resource limit of 1000 rlimit units ran out"
    assert not ScopedChecks().unsat(z3.And(*hard), None, rlimit=1000)


def test_the_resource_limit_holds_per_check_on_a_reused_solver():
    """Z3's counter is cumulative per context; the limit is counted from each check's start, so many checks on
    one solver, each well within the limit, are all answered -- the same answers as on fresh solvers."""
    queries = [_pigeons(5 + i % 2) for i in range(30)]
    fresh = [run_query(q, rlimit=400_000, want_smt2=False).status for q in queries]
    session = QuerySession(None, want_smt2=False, rlimit=400_000)
    assert [session.check(q).status for q in queries] == fresh == ["unsat"] * 30
    checks = ScopedChecks()
    assert all(checks.unsat(z3.And(*q), None, rlimit=400_000) for q in queries)


def test_an_rlimit_of_one_unit_proves_nothing_by_a_solver():
    code, doc = verify_json(str(EXAMPLES / "dot.scf.mlir"), "--rlimit", "1")
    assert code == 3
    obs = doc["obligations"]
    assert not [o["id"] for o in obs if o["status"] == "proved" and o["method"] == "smt"]
    lemma = next(o for o in obs if o["id"].startswith("fsm.") and o["status"] == "unknown")
    assert "the resource limit of 1 rlimit units ran out" in lemma["detail"], lemma
    assert any("the resource limit of 1 rlimit units ran out" in o["detail"] for o in obs if o["kind"] != "fsm")
    bmc = next(o for o in obs if o["id"] == "bmc.K4.deadlock")
    assert bmc["status"] == "unknown" and "a branch query ran out of its resource limit of 1 rlimit units" in \
        bmc["detail"], bmc
    assert doc["summary"]["limits"]["rlimit"] == 1 and doc["summary"]["limits"]["bmc_rlimit"] == DEFAULT_BMC_RLIMIT


def test_a_state_limit_makes_the_bmc_unknown_and_names_it():
    code, doc = verify_json(str(EXAMPLES / "matmul.scf.mlir"), "--max-states", "100")
    assert code == 3
    for o in (x for x in doc["obligations"] if x["id"].startswith("bmc.")):
        assert o["status"] == "unknown" and "the limit of 100 explored states (firings) ran out" in o["detail"], o


def test_a_tiny_timeout_is_reported_as_a_timeout_never_proved():
    code, doc = verify_json(str(EXAMPLES / "dot.scf.mlir"), "--timeout", "0.0001")
    assert code == 3
    obs = doc["obligations"]
    assert not [o["id"] for o in obs if o["status"] == "proved" and o["method"] in ("smt", "simulation")]
    assert any(o["detail"].startswith("timeout") or "(timeout" in o["detail"] for o in obs if o["kind"] == "fsm")
    bmc = next(o for o in obs if o["id"] == "bmc.K4.deadlock")
    assert bmc["status"] == "unknown" and "the time budget of 0.0001s ran out" in bmc["detail"], bmc
    assert doc["summary"]["limits"]["timeout"] == 0.0001 and doc["summary"]["limits"]["rlimit"] == DEFAULT_RLIMIT


def test_the_limits_are_recorded_in_every_report_format():
    reports = verify_file(EXAMPLES / "dot.scf.mlir", VerifyContext(rlimit=123_456_789, max_states=777))
    doc = json_of(reports)
    assert doc["summary"]["limits"]["rlimit"] == 123_456_789
    assert doc["summary"]["functions"][0]["limits"]["max_states"] == 777
    assert '<property name="limit.rlimit" value="123456789" />' in junit_of(reports)
    assert sarif_of(reports)["runs"][0]["properties"]["limits"]["max_states"] == 777


def test_verdicts_of_a_file_do_not_depend_on_the_files_verified_before_it():
    """Z3's work on a query depends on the terms the process made before; ``loom verify`` gives each file a
    process of its own, so a verdict a limit cut (the gcd's exploration) reads the same alone and in a batch."""
    gcd = str(DATA / "handwritten" / "slow_gcd_join_back.mlir")
    _, alone = verify_json(gcd)
    _, batch = verify_json(str(EXAMPLES / "collatz.scf.mlir"), str(EXAMPLES / "dot.scf.mlir"), gcd)
    a = sweep.verdicts(alone)
    b = {k.split(":", 1)[1]: v for k, v in sweep.verdicts(batch).items() if k.startswith("gcd:")}
    assert a == b


def test_map_without_a_budget_reads_no_clock(monkeypatch):
    """Without --budget the mapper is limited by its count of seeded attempts only: a clock that jumps an hour
    at every reading gives the same mapping."""
    adg = default_mesh()
    dfg = dfg_of_file(EXAMPLES / "dot.scf.mlir", max_join_fanin=adg.max_join_fanin())
    first = _mapped(dfg, adg)
    now = [time.monotonic()]

    def jumping() -> float:
        now[0] += 3600.0
        return now[0]

    monkeypatch.setattr(time, "monotonic", jumping)
    assert _mapped(dfg, adg) == first
    assert first[0] == "mapped"


def _mapped(dfg, adg):
    try:
        m = map_dfg(dfg, adg, seed=0)
    except MapFailure as e:
        return ("failure", tuple(e.reasons), e.attempts)
    return ("mapped", tuple(sorted((k, str(v)) for k, v in m.place.items())), m.attempts)


def test_the_limit_options_are_range_checked():
    for flag, value, want in (("--rlimit", "0", "--rlimit must be in 1..4294967295 (got 0)"),
                              ("--rlimit", "4294967296", "--rlimit must be in 1..4294967295 (got 4294967296)"),
                              ("--max-states", "0", "--max-states must be >= 1 (got 0)"),
                              ("--bmc-rlimit", "-5", "--bmc-rlimit must be >= 1 (got -5)")):
        r = subprocess.run([sys.executable, "-m", "loom", "verify", str(EXAMPLES / "dot.scf.mlir"), flag, value],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert r.returncode == 2 and r.stdout == "", (flag, value, r.stdout)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "[CLI_USAGE]" in lines[0] and want in lines[0], lines


def test_a_symbiyosys_task_stopped_at_its_time_limit_is_reported_as_a_timeout_never_a_pass(tmp_path):
    """verify --rtl: a SymbiYosys task killed at its wall-clock limit is an unknown verdict that says so (it is
    not retried: the same limit would stop it again), never proved or bounded."""
    from types import SimpleNamespace

    from loom.hdl.formal.sby import run_task_retry, sby_available, timed_out
    from loom.hdl.formal.verify import monitor_verdicts

    assert sby_available(), "yowasp-sby comes with loom[test]"
    (tmp_path / "x.sby").write_text("[tasks]\nt\n\n[options]\nmode bmc\n")
    t0 = time.perf_counter()
    v = run_task_retry(tmp_path, "x.sby", "t", timeout=0.001)
    assert time.perf_counter() - t0 < 60
    assert v.status == "error" and timed_out(v) and v.log == "timeout after 0.001 s", v
    mon = SimpleNamespace(obligation="len.L0.raw", label="p_len_L0_raw", instance=None)
    (got,) = monitor_verdicts(v, [mon], {"len.L0.raw": "proved"}, depth=10)
    assert got.status == "unknown" and "timeout after 0.001 s" in got.detail, got
