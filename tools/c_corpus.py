"""A C corpus end to end: each public function compiled, run natively and by loom sim, co-simulated, mapped.

Run: ``python tools/c_corpus.py DIR_OR_FILE... [-I DIR]... [-j N] [--rtl] [--map] [--every K] [--json OUT]``.
For every public function but ``main`` of every ``.c`` file (upstream LOOM's tapestry kernels keep their
driver ``main`` in the same file; the harness renames it):

1. The SCF stage (``compile_c``), then ``loom compile FILE --func F`` for the ``.dfg.mlir`` (a kernel whose
   DFG lowering fails is still run natively against its SCF stage).
2. Inputs: every integer scalar is the size ``S``, every dynamic array dimension ``L`` elements; array values are
   small mixed integers (or indices in ``[0, S)``, for kernels that index with their data) and quarter-step
   floats. The profiles ``(S, L, values)`` are tried in a fixed order and the first one that ``loom sim`` of the
   SCF stage runs to completion (no out-of-bounds access, no division by zero, within ``--max-steps``) is
   used: the interpreter checks every access, so the native run of the same inputs is defined.
3. Native: gcc -O0 -ffp-contract=off of a generated harness that includes the kernel; its arrays and result
   must equal ``loom sim`` of the SCF stage (``native-equal-scf``) and of the DFG (``native-equal``) exactly.
4. ``--verify``: ``loom verify`` (no assumptions): its counts, and any refuted obligation that is not a
   safety one whose witness replayed in the interpreter.
5. ``--rtl``: ``loom sim --rtl`` of the DFG (iverilog, ``LOOM_RTL_SIM=iverilog``) must print the DFG's values.
6. ``--map``: ``loom map`` onto ``loom adg mesh`` meshes, the smallest square that holds the DFG's op nodes
   first, growing while the only complaint is room.

Prints one line per kernel and the counts. Each kernel runs in its own process (``one`` subcommand) with a
wall-clock limit (``--timeout``): a measurement tool, not a test; a limit hit is reported as such.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CTYPE = {"i1": "_Bool", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
         "f32": "float", "f64": "double"}
PROFILES = [(4, 256, "mixed"), (4, 256, "index"), (4, 4096, "mixed"), (4, 4096, "index"),
            (2, 4096, "index"), (1, 4096, "index"), (1, 65536, "mixed")]
MAX_STEPS = 3_000_000


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
    """The kernel's parameters and result type (or None) from its SCF stage."""
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
    return params, (_tname(results[0]) if results else None)


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
    if result:
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
        out["results"] = [conv(result, words[0])]
        k = 1
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


def dfg_ops(dfg: Path) -> int:
    """How many op nodes the DFG has: lines that define values in its body, a first guess at the mesh."""
    return sum(1 for line in dfg.read_text().splitlines() if re.match(r"\s+%.*=", line))


