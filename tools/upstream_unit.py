"""Run upstream LOOM's mapper unit cases (tests/unit/*) against loom map, from a fetched snapshot, and count passes.

Usage: python tools/upstream_unit.py GIT_DIR [--work DIR] [--only NAME ...] [--verbose]

GIT_DIR is a bare git directory of a PolyArch/loom snapshot (e.g. /work/.mirror/PolyArch+loom/repo); nothing of
it is part of loom. Each case directory with a dfg.mlir and a fabric.mlir is extracted, whole, to
``tests/unit/<case>`` under a scratch directory (default: a fresh temporary one), which plays upstream's
repository root as its runner does: ``build/bin/loom`` there is a small launcher that turns upstream's command
line (``loom --adg F --dfg D -o OUT [flags]``) into ``loom map D --adg F -o OUT [flags]``; the case's
``loom.args`` flags are appended, outputs go to ``out/<case>``, and checks run from the root (some re-run
``build/bin/loom`` or read a config beside them). Each case is judged:

* a case with an expect-fail.txt passes when loom refuses it cleanly: a nonzero exit, no traceback, and (for
  an input error, exit 2) exactly one located line ``file:line:col: error: [CODE] message``;
* a case with a check.py passes when loom maps it and the case's own check.py accepts the outputs, which are
  also written under upstream's legacy names (``dfg.map.json``, ``dfg.config.json``, ...);
* any other case passes when loom maps it.

Prints one line per case and the counts per group, and how many refusals also contain the text upstream's
runner looks for in ``expect-fail.txt`` (informational: loom words its own messages); exit 0. The verdicts are
upstream's checks, not loom's.
"""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

LOCATED = re.compile(r"^(?:\S+|<command line>):\d+:\d+: error: \[[A-Z0-9_]+\] .+$")
LAUNCHER = """#!{python}
# upstream's command line -> loom map (written by loom's tools/upstream_unit.py; not part of either project)
import os, sys
a, dfg, rest = sys.argv[1:], None, []
while a:
    x = a.pop(0)
    if x == "--dfg" and a:
        dfg = a.pop(0)
    elif x.startswith("--dfg="):
        dfg = x[6:]
    else:
        rest.append(x)
os.execv(sys.executable, [sys.executable, "-m", "loom", "map"] + ([dfg] if dfg else []) + rest)
"""
TIMEOUT = 300


@dataclass
class Outcome:
    name: str
    group: str  # "expect-fail" | "check" | "plain"
    ok: bool
    note: str
    same_words: bool = False  # expect-fail: upstream's expected message text occurs in loom's output (informational)


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def extract(git_dir: str, work: Path) -> list[Path]:
    """Every tests/unit case with a dfg.mlir and a fabric.mlir, written whole under ``work/tests/unit``."""
    names = _git(git_dir, "ls-tree", "-r", "--name-only", "HEAD", "tests/unit").split("\n")
    cases: dict[str, set[str]] = {}
    for n in names:
        parts = n.split("/")
        if len(parts) == 4:
            cases.setdefault(parts[2], set()).add(parts[3])
    out = []
    for case, files in sorted(cases.items()):
        if not {"dfg.mlir", "fabric.mlir"} <= files:
            continue
        d = work / "tests" / "unit" / case
        d.mkdir(parents=True, exist_ok=True)
        for f in sorted(files):
            blob = subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:tests/unit/{case}/{f}"],
                                  check=True, capture_output=True).stdout
            (d / f).write_bytes(blob)
        out.append(d)
    return out


def _legacy_names(out: Path) -> None:
    """Upstream's checks read ``dfg.<ext>``; loom writes ``dfg.fabric.<ext>`` (spec-compilation's names)."""
    for f in sorted(out.glob("dfg.fabric.*")):
        shutil.copyfile(f, out / ("dfg." + f.name[len("dfg.fabric."):]))


