"""Native execution of a C kernel as loom's oracle: one harness generator for the tests and tools/c_corpus.py.

The kernel's parameters come from its SCF stage (``signature``); ``harness`` writes a C ``main`` that includes
the kernel (its own ``main`` renamed away), reads every array's length and values and every scalar from stdin,
calls the kernel and prints its result and every array; gcc -O0 -ffp-contract=off builds it (``build``), and
``run_native`` gives what it printed in the shape ``loom_sim`` gives ``loom sim --json``, so ``differs`` can
compare them. ``make_inputs`` makes one input profile; the scratch buffers a DFG takes from its host
(loom/lower/host_alloc.py) ``loom sim`` allocates itself (their ``loom.host_size``).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

CTYPE = {"i1": "_Bool", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
         "f32": "float", "f64": "double"}
@dataclass(frozen=True)
class Param:
    """One kernel parameter as the SCF stage types it: a scalar or a memref (``None`` = dynamic dimension)."""

    name: str
    array: bool
    elem: str
    shape: tuple[Optional[int], ...]


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``loom ARGV`` in this process: exit code, stdout, stderr."""
    from loom.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def _tname(t) -> str:
    from loom.ir.types import FloatType, IntegerType

    if isinstance(t, IntegerType):
        return f"i{t.width}"
    assert isinstance(t, FloatType), t
    return t.name


def signature(scf: Path, func: str) -> tuple[list[Param], Optional[str]]:
    """The kernel's parameters and result type (or None) from its SCF stage; a returned struct of equal scalars
    (its members the function's results) is their types joined by commas (``i32,i32,i32``)."""
    from loom.ir.types import MemRefType
    from loom.mlir import parse_text

    module = parse_text(scf.read_text())
    f = next(f for f in module.functions() if f.attributes["sym_name"].value == func)
    params = []
    for a in f.regions[0].entry.args:
        if isinstance(a.type, MemRefType):
            shape = tuple(None if d is None or d < 0 else d for d in a.type.shape)
            params.append(Param(a.name_hint, True, _tname(a.type.element), shape))
        else:
            params.append(Param(a.name_hint, False, _tname(a.type), ()))
    results = f.attributes["function_type"].type.results
    return params, (",".join(_tname(r) for r in results) if results else None)


def record_types(kernel: Path, func: str, every: bool = False) -> dict[str, str]:
    """The C type of each pointer parameter (``every``: each parameter) of ``func`` (``const csr_graph_t *g``
    -> ``g``: ``csr_graph_t``), read from its definition in the source: a struct pointer the SCF stage split
    into ``g_<member>`` parameters is one whose name is not among them, and the harness declares its type."""
    m = re.search(rf"\b{re.escape(func)}\s*\(([^)]*)\)\s*\{{", kernel.read_text())
    out = {}
    for decl in (m[1].split(",") if m else []):
        words = re.findall(r"[A-Za-z_]\w*", decl)
        if ("*" in decl or every) and len(words) >= 2:
            kept = [w for w in words[:-1] if w not in ("const", "restrict", "__restrict", "volatile")]
            out[words[-1]] = " ".join(kept)
    return out


