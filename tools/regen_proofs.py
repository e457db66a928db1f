#!/usr/bin/env python3
"""Regenerate ``proofs/`` (the SMT-LIB2 obligations of every example and their verdicts), or check it.

    python tools/regen_proofs.py            # rewrite proofs/ from examples/*.scf.mlir
    python tools/regen_proofs.py --check    # regenerate in a temporary directory; fail if anything differs
                                            # from proofs/, then re-check every file with the z3 binary
                                            # (and cvc5 when its Python package is installed)

The output is deterministic: the same sources give byte-identical files. A proved
obligation's file must be answered ``unsat`` by every solver; the check fails
otherwise (``sat``, ``unknown`` or an error all count as failures).
"""

from __future__ import annotations

import argparse
import filecmp
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loom.verify.driver import verify_files  # noqa: E402
from loom.verify.obligation import VerifyContext  # noqa: E402
from loom.verify.smt2 import emit_smt2, write_manifest  # noqa: E402

EXAMPLES = ROOT / "examples"
PROOFS = ROOT / "proofs"
SOLVER_TIMEOUT = 120  # seconds per file


def generate(out: Path) -> list[dict]:
    """Write every example's obligations under ``out/<example>/`` and ``out/manifest.json``."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    srcs = sorted(EXAMPLES.glob("*.scf.mlir"))
    # one process, in this order: fresh-name counters of the length checker make the text depend on it
    reports = verify_files(srcs, VerifyContext(want_smt2=True), jobs=1)
    by_file: dict[str, list] = {}
    for r in reports:
        by_file.setdefault(r.file, []).append(r)
    entries: list[dict] = []
    for src in srcs:
        stem = src.name[: -len(".scf.mlir")]
        for e in emit_smt2(by_file.get(str(src), []), out / stem, manifest=False):
            e["source"] = f"examples/{src.name}"
            if e["file"] is not None:
                e["file"] = f"{stem}/{e['file']}"
            entries.append(e)
    write_manifest(entries, out / "manifest.json")
    (out / "MANIFEST").write_text(manifest_text(entries), encoding="utf-8")
    return entries


def manifest_text(entries: list[dict]) -> str:
    """``proofs/MANIFEST``: how the files were printed and which pinned tools decide and re-check them."""
    import importlib.metadata as md

    from loom import __version__

    def version(dist: str) -> str:
        try:
            return md.version(dist)
        except md.PackageNotFoundError:
            return "not installed"

    files = sum(1 for e in entries if e["file"])
    return (
        "# proofs/: every obligation of examples/*.scf.mlir; regenerate with python tools/regen_proofs.py\n"
        "printer: loom.verify.smtlib (canonical SMT-LIB2, the same bytes under any solver release)\n"
        f"loom: {__version__}\n"
        f"z3-solver: {version('z3-solver')} (decides every verdict; re-checks every file)\n"
        f"cvc5: {version('cvc5')} (re-checks every file)\n"
        f"obligations: {len(entries)}\n"
        f"files: {files}\n"
    )


def z3_binary() -> str | None:
    """The z3 executable that ships with the z3-solver package (or any on PATH)."""
    found = shutil.which("z3")
    if found:
        return found
    for cand in (Path(sys.executable).parent / "z3",):
        if cand.is_file():
            return str(cand)
    try:
        import z3

        cand = Path(z3.__file__).parent / "bin" / "z3"
        return str(cand) if cand.is_file() else None
    except ImportError:
        return None


def check_with_z3(binary: str, path: Path) -> str:
    try:
        r = subprocess.run(
            [binary, "-smt2", f"-T:{SOLVER_TIMEOUT}", str(path)],
            capture_output=True,
            text=True,
            timeout=SOLVER_TIMEOUT + 10,
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    lines = [x.strip() for x in r.stdout.splitlines() if x.strip()]
    return lines[-1] if lines else f"error: {r.stderr.strip()[:200]}"


def cvc5_checker():
    """A function path -> answer using cvc5's Python API, or None when cvc5 is not installed."""
    if importlib.util.find_spec("cvc5") is None:
        return None

    def check(path: Path) -> str:
        from loom.verify.recheck import cvc5_answer

        return cvc5_answer(path=path, option=("tlimit-per", str(SOLVER_TIMEOUT * 1000)))

    return check


