"""A C corpus end to end: each public function compiled, run natively and by loom sim, co-simulated, mapped.

Run: ``python tools/c_corpus.py all DIR_OR_FILE... [-I DIR]... [-j N] [--rtl] [--map] [--verify] [--only FUNC]...
[--every K] [--json OUT]``.
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
4. ``--verify``: ``loom verify`` (no assumptions): its counts, each refuted obligation with its replayed fault and
   inputs, the unknown ones by name, and any refuted obligation that is not a
   safety one whose witness replayed in the interpreter.
5. ``--rtl``: ``loom sim --rtl`` of the DFG (iverilog, ``LOOM_RTL_SIM=iverilog``) must print the DFG's values.
6. ``--map``: ``loom map`` onto ``loom adg mesh`` meshes, the smallest square that holds the DFG's op nodes
   first, growing while the only complaint is room (places taken, or routes congested: then by a fifth).

Prints one line per kernel and the counts. Each kernel runs in its own process (``one`` subcommand) with a
wall-clock limit (``--timeout``): a measurement tool, not a test; a limit hit is reported as such.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loom.testing.c_native import (  # noqa: E402 -- the checkout first on the path
    build, differs, loom_sim, make_inputs, run_cli, run_native, signature)

PROFILES = [(4, 256, "mixed"), (4, 256, "index"), (4, 4096, "mixed"), (4, 4096, "index"),
            (2, 4096, "index"), (1, 4096, "index"), (1, 65536, "mixed")]
MAX_STEPS = 3_000_000


def dfg_ops(dfg: Path) -> int:
    """How many op nodes the DFG has: lines that define values in its body, a first guess at the mesh."""
    return sum(1 for line in dfg.read_text().splitlines() if re.match(r"\s+%.*=", line))


def try_map(dfg: Path, scf: Path, func: str, memrefs: int, work: Path, budget: float | None,
            dfg_inputs: Path | None = None) -> str:
    """Map the SCF stage (lowered with the mesh's join fan-in) onto growing square meshes fitted to the kernel
    (``loom adg mesh --fit``: FUs for its ops the palette lacks, memory lanes, rank and on-chip memories), the
    first as many PEs as the DFG has op lines; 'mapped RxR ...' (the checker's verdict and, given inputs,
    whether the configuration decoded from config.bin computes what the DFG computes) or why not."""
    side = max(3, math.isqrt(max(dfg_ops(dfg), 1) * 5 // 4) + 1)
    last = ""
    for _ in range(3):
        fabric = work / f"mesh{side}.fabric.mlir"
        code, _, err = run_cli(["adg", "mesh", "--rows", str(side), "--cols", str(side),
                                "--extmem", str(max(memrefs, 1)), "--fit", str(dfg), "-o", str(fabric)])
        if code != 0:
            return f"adg mesh failed: {err.strip()}"
        outdir = work / f"map{side}"
        code, out, err = run_cli(["map", str(scf), "--func", func, "--adg", str(fabric), "-o", str(outdir), "-q",
                                  *(["--budget", str(budget)] if budget else [])])
        if code == 0:
            first = out.strip().splitlines()[0] if out.strip() else ""
            runs = execute_mapping(scf, func, fabric, outdir, dfg_inputs) if dfg_inputs else ""
            return f"mapped {side}x{side}: " + first.split(": ", 1)[-1] + (f"; {runs}" if runs else "")
        last = " | ".join(line.strip() for line in err.strip().splitlines()[:3])
        congested = "congested:" in err or "ports stay shared" in err or "cannot be routed (no free" in err
        if "places are taken" not in err and "not routed" not in err and not congested:
            return "not mapped: " + last
        need = re.search(r"the DFG has (\d+) nodes of kind 'op'", err)
        grow = math.isqrt(int(need.group(1))) + 1 if need else side
        side = max(side + 2, grow + 1, side * 6 // 5 if congested else 0)  # routing short of wires: a fifth more
    return "not mapped: " + last


def execute_mapping(scf: Path, func: str, fabric: Path, outdir: Path, inputs_file: Path) -> str:
    """'executes right' when the handshake.func rebuilt from config.bin's decoded routes (loom.map.execute)
    computes on the inputs what the DFG computes, else how it differs."""
    from loom.lower import LowerOptions, lower_module
    from loom.map.adg.read import read_adg
    from loom.map.config import from_bytes
    from loom.map.execute import run_decoded
    from loom.mlir import parse_file

    adg = read_adg(parse_file(fabric), str(fabric))

    def lowered():
        module = lower_module(parse_file(scf), func, LowerOptions(max_join_fanin=adg.max_join_fanin()))
        return next(f for f in module.functions() if f.name == "handshake.func")

    try:
        doc = json.loads(next(outdir.glob("*.map.json")).read_text())
        words = from_bytes(next(outdir.glob("*.config.bin")).read_bytes())
        plain, got = run_decoded(lowered(), lowered(), adg, words, doc, json.loads(inputs_file.read_text()))
    except Exception as e:  # noqa: BLE001 -- a measurement: say what failed
        return f"execution failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    same = (got.status == plain.status == "completed" and got.results == plain.results
            and got.memrefs == plain.memrefs)
    return "executes right" if same else f"executes wrong ({got.status}: {got.error or got.deadlock_report})"[:200]


class Record(dict):
    """One kernel's outcomes; every stage's is printed as a JSON line the moment it is known, so a kernel cut
    off by ``--timeout`` still reports the stages it finished."""

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        print(json.dumps(self), flush=True)


def profile_assumptions(params, size: int, length: int, values: str) -> list[str]:
    """What the chosen input profile says legal inputs are, as ``loom verify --assume`` expressions: every integer
    scalar in ``[0, size]``, every dynamic dimension at least ``length``, and (an index profile) every integer
    array element in ``[0, size)`` -- the inputs the kernel ran right on natively, in general form."""
    out = []
    for p in params:
        if p.array:
            out += [f"dim({p.name}, {k}) >= {length}" for k, d in enumerate(p.shape) if d is None]
            if values == "index" and p.elem[0] == "i" and p.elem != "i1":
                out.append(f"0 <= {p.name}[*] && {p.name}[*] <= {max(size - 1, 0)}")
        elif p.elem[0] == "i" and p.elem != "i1":
            out.append(f"0 <= {p.name} && {p.name} <= {size}")
    return out


def verify_summary(path: Path, func: str, inc: list[str], assume: list[str] = ()) -> str:
    """``loom verify FILE --func F`` (under ``assume``, each an ``--assume``): its summary (``summarize_verify``)."""
    code, out, err = run_cli(["verify", str(path), "--func", func, *inc, "-q", *[a for x in assume for a in ("--assume", x)]])
    return summarize_verify(code, out, err)


def summarize_verify(code: int, out: str, err: str) -> str:
    """A ``loom verify -q`` run in one line: its count line; which obligations are not safety ones whose witness
    replayed (those would be wrong code, not inputs the kernel does not expect); each refuted one with the runtime
    error and the inputs its witness replayed on (the kernel's fault, to name); the unknown ones' names."""
    lines = out.splitlines()
    count = next((line.strip() for line in lines if re.match(r"\s*\d+ obligations:", line)), None)
    if count is None:
        return "failed: " + ((err.strip().splitlines() or [f"exit {code}"])[0])
    verdict = {line.split()[1]: line for line in lines if re.match(r"\s+(REFUTED|unknown)\s", line)}
    refuted = [name for name, line in verdict.items() if line.split()[0] == "REFUTED"]
    unknown = [name for name, line in verdict.items() if line.split()[0] == "unknown"]
    odd = [r for r in refuted if not r.startswith("safe.") or "witness replayed" not in verdict[r]]
    faults = []
    for name in refuted:  # the counterexample block: '- NAME at ...' then '    error: ...' and '    inputs: ...'
        start = next((i for i, line in enumerate(lines) if line.strip().startswith(f"- {name} ")), None)
        block = {}
        for line in lines[start + 1:] if start is not None else []:
            if not line.startswith("    "):
                break
            key, _, value = line.strip().partition(": ")
            block.setdefault(key, value)
        error = block.get("error", "").split(" ", 1)[0]
        inputs = arrays_by_shape(block.get("inputs", ""))
        faults.append(f"{name} {error} on {inputs}" if inputs else name)
    return (count + (f"; refuted beyond replayed safety: {', '.join(odd)}" if odd else "")
            + (f"; refuted: {' | '.join(faults)}" if faults else "")
            + (f"; unknown: {', '.join(unknown)}" if unknown else ""))


def arrays_by_shape(text: str) -> str:
    """``text`` (a witness's inputs) with each array, nested ones too, shown by its shape: ``[3 items]``,
    ``[2x4 items]`` -- the values of a 64-element array say nothing a reader of the corpus table needs."""
    out, k = [], 0
    while k < len(text):
        if text[k] != "[":
            out.append(text[k])
            k += 1
            continue
        depth, end = 0, k
        for end in range(k, len(text)):
            depth += {"[": 1, "]": -1}.get(text[end], 0)
            if depth == 0:
                break
        out.append(f"[{'x'.join(map(str, _shape(text[k:end + 1])))} items]")
        k = end + 1
    return "".join(out)


def _shape(array: str) -> list[int]:
    """The dimensions of one bracketed (possibly nested) array's text: its top-level elements, then its first's."""
    inner = array[1:-1].strip()
    if not inner:
        return [0]
    depth, parts, start = 0, [], 0
    for i, ch in enumerate(inner):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(inner[start:i].strip())
            start = i + 1
    parts.append(inner[start:].strip())
    return [len(parts)] + (_shape(parts[0]) if parts[0].startswith("[") else [])


def one(path: Path, func: str, includes: list[str], rtl: bool, do_map: bool, seed: int,
        map_budget: float | None = None, do_verify: bool = False, assume: list[str] = (),
        assume_profile: bool = False) -> dict:
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
        binary, why = build(path, func, params, result, work, tuple(includes))
        if binary is None:
            rec["native"] = why
            return rec
        try:
            want = run_native(binary, params, inputs, result)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            rec["native"] = str(e)
            return rec
        d = differs(want, want_scf)
        rec["native-scf"] = "equal" if not d else f"differs: {d}"
        if rec["compile"] != "ok":
            return rec
        dfg_inputs = inputs_file  # the DFG allocates its host buffers itself (loom.host_size)
        got_dfg, why = loom_sim(dfg, func, dfg_inputs, [])
        if got_dfg is None:
            rec["native"] = f"dfg sim failed: {why}"
            return rec
        d = d or differs(want, got_dfg)
        rec["native"] = "equal" if not d else f"differs: {d}"
        if rtl:
            os.environ["LOOM_RTL_SIM"] = "iverilog"
            got_rtl, why = loom_sim(dfg, func, dfg_inputs, ["--rtl"])
            rec["rtl"] = (f"failed: {why}" if got_rtl is None else
                          "agrees" if not differs(got_dfg, got_rtl) else f"differs: {differs(got_dfg, got_rtl)}")
        if do_verify:
            rec["verify"] = verify_summary(path, func, inc, assume)
            if assume_profile:  # again, under what the chosen profile says legal inputs are
                stated = list(assume) + profile_assumptions(params, *chosen)
                rec["verify-assumed"] = verify_summary(path, func, inc, stated)
        if do_map:
            extmem = dfg.read_text().count("handshake.extmemory")  # array parameters and host buffers
            cpu = _cpu_seconds()
            rec["map"] = try_map(dfg, scf, func, extmem, work, map_budget, dfg_inputs)
            rec["map_cpu"] = round(_cpu_seconds() - cpu, 1)  # adg mesh, map (each mesh tried), config.bin run
    return rec


def _cpu_seconds() -> float:
    """User + system CPU seconds of this process and of its finished children (the ``loom`` runs it waited for)."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


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
    cmd += [a for x in args.assume for a in ("--assume", x)]
    cmd += ["--assume-profile"] if args.assume_profile else []
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
            if "checker: proved" in rec["map"]:
                out.append("map-proved")
            if "executes right" in rec["map"]:
                out.append("map-runs")
    return out


def _complete(rec: dict, args) -> bool:
    """Every stage asked for passed (or the kernel is refused by the front end: rerunning cannot change it)."""
    if rec.get("scf", "ok") != "ok" or "timeout" in rec or "crash" in rec:
        return False
    if rec.get("compile") != "ok":
        return rec.get("native-scf") == "equal"
    return (rec.get("native") == "equal" and (not args.rtl or rec.get("rtl") == "agrees")
            and (not args.map or str(rec.get("map", "")).startswith("mapped"))
            and (not args.verify or re.match(r"\d+ obligations:", str(rec.get("verify", ""))) is not None))


def save(records: list[dict], out: Path) -> None:
    """The records so far, sorted, replacing ``out`` whole (a run cut short keeps what it measured, for --retry)."""
    part = out.with_name(out.name + ".part")
    part.write_text(json.dumps(sorted(records, key=lambda r: (r["file"], r["func"])), indent=1) + "\n")
    part.replace(out)


def select(kernels: list[tuple[Path, str]], only: list[str], every: int) -> list[tuple[Path, str]]:
    """The kernels to run: those named by ``--only`` (all when none is), then every ``every``-th of them."""
    return [k for k in kernels if not only or k[1] in only][::every]


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
            s.add_argument("--only", action="append", default=[], metavar="FUNC",
                           help="only the kernels of this name (repeatable): rerun a few of a large corpus")
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
        s.add_argument("--assume", action="append", default=[], metavar="EXPR",
                       help="loom verify --assume EXPR for every kernel (repeatable)")
        s.add_argument("--assume-profile", action="store_true",
                       help="with --verify: verify again under the chosen input profile's assumptions (integer "
                            "scalars in [0, S], dynamic dimensions >= L, index arrays' elements in [0, S))")
        s.add_argument("--seed", type=int, default=1)
        s.add_argument("--map-budget", type=float, default=None,
                       help="loom map --budget: wall-clock seconds of placement retries per mesh")
    args = ap.parse_args()
    if args.what == "all" and not args.suffix:
        args.suffix = [".c"]
    if args.what == "one":
        one(args.file, args.func, args.include, args.rtl, args.map, args.seed, args.map_budget, args.verify,
            args.assume, args.assume_profile)
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
    kernels = select(kernels, args.only, args.every)
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
            if args.json:
                save(records, args.json)
    print(f"\n{len(records)} kernels: " + ", ".join(f"{counts[k]} {k}" for k in
                                                    ("scf", "native-equal-scf", "compile", "native-equal", "rtl-agree",
                                                     "maps", "map-proved", "map-runs")))
    for key in ("verify", "verify-assumed"):  # obligations summed over the kernels verified
        done = [re.match(r"(\d+) obligations: (\d+) proved, (\d+) refuted, (\d+) unknown", str(r.get(key, "")))
                for r in records]
        done = [m for m in done if m]
        if done:
            tot = [sum(int(m[k]) for m in done) for k in range(1, 5)]
            print(f"{key}: {len(done)} kernels, {tot[0]} obligations: {tot[1]} proved, {tot[2]} refuted, "
                  f"{tot[3]} unknown")
    if args.json:
        save(records, args.json)


if __name__ == "__main__":
    main()
