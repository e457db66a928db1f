"""The C front end (loom/frontend/c): C -> LLVM IR -> CF -> SCF -> DFG, checked against native execution.

The oracle is the system C compiler: each kernel is compiled by gcc (-O0 -ffp-contract=off) with a harness
that reads the inputs from stdin and prints every array and the result; ``loom sim`` of the SCF stage and of
the DFG must print the same values for generated inputs.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.cli import main
from loom.frontend.c import compile_c
from loom.ir.types import FloatType, IntegerType, MemRefType
from loom.mlir import parse_text

from support.paths import DATA, ROOT

EXAMPLES = sorted((ROOT / "examples" / "c").glob("*.c"))
DATA = DATA / "c"
KERNELS = EXAMPLES + sorted(DATA.glob("*.c")) + sorted(DATA.glob("*.cpp"))
CTYPE = {"i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t", "f32": "float", "f64": "double"}
LENGTH = 10  # elements of a 1-D array input


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _tname(t) -> str:
    if isinstance(t, IntegerType):
        return f"i{t.width}"
    assert isinstance(t, FloatType)
    return t.name


def signature(module, name: str):
    """(name, kind, elem, shape) per parameter and the result's type name (or None)."""
    func = next(f for f in module.functions() if f.attributes["sym_name"].value == name)
    params = []
    for a in func.regions[0].entry.args:
        if isinstance(a.type, MemRefType):
            shape = [LENGTH if d is None or d < 0 else d for d in a.type.shape]
            params.append((a.name_hint, "array", _tname(a.type.element), shape))
        else:
            params.append((a.name_hint, "scalar", _tname(a.type), []))
    results = func.attributes["function_type"].type.results
    return params, (_tname(results[0]) if results else None)


def harness(kernel: Path, func: str, params, result) -> str:
    """A C main that reads every parameter from stdin, calls ``func`` and prints arrays and result."""
    lines = ["#include <stdio.h>", "#include <stdint.h>", f'#include "{kernel}"', "int main(void) {"]
    args = []
    for name, kind, elem, shape in params:
        ct = CTYPE[elem]
        dims = "".join(f"[{d}]" for d in shape)
        n = 1
        for d in shape:
            n *= d
        read = ('{ double v; scanf("%la", &v); *p = (CT)v; }' if elem[0] == "f" else
                '{ long long v; scanf("%lld", &v); *p = (CT)v; }').replace("CT", ct)
        if kind == "array":
            lines.append(f"  static {ct} {name}{dims};")
            lines.append(f"  for (int k = 0; k < {n}; k++) {{ {ct} *p = (({ct} *){name}) + k; {read} }}")
        else:
            lines.append(f"  {ct} {name}; {{ {ct} *p = &{name}; {read} }}")
        args.append(name)
    call = f"{func}({', '.join(args)})"
    if result:
        lines.append(f"  {CTYPE[result]} r = {call};")
        lines.append('  printf("%a\\n", (double)r);' if result[0] == "f" else '  printf("%lld\\n", (long long)r);')
    else:
        lines.append(f"  {call};")
    for name, kind, elem, shape in params:
        if kind == "array":
            n = 1
            for d in shape:
                n *= d
            ct = CTYPE[elem]
            fmt = '"%a\\n", (double)' if elem[0] == "f" else '"%lld\\n", (long long)'
            lines.append(f"  for (int k = 0; k < {n}; k++) printf({fmt}((({ct} *){name})[k]));")
    lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


def gen_inputs(rng: random.Random, params) -> dict:
    """Inputs for every parameter: small values so that searches hit and float sums stay exact-ish."""
    out = {}
    for name, kind, elem, shape in params:
        def one():
            if elem[0] == "f":
                return rng.randint(-40, 40) / 4
            if elem == "i8":
                return rng.randint(-128, 127)
            return rng.randint(-5, 5) if rng.random() < 0.5 else rng.randint(-1000, 1000)
        if kind == "array":
            def fill(dims):
                return [one() for _ in range(dims[0])] if len(dims) == 1 else [fill(dims[1:]) for _ in range(dims[0])]
            out[name] = fill(shape)
        elif name == "n":
            out[name] = rng.randint(0, LENGTH)
        else:
            out[name] = one()
    return out


