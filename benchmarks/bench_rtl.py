"""RTL against the DFG: SymbiYosys against ``loom verify`` on the same obligations, Verilator against ``loom sim``.

Run: ``python benchmarks/bench_rtl.py [EXAMPLE ...] [--no-sby] [--no-sim]``. For each example:

* proofs: the obligations that have an RTL property are read from the design's
  ``props.json`` (its ``obligation`` field), so the set grows as RTL monitors
  are added. ``loom verify`` time is the sum of the Z3 seconds of exactly those
  obligations in its JSON report; SBY time is the wall time of the tasks of the
  emitted ``.sby`` that hold their properties (``components`` for component
  properties, ``top`` once a property with an obligation lives in the top), each
  an unbounded k-induction proof like Z3's, plus the DFG-level monitors that task
  ``dfg_prove`` (``<stem>_prove.sby``, ``loom.hdl.invariants``) proves by k-induction
  (its pruning rounds counted; the bounded ``dfg`` task is not). Ratio = SBY / verify.
* simulation: tokens moved (the sum of the per-channel counts, the same in both
  simulators since co-simulation agrees) per second in the token simulator and in
  the Verilator model of the RTL, excluding and including Verilator's build
  (``loom sim --rtl`` builds with ``-O0`` and ``--assert``). Ratio = RTL / token
  simulator.

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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.cli import _dfg_module, _pick_function  # noqa: E402
from loom.hdl.emit import emit  # noqa: E402
from loom.hdl.rtlsim import find_simulator, run as rtl_run  # noqa: E402
from loom.hdl.sby import run_task, sby_available  # noqa: E402
from loom.runtime import decode_inputs, function_arg_names  # noqa: E402
from loom.sim import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MIN_SIM_SECONDS = 0.2  # the token simulator is repeated until its runs add up to this much


BOUNDED_KINDS = ("dfg", "liveness")  # props.json kinds checked by bounded SymbiYosys runs only


def rtl_obligations(props: dict) -> tuple[set[str], set[str]]:
    """The obligations that have an RTL property proved for all trip counts, and the .sby tasks that prove them
    (the DFG-level and whole-run monitors, ``kind`` dfg/liveness, are bounded checks: not the same claim)."""
    obligations: set[str] = set()
    tasks: set[str] = set()
    for p in props["properties"]:
        if p.get("obligation") and p.get("kind") not in BOUNDED_KINDS:
            obligations.add(p["obligation"])
            tasks.add("top" if p["file"] == props["file"] else "components")
    return obligations, tasks


def verify_seconds(path: Path, obligations: set[str]) -> tuple[float, float, int]:
    """Z3 seconds of ``obligations`` (and of all obligations) from ``loom verify --json``; how many matched."""
    import contextlib
    import io

    from loom.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["verify", str(path), "--json"])
    doc = json.loads(buf.getvalue())
    obs = doc["obligations"] if "obligations" in doc else [o for f in doc["functions"] for o in f["obligations"]]
    same = [o for o in obs if o["id"] in obligations]
    return sum(o["seconds"] for o in same), sum(o["seconds"] for o in obs), len(same)


def sby_seconds(files: dict[str, str], stem: str, tasks: set[str]) -> tuple[float, str]:
    """Wall seconds of the .sby tasks, and their verdicts."""
    total, verdicts = 0.0, []
    with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
        wd = Path(tmp)
        for n, t in files.items():
            (wd / n).write_text(t)
        for task in sorted(tasks):
            v = run_task(wd, f"{stem}.sby", task, timeout=3600)
            total += v.seconds
            verdicts.append(f"{task}:{v.status}")
    return total, " ".join(verdicts)


def monitor_proofs(e, stem: str) -> tuple[set[str], float]:
    """The DFG-level monitor obligations task dfg_prove proves for every run (loom.hdl.invariants, with its
    pruning rounds), and the SymbiYosys seconds of all its rounds; nothing when it proves none."""
    from loom.hdl.invariants import prove

    if e.invariants is None or not e.invariants.props:
        return set(), 0.0
    with tempfile.TemporaryDirectory(prefix="bench-rtl-") as tmp:
        wd = Path(tmp)
        for n, t in e.files.items():
            (wd / n).write_text(t)
        r = prove(wd, stem, e.design, e.invariants, ["loom_props.svh"] + e.sv_files, timeout=900)
    by_label = {m.label: m.obligation for m in e.design.monitors.props}
    return {by_label[x] for x in r.proved}, r.seconds


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
    rr = rtl_run(e, inputs, module, simulator="verilator", timings=timings)
    rtl_tokens = sum(rr.channels.values()) if isinstance(rr.channels, dict) else sum(rr.channels)
    if rtl_tokens != tokens:
        raise SystemExit(f"RTL moved {rtl_tokens} tokens, the token simulator {tokens}: co-simulation disagrees")
    return tokens, tokens / token_s, tokens / timings["run"], tokens / (timings["build"] + timings["run"]), \
        timings["build"]


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("examples", nargs="*", help="example stems (default: every examples/*.scf.mlir)")
    ap.add_argument("--no-sby", action="store_true", help="skip the SymbiYosys part")
    ap.add_argument("--no-sim", action="store_true", help="skip the simulation part")
    args = ap.parse_args()
    paths = sorted((ROOT / "examples").glob("*.scf.mlir"))
    if args.examples:
        paths = [p for p in paths if p.name[: -len(".scf.mlir")] in args.examples]
    do_sby = not args.no_sby and sby_available() is not None
    do_sim = not args.no_sim and find_simulator("verilator") is not None
    if not args.no_sby and not do_sby:
        print("yowasp-sby is missing: no proof comparison (pip install -e '.[test]')")
    if not args.no_sim and not do_sim:
        print("verilator is missing: no simulation comparison (apt-get install verilator)")
    print(f"{'example':<13} {'obl':>4} {'verify s':>9} {'SBY s':>8} {'SBY/verify':>10}   "
          f"{'tokens':>7} {'sim tok/s':>10} {'RTL tok/s':>10} {'RTL/sim':>8} {'+build':>8} {'build s':>7}")
    proof_ratios, run_ratios, build_ratios = [], [], []
    for path in paths:
        stem = path.name[: -len(".scf.mlir")]
        ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
        module = _dfg_module(path, None, ns)
        func = _pick_function(module, None, ("handshake.func",), path)
        e = emit(func, stem)
        obligations, tasks = rtl_obligations(json.loads(e.files[f"{stem}.props.json"]))
        row = f"{stem:<13} {len(obligations):>4}"
        if do_sby:
            z3_s, _, matched = verify_seconds(path, obligations)
            if matched != len(obligations):
                raise SystemExit(f"{stem}: {len(obligations) - matched} RTL obligation(s) are not in loom verify's report")
            sby_s, verdicts = sby_seconds(e.files, stem, tasks)
            proved, prove_s = monitor_proofs(e, stem)  # DFG-level monitors proved for every run (k-induction)
            if proved:
                more, _, _ = verify_seconds(path, proved)
                z3_s += more
                sby_s += prove_s
                obligations |= proved
                row = f"{stem:<13} {len(obligations):>4}"
                verdicts += " dfg_prove:pass"
            ratio = sby_s / z3_s if z3_s > 0 else float("inf")
            proof_ratios.append(ratio)
            row += f" {z3_s:>9.3f} {sby_s:>8.1f} {ratio:>9.0f}x"
            if "pass" not in verdicts or any(not v.endswith(":pass") for v in verdicts.split()):
                row += f" ({verdicts})"
        else:
            row += f" {'-':>9} {'-':>8} {'-':>10}"
        inputs_path = path.with_name(stem + ".inputs.json")
        if do_sim and inputs_path.exists():
            names = function_arg_names(func)
            types = [a.type for a in func.regions[0].entry.args]
            inputs = decode_inputs(names, types, json.loads(inputs_path.read_text()), str(inputs_path), module=module)
            tokens, sim_r, rtl_r, rtl_b, build_s = sim_rates(func, module, inputs)
            run_ratios.append(rtl_r / sim_r)
            build_ratios.append(rtl_b / sim_r)
            row += (f"   {tokens:>7} {sim_r:>10.3g} {rtl_r:>10.3g} {rtl_r / sim_r:>7.2f}x {rtl_b / sim_r:>7.2g}x {build_s:>7.1f}")
        print(row, flush=True)
    if proof_ratios:
        print(f"geometric mean SBY/verify on the same obligations: {geomean(proof_ratios):.0f}x "
              f"(min {min(proof_ratios):.0f}x, max {max(proof_ratios):.0f}x)")
    if run_ratios:
        print(f"geometric mean RTL/token-simulator throughput: {geomean(run_ratios):.2f}x run only, "
              f"{geomean(build_ratios):.2g}x with the Verilator build")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
