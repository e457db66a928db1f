"""The longest functions and the largest classes of loom's package, by source lines (issue 28: classes and
functions too big to hold in one's head). Reads a git revision's tree, so two revisions compare side by side.

    .venv/bin/python tools/code_size.py                 # the working tree
    .venv/bin/python tools/code_size.py --rev 0d2984f   # a commit
"""

from __future__ import annotations

import argparse
import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _sources(rev: str | None) -> dict[str, str]:
    """Path -> text of every loom/**.py file at ``rev`` (None: the working tree)."""
    if rev is None:
        return {str(p.relative_to(ROOT)): p.read_text() for p in sorted((ROOT / "loom").rglob("*.py"))}
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", rev, "loom"],
                           capture_output=True, text=True, check=True).stdout.split()
    return {n: subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{n}"], capture_output=True, text=True,
                              check=True).stdout for n in names if n.endswith(".py")}


def measure(rev: str | None) -> tuple[list[tuple[int, str]], list[tuple[int, int, str]]]:
    """(functions: (lines, name), classes: (lines, methods, name)), each sorted largest first."""
    funcs: list[tuple[int, str]] = []
    classes: list[tuple[int, int, str]] = []
    for path, text in _sources(rev).items():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            span = (node.end_lineno or node.lineno) - node.lineno + 1
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                funcs.append((span, f"{path}:{node.name}"))
            elif isinstance(node, ast.ClassDef):
                methods = sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in node.body)
                classes.append((span, methods, f"{path}:{node.name}"))
    return sorted(funcs, key=lambda f: (-f[0], f[1])), sorted(classes, key=lambda c: (-c[0], c[2]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", help="a git revision (default: the working tree)")
    ap.add_argument("-n", type=int, default=15, help="how many of each to list (default 15)")
    a = ap.parse_args()
    funcs, classes = measure(a.rev)
    print("| function | lines |\n|---|---|")
    for n, name in funcs[: a.n]:
        print(f"| `{name}` | {n} |")
    print("\n| class | lines | methods |\n|---|---|---|")
    for n, m, name in classes[: a.n]:
        print(f"| `{name}` | {n} | {m} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