def native(binary: Path, params, inputs: dict, result) -> dict:
    flat = []
    for name, kind, elem, shape in params:
        vals = inputs[name] if kind == "array" else [inputs[name]]
        while vals and isinstance(vals[0], list):
            vals = [x for row in vals for x in row]
        flat += [float(v).hex() if elem[0] == "f" else str(int(v)) for v in vals]
    proc = subprocess.run([str(binary)], input="\n".join(flat) + "\n", capture_output=True, text=True, timeout=20)
    assert proc.returncode == 0, proc.stderr
    values = proc.stdout.split()
    conv = lambda e, s: float.fromhex(s) if e[0] == "f" else int(s)  # noqa: E731
    out, k = {"results": [], "memrefs": {}}, 0
    if result:
        out["results"] = [conv(result, values[0])]
        k = 1
    for name, kind, elem, shape in params:
        if kind == "array":
            n = 1
            for d in shape:
                n *= d
            out["memrefs"][name] = [conv(elem, s) for s in values[k:k + n]]
            k += n
    return out


def loom_sim(path: Path, func: str, inputs: dict, tmp: Path) -> dict:
    inp = tmp / "in.json"
    inp.write_text(json.dumps(inputs))
    code, out, err = run_cli(["sim", str(path), "--func", func, "--inputs", str(inp), "--json"])
    assert code == 0, err + out
    doc = json.loads(out)
    flat = {}
    for name, vals in doc["memrefs"].items():
        while vals and isinstance(vals[0], list):
            vals = [x for row in vals for x in row]
        flat[name] = vals
    return {"results": doc["results"], "memrefs": flat}


@pytest.fixture(scope="module", params=KERNELS, ids=lambda p: p.name)
def kernel(request, tmp_path_factory):
    """A kernel compiled every way: its artifacts (by `loom compile`), its native binary, its signature."""
    src: Path = request.param
    tmp = tmp_path_factory.mktemp(src.stem)
    code, out, err = run_cli(["compile", str(src), "-o", str(tmp)])
    assert code == 0, err
    func = src.stem
    module = parse_text((tmp / f"{src.stem}.scf.mlir").read_text())
    params, result = signature(module, func)
    cxx = src.suffix == ".cpp"
    main_file = tmp / ("harness.cpp" if cxx else "harness.c")
    main_file.write_text(harness(src, func, params, result))
    gcc = shutil.which("g++" if cxx else "gcc")
    assert gcc, "the oracle needs the system C compiler (apt-get install gcc g++)"
    subprocess.run([gcc, "-O0", "-ffp-contract=off", "-w", "-Wno-incompatible-pointer-types", "-o", str(tmp / "native"), str(main_file), "-lm"],
                   check=True)
    return src, tmp, func, params, result


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_native_equals_scf_and_dfg(kernel, seed):
    """Native execution of the C kernel == loom sim of its .scf.mlir, of its .dfg.mlir and of the .c itself."""
    src, tmp, func, params, result = kernel
    inputs = gen_inputs(random.Random(seed), params)
    want = native(tmp / "native", params, inputs, result)
    for path in (tmp / f"{src.stem}.scf.mlir", tmp / f"{src.stem}.dfg.mlir", tmp / f"{src.stem}.cf.mlir"):
        got = loom_sim(path, func, inputs, tmp)
        assert got == want, f"{path.name} on {inputs}"


def test_artifacts_read_back_and_are_deterministic(tmp_path):
    """Every artifact parses back into loom, and two runs write byte-identical files."""
    src = ROOT / "examples" / "c" / "gemm.c"
    for out in (tmp_path / "a", tmp_path / "b"):
        out.mkdir()
        code, stdout, err = run_cli(["compile", str(src.relative_to(ROOT)), "-o", str(out)])
        assert code == 0, err
        assert [line.split()[-1].rsplit("/", 1)[-1] for line in stdout.splitlines()] == \
            ["gemm.ll", "gemm.cf.mlir", "gemm.scf.mlir", "gemm.dfg.mlir"]
    for name in ("gemm.ll", "gemm.cf.mlir", "gemm.scf.mlir", "gemm.dfg.mlir"):
        a, b = (tmp_path / "a" / name).read_text(), (tmp_path / "b" / name).read_text()
        assert a == b, name
        assert str(ROOT) not in a, f"{name} names the checkout's directory"
        if name.endswith(".mlir"):
            parse_text(a, name)
    scf = (tmp_path / "a" / "gemm.scf.mlir").read_text()
    assert scf.count("scf.for") == 3 and "scf.while" not in scf and "memref<8x8xi32>" in scf


