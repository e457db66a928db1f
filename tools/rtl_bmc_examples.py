"""Bounded SymbiYosys check (task ``dfg``) of every example's DFG-level monitors, trip counts in [0, N].

Usage: python tools/rtl_bmc_examples.py [--bound N] [--depth D] [NAME ...]

For each example (all of ``examples/*.scf.mlir`` unless names are given) the depth
is measured by RTL simulation at the largest arguments (``loom.hdl.depth``; needs
iverilog) unless ``--depth`` is given; prints one line per example: status,
depth, seconds, failed labels. Slow (minutes per example): not part of the
default test run, which checks a representative fast subset
(``tests/test_hdl_monitors.py``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    from loom.cli import _dfg_module, _pick_function, _scf_sources
    from loom.hdl.depth import measured_depth
    from loom.hdl.emit import emit, write_all
    from loom.hdl.sby import run_task

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--bound", type=int, default=3)
    ap.add_argument("--depth", type=int)
    args = ap.parse_args(argv)
    paths = sorted((ROOT / "examples").glob("*.scf.mlir"))
    if args.names:
        paths = [p for p in paths if p.name[: -len(".scf.mlir")] in args.names]
    bad = 0
    for path in paths:
        name = path.name[: -len(".scf.mlir")]
        ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
        func = _pick_function(_dfg_module(path, None, ns), None, ("handshake.func",), path)
        depth = args.depth or measured_depth(func, args.bound)
        if depth is None:
            print(f"{name}: no depth (iverilog missing?)", flush=True)
            bad += 1
            continue
        src = _scf_sources(path).get(func.attributes["sym_name"].value)  # the order monitors' program order
        e = emit(func, name, rtl_bound=args.bound, dfg_depth=depth, source=src)
        wd = Path(tempfile.mkdtemp(prefix=f"loom-bmc-{name}-"))
        write_all(wd, e.files)
        v = run_task(wd, f"{name}.sby", "dfg", timeout=7200)
        n = len(e.design.monitors.props) if e.design.monitors else 0
        print(f"{name}: {v.status} depth {depth} monitors {n} {v.seconds:.0f}s {' '.join(v.failed)}", flush=True)
        bad += v.status != "pass"
        if v.status == "pass":
            shutil.rmtree(wd, ignore_errors=True)
        else:
            print(f"  kept {wd}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
