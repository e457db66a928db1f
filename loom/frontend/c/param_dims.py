"""The declared outer bound of array parameters (``int A[30][30]``): C's type of such a parameter is
``int (*)[30]``, so neither the LLVM IR nor clang's types have the 30 any more.

clang's AST (``-ast-dump=json``, the same clang) gives each parameter's source range; the declarator's
first ``[...]`` there is the bound as written (perhaps a macro), and a probe file that includes the kernel
and defines ``const long long __loom_dim_K = (bound);`` lets clang evaluate it. A bound that is absent
(``int a[]``), not a constant (``int a[n]``) or not in the main file leaves the dimension dynamic.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

from loom.frontend.c.toolchain import TARGET, ClangOptions, clang_command, compile_to_llvm

_QUALIFIERS = re.compile(r"\b(static|const|restrict|volatile|__restrict|__restrict__)\b")


def declared_bounds(path: Path, funcs: list[str], opts: ClangOptions) -> dict[str, dict[str, tuple[int, int]]]:
    """Per function, per parameter: (declared outer bound, number of ``[...]`` groups written)."""
    source = path.read_bytes()
    exprs: list[str] = []
    where: list[tuple[str, str, int]] = []
    text_of_file = source.decode("utf-8", "replace")
    for func in funcs:
        # clang's AST only for a function whose parameter list, as written, has a `[` (the common pointer
        # kernel costs no extra clang run); a bracket hidden in a macro leaves the dimension dynamic
        lists = re.findall(rf"\b{re.escape(func)}\s*\(([^)]*)\)", text_of_file)
        if not any("[" in ps for ps in lists):
            continue
        for name, text in _param_declarators(path, func, source, opts):
            groups = re.findall(r"\[([^\[\]]*)\]", text)
            if not text.startswith("[") or not groups:
                continue
            bound = _QUALIFIERS.sub("", groups[0]).strip()
            if bound:
                where.append((func, name, len(groups)))
                exprs.append(bound)
    if not exprs:
        return {}
    values = _evaluate(path, exprs, opts)
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for (func, name, ngroups), v in zip(where, values):
        if v is not None and v > 0:
            out.setdefault(func, {})[name] = (v, ngroups)
    return out


def _param_declarators(path: Path, func: str, source: bytes, opts: ClangOptions) -> list[tuple[str, str]]:
    """(parameter name, declarator text after the name) of ``func``'s definition in the main file."""
    cxx = str(path).endswith((".cpp", ".cc", ".cxx"))
    cmd = clang_command(cxx) + ["-target", TARGET, "-fsyntax-only", "-w", "-Xclang", "-ast-dump=json",
                             "-Xclang", f"-ast-dump-filter={func}"]
    cmd += [f"-I{d}" for d in opts.include_dirs] + [f"-D{d}" for d in opts.defines] + [str(path)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return []
    text, dec, pos, out = proc.stdout, json.JSONDecoder(), 0, []
    while True:
        start = text.find("{", pos)
        if start < 0:
            break
        try:
            node, pos = dec.raw_decode(text, start)
        except ValueError:
            break
        if node.get("kind") != "FunctionDecl" or node.get("name") != func:
            continue
        if not any(c.get("kind") == "CompoundStmt" for c in node.get("inner", [])):
            continue  # a declaration, not the definition
        for p in node.get("inner", []):
            if p.get("kind") != "ParmVarDecl" or "name" not in p:
                continue
            loc, end = p.get("loc", {}), p.get("range", {}).get("end", {})
            if "offset" not in loc or "offset" not in end or "file" in loc and loc["file"] != str(path):
                continue
            a = loc["offset"] + loc.get("tokLen", 0)
            b = end["offset"] + end.get("tokLen", 0)
            if 0 <= a <= b <= len(source):
                out.append((p["name"], source[a:b].decode("utf-8", "replace").strip()))
    return out


def _evaluate(path: Path, exprs: list[str], opts: ClangOptions) -> list[int | None]:
    """The values of constant expressions ``exprs`` in the kernel's scope (None when one is not constant)."""
    with tempfile.TemporaryDirectory(prefix="loom-dims-") as tmp:
        probe = Path(tmp) / ("probe" + path.suffix)
        lines = [f'#include "{path.resolve()}"']
        lines += [f"const long long __loom_dim_{k} = ({e});" for k, e in enumerate(exprs)]
        probe.write_text("\n".join(lines) + "\n")
        try:
            ll = compile_to_llvm(probe, opts)
        except Exception:  # noqa: BLE001 - a bound that is not a constant: the dimension stays dynamic
            return [None] * len(exprs)
    found = {int(m[1]): int(m[2]) for m in re.finditer(r"@__loom_dim_(\d+) = [^\n]*?constant i64 (-?\d+)", ll)}
    return [found.get(k) for k in range(len(exprs))]


__all__ = ["declared_bounds"]