def harness(kernel: Path, func: str, params: list[Param], result: Optional[str]) -> str:
    """A C main that reads each array's length and values (and each scalar) from stdin, calls ``func`` and
    prints the result and every array; the kernel file's own ``main`` is renamed away. Parameters named
    ``g_member`` for a C parameter ``g`` the SCF stage does not have are the members of struct parameter ``g``:
    the harness fills a struct and passes its address."""
    lines = ["#include <stdio.h>", "#include <stdint.h>", "#include <stdlib.h>", "#include <string.h>",
             "#define main loom_kernel_driver_main", f'#include "{kernel}"', "#undef main", "int main(void) {",
             "  long long n_; double d_; long long i_;"]
    args: list[str] = []
    c_params = record_types(kernel, func, every=True)
    records = {r: t for r, t in c_params.items() if r not in {p.name for p in params}}
    for p in params:
        ct = "bool" if p.elem == "i1" and kernel.suffix != ".c" else CTYPE[p.elem]
        var = p.name
        read = "scanf(\"%la\", &d_); V = (CT)d_;" if p.elem[0] == "f" else "scanf(\"%lld\", &i_); V = (CT)i_;"
        if p.array:
            inner = "".join(f"[{d}]" for d in p.shape[1:])
            lines.append(f"  scanf(\"%lld\", &n_); long long {var}_n = n_;")
            lines.append(f"  {ct} *{var}_flat = ({ct} *)calloc(n_ ? n_ : 1, sizeof({ct}));")
            lines.append(f"  for (long long k = 0; k < n_; k++) {{ {read.replace('V', f'{var}_flat[k]').replace('CT', ct)} }}")
            value = f"({ct} (*){inner}){var}_flat" if inner else f"{var}_flat"
        else:
            lines.append(f"  {ct} {var}_v; {read.replace('V', f'{var}_v').replace('CT', ct)}")
            value = f"{var}_v"
        rec = next((r for r in records if p.name.startswith(r + "_") and p.name not in c_params), None)
        if rec is not None:
            member = p.name[len(rec) + 1:]
            if f"&{rec}_rec" not in args:
                lines.append(f"  {records[rec]} {rec}_rec; memset(&{rec}_rec, 0, sizeof {rec}_rec);")
                args.append(f"&{rec}_rec")
            lines.append(f"  {rec}_rec.{member} = {value};")
        else:
            args.append(value)
    call = f"{func}({', '.join(args)})"
    if result and "," in result:  # a struct of equal scalars: print its fields in order
        t = CTYPE[result.split(",")[0]]
        lines.append(f"  {'auto' if kernel.suffix != '.c' else f'__typeof__({call})'} r_ = {call};")
        fmt = '"%a\\n", (double)' if result[0] == "f" else '"%lld\\n", (long long)'
        lines.append(f"  for (int k = 0; k < {result.count(',') + 1}; k++) printf({fmt}(({t} *)&r_)[k]);")
    elif result:
        lines.append(f"  {CTYPE[result]} r_ = {call};")
        lines.append('  printf("%a\\n", (double)r_);' if result[0] == "f" else '  printf("%lld\\n", (long long)r_);')
    else:
        lines.append(f"  {call};")
    for p in params:
        if p.array:
            var = p.name
            fmt = '"%a\\n", (double)' if p.elem[0] == "f" else '"%lld\\n", (long long)'
            lines.append(f"  for (long long k = 0; k < {var}_n; k++) printf({fmt}{var}_flat[k]);")
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def make_inputs(params: list[Param], size: int, length: int, values: str, seed: int) -> dict:
    """Inputs for one profile: integer scalars are ``size``, dynamic dimensions ``length``."""
    rng = random.Random(seed)

    def one(elem: str):
        if elem[0] == "f":
            return rng.randint(-40, 40) / 4
        if elem == "i1":
            return rng.randint(0, 1)
        if values == "index":
            return rng.randint(0, max(size - 1, 0))
        if elem == "i8":
            return rng.randint(-128, 127)
        return rng.randint(-5, 5) if rng.random() < 0.5 else rng.randint(-1000, 1000)

    def fill(dims):
        return [one(elem) for _ in range(dims[0])] if len(dims) == 1 else [fill(dims[1:]) for _ in range(dims[0])]

    out: dict = {}
    for p in params:
        elem = p.elem
        if p.array:
            out[p.name] = fill([length if d is None else d for d in p.shape])
        elif elem[0] == "f":
            out[p.name] = one(elem)
        else:
            out[p.name] = min(size, 1) if elem == "i1" else size
    return out


def host_buffer_shapes(scf: Path, func: str, inputs: dict) -> dict[str, list[int]]:
    """The shape of each scratch buffer the host allocates for ``func``'s DFG (loom/lower/host_alloc.py) on
    ``inputs``, from its SCF stage."""
    from loom.lower.host_alloc import buffer_shapes
    from loom.mlir import parse_text

    module = parse_text(scf.read_text())
    f = next(f for f in module.functions() if f.attributes["sym_name"].value == func)
    return buffer_shapes(f, inputs)


def flatten(vals) -> list:
    """A nested list's leaves in row-major order."""
    while vals and isinstance(vals[0], list):
        vals = [x for row in vals for x in row]
    return vals


