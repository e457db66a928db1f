"""RTL against the DFG: SymbiYosys against ``loom verify`` on the same obligations, Verilator against ``loom sim``.

Run: ``python benchmarks/bench_rtl.py [EXAMPLE ...] [--prove] [--no-sby] [--no-sim] [--no-dfg] [--prove-timeout S]
[--prove-rounds R] [--ref-bound K] [--ref-timeout S]``. For each example:

* component lemmas (``fsm.*``): the obligations whose RTL property lives in a
  component or the top are read from the design's ``props.json`` (its
  ``obligation`` field). ``loom verify`` time is the sum of the Z3 seconds of
  exactly those obligations in its JSON report; SBY time is the wall time of the
  ``.sby`` tasks that hold them (``components``, plus ``top`` once such a
  property lives in the top), each an unbounded k-induction proof like Z3's.
* DFG-level obligations (``len.*``, ``balance.*``, ``mem.*``, ``done.*``, classes:
  ``kind`` dfg in ``props.json``): ``loom verify`` proves them for every trip
  count (compared by the wall time of the whole ``loom verify`` run on the file: many
  of them are discharged by the clock calculus with no solver call); the unbounded RTL counterpart is task ``dfg_prove`` (``<stem>_prove.sby``,
  ``loom.hdl.formal.invariants``: k-induction with helper invariants and its pruning
  rounds), given ``--prove-timeout`` seconds a round and at most ``--prove-rounds`` rounds.
  It tries the ``len.*``/``balance.*`` monitors on the design with free data; the note says how many it proved
  for every run and how many monitors stay bounded. Unless it proves every one it tries (a round timed out, or the pruning dropped one),
  the seconds it spent are a lower bound (``>``) on SBY's time and so on the
  ratio; the column ``proved`` counts the obligations it did prove. Beside it, the bounded claim SBY does reach:
  task ``dfg_ref`` (every whole run with arguments and sizes in [0, ``--ref-bound``],
  ``loom.hdl.formal.refenv``), a weaker claim than Z3's, timed against the same ``loom verify`` wall time.
* simulation: tokens moved (the sum of the per-channel counts, the same in both
  simulators since co-simulation agrees) per second in the token simulator and in
  the Verilator model of the RTL, excluding and including Verilator's build
  (``loom sim --rtl`` builds with ``-O0`` and ``--assert``). Ratio = RTL / token
  simulator.

* ``--verify-time``: instead, ``loom verify -q --rtl`` per example (``examples/*.scf.mlir`` and ``examples/c/*.c``,
  or the files named) at its default depth, one at a time: wall seconds and the CPU seconds of its child processes
  (SymbiYosys, Yosys, the solvers: steadier than wall time on a loaded machine), its exit code and the summary line;
  ``--rtl-timeout S`` is passed on (a task stopped by it is unknown). Issue 26's target is 2 minutes each on 2 cores.

* ``--prove``: instead, task dfg_prove alone per example (``examples/*.scf.mlir``, or the stems named), one at a
  time: the len/balance monitors it proves for every run and those that stay bounded (task ``dfg``), its rounds
  and status, and the CPU seconds of SymbiYosys, Yosys and the solver (no wall-clock limit unless
  ``--prove-timeout`` is given: a round stopped by it proves nothing).

* ``--qor``: instead, the QoR table of ``tools/rtl_qor.py`` (issue 26): per example, cycles at a fixed size and
  per loop the measured II under ``--buffers uniform`` and ``opt`` beside the DFG's throughput bound
  (``loom.hdl.throughput``), with cells and flip-flops (Yosys); exit 1 when a loop misses 1.5x its bound.

Prints one row per example and geometric means. A benchmark, not a test: it takes
minutes (SymbiYosys and Verilator builds dominate).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.cli import _dfg_module, _pick_function  # noqa: E402
from loom.hdl.emit import emit, write_all  # noqa: E402
from loom.hdl.rtlsim import find_simulator, run as rtl_run  # noqa: E402
from loom.hdl.formal.sby import run_task, sby_available  # noqa: E402
from loom.runtime import decode_inputs, function_arg_names  # noqa: E402
from loom.sim import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MIN_SIM_SECONDS = 0.2  # the token simulator is repeated until its runs add up to this much


# props.json kinds not proved for all trip counts by a formal task: dfg/liveness (bounded SymbiYosys runs), safety
# (co-simulation monitors of the inputs, in no formal task)
BOUNDED_KINDS = ("dfg", "liveness", "safety")


def rtl_obligations(props: dict) -> tuple[set[str], set[str]]:
    """The obligations that have an RTL property proved for all trip counts by a component or top task, and the
    .sby tasks that prove them (the DFG-level and whole-run monitors, ``kind`` dfg/liveness, are not: below)."""
    obligations: set[str] = set()
    tasks: set[str] = set()
    for p in props["properties"]:
        if p.get("obligation") and p.get("kind") not in BOUNDED_KINDS:
            obligations.add(p["obligation"])
            tasks.add("top" if p["file"] == props["file"] else "components")
    return obligations, tasks


def dfg_obligations(props: dict) -> set[str]:
    """The obligations that have a DFG-level monitor (``kind`` dfg): bounded in task dfg/dfg_ref, unbounded only
    where task dfg_prove proves them."""
    return {p["obligation"] for p in props["properties"] if p.get("kind") == "dfg" and p.get("obligation")}


@dataclass
class VerifyRun:
    """One ``loom verify --json`` run of a file: its obligations (id, status, seconds, ...) and its wall seconds
    (parse, lowering, every checker and obligation)."""

    obligations: list[dict]
    wall: float

    def seconds(self, ids: set[str]) -> tuple[float, int]:
        """Z3 seconds of the obligations in ``ids``, and how many of them the report has."""
        same = [o for o in self.obligations if o["id"] in ids]
        return sum(o["seconds"] for o in same), len(same)


def verify_run(path: Path) -> VerifyRun:
    """Run ``loom verify --json`` on ``path`` in this process, timed."""
    import contextlib
    import io

    from loom.cli import main

    buf = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(buf):
        main(["verify", str(path), "--json"])
    wall = time.perf_counter() - t0
    doc = json.loads(buf.getvalue())
    obs = doc["obligations"] if "obligations" in doc else [o for f in doc["functions"] for o in f["obligations"]]
    return VerifyRun(obs, wall)


def sby_seconds(files: dict[str, str], stem: str, tasks: set[str]) -> tuple[float, str]:
    """Wall seconds of the .sby tasks, and their verdicts."""
    total, verdicts = 0.0, []
    with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
        wd = Path(tmp)
        write_all(wd, files)
        for task in sorted(tasks):
            v = run_task(wd, f"{stem}.sby", task, timeout=3600)
            total += v.seconds
            verdicts.append(f"{task}:{v.status}")
    return total, " ".join(verdicts)


@dataclass
class Measured:
    """One SymbiYosys measurement: wall seconds, and whether it finished the job (else the seconds are a lower
    bound: a timeout, a proof that dropped monitors, a failed run)."""

    seconds: float
    finished: bool
    note: str = ""

    def cell(self) -> str:
        return f"{self.seconds:.1f}" if self.finished else f">{self.seconds:.0f}"


def monitor_proofs(e, stem: str, timeout: float, rounds: int) -> tuple[set[str], Measured]:
    """The DFG-level monitor obligations task dfg_prove proves for every run (loom.hdl.formal.invariants, with at most
    ``rounds`` pruning rounds), and the SymbiYosys seconds of all its rounds. Only a proof of every monitor
    finishes the measurement: after a timeout, or once the pruning has dropped a monitor, SBY has not proved
    them all and the seconds spent are a lower bound on what it would need."""
    from loom.hdl.formal.invariants import prove, targets

    if e.invariants is None or not e.invariants.props:
        return set(), Measured(0.0, True, "no monitors")
    with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
        wd = Path(tmp)
        write_all(wd, e.files)
        r = prove(wd, stem, e.design, e.invariants, ["loom_props.svh"] + e.sv_files, timeout=timeout, rounds=rounds)
    by_label = {m.label: m.obligation for m in e.design.monitors.props}
    secs = sum(v.seconds for v in r.runs)
    timed_out = any(v.log == "timeout" for v in r.runs)
    tried = targets(e.design)  # len/balance: the other monitors are not tried and stay bounded (task dfg)
    complete = r.status == "pass" and set(tried) <= set(r.proved)
    note = ("timeout" if timed_out else f"{r.status} after {len(r.runs)} round(s)") + (
        f"; unbounded: {len(r.proved)} of {len(tried)} len/balance, bounded: the other {len(by_label) - len(r.proved)}")
    return {by_label[x] for x in r.proved}, Measured(secs, complete, note)


def whole_runs(func, stem: str, source, bound: int, timeout: float) -> Measured:
    """Task dfg_ref at argument bound ``bound`` (every whole run, co-simulation's memory): its wall seconds."""
    from loom.hdl.formal.depth import whole_run_depths

    depths = whole_run_depths(func, (bound,))
    if depths is None:
        return Measured(0.0, False, "no depth (iverilog missing or no done)")
    e = emit(func, stem, rtl_bound=bound, dfg_depth=depths[bound], source=source)
    with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
        write_all(Path(tmp), e.files)
        v = run_task(Path(tmp), f"{stem}.sby", "dfg_ref", timeout=timeout)
    if v.log == "timeout":
        return Measured(timeout, False, "timeout")
    return Measured(v.seconds, v.status == "pass", v.status if v.status != "pass" else f"depth {depths[bound]}")


def sim_rates(func, module, inputs) -> tuple[int, float, float, float, float]:
    """Tokens moved; tokens/s of the token simulator, the RTL run, the RTL build plus run; the build seconds."""
    n, t0 = 0, time.perf_counter()
    while True:
        r = simulate(func, inputs)
        n += 1
        if time.perf_counter() - t0 >= MIN_SIM_SECONDS:
            break
    token_s = (time.perf_counter() - t0) / n
    tokens = sum(r.channels.values()) if isinstance(r.channels, dict) else sum(r.channels)
    e = emit(func, "bench")
    timings: dict[str, float] = {}
    rr = rtl_run(e, inputs, module, simulator="verilator", timings=timings, cache=False)  # times the build
    rtl_tokens = sum(rr.channels.values()) if isinstance(rr.channels, dict) else sum(rr.channels)
    if rtl_tokens != tokens:
        raise SystemExit(f"RTL moved {rtl_tokens} tokens, the token simulator {tokens}: co-simulation disagrees")
    return tokens, tokens / token_s, tokens / timings["run"], tokens / (timings["build"] + timings["run"]), \
        timings["build"]


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def _ratio(sby: Measured, z3_s: float) -> tuple[str, float]:
    """The ratio cell (``>`` when SBY did not finish: a lower bound) and its value."""
    r = sby.seconds / z3_s if z3_s > 0 else float("inf")
    return (f"{r:.0f}x" if sby.finished else f">{r:.0f}x"), r


def _load(path: Path):
    stem = path.name[: -len(".scf.mlir")]
    ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
    module = _dfg_module(path, None, ns)
    func = _pick_function(module, None, ("handshake.func",), path)
    return stem, module, func


def proofs(paths: list[Path], args) -> None:
    """The proof table: component lemmas (unbounded both sides); DFG-level obligations (Z3 for every trip
    count against SBY's k-induction, lower bounds where it does not finish, and SBY's bounded whole runs)."""
    from loom.cli import _scf_sources

    dfg = not args.no_dfg
    head = f"{'example':<13} {'fsm':>4} {'verify s':>9} {'SBY s':>7} {'SBY/ver':>8}"
    if dfg:
        head += (f"   {'dfg':>4} {'verify wall':>11} {'SBY prove s':>11} {'SBY/ver':>8} {'proved':>6}"
                 f"   {'whole 0-' + str(args.ref_bound) + ' s':>12} {'SBY/ver':>8}")
    print(head)
    fsm_r, prove_r, prove_open, whole_r = [], [], False, []
    for path in paths:
        stem, _, func = _load(path)
        e = emit(func, stem)
        props = json.loads(e.files[f"{stem}.props.json"])
        obligations, tasks = rtl_obligations(props)
        vr = verify_run(path)  # one loom verify run serves both comparisons
        z3_s, matched = vr.seconds(obligations)
        if matched != len(obligations):
            raise SystemExit(f"{stem}: {len(obligations) - matched} RTL obligation(s) are not in loom verify's report")
        sby_s, verdicts = sby_seconds(e.files, stem, tasks)
        cell, r = _ratio(Measured(sby_s, True), z3_s)
        fsm_r.append(r)
        row = f"{stem:<13} {len(obligations):>4} {z3_s:>9.3f} {sby_s:>7.1f} {cell:>8}"
        notes = [] if all(v.endswith(":pass") for v in verdicts.split()) else [verdicts]
        if dfg:
            dob = dfg_obligations(props)
            # many DFG-level obligations are discharged by the clock calculus with no solver call (0 Z3 seconds):
            # the comparison takes the whole loom verify run's wall time instead, which only favours SBY
            _, dm = vr.seconds(dob)
            if dm != len(dob):
                raise SystemExit(f"{stem}: {len(dob) - dm} monitored obligation(s) are not in loom verify's report")
            proved, pm = monitor_proofs(e, stem, args.prove_timeout, args.prove_rounds)
            pcell, pr = _ratio(pm, vr.wall)
            prove_r.append(pr)
            prove_open |= not pm.finished
            src = _scf_sources(path).get(func.attributes["sym_name"].value)
            wm = whole_runs(func, stem, src, args.ref_bound, args.ref_timeout)
            wcell, wr = _ratio(wm, vr.wall)
            whole_r.append(wr)
            row += (f"   {len(dob):>4} {vr.wall:>11.2f} {pm.cell():>11} {pcell:>8} {len(proved):>6}"
                    f"   {wm.cell():>12} {wcell:>8}")
            notes.append(f"dfg_prove: {pm.note}")  # what is proved unbounded, what stays bounded
            if not wm.finished or not wm.note.startswith("depth"):
                notes.append(f"whole runs: {wm.note}")
        print(row + (f"  ({'; '.join(notes)})" if notes else ""), flush=True)
    print(f"geometric mean SBY/verify, component lemmas (both unbounded): {geomean(fsm_r):.0f}x "
          f"(min {min(fsm_r):.0f}x, max {max(fsm_r):.0f}x)")
    if dfg:
        lb = ">" if prove_open else ""
        print(f"geometric mean SBY/verify, DFG-level obligations, unbounded (task dfg_prove): {lb}{geomean(prove_r):.0f}x"
              + (" (a lower bound: where SBY proved not every monitor, the seconds it spent count)" if prove_open
                 else ""))
        print(f"geometric mean SBY/verify, DFG-level obligations, SBY bounded to trip counts 0-{args.ref_bound} "
              f"(task dfg_ref) against loom verify for every trip count: {geomean(whole_r):.0f}x")


def simulation(paths: list[Path]) -> None:
    """The simulation table: token simulator against the Verilator model of the RTL."""
    print(f"{'example':<13} {'tokens':>7} {'sim tok/s':>10} {'RTL tok/s':>10} {'RTL/sim':>8} {'+build':>8} "
          f"{'build s':>7}")
    run_ratios, build_ratios = [], []
    for path in paths:
        stem, module, func = _load(path)
        inputs_path = path.with_name(stem + ".inputs.json")
        if not inputs_path.exists():
            continue
        names = function_arg_names(func)
        types = [a.type for a in func.regions[0].entry.args]
        inputs = decode_inputs(names, types, json.loads(inputs_path.read_text()), str(inputs_path), module=module)
        tokens, sim_r, rtl_r, rtl_b, build_s = sim_rates(func, module, inputs)
        run_ratios.append(rtl_r / sim_r)
        build_ratios.append(rtl_b / sim_r)
        print(f"{stem:<13} {tokens:>7} {sim_r:>10.3g} {rtl_r:>10.3g} {rtl_r / sim_r:>7.2f}x {rtl_b / sim_r:>7.2g}x "
              f"{build_s:>7.1f}", flush=True)
    if run_ratios:
        print(f"geometric mean RTL/token-simulator throughput: {geomean(run_ratios):.2f}x run only, "
              f"{geomean(build_ratios):.2g}x with the Verilator build")


def qor(size: int) -> int:
    """tools/rtl_qor.py's table at ``size`` with cells and flip-flops; 1 when a loop misses its target."""
    import importlib.util
    import os

    os.environ.setdefault("LOOM_RTL_SIM", "iverilog")
    spec = importlib.util.spec_from_file_location("rtl_qor", ROOT / "tools" / "rtl_qor.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    got = mod.rows(size, synth=True)
    print("\n".join(mod.table(got)))
    return 0 if mod.within_target(got) else 1


def _subreaper() -> None:
    """Become the subreaper of what loom starts: smtbmc never waits for its solver (it closes the pipe and exits),
    so without this yices' and z3's CPU seconds go to init and RUSAGE_CHILDREN misses most of the time."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER (Linux)
    except (OSError, AttributeError):
        pass


def _reap() -> None:
    """Wait for every orphaned descendant (a solver still exiting), so its CPU seconds are counted."""
    import os

    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def verify_times(files: list[Path], timeout: Optional[float],
                 loom: Optional[str] = None) -> list[tuple[str, float, float, int, str]]:
    """``loom verify -q --rtl FILE`` per file: wall and child-process CPU seconds (the solvers' included), exit
    code, the RTL summary; printed as a table and returned."""
    import os
    import resource
    import subprocess

    loom = loom or str(Path(sys.executable).parent / "loom")
    rows = []
    _subreaper()
    print(f"{'file':<34} {'wall s':>7} {'CPU s':>7} {'exit':>4}  summary", flush=True)
    for f in files:
        cmd = [loom, "verify", "-q", "--rtl", str(f)] + (["--rtl-timeout", str(timeout)] if timeout else [])
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ))
        wall = time.monotonic() - t0
        _reap()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        summary = next((ln.strip() for ln in p.stdout.splitlines() if "RTL verdicts" in ln),
                       (p.stderr.strip().splitlines() or ["?"])[-1][:100])
        name = str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f)
        rows.append((name, wall, cpu, p.returncode, summary))
        print(f"{name:<34} {wall:>7.0f} {cpu:>7.0f} {p.returncode:>4}  {summary}", flush=True)
    return rows


def prove_table(paths: list[Path], timeout: Optional[float], rounds: int) -> list[tuple[str, int, int, str, float]]:
    """Task dfg_prove alone per example: the len/balance monitors (obligation IDs) proved for every run and those
    left bounded, the status after at most ``rounds`` rounds, and the child processes' CPU seconds."""
    import resource

    from loom.hdl.formal.invariants import prove, targets

    _subreaper()
    rows = []
    print(f"{'example':<13} {'len/bal':>7} {'proved':>6} {'rounds':>6} {'status':>7} {'CPU s':>7}  bounded", flush=True)
    for path in paths:
        stem, _, func = _load(path)
        e = emit(func, stem)
        if e.invariants is None or not e.invariants.props:
            print(f"{stem:<13} {0:>7} {0:>6} {0:>6} {'-':>7} {0.0:>7.0f}  (no monitors)", flush=True)
            continue
        by_label = {m.label: m.obligation for m in e.design.monitors.props}
        tried = targets(e.design)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
            write_all(Path(tmp), e.files)
            r = prove(Path(tmp), stem, e.design, e.invariants, ["loom_props.svh"] + e.sv_files, timeout=timeout,
                      rounds=rounds)
        _reap()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        left = sorted(by_label[x] for x in tried if x not in r.proved)
        shown = ", ".join(left[:6]) + (f" and {len(left) - 6} more" if len(left) > 6 else "")
        print(f"{stem:<13} {len(tried):>7} {len(r.proved):>6} {len(r.runs):>6} {r.status:>7} {cpu:>7.0f}  "
              f"{shown or '-'}", flush=True)
        rows.append((stem, len(tried), len(r.proved), r.status, cpu))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("examples", nargs="*", help="example stems (default: every examples/*.scf.mlir)")
    ap.add_argument("--no-sby", action="store_true", help="skip the SymbiYosys part")
    ap.add_argument("--no-sim", action="store_true", help="skip the simulation part")
    ap.add_argument("--no-dfg", action="store_true", help="component lemmas only (no dfg_prove, no dfg_ref)")
    ap.add_argument("--prove-timeout", type=float, default=None,
                    help="wall-clock seconds per dfg_prove round (default: none; the rounds and the depth decide)")
    ap.add_argument("--prove", action="store_true", help="task dfg_prove alone per example, with its CPU seconds")
    ap.add_argument("--prove-rounds", type=int, default=6, help="dfg_prove pruning rounds at most (default 6)")
    ap.add_argument("--ref-bound", type=int, default=3, help="argument bound of the whole runs (default 3)")
    ap.add_argument("--ref-timeout", type=float, default=600.0, help="seconds for the dfg_ref run (default 600)")
    ap.add_argument("--qor", action="store_true", help="the QoR table (tools/rtl_qor.py --stats) instead")
    ap.add_argument("--verify-time", nargs="*", metavar="FILE", default=None,
                    help="instead: loom verify -q --rtl's wall and CPU seconds per file (default: every example)")
    ap.add_argument("--rtl-timeout", type=float, default=None, help="with --verify-time: passed on to loom verify")
    ap.add_argument("--size", type=int, default=16, help="with --qor: the fixed size (default 16)")
    args = ap.parse_args()
    if args.qor:
        return qor(args.size)
    if args.verify_time is not None:
        files = [Path(x).resolve() for x in args.verify_time] or (
            sorted((ROOT / "examples").glob("*.scf.mlir")) + sorted((ROOT / "examples" / "c").glob("*.c")))
        verify_times(files, args.rtl_timeout)
        return 0
    paths = sorted((ROOT / "examples").glob("*.scf.mlir"))
    if args.examples:
        paths = [p for p in paths if p.name[: -len(".scf.mlir")] in args.examples]
    if args.prove:
        prove_table(paths, args.prove_timeout, args.prove_rounds)
        return 0
    do_sby = not args.no_sby and sby_available() is not None
    do_sim = not args.no_sim and find_simulator("verilator") is not None
    if not args.no_sby and not do_sby:
        print("yowasp-sby is missing: no proof comparison (pip install -e '.[test]')")
    if not args.no_sim and not do_sim:
        print("verilator is missing: no simulation comparison (apt-get install verilator)")
    if do_sby:
        proofs(paths, args)
    if do_sim:
        simulation(paths)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
