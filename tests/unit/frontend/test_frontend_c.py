"""The C front end (loom/frontend/c): C -> LLVM IR -> CF -> SCF -> DFG, checked against native execution.

The oracle is the system C compiler: each kernel is compiled by gcc (-O0 -ffp-contract=off) with a harness
that reads the inputs from stdin and prints every array and the result; ``loom sim`` of the SCF stage and of
the DFG must print the same values for generated inputs.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.frontend.c import compile_c
from loom.mlir import parse_text
from loom.testing import c_native
from loom.testing.c_native import Param, run_cli

from support.paths import DATA, ROOT

EXAMPLES = sorted((ROOT / "examples" / "c").glob("*.c"))
DATA = DATA / "c"
KERNELS = EXAMPLES + sorted(DATA.glob("*.c")) + sorted(DATA.glob("*.cpp"))
LENGTH = 10  # elements of a 1-D array input


def signature(scf, func: str) -> tuple[list[Param], str | None]:
    """The kernel's parameters and result type, from its SCF stage (a file)."""
    return c_native.signature(scf, func)


def gen_inputs(rng: random.Random, params: list[Param]) -> dict:
    """Inputs for every parameter: small values so that searches hit and float sums stay exact-ish; ``n`` (the
    kernels' length parameter) in [0, LENGTH], every dynamic dimension LENGTH elements."""
    out = {}
    for p in params:
        def one():
            if p.elem[0] == "f":
                return rng.randint(-40, 40) / 4
            if p.elem == "i8":
                return rng.randint(-128, 127)
            return rng.randint(-5, 5) if rng.random() < 0.5 else rng.randint(-1000, 1000)
        if p.array:
            def fill(dims):
                return [one() for _ in range(dims[0])] if len(dims) == 1 else [fill(dims[1:]) for _ in range(dims[0])]
            out[p.name] = fill([LENGTH if d is None else d for d in p.shape])
        elif p.name == "n":
            out[p.name] = rng.randint(0, LENGTH)
        else:
            out[p.name] = one()
    return out


def native(src: Path, func: str, params: list[Param], result, tmp: Path):
    """The native binary of the shared harness (loom.testing.c_native), built by gcc -O0 -ffp-contract=off."""
    binary, why = c_native.build(src, func, params, result, tmp)
    assert binary is not None, why
    return binary


def loom_sim(path: Path, func: str, inputs: dict, tmp: Path) -> dict:
    inp = tmp / "in.json"
    inp.write_text(json.dumps(inputs))
    got, why = c_native.loom_sim(path, func, inp, [])
    assert got is not None, why
    return got


@pytest.fixture(scope="module", params=KERNELS, ids=lambda p: p.name)
def kernel(request, tmp_path_factory):
    """A kernel compiled every way: its artifacts (by `loom compile`), its native binary, its signature."""
    src: Path = request.param
    tmp = tmp_path_factory.mktemp(src.stem)
    code, out, err = run_cli(["compile", str(src), "-o", str(tmp)])
    assert code == 0, err
    func = src.stem
    params, result = signature(tmp / f"{src.stem}.scf.mlir", func)
    native(src, func, params, result, tmp)
    return src, tmp, func, params, result


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_native_equals_scf_and_dfg(kernel, seed):
    """Native execution of the C kernel == loom sim of its .scf.mlir, of its .dfg.mlir and of the .c itself."""
    src, tmp, func, params, result = kernel
    inputs = gen_inputs(random.Random(seed), params)
    want = c_native.run_native(tmp / "native", params, inputs, result)
    for path in (tmp / f"{src.stem}.scf.mlir", tmp / f"{src.stem}.dfg.mlir", tmp / f"{src.stem}.cf.mlir"):
        got = loom_sim(path, func, inputs, tmp)
        assert not c_native.differs(want, got), f"{path.name} on {inputs}: {c_native.differs(want, got)}"


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
    ("typedef struct { int n; float w; } pt;\npt f(const pt *p, int k) {\n  return p[k];\n}\n",
     "CPL_C_UNSUPPORTED", 2),  # a kernel returning a struct of mixed members, at the function
    ("void f(int *a, int *b, int n) {\n  for (int i = 0; i < n; i++) {\n    int *t = a; a = b; b = t;\n"
     "    a[i] = b[i] + 1;\n  }\n}\n", "CPL_C_UNSUPPORTED", 2),  # two parameters swapped: the caller's arrays
    ("#include <stdlib.h>\nvoid f(float *out, int n, int c) {\n  float *s = out;\n"
     "  if (c) s = malloc(n * sizeof(float));\n  for (int i = 0; i < n; i++) s[i] = 1;\n}\n",
     "CPL_C_UNSUPPORTED", 4),  # a buffer swapped with a parameter on some paths only: no copy-in point covers it
    ("#include <stdlib.h>\nvoid f(float *out, int n) {\n  float *d = out;\n  for (int k = 0; k < 3; k++) {\n"
     "    float *s = malloc(n * sizeof(float));\n    for (int i = 0; i < n; i++) s[i] = d[i] + 1;\n    d = s;\n"
     "  }\n}\n", "CPL_C_UNSUPPORTED", 4),  # the buffer mixed with a parameter is allocated anew in the loop
    ("typedef struct { int n; int *a; } g_t;\nint kern(const g_t *g, int *out);\nint drive(const g_t *g, int *out) {\n"
     "  int s = g->n;\n  return s + kern(g, out);\n}\n", "CPL_C_UNSUPPORTED", 5),  # a driver calling another file
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


