"""Cycles and measured II of every example's RTL (issue 26): `loom sim --rtl` on the example's own inputs file,
without stalls (memory answering in 2 cycles), with iverilog (or LOOM_RTL_SIM). Prints a Markdown table: cycles
(the run's end), the cycle the return fired, and per loop (index stream) its tokens and cycles per token.

    .venv/bin/python tools/rtl_qor.py            # the table (specs/hdl.md, "Co-simulation", keeps a copy)
    .venv/bin/python tools/rtl_qor.py --json     # the same as JSON lines

No wall clock enters a figure: the same commit prints the same table on every machine with the same simulator.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(path: Path) -> dict:
    from loom.cli import _dataflow_function, _dfg_module, _func_arg_names_types, _scf_sources, _stem
    from loom.hdl.commands import simulate_rtl
    from loom.runtime import decode_inputs

    ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
    module = _dfg_module(path, None, ns)
    func = _dataflow_function(module, None, path)
    names, types = _func_arg_names_types(func)
    inputs_path = Path(str(path).replace(".scf.mlir", ".inputs.json"))
    inputs = decode_inputs(names, types, json.loads(inputs_path.read_text()), str(inputs_path), module=module)
    src = _scf_sources(path).get(func.attributes["sym_name"].value)
    info: dict = {}
    r = simulate_rtl(func, _stem(path), inputs, module, source=src, info=info)
    return {"example": _stem(path), "status": r.status, **info}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("LOOM_RTL_SIM", "iverilog")
    rows = [measure(p) for p in sorted((ROOT / "examples").glob("*.scf.mlir"))]
    if args.json:
        for r in rows:
            print(json.dumps(r, sort_keys=True))
        return 0
    print(f"RTL cycles of every example on its inputs file ({rows[0]['version'] if rows else ''}, no stalls)\n")
    print("| example | status | cycles | return at | loops: index tokens, II (cycles per token) |")
    print("|---|---|---|---|---|")
    for r in rows:
        loops = "; ".join(f"%{lp['stream']}: {lp['tokens']}, {lp['ii'] if lp['ii'] is not None else '-'}"
                          for lp in r["loops"]) or "(no stream)"
        print(f"| {r['example']} | {r['status']} | {r['cycles']} | {r['return_cycle']} | {loops} |")
    return 0 if all(r["status"] == "completed" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