def launcher(work: Path) -> Path:
    """``work/build/bin/loom``: upstream's command line, run as loom map with this Python."""
    exe = work / "build" / "bin" / "loom"
    exe.parent.mkdir(parents=True, exist_ok=True)
    exe.write_text(LAUNCHER.format(python=sys.executable))
    exe.chmod(0o755)
    return exe


def loom_args(d: Path) -> list[str]:
    """The case's loom.args flags (one or more a line; # comments), as upstream's runner reads them."""
    f = d / "loom.args"
    if not f.exists():
        return []
    return [t for line in f.read_text().splitlines() if line.strip() and not line.strip().startswith("#")
            for t in shlex.split(line.strip())]


def run_case(loom: Path, d: Path) -> Outcome:
    root = d.parents[2]
    rel = d.relative_to(root)
    out = root / "out" / d.name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    try:
        r = subprocess.run([str(loom), "--adg", str(rel / "fabric.mlir"), "--dfg", str(rel / "dfg.mlir"), "-o",
                            str(out.relative_to(root)), *loom_args(d)], cwd=root,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return Outcome(d.name, _group(d), False, "timeout")
    (out / "run.out").write_text(r.stdout)  # where upstream's runner keeps them (some checks read run.err)
    (out / "run.err").write_text(r.stderr)
    text = (r.stdout + r.stderr).strip()
    if "Traceback" in text:
        return Outcome(d.name, _group(d), False, "traceback")
    first = text.splitlines()[0] if text else ""
    if (d / "expect-fail.txt").exists():
        patterns = [t.strip() for t in (d / "expect-fail.txt").read_text().splitlines()
                    if t.strip() and not t.strip().startswith("#")]
        same = all(pat in r.stdout + "\n" + r.stderr for pat in patterns)  # upstream's runner requires its wording
        if r.returncode == 0:
            return Outcome(d.name, "expect-fail", False, "accepted")
        if r.returncode == 2:
            lines = r.stderr.strip().splitlines()
            ok = len(lines) == 1 and bool(LOCATED.match(lines[0]))
            return Outcome(d.name, "expect-fail", ok, lines[0] if lines else "exit 2, no message", same)
        return Outcome(d.name, "expect-fail", True, f"exit {r.returncode}: {first}", same)
    if r.returncode != 0:
        return Outcome(d.name, _group(d), False, f"exit {r.returncode}: {first}")
    if not (d / "check.py").exists():
        return Outcome(d.name, "plain", True, "mapped")
    _legacy_names(out)
    c = subprocess.run([sys.executable, str(rel / "check.py"), d.name, str(out.relative_to(root))], cwd=root,
                       capture_output=True, text=True, timeout=TIMEOUT)
    msg = (c.stdout + c.stderr).strip().splitlines()
    return Outcome(d.name, "check", c.returncode == 0, "check.py accepts" if c.returncode == 0 else
                   f"check.py: {msg[-1] if msg else 'exit ' + str(c.returncode)}")


def _group(d: Path) -> str:
    return "expect-fail" if (d / "expect-fail.txt").exists() else "check" if (d / "check.py").exists() else "plain"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("git_dir")
    ap.add_argument("--work", type=Path)
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="loom-upstream-unit-"))
    loom = launcher(work)
    cases = extract(args.git_dir, work)
    if args.only:
        cases = [c for c in cases if c.name in args.only]
    results = []
    for d in cases:
        o = run_case(loom, d)
        results.append(o)
        print(f"{'PASS' if o.ok else 'FAIL'} {o.group:<11} {o.name}: {o.note}", flush=True)
    print(f"\nwork directory: {work}")
    for g in ("expect-fail", "check", "plain"):
        rs = [o for o in results if o.group == g]
        print(f"{g}: {sum(o.ok for o in rs)}/{len(rs)} pass")
    xf = [o for o in results if o.group == "expect-fail"]
    print(f"expect-fail with upstream's own message text (informational; loom words its messages itself): "
          f"{sum(o.same_words for o in xf)}/{len(xf)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