def test_verify_pairs_the_copies_of_an_inlined_loop():
    """A helper's loop inlined twice has one C position for both copies; verify pairs each SCF copy with its DFG
    copy by the op's own location, so the refinement is proved instead of 'cannot be related: 2 DFG loops'."""
    rc, out, err = run_cli(["verify", str(DATA / "inline_twice.c"), "--assume", "dim(a) >= 4", "--json"])
    assert rc == 0, err + out
    obs = json.loads(out)["obligations"]
    loops = [o for o in obs if o["id"].startswith("refine.loop")]
    assert len(loops) == 4 and all(o["status"] == "proved" for o in loops), loops
    assert all(o["status"] == "proved" for o in obs if o["kind"] == "refinement"), obs
    # each copy has its own ID (the second numbered #2), so reports, shards and merges keep both
    assert sorted(o["id"] for o in loops) == ["refine.loop@5:3.activation", "refine.loop@5:3.activation#2",
                                              "refine.loop@5:3.cond", "refine.loop@5:3.cond#2"]
    assert len({o["id"] for o in obs}) == len(obs)


def test_verify_pairs_the_loads_of_a_helper_inlined_three_times(tmp_path):
    """A helper's load inlined at three calls: the copies share its C position (5:10), so refinement could not
    pair them ('3 source and 3 DFG loads share this location', unknown). The front end keeps clang's inlinedAt
    as a callsite location on each copy, so each SCF copy pairs with its own DFG copy and all three are proved,
    numbered like the safety IDs; a message about a copy still names the helper's line."""
    src = DATA / "inline_thrice.c"
    rc, out, err = run_cli(["compile", str(src), "-o", str(tmp_path)])
    assert rc == 0, err
    scf = (tmp_path / "inline_thrice.scf.mlir").read_text()
    calls = sorted(re.findall(r'memref\.load [^\n]* loc\(callsite\("[^"]*":5:10 at "[^"]*":(\d+):(\d+)\)\)', scf))
    assert calls == [("11", "13"), ("11", "28"), ("11", "47")], scf
    rc, out, err = run_cli(["verify", str(src), "--json"])
    assert rc == 1, err  # the loads past x's end are real faults (no assumptions)
    obs = json.loads(out)["obligations"]
    loads = {o["id"]: o["status"] for o in obs if o["id"].startswith("refine.load")}
    assert loads == {"refine.load@5:10": "proved", "refine.load@5:10#2": "proved", "refine.load@5:10#3": "proved"}
    assert all(o["status"] == "proved" for o in obs if o["kind"] == "refinement"), obs
    assert len({o["id"] for o in obs}) == len(obs)
    loads = [op for op in compile_c(src).module.walk() if op.name == "memref.load"]
    assert [(op.loc.file, op.loc.line, op.loc.col) for op in loads] == [(str(src), 5, 10)] * 3  # the helper's line