def compare(fresh: Path, repo: Path) -> list[str]:
    """Differences between two proof trees (missing, extra or changed files)."""
    problems = []
    a = {p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file()}
    b = {p.relative_to(repo) for p in repo.rglob("*") if p.is_file()} if repo.exists() else set()
    problems += [f"missing in proofs/: {p}" for p in sorted(a - b)]
    problems += [f"stale file in proofs/: {p}" for p in sorted(b - a)]
    problems += [
        f"differs: {p}" for p in sorted(a & b) if not filecmp.cmp(fresh / p, repo / p, shallow=False)
    ]
    return problems


def _body(path: Path) -> str:
    """The script without its leading comment lines (identical queries of several examples are solved once)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    while lines and lines[0].startswith(";"):
        lines.pop(0)
    return "\n".join(lines)


def recheck(tree: Path, entries: list[dict]) -> list[str]:
    """Every obligation is proved and its file is unsat for z3 (binary) and cvc5 (if installed)."""
    problems = [
        f"{e['source']} {e['id']}: verdict {e['verdict']}" for e in entries
        if e["verdict"] not in ("proved", "assumed")  # assumed: stated (a while loop's termination), no file
    ]
    binary = z3_binary()
    if binary is None:
        problems.append("no z3 binary found (z3-solver installs one)")
    cvc5_check = cvc5_checker()
    distinct: dict[str, Path] = {}
    owners: dict[str, list[str]] = {}
    for e in entries:
        if e["file"] is not None:
            body = _body(tree / e["file"])
            distinct.setdefault(body, tree / e["file"])
            owners.setdefault(body, []).append(e["file"])
    paths = list(distinct.values())
    # the z3 binary runs in subprocesses from worker threads while cvc5 (in-process) checks here
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        z3_answers = pool.map(lambda p: check_with_z3(binary, p), paths) if binary is not None else None
        cvc5_answers = [cvc5_check(p) for p in paths] if cvc5_check is not None else None
        if z3_answers is not None:
            problems += [
                f"z3 says {a} for {p.relative_to(tree)}" for p, a in zip(paths, z3_answers) if a != "unsat"
            ]
    if cvc5_answers is not None:
        problems += [f"cvc5 says {a} for {p.relative_to(tree)}" for p, a in zip(paths, cvc5_answers) if a != "unsat"]
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with proofs/ and re-check with the solvers")
    ap.add_argument(
        "--proofs", type=Path, default=PROOFS, help="the proofs directory (default: repo proofs/)"
    )
    args = ap.parse_args(argv)
    if not args.check:
        entries = generate(args.proofs)
        files = sum(1 for e in entries if e["file"])
        print(f"wrote {files} SMT-LIB2 files and a manifest of {len(entries)} obligations to {args.proofs}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "proofs"
        entries = generate(fresh)
        problems = compare(fresh, args.proofs)
        problems += recheck(args.proofs if not problems else fresh, entries)
    solvers = "z3" + (" and cvc5" if cvc5_checker() is not None else "")
    if problems:
        print(f"proofs/ check FAILED ({len(problems)} problem(s)):")
        for p in problems:
            print("  " + p)
        return 1
    n = sum(1 for e in entries if e["file"])
    print(
        f"proofs/ is up to date: {len(entries)} obligations ({sum(e['verdict'] == 'proved' for e in entries)} proved, "
        f"{sum(e['verdict'] == 'assumed' for e in entries)} assumed), {n} SMT-LIB2 files, all unsat for {solvers}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
