"""``loom verify`` on DFGs written by hand (tests/data/handwritten), in styles loom's lowering never emits.

Each file states in its comment header what ``loom verify`` must say and what the
token simulator shows:

    // verify: proved                    every obligation proved
    // verify: unknown <family>...       nothing refuted; the unknowns are exactly of these families
    // verify: refuted <family>...       each family has a refuted obligation (others may be refuted too)
    // verify: error <CODE> <line>:<col> the file is rejected when read (exit 2, located message)
    // sim: <inputs JSON> => completed [results] name=[contents]... | deadlock | residual | error <CODE>
    // twin: <file>                      the correct DFG this faulty one was derived from
    // budget: <seconds>                 a smaller solver/exploration budget (a run that never ends)

Correct DFGs must never be refuted. Every refutation must show as a real fault: its
counterexample replayed in the simulator deadlocks, leaves tokens, stops on a runtime
error, or the channel it names carries the counted number of tokens; a memory race
(``mem.<D>.order``, ``mem.alias``) computes other results or memory contents than the
correct twin; structural refutations name the spec rule (domain independence, done
postdominance).
"""

from __future__ import annotations

import functools
import itertools
import re
import subprocess
import sys
from typing import Optional

import pytest


from loom.diagnostics import LoomError
from loom.mlir import parse_file
from loom.runtime import function_arg_names
from loom.ir.types import MemRefType
from loom.sim import simulate
from loom.testing.differential import same_value
from loom.verify.driver import verify_function
from loom.verify.lemmas.check import LemmaCache
from loom.verify.obligation import Obligation, VerifyContext

from support.paths import ROOT
from support.handwritten import FILES, HANDWRITTEN, matches, spec

CTX = VerifyContext(bmc_k=3, timeout=20)
MAX_STEPS = 20_000
CACHE = LemmaCache()


@functools.lru_cache(maxsize=None)
def dfg(name: str):
    m = parse_file(HANDWRITTEN / name)
    return [f for f in m.functions() if f.name == "handshake.func"][0]


@functools.lru_cache(maxsize=None)
def report(name: str):
    s = spec(name)
    ctx = CTX if s.budget is None else VerifyContext(bmc_k=CTX.bmc_k, timeout=s.budget)
    return verify_function(dfg(name), ctx, cache=CACHE, checkers=TOKEN_CHECKERS)


# The headers speak of the token discipline; the safety obligations (addresses and arith ops against the inputs
# the file admits, which these files mostly leave unstated) are checked by their own test below.
TOKEN_CHECKERS = ("lemmas", "lengths", "structure", "memory", "refine", "bmc")


def by_status(name: str, status: str) -> list[Obligation]:
    return [o for o in report(name).obligations if o.status == status]


def runnable(kind: str) -> list[str]:
    return [n for n in FILES if spec(n).verdict == kind]


def sim_faulty(res) -> bool:
    return res.status != "completed" or res.residual_tokens > 0


# ---------------------------------------------------------------------------- the collection itself
def test_collection_is_large_and_mixed():
    kinds = [spec(n).verdict for n in FILES]
    correct = kinds.count("proved") + kinds.count("unknown")
    faulty = kinds.count("refuted") + kinds.count("error")
    assert len(FILES) >= 25 and correct >= 12 and faulty >= 12, (correct, faulty)
    for n in FILES:  # every file says what it is and is exercised in the simulator
        assert (HANDWRITTEN / n).read_text().startswith(f"// {n[:-len('.mlir')]}:"), n
        assert spec(n).verdict == "error" or spec(n).sims, n


def test_handwritten_styles_are_covered():
    """The collection uses what loom's own lowering never emits."""
    text = "\n".join((HANDWRITTEN / n).read_text() for n in FILES)
    for needle in ("handshake.fork", "handshake.buffer", "handshake.br", "handshake.merge",
                   "handshake.control_merge", "handshake.join", "handshake.memory[", "handshake.extmemory[",
                   'step_op = "-="', 'step_op = "*="', 'step_op = "<<="', 'step_op = ">>="',
                   'cont_cond = "<"', 'cont_cond = "<="', 'cont_cond = ">"', 'cont_cond = ">="',
                   'cont_cond = "!="',
                   "dataflow.stream %d0, %d1, %d2 :"):  # no cont_cond: the sign of the step decides
        assert needle in text, needle


def test_twins_are_correct_dfgs():
    """A faulty DFG's twin is the correct DFG it was derived from."""
    twins = [(n, spec(n).twin) for n in FILES if spec(n).twin]
    assert twins
    for name, twin in twins:
        assert spec(twin).verdict == "proved", (name, twin)