def test_verify_pairs_the_field_accesses_of_a_struct_copied_at_one_call(tmp_path):
    """A struct passed by value: clang copies its fields at the call, so 4 loads and 2 stores share the call's C
    position (12:38) -- before, 'refine.load@12:38: 4 source and 4 DFG loads share this location', unknown. The
    front end names the k-th access at one position (``loc("access k"(...))``, which the DFG op lowered from it
    keeps), so each pairs with its own and all are proved; the first keeps its plain location."""
    src = DATA / "struct_copies.c"
    rc, out, err = run_cli(["compile", str(src), "-o", str(tmp_path)])
    assert rc == 0, err
    locs = re.findall(r"memref\.(?:load|store) [^\n]* (loc\(.*\))$", (tmp_path / "struct_copies.scf.mlir").read_text(),
                      re.M)
    assert locs == [f'loc("{src}":12:38)'] + [f'loc("access {k}"("{src}":12:38))' for k in range(2, 7)], locs
    rc, out, err = run_cli(["verify", str(src), "--json"])
    obs = json.loads(out)["obligations"]
    refine = {o["id"]: o["status"] for o in obs if o["kind"] == "refinement"}
    assert set(refine.values()) == {"proved"}, refine
    assert {k for k in refine if k.startswith(("refine.load", "refine.store"))} == {
        "refine.load@12:38", "refine.load@12:38#2", "refine.load@12:38#3", "refine.load@12:38#4",
        "refine.store@12:38", "refine.store@12:38#2"}
    loads = [op for op in compile_c(src).module.walk() if op.name == "memref.load"]
    assert {(op.loc.line, op.loc.col) for op in loads} == {(12, 38)}  # messages still name the C position


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
        params, result = signature(out / f"{func}.scf.mlir", func)
        binary = native(src, func, params, result, out)
        for seed in range(3):
            inputs = gen_inputs(random.Random(seed), params)
            want = c_native.run_native(binary, params, inputs, result)
            assert not c_native.differs(want, loom_sim(out / f"{func}.scf.mlir", func, inputs, out))


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
    params = [Param(n, True, "i32", (8, 8)) for n in "ABC"]
    want = c_native.run_native(native(src, "gemm", params, "i32", tmp_path), params, inputs, "i32")
    (tmp_path / "in.json").write_text(json.dumps(inputs))
    rc, out, err = run_cli(["sim", str(src), "--rtl", "--inputs", str(tmp_path / "in.json"), "--json"])
    assert rc == 0, err + out
    doc = json.loads(out)
    got = {"results": doc["results"], "memrefs": {k: [x for row in v for x in row] if v and isinstance(v[0], list)
                                                  else v for k, v in doc["memrefs"].items()}}
    assert got == want


def test_variable_length_array_comes_from_the_host(tmp_path):
    """`int v[n]` is a memref.alloca of a dynamic size: the SCF stage runs it (as native code does); the DFG
    takes it from the host (one trailing memref argument named `v`, even after an early return), and
    `loom compile` says so at the C declaration."""
    src = tmp_path / "vla.c"
    src.write_text("int vla(const int *a, int *out, int n) {\n  if (n <= 0) return 0;\n  int v[n];\n  int s = 0;\n"
                   "  for (int i = 0; i < n; i++) { s += a[i]; v[i] = s; }\n"
                   "  for (int i = 0; i < n; i++) out[i] = v[n - 1 - i];\n  return s;\n}\n")
    got = loom_sim(src, "vla", {"a": [1, 2, 3], "out": [0, 0, 0], "n": 3}, tmp_path)
    assert got == {"results": [6], "memrefs": {"a": [1, 2, 3], "out": [6, 3, 1]}}
    rc, out, err = run_cli(["compile", str(src), "-o", str(tmp_path)])
    assert rc == 0, err
    assert f"the host allocates %v (memref<?xi32>, sized as at {src}:3:3) and passes it" in out, out
    got = loom_sim(tmp_path / "vla.dfg.mlir", "vla", {"a": [1, 2, 3], "out": [0, 0, 0], "n": 3, "v": [9, 9, 9]},
                   tmp_path)
    assert got["results"] == [6] and got["memrefs"]["out"] == [6, 3, 1]
    for n in (0, 5):  # the size the kernel would allocate: the host's buffer for the DFG
        shapes = c_native.host_buffer_shapes(tmp_path / "vla.scf.mlir", "vla", {"a": [1], "out": [0], "n": n})
        assert shapes == {"v": [n]}


def test_verify_adg_reads_c(tmp_path):
    """`loom verify X.c --adg F` maps the C kernel's DFG and reports the mapping's obligations beside the rest (the
    reports name the C file, so they are matched by that name, not the temporary SCF stage's)."""
    src = str(ROOT / "examples" / "c" / "dot.c")
    rc, out, err = run_cli(["adg", "mesh", "-o", str(tmp_path / "mesh.fabric.mlir")])
    assert rc == 0, err
    rc, out, err = run_cli(["verify", src, "--adg", str(tmp_path / "mesh.fabric.mlir"), "--json"])
    obs = {o["id"]: o["status"] for o in json.loads(out)["obligations"]}
    assert obs["map.iso"] == "proved" and obs["map.fifo.bmc.K4.deadlock"] == "proved", (rc, err)
