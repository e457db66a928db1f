"""Does ``loom verify`` finish within its ``--budget`` on every file of a directory of MLIR tests?

Run: ``python benchmarks/circt_budget.py DIR [--budget 20] [--timeout 5] [--slack 10] [--jobs 1]``.

Meant for CIRCT's handshake test files (``test/Dialect/Handshake``,
``test/Conversion/HandshakeToHW``, ``integration_test/Dialect/Handshake``) copied into a scratch
directory outside the repository; not part of the default test run.

Every ``*.mlir`` file under DIR (recursively) is cut at its ``// -----`` lines (the
``-split-input-file`` convention) and each chunk is written to a temporary file and verified
alone with ``loom verify --json --budget B --timeout T``. ``--budget`` is per function, so a
chunk with F functions may take ``B * F`` seconds; it is killed at ``B * max(F, 1) + slack``
(the slack covers interpreter start-up, parsing and Z3's import). The table reports

* verified: exit 0 (all proved), 1 (refuted) or 3 (unknown), with the counts per exit code,
* rejected as bad input: exit 2, with the counts per error code (``[CODE]`` on stderr),
* crashed: a Python traceback on stderr or any other exit status,
* over budget: killed at the limit,
* the max and median wall time and the largest time over the chunk's budget (slack used).

Output is sorted (by name, counts by code) so two runs differ only in the times.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

SPLIT = re.compile(r"^// -----\s*$", re.M)
FUNC = re.compile(r"^\s*(?:handshake\.func|func\.func)\b", re.M)
CODE = re.compile(r"error: \[([A-Z0-9_]+)\]")
LOOM = [sys.executable, "-m", "loom"]


@dataclass
class Run:
    """One chunk's outcome: exit status (None when killed), wall seconds, stderr, function count."""

    name: str
    funcs: int
    status: int | None
    seconds: float
    stderr: str

    @property
    def crashed(self) -> bool:
        return "Traceback (most recent call last)" in self.stderr or self.status not in (None, 0, 1, 2, 3)

    @property
    def code(self) -> str:
        m = CODE.search(self.stderr)
        return m.group(1) if m else "?"


def chunks(root: Path) -> list[tuple[str, str]]:
    """(name, text) of every split-input chunk of every .mlir file under ``root``, sorted by name."""
    out = []
    for path in sorted(root.rglob("*.mlir")):
        parts = SPLIT.split(path.read_text(encoding="utf-8", errors="replace"))
        rel = path.relative_to(root).as_posix()
        for i, text in enumerate(parts):
            out.append((rel if len(parts) == 1 else f"{rel}#{i}", text))
    return out


def run_one(name: str, text: str, work: Path, args) -> Run:
    """Verify one chunk in a subprocess, killed at its budget plus slack."""
    path = work / (re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".mlir")
    path.write_text(text, encoding="utf-8")
    funcs = len(FUNC.findall(text))
    limit = args.budget * max(funcs, 1) + args.slack
    cmd = LOOM + ["verify", "--json", "--budget", str(args.budget), "--timeout", str(args.timeout), str(path)]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        status, stderr = p.returncode, p.stderr
    except subprocess.TimeoutExpired as e:
        status = None
        stderr = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    return Run(name, funcs, status, time.monotonic() - start, stderr)


def report(runs: list[Run], args) -> str:
    """The summary table and the list of chunks over budget or crashed."""
    times = sorted(r.seconds for r in runs)
    verified = Counter(r.status for r in runs if r.status in (0, 1, 3) and not r.crashed)
    rejected = Counter(r.code for r in runs if r.status == 2 and not r.crashed)
    over = [r for r in runs if r.status is None]
    crashed = [r for r in runs if r.crashed and r.status is not None]
    slack = max(r.seconds - args.budget * max(r.funcs, 1) for r in runs) if runs else 0.0
    lines = [
        f"chunks (split-input files): {len(runs)}   budget {args.budget:g} s/function, "
        f"timeout {args.timeout:g} s, kill at budget*functions + {args.slack:g} s",
        f"verified (exit 0/1/3):  {sum(verified.values())}  "
        + " ".join(f"exit{k}={verified[k]}" for k in sorted(verified)),
        f"rejected (exit 2):      {sum(rejected.values())}  "
        + " ".join(f"{k}={v}" for k, v in sorted(rejected.items())),
        f"over budget (killed):   {len(over)}",
        f"crashed:                {len(crashed)}",
        f"wall time: max {times[-1] if times else 0:.2f} s, "
        f"median {statistics.median(times) if times else 0:.2f} s, "
        f"largest time over budget {slack:+.2f} s",
    ]
    for r in sorted(over, key=lambda r: r.name):
        lines.append(f"OVER BUDGET {r.name}: killed after {r.seconds:.1f} s ({r.funcs} functions)")
    for r in sorted(crashed, key=lambda r: r.name):
        last = r.stderr.strip().splitlines()[-1:] or [""]
        lines.append(f"CRASH {r.name}: exit {r.status}: {last[0]}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--slack", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=1, help="chunks verified at once (1: times are not shared)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per chunk")
    args = ap.parse_args(argv)
    if subprocess.run([sys.executable, "-c", "import loom.verify, z3"], capture_output=True).returncode != 0:
        sys.exit(f"circt_budget: error: {sys.executable} cannot import loom and z3 "
                 "(run it with the venv that has loom installed)")
    todo = chunks(args.dir)
    work = Path(tempfile.mkdtemp(prefix="circt_budget_"))
    try:
        with ThreadPoolExecutor(max(args.jobs, 1)) as pool:
            runs = list(pool.map(lambda c: run_one(c[0], c[1], work, args), todo))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.verbose:
        for r in sorted(runs, key=lambda r: r.name):
            what = "killed" if r.status is None else f"exit {r.status}"
            what += f" {r.code}" if r.status == 2 else ""
            print(f"{r.seconds:7.2f} s  {what:40s} {r.name}")
    print(report(runs, args))
    return 1 if any(r.status is None or r.crashed for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