# ---------------------------------------------------------------------------- correct DFGs
@pytest.mark.parametrize("name", runnable("proved") + runnable("unknown"))
def test_correct_dfg_is_never_refuted(name):
    s = spec(name)
    assert not by_status(name, "refuted"), [f"{o.id}: {o.detail}" for o in by_status(name, "refuted")]
    unknown = by_status(name, "unknown")
    if s.verdict == "proved":
        assert not unknown, [f"{o.id}: {o.detail}" for o in unknown]
        assert report(name).exit_code() == 0
    else:
        assert unknown and report(name).exit_code() == 3
        for o in unknown:
            assert any(matches(f, o.id) for f in s.families), f"{o.id}: {o.detail}"
            assert len(o.detail) > 20, o.detail  # a stated reason


# ---------------------------------------------------------------------------- faulty DFGs
@pytest.mark.parametrize("name", runnable("refuted"))
def test_faulty_dfg_is_refuted_by_the_right_obligation(name):
    s = spec(name)
    refuted = by_status(name, "refuted")
    assert report(name).exit_code() == 1
    for fam in s.families:
        assert any(matches(fam, o.id) for o in refuted), (fam, [o.id for o in refuted])
    for o in refuted:
        assert o.detail and o.counterexample is not None, o.id


def _replay_inputs(name: str, args: dict) -> dict:
    """The file's first simulation inputs with the counterexample's scalar arguments and memref sizes."""
    f = dfg(name)
    base = dict(spec(name).sims[0].inputs)
    types = {n: a.type for n, a in zip(function_arg_names(f), f.regions[0].entry.args)}
    for k, v in args.items():
        arg, dot, dim = k.partition(".")
        if dot and isinstance(types.get(arg), MemRefType):
            fill = itertools.cycle(base.get(arg) or [1])
            base[arg] = [next(fill) for _ in range(int(v))]
        elif arg in types:
            base[arg] = v
    for arg, t in types.items():  # room for the iterations the witness runs
        if isinstance(t, MemRefType) and base.get(arg) and len(base[arg]) < 16 and f"{arg}.dim0" not in args:
            fill = itertools.cycle(base[arg])
            base[arg] = [next(fill) for _ in range(16)]
    return base


def _replays_as_fault(name: str, o: Obligation) -> Optional[str]:
    """Why ``o``'s counterexample is a real fault in the simulator (None when it does not show)."""
    cex = o.counterexample or {}
    res = simulate(dfg(name), _replay_inputs(name, cex.get("arguments") or {}), max_steps=MAX_STEPS)
    if res.status == "error" and res.error is not None and "OUT_OF_BOUNDS" not in str(res.error):
        return f"runtime error {res.error}"
    if res.status == "deadlock":
        return "deadlock"
    if res.residual_tokens:
        return f"{res.residual_tokens} residual token(s)"
    channel, tokens = cex.get("channel"), cex.get("tokens") or {}
    if res.status == "completed" and channel in res.channels and channel in tokens:
        if res.channels[channel] == tokens[channel] and tokens[channel] != tokens.get("consumed"):
            return f"{channel} carries {tokens[channel]} token(s) where {tokens['consumed']} are consumed"
    return None


@pytest.mark.parametrize("name", runnable("refuted"))
def test_every_refutation_shows_as_a_real_fault(name):
    s = spec(name)
    for o in by_status(name, "refuted"):
        cex = o.counterexample or {}
        if o.id.startswith("mem.indep."):
            assert "CPL_HANDSHAKE_CTRL_MULTI_MEM" in o.detail, o.detail
        elif o.id == "done.postdom":
            assert "no path leads to the return" in o.detail and cex.get("channel_path"), o.detail
        elif matches("mem.order", o.id) or o.id.startswith("mem.alias."):
            assert s.twin, f"{name}: a memory race refutation needs a correct twin to compare with"
            inputs = s.sims[0].inputs
            got, want = simulate(dfg(name), inputs), simulate(dfg(s.twin), inputs)
            assert (got.results, got.memrefs) != (want.results, want.memrefs), \
                "the race changes nothing under the simulator's schedule"
        elif o.id.startswith("fsm.stream.pre.") or re.match(r"len\.L\d+\.terminates$", o.id):
            res = simulate(dfg(name), _replay_inputs(name, cex.get("arguments") or {}), max_steps=MAX_STEPS)
            assert res.status == "error", res.status  # never ends, or stops on a zero step
            assert "RT_SIM_STEP_LIMIT" in str(res.error) or "RT_DATAFLOW_STREAM_ZERO_STEP" in str(res.error)
        else:
            assert _replays_as_fault(name, o), f"{o.id}: {o.detail}"


