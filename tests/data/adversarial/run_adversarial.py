#!/usr/bin/env python3
"""Run `loom verify --json` and `loom sim --json` on every adversarial input here,
replay every refutation's inputs in `loom sim`, and write results.json + RESULTS.md.

    LOOM=".venv/bin/loom" .venv/bin/python tests/data/adversarial/run_adversarial.py [FILE...]

One file at a time (the machine is shared). INTENT below says what each file is
meant to be: correct, or faulty with the obligation families that must refute it.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOOM = shlex.split(os.environ.get("LOOM", str(HERE.parents[2] / ".venv/bin/loom")))
VERIFY_TIMEOUT = int(os.environ.get("VERIFY_TIMEOUT", "600"))
SIM_STEPS = "1000000"

# file stem -> (fault description or None, regexes of the obligation ids that must be refuted)
INTENT: dict[str, tuple[str | None, list[str]]] = {
    # --- SCF, correct
    "ok_stencil3": (None, []), "ok_prefix_sum": (None, []), "ok_gather_i32": (None, []),
    "ok_histogram_clamp": (None, []), "ok_trisolve": (None, []), "ok_compact_cap": (None, []),
    "ok_search_key": (None, []), "ok_minmax": (None, []), "ok_popcount": (None, []),
    "ok_mean_guarded": (None, []), "ok_quantize": (None, []), "ok_matvec": (None, []),
    "ok_rowsum_subview": (None, []), "ok_lower_bound": (None, []), "ok_gcd": (None, []),
    "ok_bitreverse8": (None, []), "ok_countdown_step": (None, []), "ok_pairsum_step2": (None, []),
    "ok_tiles_ceildiv": (None, []), "ok_jacobi2d": (None, []), "ok_backsub": (None, []),
    "ok_merge_sorted": (None, []), "ok_merge_sorted_bounded": (None, []), "ok_skip_then_tail": (None, []), "ok_rowsum_window_plus": (None, []),
    # --- SCF, faulty
    "bad_stencil3_nwrap": ("OOB: n = INT64_MIN passes 'n <= dim', n - 1 wraps", [r"^safe\.(load|store)@.*\.bounds$"]),
    "bad_scatter_noupper": ("OOB: scatter index has no upper bound", [r"^safe\.store@.*\.bounds$"]),
    "bad_prefix_inclusive": ("OOB: off-by-one loop bound n + 1", [r"^safe\.(load|store)@.*\.bounds$"]),
    "bad_histogram_remsi": ("OOB: remsi of a negative sample", [r"^safe\.(load|store)@.*\.bounds$"]),
    "bad_mean_positive": ("div by 0: count of positives may be 0", [r"^safe\.divsi@.*\.divzero$"]),
    "bad_shift_by_data": ("shift by a loaded amount", [r"^safe\.shrui@.*\.shift$"]),
    "bad_while_ne_step2": ("non-termination: i += 2 until i != n, n odd (n in loom.range [0, 64])", [r"^len\.L\d+\.terminates$"]),
    "bad_while_ne_step2_free": ("non-termination: i += 2 until i != n, n odd (n free)", [r"^len\.L\d+\.terminates$"]),
    "bad_compact_stuck": ("non-termination: i advances only on a kept element", [r"^len\.L\d+\.terminates$"]),
    "bad_trisolve_int": ("div by 0: integer diagonal may be 0", [r"^safe\.divsi@.*\.divzero$"]),
    "bad_quantize_noclamp": ("fptosi without clamp", [r"^safe\.fptosi@.*\.cast$"]),
    "bad_max_seed_a0": ("OOB: a[0] read on an empty vector", [r"^safe\.load@.*\.bounds$"]),
    "bad_bsearch_inclusive": ("OOB (mid = n) and non-termination: lo <= hi with exclusive hi", [r"^safe\.load@.*\.bounds$", r"^len\.L\d+\.terminates$"]),
    "bad_popcount_33": ("shift by 32: off-by-one bit loop", [r"^safe\.shrui@.*\.shift$"]),
    "bad_rowsum_window": ("bad view: subview window leaves the row", [r"^safe\.subview@.*\.bounds$", r"^safe\.load@.*\.bounds$"]),
    "bad_sum_nsw": ("wrap: addi overflow<nsw> accumulation", [r"^safe\.addi@.*\.wrap$"]),
    "bad_sign_normalize": ("INT_MIN / -1", [r"^safe\.divsi@.*\.overflow$"]),
    "bad_tiles_ceildiv": ("div by 0: tile size 0", [r"^safe\.ceildivsi@.*\.divzero$"]),
    "bad_compact_nocap": ("OOB: compaction without capacity test", [r"^safe\.store@.*\.bounds$"]),
    "bad_search_order": ("OOB: load before the i < n test", [r"^safe\.load@.*\.bounds$"]),
    "bad_jacobi2d": ("OOB: column loop to m instead of m - 1", [r"^safe\.load@.*\.bounds$"]),
    # --- DFG, correct
    "dfg_ok_vscale": (None, []), "dfg_ok_countdown": (None, []), "dfg_ok_trisum": (None, []),
    "dfg_ok_mean_guarded": (None, []), "dfg_ok_gcd": (None, []), "dfg_ok_histogram": (None, []),
    "dfg_ok_prefix_sum": (None, []),
    # --- DFG, faulty
    "dfg_bad_vscale_nogate": ("missing gate: load address from the raw stream", [r"^balance\.", r"^class\.", r"^bmc\.", r"^safe\.load@.*\.bounds$"]),
    "dfg_bad_vscale_rawcarry": ("carry on the raw condition (memory ctrl)", [r"^balance\.", r"^bmc\.", r"^len\."]),
    "dfg_bad_vscale_nodone": ("dropped done token of the store chain", [r"^done\.postdom$"]),
    "dfg_bad_vscale_waw": ("two stores of one iteration unordered (WAW race)", [r"^mem\.out\.order"]),
    "dfg_bad_countdown_ne": ("non-termination: x != 0 with step s", [r"^len\.L\d+\.terminates$"]),
    "dfg_bad_countdown_swapped": ("cond_br outputs swapped (feedback on the exit side)", [r"^balance\.", r"^bmc\.", r"^len\."]),
    "dfg_bad_trisum_gatedcarry": ("data carry on the gated condition, exit branch on the raw one", [r"^balance\.", r"^bmc\.", r"^len\."]),
    "dfg_bad_mean_unguarded": ("div by 0: guard removed", [r"^safe\.divsi@.*\.divzero$"]),
    "dfg_bad_shift_data": ("shift by a loaded amount", [r"^safe\.shrui@.*\.shift$"]),
    "dfg_bad_histogram_race2": ("next load waits only for the load's done; stores chained apart (every done awaited): RAW race across iterations", [r"^mem\.hist\.order"]),
    "dfg_bad_histogram_race": ("loop feedback = load's done, store's done sunk: RAW/WAW race across iterations", [r"^mem\.hist\.order", r"^done\.postdom$"]),
}


def run(cmd: list[str], timeout: int) -> tuple[int, str, str, float]:
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return -9, e.stdout or "", f"timeout after {timeout}s", time.time() - t0


def sim(path: Path, inputs: dict) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(inputs, f)
        name = f.name
    rc, out, err, _ = run(LOOM + ["sim", str(path), "--inputs", name, "--json", "--max-steps", SIM_STEPS], 300)
    os.unlink(name)
    try:
        d = json.loads(out)
    except json.JSONDecodeError:
        return {"status": "crash", "error": (err or out).strip()[-300:], "rc": rc}
    return {"status": d.get("status"), "error": d.get("error"), "residual_tokens": d.get("residual_tokens"),
            "results": d.get("results"), "rc": rc}


def clean(inputs: dict) -> dict:
    return {k: v for k, v in inputs.items() if k != "start_token"}


def replay(path: Path, base: dict, ob: dict) -> dict | None:
    """Run a refutation's inputs in `loom sim`; None when the refutation gives no inputs."""
    cx = ob.get("counterexample") or {}
    if "inputs" in cx:
        res = sim(path, clean(cx["inputs"]))
        want = (cx.get("error") or "").split(" ")[0]
        res["kind"] = "inputs"
        res["fails"] = res["status"] not in ("completed",) and (not want or want in (res.get("error") or ""))
        return res
    args = None
    if isinstance(cx.get("replay"), dict) and "inputs" in cx["replay"]:
        args = clean(cx["replay"]["inputs"])
    elif "arguments" in cx and cx["arguments"]:
        args = clean(cx["arguments"])
    if args is None:
        return None
    inputs = dict(base)
    inputs.update(args)
    res = sim(path, inputs)
    res["kind"] = "arguments over the file's inputs"
    res["fails"] = res["status"] != "completed" or bool(res.get("residual_tokens"))
    return res


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or sorted(list(HERE.glob("*.scf.mlir")) + list(HERE.glob("*.dfg.mlir")))
    out_json = HERE / "results.json"
    prior = json.loads(out_json.read_text()) if argv and out_json.exists() else {}
    results = prior
    for path in files:
        stem = path.name.split(".")[0]
        fault, families = INTENT.get(stem, ("?", []))
        inputs_path = HERE / f"{stem}.inputs.json"
        base = json.loads(inputs_path.read_text())
        print(f"== {path.name}", flush=True)
        rc, out, err, secs = run(LOOM + ["verify", "--json", str(path)], VERIFY_TIMEOUT)
        try:
            rep = json.loads(out)
        except json.JSONDecodeError:
            rep = {"obligations": [], "summary": {}, "crash": (err or out).strip()[-600:]}
        obs = rep.get("obligations", [])
        s = sim(path, base)
        entry = {
            "file": path.name, "kind": "dfg" if path.name.endswith(".dfg.mlir") else "scf",
            "intended": "correct" if fault is None else "faulty", "fault": fault, "families": families,
            "exit": rc, "seconds": round(secs, 2), "crash": rep.get("crash"),
            "counts": {k: sum(1 for o in obs if o["status"] == k) for k in ("proved", "refuted", "unknown", "assumed", "unchecked")},
            "total": len(obs), "sim": s, "nonproved": [],
        }
        for o in obs:
            if o["status"] == "proved":
                continue
            item = {"id": o["id"], "status": o["status"], "rule": o.get("rule"), "nature": o.get("nature"),
                    "detail": o.get("detail", "")}
            if o["status"] == "refuted":
                item["replay"] = replay(path, base, o)
            entry["nonproved"].append(item)
        refuted = [o["id"] for o in obs if o["status"] == "refuted"]
        if fault is None:
            entry["right"] = not refuted and rc in (0, 3) and not entry["crash"]
        else:
            entry["right"] = any(re.search(rx, i) for rx in families for i in refuted)
        entry["right_strict"] = entry["right"] and (fault is not None or entry["counts"]["unknown"] == 0)
        results[path.name] = entry
        print(f"   exit {rc} {entry['counts']} sim={s['status']} right={entry['right']}", flush=True)
        out_json.write_text(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
