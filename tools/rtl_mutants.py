"""Every verifier mutant of every example through SymbiYosys, matched to Z3's refuted IDs (a CI step).

A mutant Z3 refutes within the SBY depth must fail SBY with one of Z3's refuted IDs.

Usage: python tools/rtl_mutants.py [--jobs N] [--max-depth D] [--keep DIR] [EXAMPLE ...]

Classifies every mutant (``tests/support/mutants.py``: matched / beyond / no RTL form / not in RTL yet;
``--jobs`` examples at a time), runs the one SBY task of every matched mutant (arguments pinned to Z3's
counterexample, ``--jobs`` SymbiYosys processes at a time), prints one line per matched mutant and a table
per example, and exits 1 on any disagreement (a matched mutant that passes SBY, fails it with no refuted
ID, times out or leaves no VCD), 0 otherwise.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main(argv: list[str] | None = None) -> int:
    from support.mutants import KINDS, MAX_DEPTH, Outcome, classify_all, run_all
    from support.examples import EXAMPLE_NAMES as EXAMPLES

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="examples (default: every examples/*.scf.mlir)")
    ap.add_argument("--jobs", type=int, default=2, help="SymbiYosys processes at a time (default 2)")
    ap.add_argument("--max-depth", type=int, default=MAX_DEPTH,
                    help=f"most cycles a counterexample's run may need (default {MAX_DEPTH})")
    ap.add_argument("--keep", type=Path, help="keep every SBY directory (with its VCD) under this directory")
    args = ap.parse_args(argv)
    names = args.names or EXAMPLES
    unknown = sorted(set(names) - set(EXAMPLES))
    if unknown:
        print(f"rtl_mutants: error: no example {', '.join(unknown)}", file=sys.stderr)
        return 2
    t_start = time.monotonic()
    by_name, z3_secs = classify_all(names, args.jobs, args.max_depth)
    rows = [r for name in names for r in by_name[name]]
    for name in names:
        print(f"{name}: {len(by_name[name])} refuted mutants classified in {z3_secs[name]:.0f}s", flush=True)
    wd = args.keep or Path(tempfile.mkdtemp(prefix="loom-rtl-mutants-"))
    lock = threading.Lock()

    def report(o: Outcome) -> None:
        r = o.row
        fails = ", ".join(f"{lbl} ({ob})" for lbl, ob in o.failed) or "nothing"
        verdict = "agree" if o.agrees else f"DISAGREE: {o.problem}"
        fifos = f", {o.fifo_depth}-slot FIFOs" if o.fifo_depth != 2 else ""
        with lock:
            print(f"  {r.name}: z3 {r.target} at {r.pinned}; SBY {r.task} depth {r.depth}{fifos}: {o.status} "
                  f"{fails} [{o.seconds:.0f}s] {verdict}", flush=True)

    outcomes = run_all(rows, wd, args.jobs, report)
    if args.keep is None:
        shutil.rmtree(wd, ignore_errors=True)
    by_row = {id(o.row): o for o in outcomes}
    print(f"\n{'example':<13} {'matched':>7} {'agreed':>6} {'beyond':>6} {'no RTL form':>11} "
          f"{'not in RTL yet':>14} {'z3 s':>5} {'SBY s':>6}")
    bad = 0
    for name in names:
        mine = [r for r in rows if r.example == name]
        count = {k: sum(r.kind == k for r in mine) for k in KINDS}
        outs = [by_row[id(r)] for r in mine if id(r) in by_row]
        agreed = sum(o.agrees for o in outs)
        bad += len(outs) - agreed
        print(f"{name:<13} {count['matched']:>7} {agreed:>6} {count['beyond']:>6} {count['no RTL form']:>11} "
              f"{count['not in RTL yet']:>14} {z3_secs[name]:>5.0f} {sum(o.seconds for o in outs):>6.0f}")
    for r in rows:
        if r.kind == "beyond":
            print(f"  beyond: {r.name}: {r.why}")
        elif r.kind == "not in RTL yet":
            more = " ..." if len(r.refuted) > 5 else ""
            print(f"  not in RTL yet: {r.name}: refuted {', '.join(r.refuted[:5])}{more}")
    print(f"total {len(outcomes)} matched mutant(s) through SBY, {bad} disagreement(s), "
          f"{time.monotonic() - t_start:.0f}s wall")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