def try_map(dfg: Path, scf: Path, func: str, memrefs: int, work: Path, budget: float | None) -> str:
    """Map the SCF stage (lowered with the mesh's join fan-in) onto growing square meshes, the first as many PEs
    as the DFG has op lines; 'mapped RxR ...' or why not."""
    side = max(3, math.isqrt(max(dfg_ops(dfg), 1) * 5 // 4) + 1)
    last = ""
    for _ in range(3):
        fabric = work / f"mesh{side}.fabric.mlir"
        code, _, err = run_cli(["adg", "mesh", "--rows", str(side), "--cols", str(side),
                                "--extmem", str(max(memrefs, 1)), "-o", str(fabric)])
        if code != 0:
            return f"adg mesh failed: {err.strip()}"
        code, out, err = run_cli(["map", str(scf), "--func", func, "--adg", str(fabric), "-o",
                                  str(work / f"map{side}"), "-q",
                                  *(["--budget", str(budget)] if budget else [])])
        if code == 0:
            first = out.strip().splitlines()[0]
            return f"mapped {side}x{side}: " + first.split(": ", 1)[-1]
        last = " | ".join(line.strip() for line in err.strip().splitlines()[:3])
        if "places are taken" not in err and "not routed" not in err and "could not route" not in err:
            return "not mapped: " + last
        need = re.search(r"the DFG has (\d+) nodes of kind 'op'", err)
        grow = math.isqrt(int(need.group(1))) + 1 if need else side
        side = max(side + 2, grow + 1)
    return "not mapped: " + last


class Record(dict):
    """One kernel's outcomes; every stage's is printed as a JSON line the moment it is known, so a kernel cut
    off by ``--timeout`` still reports the stages it finished."""

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        print(json.dumps(self), flush=True)


def verify_summary(path: Path, func: str, inc: list[str]) -> str:
    """``loom verify FILE --func F`` (no assumptions): its count line, and which refuted obligations are not
    safety ones whose witness replayed (those would be wrong code, not inputs the kernel does not expect)."""
    code, out, err = run_cli(["verify", str(path), "--func", func, *inc, "-q"])
    lines = out.splitlines()
    count = next((line.strip() for line in lines if re.match(r"\s*\d+ obligations:", line)), None)
    if count is None:
        return "failed: " + ((err.strip().splitlines() or [f"exit {code}"])[0])
    refuted = [line.split()[1] for line in lines if line.strip().startswith("REFUTED")]
    odd = [r for r in refuted if not r.startswith("safe.")
           or "witness replayed" not in next(x for x in lines if r in x)]
    return count + (f"; refuted beyond replayed safety: {', '.join(odd)}" if odd else "")


def one(path: Path, func: str, includes: list[str], rtl: bool, do_map: bool, seed: int,
        map_budget: float | None = None, do_verify: bool = False) -> dict:
    """Everything for one kernel, as a JSON-able dict."""
    rec: dict = Record(file=str(path), func=func)
    inc = [a for d in includes for a in ("-I", d)]
    with tempfile.TemporaryDirectory(prefix="loom_c_corpus_") as tmp:
        work = Path(tmp)
        from loom.diagnostics import LoomError
        from loom.frontend.c import compile_c
        from loom.frontend.c.toolchain import ClangOptions

        scf, dfg = work / f"{path.stem}.scf.mlir", work / f"{path.stem}.dfg.mlir"
        try:
            scf.write_text(compile_c(path, func, ClangOptions(tuple(includes))).scf)
        except LoomError as e:
            rec["scf"] = str(e).splitlines()[0]
            return rec
        rec["scf"] = "ok"
        code, _, err = run_cli(["compile", str(path), "--func", func, *inc, "-o", str(work / "dfg")])
        rec["compile"] = "ok" if code == 0 else (err.strip().splitlines()[0] if err.strip() else f"exit {code}")
        if code == 0:
            shutil.copy(work / "dfg" / dfg.name, dfg)
        params, result = signature(scf, func)
        inputs_file = work / "in.json"
        chosen = None
        why = ""
        for size, length, values in PROFILES:
            inputs = make_inputs(params, size, length, values, seed)
            inputs_file.write_text(json.dumps(inputs))
            want_scf, why = loom_sim(scf, func, inputs_file, ["--max-steps", str(MAX_STEPS)])
            if want_scf is not None:
                chosen = (size, length, values)
                break
        if chosen is None:
            rec["inputs"] = f"none: {why}"
            return rec
        rec["inputs"] = f"S={chosen[0]} L={chosen[1]} {chosen[2]}"
        cxx = path.suffix != ".c"
        gcc = shutil.which("g++" if cxx else "gcc")
        if gcc is None:
            rec["native"] = "no gcc"
            return rec
        main_file = work / ("harness.cpp" if cxx else "harness.c")
        main_file.write_text(harness(path.resolve(), func, params, result))
        build = subprocess.run([gcc, "-O0", "-ffp-contract=off", "-w", *(["-fpermissive"] if cxx else ["-Wno-incompatible-pointer-types"]), *inc,
                                "-o", str(work / "native"), str(main_file), "-lm"], capture_output=True, text=True)
        if build.returncode != 0:
            rec["native"] = "harness does not build: " + build.stderr.strip().splitlines()[0]
            return rec
        try:
            want = run_native(work / "native", params, inputs, result)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            rec["native"] = str(e)
            return rec
        d = differs(want, want_scf)
        rec["native-scf"] = "equal" if not d else f"differs: {d}"
        if rec["compile"] != "ok":
            return rec
        got_dfg, why = loom_sim(dfg, func, inputs_file, [])
        if got_dfg is None:
            rec["native"] = f"dfg sim failed: {why}"
            return rec
        d = d or differs(want, got_dfg)
        rec["native"] = "equal" if not d else f"differs: {d}"
        if rtl:
            os.environ["LOOM_RTL_SIM"] = "iverilog"
            got_rtl, why = loom_sim(dfg, func, inputs_file, ["--rtl"])
            rec["rtl"] = (f"failed: {why}" if got_rtl is None else
                          "agrees" if not differs(got_dfg, got_rtl) else f"differs: {differs(got_dfg, got_rtl)}")
        if do_verify:
            rec["verify"] = verify_summary(path, func, inc)
        if do_map:
            rec["map"] = try_map(dfg, scf, func, sum(p.array for p in params), work, map_budget)
    return rec


def public_functions(path: Path, includes: list[str]) -> list[str]:
    """The functions with external linkage a ``.c`` file defines, but ``main``."""
    from loom.frontend.c.passes import run_pipeline
    from loom.frontend.c.toolchain import ClangOptions, compile_to_llvm

    from loom.frontend.c.llvm_text import source_names

    module = run_pipeline(compile_to_llvm(path, ClangOptions(tuple(includes))))
    names = source_names(str(module))  # C++: the name in the source, which --func takes
    return [names.get(f.name, f.name) for f in module.functions
            if not f.is_declaration and f.linkage.name != "internal" and f.name != "main"]


def run_one(args, path: Path, func: str) -> dict:
    """One kernel in its own process group, killed whole when it overruns ``--timeout``."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "one", str(path), func, "--seed", str(args.seed)]
    cmd += [a for d in args.include for a in ("-I", d)]
    cmd += ["--rtl"] if args.rtl else []
    cmd += ["--map"] if args.map else []
    cmd += ["--verify"] if args.verify else []
    cmd += ["--map-budget", str(args.map_budget)] if args.map_budget else []
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    timeout = False
    try:
        out, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timeout = True
    rec = {"file": str(path), "func": func}
    for line in reversed(out.strip().splitlines()):
        try:
            rec = json.loads(line)
            break
        except json.JSONDecodeError:
            continue
    if timeout:
        rec["timeout"] = f"over {args.timeout:g} s"
    elif proc.returncode != 0:
        rec["crash"] = (err.strip().splitlines() or ["?"])[-1]
    return rec


def verdicts(rec: dict) -> list[str]:
    """The counted outcomes of one record."""
    out = ["scf"] if rec.get("scf") == "ok" else []
    if rec.get("native-scf") == "equal":
        out.append("native-equal-scf")
    if rec.get("compile") == "ok":
        out.append("compile")
        if rec.get("native") == "equal":
            out.append("native-equal")
        if rec.get("rtl") == "agrees":
            out.append("rtl-agree")
        if str(rec.get("map", "")).startswith("mapped"):
            out.append("maps")
    return out


def _complete(rec: dict, args) -> bool:
    """Every stage asked for passed (or the kernel is refused by the front end: rerunning cannot change it)."""
    if rec.get("scf", "ok") != "ok" or "timeout" in rec or "crash" in rec:
        return False
    if rec.get("compile") != "ok":
        return rec.get("native-scf") == "equal"
    return (rec.get("native") == "equal" and (not args.rtl or rec.get("rtl") == "agrees")
            and (not args.map or str(rec.get("map", "")).startswith("mapped")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    for name in ("all", "one"):
        s = sub.add_parser(name)
        if name == "all":
            s.add_argument("paths", nargs="+")
            s.add_argument("-j", type=int, default=1)
            s.add_argument("--timeout", type=float, default=600)
            s.add_argument("--every", type=int, default=1, help="only every K-th kernel (a sample)")
            s.add_argument("--json", type=Path)
            s.add_argument("--suffix", action="append", default=None, help="source suffixes (default .c)")
            s.add_argument("--retry", type=Path, help="a --json of an earlier run: run again only the kernels "
                           "that did not pass every stage")
        else:
            s.add_argument("file", type=Path)
            s.add_argument("func")
        s.add_argument("-I", dest="include", action="append", default=[])
        s.add_argument("--rtl", action="store_true")
        s.add_argument("--map", action="store_true")
        s.add_argument("--verify", action="store_true", help="loom verify each kernel (no assumptions)")
        s.add_argument("--seed", type=int, default=1)
        s.add_argument("--map-budget", type=float, default=None,
                       help="loom map --budget: wall-clock seconds of placement retries per mesh")
    args = ap.parse_args()
    if args.what == "all" and not args.suffix:
        args.suffix = [".c"]
    if args.what == "one":
        one(args.file, args.func, args.include, args.rtl, args.map, args.seed, args.map_budget, args.verify)
        return
    previous: list[dict] = json.loads(args.retry.read_text()) if args.retry else []
    files = sorted({p for q in args.paths for p in ([Path(q)] if Path(q).is_file() else
                                                      [f for suf in args.suffix for f in Path(q).rglob(f"*{suf}")])})
    kernels = []
    for path in files:
        try:
            kernels += [(path, f) for f in public_functions(path, args.include)]
        except Exception as e:  # noqa: BLE001 -- a file clang rejects is counted, not fatal
            print(f"{path}: {str(e).splitlines()[0]}")
    kernels = kernels[::args.every]
    counts: collections.Counter[str] = collections.Counter()
    records = []
    if args.retry:  # keep the kernels that passed every stage asked for; run the others again
        done = {(r["file"], r["func"]): r for r in previous if _complete(r, args)}
        records = [done[(str(p), f)] for p, f in kernels if (str(p), f) in done]
        for rec in records:
            counts.update(verdicts(rec))
        kernels = [(p, f) for p, f in kernels if (str(p), f) not in done]
    with ThreadPoolExecutor(max_workers=args.j) as pool:
        for rec in map(lambda f: f.result(), as_completed([pool.submit(run_one, args, *k) for k in kernels])):
            records.append(rec)
            counts.update(verdicts(rec))
            detail = "; ".join(f"{k}: {v}" for k, v in rec.items() if k not in ("file", "func"))
            print(f"{rec['file']} @{rec['func']}: {detail}", flush=True)
    print(f"\n{len(records)} kernels: " + ", ".join(f"{counts[k]} {k}" for k in
                                                    ("scf", "native-equal-scf", "compile", "native-equal", "rtl-agree", "maps")))
    if args.json:
        records.sort(key=lambda r: (r["file"], r["func"]))
        args.json.write_text(json.dumps(records, indent=1) + "\n")


if __name__ == "__main__":
    main()
