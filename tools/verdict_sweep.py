#!/usr/bin/env python3
"""Do ``loom verify``'s verdicts depend on the machine or its load? Run it on many files and compare.

    python tools/verdict_sweep.py --out idle.json                     # every example, test kernel and corpus file
    python tools/verdict_sweep.py --out pinned.json --taskset 0       # pinned to CPU 0
    python tools/verdict_sweep.py --out loaded.json --hogs 2          # beside two busy-loop processes
    python tools/verdict_sweep.py --compare idle.json loaded.json     # exit 1 when a verdict differs
    python tools/verdict_sweep.py --out some.json FILE... -- --bmc-k 3   # chosen files; options after -- go to verify

Each file is verified by its own ``loom verify --json`` process (one file at a time unless ``--jobs``). What
is recorded per file: the exit code (or the one-line error of exit 2) and, per obligation, its status and its
detail with timing numbers taken out (``verdicts``). A verdict that depends on wall clock shows up as a
difference between runs made under different loads. The hogs are busy-loop subprocesses started here and
always killed, by their own process ids, when the sweep ends.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"

# timing numbers in a detail: "0.68 s", "1.5s", "timeout after 2 s", "(0.123s)"
_SECONDS = re.compile(r"\d+(?:\.\d+)?(?:e-?\d+)?\s?s\b")


def default_files() -> list[Path]:
    """Every example, every test kernel under tests/data and every corpus file (sorted, relative to ROOT)."""
    found = sorted((ROOT / "examples").rglob("*.mlir")) + sorted((ROOT / "tests" / "data").rglob("*.mlir"))
    if CORPUS.is_dir():
        found += sorted(CORPUS.rglob("*.mlir"))
    return found


def without_times(detail: str) -> str:
    """A detail with its timing numbers replaced by ``<t>``: what must not change between runs."""
    return _SECONDS.sub("<t>", detail)


def verdicts(doc: dict) -> dict[str, list[str]]:
    """Obligation id -> [status, detail without timing numbers] of one ``--json`` document."""
    return {o["id"]: [o["status"], without_times(o["detail"])] for o in doc["obligations"]}


def verify_one(path: Path, extra: list[str], prefix: list[str], limit: float) -> dict:
    """One ``loom verify --json`` run: its exit code, verdicts and wall time (``killed`` past ``limit``)."""
    # relative to the checkout: details that name the file read the same from any checkout
    cmd = prefix + [sys.executable, "-m", "loom", "verify", "--json", *extra, os.path.relpath(path, ROOT)]
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=limit)
    except subprocess.TimeoutExpired:
        return {"exit": None, "killed": limit, "seconds": round(time.perf_counter() - t0, 2)}
    out: dict = {"exit": r.returncode, "seconds": round(time.perf_counter() - t0, 2)}
    if r.returncode == 2 or not r.stdout.strip():
        out["error"] = (r.stderr.strip().splitlines() or [""])[-1]
        return out
    doc = json.loads(r.stdout)
    out["verdicts"] = verdicts(doc)
    # the slow obligations (informative only: never compared)
    out["slow"] = {o["id"]: o["seconds"] for o in doc["obligations"] if o["seconds"] >= 0.5}
    out["limits"] = doc["summary"].get("limits")
    return out


def start_hogs(n: int) -> list[subprocess.Popen]:
    """``n`` busy-loop processes (each one core's worth of load)."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def stop_hogs(hogs: list[subprocess.Popen]) -> None:
    for h in hogs:
        h.kill()
    for h in hogs:
        h.wait()


def sweep(files: list[Path], extra: list[str], taskset: Optional[str], hogs: int, limit: float,
          jobs: int = 1, progress: bool = True) -> dict:
    prefix = ["taskset", "-c", taskset] if taskset else []
    procs = start_hogs(hogs)
    results: dict[str, dict] = {}
    try:
        if jobs <= 1:
            for i, f in enumerate(files):
                name = _name(f)
                results[name] = verify_one(f, extra, prefix, limit)
                if progress:
                    print(f"[{i + 1}/{len(files)}] {name}: exit {results[name]['exit']} "
                          f"({results[name]['seconds']} s)", file=sys.stderr)
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(jobs) as pool:
                for f, res in zip(files, pool.map(lambda p: verify_one(p, extra, prefix, limit), files)):
                    results[_name(f)] = res
    finally:
        stop_hogs(procs)
    return {"options": extra, "taskset": taskset, "hogs": hogs, "files": results}


def _name(f: Path) -> str:
    return os.path.relpath(f.absolute(), ROOT)


def compare(a: dict, b: dict) -> list[str]:
    """Every difference of exit code, error or verdict between two sweeps (files in both)."""
    diffs = []
    for name in sorted(set(a["files"]) & set(b["files"])):
        x, y = a["files"][name], b["files"][name]
        if x.get("exit") != y.get("exit") or x.get("error") != y.get("error"):
            diffs.append(f"{name}: exit {x.get('exit')} vs {y.get('exit')} {x.get('error') or ''} "
                         f"{y.get('error') or ''}".rstrip())
        vx, vy = x.get("verdicts") or {}, y.get("verdicts") or {}
        for oid in sorted(set(vx) | set(vy)):
            if vx.get(oid) != vy.get(oid):
                diffs.append(f"{name}: {oid}: {vx.get(oid)} vs {vy.get(oid)}")
    only = sorted(set(a["files"]) ^ set(b["files"]))
    diffs += [f"{name}: in one sweep only" for name in only]
    return diffs


def main(argv: Optional[list[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, help="write the sweep as JSON here")
    ap.add_argument("--taskset", metavar="CPUS", help="pin every verify process (taskset -c CPUS)")
    ap.add_argument("--hogs", type=int, default=0, help="busy-loop processes running beside the sweep")
    ap.add_argument("--jobs", type=int, default=1, help="files verified at once")
    ap.add_argument("--kill-after", type=float, default=900.0, help="seconds before one verify run is killed")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("A.json", "B.json"),
                    help="compare two sweeps; exit 1 when any verdict differs")
    args = ap.parse_args(argv)
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        diffs = compare(a, b)
        for d in diffs:
            print(d)
        n = len(set(a["files"]) & set(b["files"]))
        print(f"{n} file(s) compared: {len(diffs)} difference(s)")
        return 1 if diffs else 0
    files = args.files or default_files()
    doc = sweep(files, extra, args.taskset, args.hogs, args.kill_after, args.jobs)
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    codes: dict = {}
    for r in doc["files"].values():
        codes[r.get("exit")] = codes.get(r.get("exit"), 0) + 1
    print(f"{len(files)} file(s): exit codes {codes}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