def run_native(binary: Path, params: list[Param], inputs: dict, result: Optional[str]) -> dict:
    """The native binary's result and arrays on ``inputs``."""
    text = []
    for p in params:
        if p.array:
            vals = flatten(inputs[p.name])
            text.append(str(len(vals)))
        else:
            vals = [inputs[p.name]]
        text += [float(v).hex() if p.elem[0] == "f" else str(int(v)) for v in vals]
    proc = subprocess.run([str(binary)], input="\n".join(text) + "\n", capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"native run failed ({proc.returncode}): {proc.stderr.strip()[:200]}")
    words = proc.stdout.split()
    conv = lambda e, s: float.fromhex(s) if e[0] == "f" else int(s)  # noqa: E731
    out: dict = {"results": [], "memrefs": {}}
    k = 0
    if result:
        types = result.split(",")
        out["results"] = [conv(t, w) for t, w in zip(types, words)]
        k = len(types)
    for p in params:
        if p.array:
            n = len(flatten(inputs[p.name]))
            out["memrefs"][p.name] = [conv(p.elem, s) for s in words[k:k + n]]
            k += n
    return out


def loom_sim(path: Path, func: str, inputs_file: Path, extra: list[str]) -> tuple[Optional[dict], str]:
    """``loom sim PATH --json`` flattened to results and memrefs, or None and the error."""
    code, out, err = run_cli(["sim", str(path), "--func", func, "--inputs", str(inputs_file), "--json",
                              *extra])
    try:
        doc = json.loads(out)
    except json.JSONDecodeError:
        text = (err.strip() or out.strip()).splitlines()
        return None, text[0] if text else f"exit {code}"
    if doc.get("status") != "completed" or doc.get("error"):
        return None, f"{doc.get('status')}: {doc.get('error')}"
    def num(v):  # loom's JSON spells non-finite floats "nan", "inf", "-inf"
        return float(v) if isinstance(v, str) else v

    return {"results": [num(v) for v in doc["results"]],
            "memrefs": {k: [num(v) for v in flatten(vals)] for k, vals in doc["memrefs"].items()}}, ""


def _same(a, b) -> bool:
    """Equal values; two NaNs are the same value (C prints any NaN as nan)."""
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def differs(want: dict, got: dict) -> str:
    """'' when equal, else where the first difference is (and how far apart floats are)."""
    if len(want["results"]) != len(got["results"]) or not all(map(_same, want["results"], got["results"])):
        return f"result {want['results']} != {got['results']}"
    for name, vals in want["memrefs"].items():
        other = got["memrefs"].get(name)
        if other is None or len(other) != len(vals):
            return f"{name}: lengths differ"
        if not all(map(_same, vals, other)):
            k = next(i for i, (a, b) in enumerate(zip(vals, other)) if not _same(a, b))
            a, b = vals[k], other[k]
            rel = ""
            if isinstance(a, float) and isinstance(b, float) and math.isfinite(a) and math.isfinite(b):
                rel = f" (relative {abs(a - b) / max(abs(a), abs(b), 1e-300):.1e})"
            return f"{name}[{k}]: {a} != {b}{rel}"
    return ""


def build(kernel: Path, func: str, params: list[Param], result: Optional[str], work: Path,
          includes: tuple[str, ...] = (), others: tuple[Path, ...] = ()) -> tuple[Optional[Path], str]:
    """The native binary of ``harness`` for ``func`` (gcc, or g++ for C++, -O0 -ffp-contract=off) in ``work``,
    linked with the program's ``others`` files, or None and why not (no compiler, a harness that does not
    build)."""
    cxx = kernel.suffix != ".c"
    gcc = shutil.which("g++" if cxx else "gcc")
    if gcc is None:
        return None, f"no {'g++' if cxx else 'gcc'} (apt-get install {'g++' if cxx else 'gcc'})"
    main_file = work / ("harness.cpp" if cxx else "harness.c")
    main_file.write_text(harness(kernel.resolve(), func, params, result))
    flags = ["-fpermissive"] if cxx else ["-Wno-incompatible-pointer-types"]
    inc = [a for d in includes for a in ("-I", d)]
    out = work / "native"
    objects = []
    for k, other in enumerate(others):  # each file's own test main renamed away, as loom drops it (link.py)
        obj = work / f"other{k}.o"
        proc = subprocess.run([gcc, "-c", "-O0", "-ffp-contract=off", "-w", *flags, *inc, f"-Dmain=loom_other_main_{k}",
                               "-o", str(obj), str(Path(other).resolve())], capture_output=True, text=True)
        if proc.returncode != 0:
            return None, f"{other} does not build: " + (proc.stderr.strip().splitlines() or ["?"])[0]
        objects.append(str(obj))
    proc = subprocess.run([gcc, "-O0", "-ffp-contract=off", "-w", *flags, *inc, "-o", str(out), str(main_file),
                           *objects, "-lm"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return None, "harness does not build: " + (proc.stderr.strip().splitlines() or ["?"])[0]
    return out, ""