def test_counted_loops_only_become_for(tmp_path):
    """A loop whose bound changes inside it stays a while (its trip count is not known at entry)."""
    src = tmp_path / "k.c"
    src.write_text("int f(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { s += a[i]; n -= a[i] > 3; }"
                   " return s; }\n"
                   "void g(int *a, unsigned n) { for (unsigned i = 0; i < n; i++) a[i] = i; }\n"
                   "void h(int *a, int n) { for (int i = n; i > 0; i -= 2) a[i] = i; }\n"
                   "void k(int *a, int n, int m) { for (int i = 0; i < n * m - 1; i++) a[i] = i; }\n"
                   "void d(int *a, int n) { int i = 0; do { a[i] = i; i += 2; } while (i < n); }\n")
    scf = compile_c(src).scf
    funcs = scf.split("func.func")
    assert "scf.while" in funcs[1] and "scf.for" not in funcs[1]
    assert "scf.for unsigned" in funcs[2]
    assert "scf.while" in funcs[3]
    assert "scf.for" in funcs[4] and "scf.while" not in funcs[4]  # the invariant bound n * m - 1 is hoisted
    assert "scf.for" in funcs[5] and "arith.maxsi" in funcs[5]  # a do-while runs once: to max(n, 0 + 1)


UNSUPPORTED = [
    ("struct S { int a; }; int f(struct S s) { return s.a; }", "CPL_C_UNSUPPORTED", 1),
    ("int f(int (*g)(int), int x) { return g(x); }", "CPL_C_UNSUPPORTED", 1),
    ("int f(int n) { return n <= 0 ? 0 : n + f(n - 1); }", "CPL_C_UNSUPPORTED", 1),
    ("#include <stdarg.h>\nint f(int n, ...) { return n; }", "CPL_C_UNSUPPORTED", 2),
    ("void f(volatile int *p) { *p = 1; }", "CPL_C_UNSUPPORTED", 1),
    ("int f(int x) { int y; __asm__(\"mov %1, %0\" : \"=r\"(y) : \"r\"(x)); return y; }", "CPL_C_UNSUPPORTED", 1),
    ("int f(int x) { return x +; }", "CPL_C_CLANG", 1),
    ("int printf(const char *, ...);\nvoid f(int x) { printf(\"%d\", x); }", "CPL_C_UNSUPPORTED", 2),
    ("typedef struct { unsigned x, y; int inf; } pt;\npt f(const pt *p, int k) {\n  return p[k];\n}\n",
     "CPL_C_UNSUPPORTED", 2),  # a kernel returning a struct (upstream's msm_*), at the function
    ("void f(int *a, int *b, int n) {\n  for (int i = 0; i < n; i++) {\n    int *t = a; a = b; b = t;\n"
     "    a[i] = b[i] + 1;\n  }\n}\n", "CPL_C_UNSUPPORTED", 2),  # two buffers swapped (upstream's bfs_*)
]


@pytest.mark.parametrize("source,code,line", UNSUPPORTED, ids=[c[0][:30] for c in UNSUPPORTED])
def test_unsupported_c_is_one_located_error(tmp_path, source, code, line):
    """C the flow cannot map: one line `file:line:col: error: [CODE] ...` at the C source, exit 2, no file."""
    src = tmp_path / "bad.c"
    src.write_text(source + "\n")
    out = tmp_path / "out"
    out.mkdir()
    rc, stdout, err = run_cli(["compile", str(src), "-o", str(out)])
    assert rc == 2 and not stdout
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{src}:{line}:") and f"error: [{code}]" in err, err
    assert not list(out.iterdir())


def test_irreducible_loop_is_located_in_c(tmp_path):
    """A goto into a loop (two entries) cannot be structured: the error names a C line, not the CF text."""
    src = tmp_path / "g.c"
    src.write_text("int g(int *a, int n) {\n  int i = 0;\n  if (n > 5) goto mid;\n  while (i < n) {\n    a[i] = 1;\n"
                   "  mid:\n    a[i] += 2;\n    i++;\n  }\n  return i;\n}\n")
    rc, _, err = run_cli(["compile", str(src), "-o", str(tmp_path)])
    assert rc == 2 and err.startswith(f"{src}:") and "[CPL_LOWER_UNSUPPORTED]" in err, err
    assert ".cf.mlir" not in err.split(": error:")[0]