@pytest.mark.parametrize("name", [n for n in FILES if spec(n).verdict != "error"])
def test_every_safety_refutation_stops_the_simulator_there(name):
    """A DFG alone gets safety obligations through its own addresses: each refutation's inputs stop the token
    simulator with the obligation's runtime error (an independent run here); on a correct DFG none is left
    unknown (a faulty one may deadlock before the witness's access)."""
    obs = verify_function(dfg(name), CTX, cache=CACHE, checkers=("safety",)).obligations
    if spec(name).verdict in ("proved", "unknown"):
        assert not [o.id for o in obs if o.status == "unknown"]
    for o in obs:
        if o.status != "refuted":
            continue
        cex = o.counterexample
        inputs = {k: v for k, v in cex["inputs"].items() if v is not None}
        res = simulate(dfg(name), inputs, max_steps=MAX_STEPS * 10)
        assert res.status == "error" and cex["error"].startswith(res.error.code), (o.id, res.status, res.error)


@pytest.mark.parametrize("name", runnable("error"))
def test_rejected_dfg_gives_a_located_error(name):
    s = spec(name)
    with pytest.raises(LoomError) as e:
        parse_file(HANDWRITTEN / name)
    assert f"[{s.families[0]}]" in str(e.value) and f":{s.where}:" in str(e.value), str(e.value)


# ---------------------------------------------------------------------------- simulation
@pytest.mark.parametrize("name", [n for n in FILES if spec(n).verdict != "error"])
def test_simulation_shows_what_the_header_says(name):
    for case in spec(name).sims:
        res = simulate(dfg(name), case.inputs, max_steps=MAX_STEPS)
        where = f"{name} {case.inputs}"
        if case.status == "completed":
            assert res.status == "completed" and res.residual_tokens == 0, \
                (where, res.status, res.deadlock_report)
            assert len(res.results) == len(case.results), where
            t = list(dfg(name).attributes["function_type"].type.results)
            want = [_runtime(v, ty) for v, ty in zip(case.results, t)]
            assert all(same_value(a, b) for a, b in zip(res.results, want)), (where, res.results)
            for k, vals in case.memrefs.items():
                have = res.memrefs[k]
                want_mem = [v & 0xFFFFFFFF if isinstance(v, int) else v for v in vals]  # i32 bit patterns
                assert list(have) == want_mem, (where, k, have)
        elif case.status == "residual":
            assert res.status == "completed" and res.residual_tokens > 0, (where, res.status)
        elif case.status == "deadlock":
            assert res.status == "deadlock", (where, res.status)
        else:
            assert res.status == "error" and case.code in str(res.error), (where, res.status, res.error)


def _runtime(value, t):
    """A header's result value as the simulator's runtime value (integers as bit patterns)."""
    from loom.ir.types import IndexType, IntegerType

    if isinstance(value, int) and isinstance(t, (IntegerType, IndexType)):
        width = 64 if isinstance(t, IndexType) else t.width
        return value & ((1 << width) - 1)
    return value


# ---------------------------------------------------------------------------- the CLI
def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loom", "verify", "-q", *args], check=False,
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize("name,code", [
    ("ok_cmerge_if.mlir", 0),
    ("bad_cross_domain.mlir", 1),
    ("bad_mux_i1_three.mlir", 2),
])
def test_cli_exit_codes(name, code):
    out = _cli(str(HANDWRITTEN / name))
    assert out.returncode == code, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    if code == 2:
        assert re.search(r"bad_mux_i1_three\.mlir:\d+:\d+: error: \[CPL_IR_ARITY\]", out.stderr), out.stderr
    elif code == 1:
        assert "REFUTED  mem.indep.a|c" in out.stdout, out.stdout


def test_cli_exit_code_3_when_inconclusive():
    names = runnable("unknown")
    assert names, "the collection needs a correct DFG the verifier can only call unknown"
    out = _cli(str(HANDWRITTEN / names[0]))
    assert out.returncode == 3, out.stdout + out.stderr
    assert "REFUTED" not in out.stdout and "unknown" in out.stdout


# ---------------------------------------------------------------------------- SMT-LIB2 of proved obligations
@pytest.mark.parametrize("name", ["ok_loop_cmerge_abs.mlir", "ok_select_mux.mlir", "ok_three_way.mlir"])
def test_proved_length_obligations_carry_scripts_z3_answers_unsat(name):
    """Merges and control_merge indices inside loops are single queries too; an obligation the clock
    calculus closes by its rules has no script (the query would be false by simplification)."""
    import z3

    from loom.verify.lengths.check import check_lengths

    obs = check_lengths(dfg(name), VerifyContext(want_smt2=True))
    scripts = [o for o in obs if o.smt2]
    assert scripts and all(o.status == "proved" and o.method == "smt" for o in scripts)
    assert all(not o.smt2 for o in obs if o.method != "smt")
    for o in scripts:
        assert not z3.is_false(z3.simplify(z3.And(*z3.parse_smt2_string(o.smt2, ctx=z3.Context())))), o.id
        s = z3.Solver()
        s.from_string(o.smt2)
        assert s.check() == z3.unsat, o.id