def test_missing_file_and_func(tmp_path):
    rc, _, err = run_cli(["compile", str(tmp_path / "none.c"), "-o", str(tmp_path)])
    assert rc == 2 and "[IO_INPUT_UNREADABLE]" in err
    rc, _, err = run_cli(["compile", str(ROOT / "examples" / "c" / "dot.c"), "--func", "nope", "-o", str(tmp_path)])
    assert rc == 2 and "[CPL_FUNC_NOT_FOUND]" in err


def test_include_and_define_reach_clang(tmp_path):
    """-I and -D are passed to clang: a macro from a header and one from the command line size the arrays."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "size.h").write_text("#define ROWS 4\n")
    src = tmp_path / "m.c"
    src.write_text('#include "size.h"\nvoid m(int A[ROWS][COLS]) { for (int i = 0; i < ROWS; i++) A[i][0] = i; }\n')
    rc, _, err = run_cli(["compile", str(src), "-I", str(tmp_path / "inc"), "-D", "COLS=5", "-o", str(tmp_path)])
    assert rc == 0, err
    assert "memref<4x5xi32>" in (tmp_path / "m.scf.mlir").read_text()  # the declared bound, evaluated by clang


def test_verify_reads_c():
    """`loom verify` takes the C file itself (compiled first): with arrays of any length, vecadd reads past
    them when n is larger, and verify says so (a refutation with inputs, exit 1), not a usage error."""
    src = str(ROOT / "examples" / "c" / "vecadd.c")
    rc, out, err = run_cli(["verify", "-q", src])
    assert rc == 1, err + out
    assert "safe.load" in out and "out of bounds of memref 'a'" in out
    assert out.splitlines()[0].startswith(f"loom verify: {src} @")  # the C file, not the temporary SCF stage


def test_hdl_and_map_read_c(tmp_path):
    """`loom hdl` and `loom map` take the C file itself: the RTL and the mapping of its DFG are written."""
    src = str(ROOT / "examples" / "c" / "dot.c")
    rc, out, err = run_cli(["hdl", src, "-o", str(tmp_path / "rtl")])
    assert rc == 0, err
    assert (tmp_path / "rtl" / "dot.sv").is_file()
    rc, out, err = run_cli(["adg", "mesh", "-o", str(tmp_path / "mesh.fabric.mlir")])
    assert rc == 0, err
    rc, out, err = run_cli(["map", src, "--adg", str(tmp_path / "mesh.fabric.mlir"), "-o", str(tmp_path / "m"), "-q"])
    assert rc == 0, err
    assert (tmp_path / "m" / "dot.mesh.config.bin").is_file()


REGION_KERNELS = [ROOT / "examples" / "c" / "gemm.c", ROOT / "examples" / "c" / "find_break.c",
                  DATA / "search2d.c", DATA / "cube.c"]


@pytest.mark.parametrize("src", REGION_KERNELS, ids=lambda p: p.name)
def test_regions_outline_loops_and_keep_results(tmp_path, src):
    """--region nest/innermost: each candidate loop is its own kernel (one handshake.func each); the host,
    calling them, still computes what the native program computes."""
    func = src.stem
    for mode in ("nest", "innermost"):
        out = tmp_path / mode
        out.mkdir()
        rc, stdout, err = run_cli(["compile", str(src), "--region", mode, "-o", str(out)])
        assert rc == 0, err
        cands = [line.split()[1][1:-1] for line in stdout.splitlines() if line.startswith("candidate @")]
        assert cands and any(line.startswith(f"host @{func}:") for line in stdout.splitlines()), stdout
        assert not (out / f"{func}.dfg.mlir").exists()
        for k in cands:  # ../shared/DESIGN.md: one DFG per candidate, <stem>.<candidate>.dfg.mlir
            dfg = (out / f"{func}.{k}.dfg.mlir").read_text()
            assert re.findall(r"handshake\.func @(\w+)", dfg) == [k]
        scf = parse_text((out / f"{func}.scf.mlir").read_text())
        params, result = signature(scf, func)
        main_file = out / "harness.c"
        main_file.write_text(harness(src, func, params, result))
        subprocess.run(["gcc", "-O0", "-ffp-contract=off", "-w", "-Wno-incompatible-pointer-types", "-o", str(out / "native"), str(main_file), "-lm"],
                       check=True)
        for seed in range(3):
            inputs = gen_inputs(random.Random(seed), params)
            assert loom_sim(out / f"{func}.scf.mlir", func, inputs, out) == native(out / "native", params, inputs,
                                                                                  result)


def test_pragma_marks_the_candidate(tmp_path):
    """`#pragma loom candidate` before a loop: only that loop becomes a DFG; the rest stays on the host."""
    src = tmp_path / "pr.c"
    src.write_text("void pr(int *a, int *b, int n) {\n  for (int i = 0; i < n; i++)\n    a[i] = a[i] * 2;\n"
                   "#pragma loom candidate\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < 4; j++)\n"
                   "      b[i] += a[i] + j;\n}\n")
    rc, stdout, err = run_cli(["compile", str(src), "-o", str(tmp_path)])
    assert rc == 0, err
    assert f"candidate @pr_L5: the scf.for at {src}:5:3 (arguments: n, a, b)" in stdout
    assert "host @pr: " in stdout and "it calls @pr_L5" in stdout
    inputs = {"a": [1, 2, 3], "b": [0, 0, 0], "n": 3}
    whole = loom_sim(src, "pr", inputs, tmp_path)  # the .c itself: the host, calling the kernel
    assert whole["memrefs"] == {"a": [2, 4, 6], "b": [14, 22, 30]}
    kernel = loom_sim(tmp_path / "pr.pr_L5.dfg.mlir", "pr_L5", inputs, tmp_path)  # the DFG: the candidate alone
    assert kernel["memrefs"] == {"a": [1, 2, 3], "b": [10, 14, 18]}


def test_missing_clang_names_the_install_command(tmp_path, monkeypatch):
    """Without the ziglang wheel: one located line naming the pip command that installs clang, exit 2."""
    monkeypatch.setitem(sys.modules, "ziglang", None)  # `import ziglang` raises ImportError
    rc, out, err = run_cli(["compile", str(ROOT / "examples" / "c" / "dot.c"), "-o", str(tmp_path)])
    assert rc == 2 and "[CPL_C_TOOL_MISSING]" in err and "pip install 'ziglang==" in err, err
    assert len(err.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


def test_rtl_of_c_agrees_with_native(tmp_path, monkeypatch):
    """`loom sim kernel.c --rtl`: the emitted RTL of a C kernel prints what the native binary prints."""
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    src = ROOT / "examples" / "c" / "gemm.c"
    rng = random.Random(7)
    inputs = {name: [[rng.randint(-9, 9) for _ in range(8)] for _ in range(8)] for name in "ABC"}
    params = [(n, "array", "i32", [8, 8]) for n in "ABC"]
    (tmp_path / "h.c").write_text(harness(src, "gemm", params, "i32"))
    subprocess.run(["gcc", "-O0", "-ffp-contract=off", "-w", "-Wno-incompatible-pointer-types", "-o", str(tmp_path / "native"), str(tmp_path / "h.c")],
                   check=True)
    want = native(tmp_path / "native", params, inputs, "i32")
    (tmp_path / "in.json").write_text(json.dumps(inputs))
    rc, out, err = run_cli(["sim", str(src), "--rtl", "--inputs", str(tmp_path / "in.json"), "--json"])
    assert rc == 0, err + out
    doc = json.loads(out)
    got = {"results": doc["results"], "memrefs": {k: [x for row in v for x in row] if v and isinstance(v[0], list)
                                                  else v for k, v in doc["memrefs"].items()}}
    assert got == want


def test_variable_length_array_runs_but_has_no_dfg(tmp_path):
    """`int v[n]` is a memref.alloca of a dynamic size: the SCF stage runs it (as native code does); the DFG
    cannot hold it, which is one error at the C declaration, not at a line of the generated MLIR."""
    src = tmp_path / "vla.c"
    src.write_text("int vla(const int *a, int *out, int n) {\n  if (n <= 0) return 0;\n  int v[n];\n  int s = 0;\n"
                   "  for (int i = 0; i < n; i++) { s += a[i]; v[i] = s; }\n"
                   "  for (int i = 0; i < n; i++) out[i] = v[n - 1 - i];\n  return s;\n}\n")
    got = loom_sim(src, "vla", {"a": [1, 2, 3], "out": [0, 0, 0], "n": 3}, tmp_path)
    assert got == {"results": [6], "memrefs": {"a": [1, 2, 3], "out": [6, 3, 1]}}
    rc, _, err = run_cli(["compile", str(src), "-o", str(tmp_path)])
    assert rc == 2 and err.startswith(f"{src}:3:3: error: [CPL_LOWER_UNSUPPORTED]"), err
