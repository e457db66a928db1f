"""The C front end on struct parameters with pointer members and on malloc/calloc/free, against native execution.

Kernels in tests/data/c/heap: a struct pointer parameter becomes one parameter per member read (``m_row_ptr``),
``malloc``/``calloc`` a ``memref.alloc`` (static when the size is a constant: a handshake.memory of the DFG; a
size from the parameters: the DFG takes the buffer from its host, loom/lower/host_alloc.py). The native side is
gcc -O0 -ffp-contract=off of the harness loom.testing.c_native generates (it fills the struct from the member
parameters); ``loom sim`` of the SCF stage and of the DFG (given the host's buffers) must print the same.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.testing import c_native
from support.paths import DATA

KERNELS = sorted((DATA / "c" / "heap").glob("*.c"))
LENGTH = 10
# the kernels whose scratch buffers' sizes come from the parameters: the DFG takes them from the host
HOST_BUFFERS = {"heap_prefix": ["tmp"], "heap_rows": ["acc", "order"], "heap_loop": ["seen"], "heap_swap": ["cur_nxt"],
                "heap_swap_param": ["src"], "heap_swap_inlined": ["tmp", "src"]}


@pytest.fixture(scope="module", params=KERNELS, ids=lambda p: p.name)
def kernel(request, tmp_path_factory):
    """A kernel's SCF stage, its DFG (if it lowers), its parameters and its native binary."""
    src: Path = request.param
    tmp = tmp_path_factory.mktemp(src.stem)
    code, out, err = c_native.run_cli(["compile", str(src), "-o", str(tmp)])
    assert code == 0, err
    scf = tmp / f"{src.stem}.scf.mlir"
    params, result = c_native.signature(scf, src.stem)
    binary, why = c_native.build(src, src.stem, params, result, tmp)
    assert binary is not None, why
    return src, tmp, params, result, out


def test_struct_members_are_parameters(kernel):
    """A struct pointer parameter is split into the members the kernel reads, named ``g_member`` after C's ``g->member``."""
    src, tmp, params, _, _ = kernel
    names = [p.name for p in params]
    if src.stem == "csr_spmv":
        assert names == ["m_rows", "m_row_ptr", "m_col", "m_val", "x", "y"]  # `nnz` is never read
    if src.stem == "graph_degree":
        assert names == ["g_num_vertices", "g_row_ptr", "g_col_idx", "deg"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, LENGTH - 1))
def test_native_equals_scf_and_dfg(kernel, seed, n):
    """Native execution == loom sim of the SCF stage and of the DFG, on generated inputs of size n."""
    src, tmp, params, result, _ = kernel
    inputs = c_native.make_inputs(params, n, LENGTH, "mixed", seed)
    inputs_file = tmp / "in.json"
    inputs_file.write_text(json.dumps(inputs))
    want = c_native.run_native(tmp / "native", params, inputs, result)
    scf = tmp / f"{src.stem}.scf.mlir"
    for path, inputs_path in ((scf, inputs_file), (tmp / f"{src.stem}.dfg.mlir", inputs_file)):  # the DFG allocates
        got, why = c_native.loom_sim(path, src.stem, inputs_path, [])
        assert got is not None, why
        assert not c_native.differs(want, got), f"{path.name} on {inputs}: {c_native.differs(want, got)}"


def test_host_allocates_dynamic_scratch(kernel):
    """A buffer sized by the parameters is a trailing memref argument of the DFG, named after the C variable,
    and `loom compile` says the host allocates it; constant-size buffers stay on chip (handshake.memory)."""
    src, tmp, params, _, out = kernel
    dfg = (tmp / f"{src.stem}.dfg.mlir").read_text()
    arg_names = re.search(r"argNames = \[([^\]]*)\]", dfg)[1]
    names = [p.name for p in params] + HOST_BUFFERS.get(src.stem, []) + ["start_token"]
    assert re.findall(r'"(\w+)"', arg_names) == names
    for name in HOST_BUFFERS.get(src.stem, []):
        assert f"the host allocates %{name} (" in out and f"{src.name}:" in out, out
    if src.stem not in HOST_BUFFERS:
        assert "host allocates" not in out


def test_allocation_in_a_loop_stays_refused(tmp_path):
    """A buffer allocated on every iteration with a size that changes cannot be one host buffer: the DFG
    lowering refuses it, located at the C call, and says which allocations the host can make."""
    path = tmp_path / "loop.c"
    path.write_text("#include <stdlib.h>\nint loop(int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n"
                    "    int *t = malloc((size_t)(i + 1) * sizeof(int));\n    t[i] = a[i];\n    s += t[i];\n"
                    "    free(t);\n  }\n  return s;\n}\n")
    code, out, err = c_native.run_cli(["compile", str(path), "-o", str(tmp_path / "out")])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"{path}:5:") and "[CPL_LOWER_UNSUPPORTED]" in err, err
    assert "the host passes in only a buffer whose size the arguments give" in err, err


def test_refused_forms_are_located(tmp_path):
    """Storing into a member of a struct parameter, and indexing an array of such structs, are refused at the C
    line with CPL_C_UNSUPPORTED."""
    cases = {
        "store.c": ("typedef struct { int n; int *a; } s_t;\nvoid store(s_t *s) {\n  s->n = 3;\n}\n", 3),
        "array.c": ("typedef struct { int n; int *a; } s_t;\nint arr(const s_t *s, int k) {\n"
                    "  return s[k].n;\n}\n", 2),
    }
    for name, (text, line) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        code, out, err = c_native.run_cli(["compile", str(path), "-o", str(tmp_path / "out")])
        assert code == 2 and out == "", err
        assert err.count("\n") == 1 and "[CPL_C_UNSUPPORTED]" in err and f"{name}:{line}:" in err, err


def test_the_comparison_sees_differences_and_equal_nans():
    """The corpus tool's comparison: a NaN equals a NaN (C prints any NaN as nan, loom's JSON as "nan"), a
    differing element or result is named with its position."""
    nan = float("nan")
    a = {"results": [nan], "memrefs": {"y": [1.0, nan]}}
    assert c_native.differs(a, {"results": [nan], "memrefs": {"y": [1.0, nan]}}) == ""
    assert c_native.differs(a, {"results": [nan], "memrefs": {"y": [1.5, nan]}}).startswith("y[0]: 1.0 != 1.5")
    assert c_native.differs(a, {"results": [0.0], "memrefs": {"y": [1.0, nan]}}).startswith("result")
    assert c_native.differs(a, {"results": [nan], "memrefs": {"y": [1.0]}}) == "y: lengths differ"


def test_fitted_mesh_holds_on_chip_and_host_buffers(tmp_path):
    """`loom adg mesh --fit` gives a kernel's constant-size buffer an on-chip fabric.memory with its lanes, and its
    host buffer an external interface: heap_hist and heap_prefix map, the checker proves the mapping, and the
    configuration decoded from config.bin computes what the DFG computes."""
    from loom.lower import LowerOptions, lower_module
    from loom.map.adg.read import read_adg
    from loom.map.config import from_bytes
    from loom.map.execute import run_decoded
    from loom.mlir import parse_file

    for stem, inputs in (("heap_hist", {"a": [1, 9, 3, 3, 12], "out": [0] * 8, "n": 5}),
                         ("heap_prefix", {"a": [1, 2, 3], "out": [0, 0, 0], "n": 3, "tmp": [0, 0, 0]})):
        src = DATA / "c" / "heap" / f"{stem}.c"
        work = tmp_path / stem
        assert c_native.run_cli(["compile", str(src), "-o", str(work), "-q"])[0] == 0
        dfg, fabric = work / f"{stem}.dfg.mlir", work / "mesh.fabric.mlir"
        code, _, err = c_native.run_cli(["adg", "mesh", "--rows", "11", "--cols", "11", "--extmem", "3", "--fit",
                                         str(dfg), "-o", str(fabric), "-q"])
        assert code == 0, err
        if stem == "heap_hist":  # its 8-int table: an on-chip memory with the lanes the table's accesses use
            assert re.search(r"fabric\.memory @mem0 \[ldCount = [2-9], stCount = [1-9]", fabric.read_text())
        code, out, err = c_native.run_cli(["map", str(work / f"{stem}.scf.mlir"), "--func", stem, "--adg",
                                           str(fabric), "-o", str(work / "m")])
        assert code == 0, err
        assert "checker: proved" in out.splitlines()[0], out
        adg = read_adg(parse_file(fabric), str(fabric))

        def lowered():
            module = lower_module(parse_file(work / f"{stem}.scf.mlir"), stem,
                                  LowerOptions(max_join_fanin=adg.max_join_fanin()))
            return next(f for f in module.functions() if f.name == "handshake.func")

        doc = json.loads(next((work / "m").glob("*.map.json")).read_text())
        words = from_bytes(next((work / "m").glob("*.config.bin")).read_bytes())
        plain, got = run_decoded(lowered(), lowered(), adg, words, doc, inputs)
        assert plain.status == got.status == "completed", got.error
        assert (got.results, got.memrefs) == (plain.results, plain.memrefs)


def test_sim_allocates_host_buffers(kernel):
    """Each host buffer's DFG argument records its size as a function of the parameters (``loom.host_size``), and
    `loom sim` of the DFG allocates it, zero-filled, of the size the kernel asks for, when the inputs omit it."""
    from loom.mlir import parse_file
    from loom.runtime.host_size import host_sizes

    src, tmp, params, _, _ = kernel
    hosted = HOST_BUFFERS.get(src.stem, [])
    dfg = tmp / f"{src.stem}.dfg.mlir"
    func = next(f for f in parse_file(dfg).functions() if f.name == "handshake.func")
    sizes = host_sizes(func)
    assert [h.name for h in sizes] == hosted
    inputs = c_native.make_inputs(params, 5, LENGTH, "mixed", 7)
    want = c_native.host_buffer_shapes(tmp / f"{src.stem}.scf.mlir", src.stem, inputs)
    assert {h.name: h.sizes(inputs) for h in sizes} == want
    inputs_file = tmp / "in_alloc.json"
    inputs_file.write_text(json.dumps(inputs))
    code, out, err = c_native.run_cli(["sim", str(dfg), "--inputs", str(inputs_file), "--json"])
    assert code == 0, err
    got = json.loads(out)["memrefs"]
    for name in hosted:
        assert f"note: the host allocates %{name} (" in err, err
        assert len(c_native.flatten(got[name])) == math.prod(want[name]), (name, want)


def test_malformed_host_size_is_located(tmp_path):
    """A ``loom.host_size`` that is no size function is one located CPL_IR_ATTRIBUTE line, exit 2."""
    src = DATA / "c" / "heap" / "heap_prefix.c"
    assert c_native.run_cli(["compile", str(src), "-o", str(tmp_path), "-q"])[0] == 0
    dfg = tmp_path / "heap_prefix.dfg.mlir"
    text = dfg.read_text()
    bad = re.sub(r'loom\.host_size = "[^"]*"', 'loom.host_size = "func.func @s(%q: i32) -> index { func.return }"',
                 text)
    assert bad != text
    dfg.write_text(bad)
    (tmp_path / "in.json").write_text(json.dumps({"a": [1], "out": [0], "n": 1}))
    code, out, err = c_native.run_cli(["sim", str(dfg), "--inputs", str(tmp_path / "in.json")])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "[CPL_IR_ATTRIBUTE]" in err and "loom.host_size of %tmp" in err, err


def _verify_json(path: Path, *assume: str) -> dict:
    args = ["verify", str(path), "--json"] + [x for a in assume for x in ("--assume", a)]
    code, out, err = c_native.run_cli(args)
    assert code in (0, 1), err
    return json.loads(out)


def test_verify_knows_host_buffer_lengths(tmp_path):
    """`loom verify` assumes a host buffer is exactly as long as the kernel asks (``loom.host_size``, listed in the
    report's assumptions): heap_prefix's accesses of %tmp are proved (they were unknown: a dynamic memref.alloc),
    and an off-by-one store into a malloc'd buffer is refuted with a witness the interpreter replays."""
    doc = _verify_json(DATA / "c" / "heap" / "heap_prefix.c", "n >= 0 && dim(a) >= n && dim(out) >= n")
    status = {o["id"]: o["status"] for o in doc["obligations"]}
    assert doc["summary"]["unknown"] == doc["summary"]["refuted"] == 0, doc["summary"]
    for ob in ("safe.store@11:12.bounds", "safe.load@14:14.bounds", "refine.store@11:12", "refine.load@14:14"):
        assert status[ob] == "proved", ob
    (assumed,) = [a for a in doc["summary"]["functions"][0]["assumptions"] if "loom.host_size" in a]
    assert assumed.startswith("dim(tmp, 0) == (extsi(n) * 4) /u 4 (loom.host_size of %tmp"), assumed
    bad = tmp_path / "offby1.c"
    bad.write_text("#include <stdlib.h>\nint offby1(const int *a, int n) {\n"
                   "  int *t = (int *)malloc((size_t)n * sizeof(int));\n  int s = 0;\n"
                   "  for (int i = 0; i <= n; i++)\n    t[i] = a[i];\n  for (int i = 0; i < n; i++)\n    s += t[i];\n"
                   "  free(t);\n  return s;\n}\n")
    doc = _verify_json(bad, "n >= 0 && dim(a) > n")
    (ob,) = [o for o in doc["obligations"] if o["status"] == "refuted"]
    assert ob["id"] == "safe.store@6:10.bounds", ob
    assert "RT_MEMREF_OUT_OF_BOUNDS" in ob["detail"] and "of memref 't'" in ob["detail"], ob["detail"]
    assert {o["id"]: o["status"] for o in doc["obligations"]}["safe.load@8:10.bounds"] == "proved"


def test_verify_proves_a_buffer_swapped_with_a_parameter():
    """heap_swap_param ping-pongs a malloc'd buffer with its parameter `out` (as upstream's pagerank_spmv): the
    host buffer holds the scratch part and `out`'s mirror, its length is assumed from ``loom.host_size`` (the
    kernel's size plus ``dim(out, 0)``), and every obligation is proved, the copy in and out included."""
    doc = _verify_json(DATA / "c" / "heap" / "heap_swap_param.c",
                       "n >= 0 && dim(a) >= n && dim(out) >= n && dim(out) <= 4096")
    assert doc["summary"]["unknown"] == doc["summary"]["refuted"] == 0, doc["summary"]
    (assumed,) = [a for a in doc["summary"]["functions"][0]["assumptions"] if "loom.host_size" in a]
    assert assumed.startswith("dim(src, 0) == ((extsi(n) * 4) /u 4) + dim(out, 0) (loom.host_size of %src"), assumed


def test_buffer_swapped_with_a_parameter_copies_in_and_out(tmp_path):
    """The parameter is copied in behind the scratch buffer right after the malloc and back before the return; its
    length is the parameter's memref.dim, which the DFG's loom.host_size reads too (loom sim of the DFG then
    allocates the host buffer from the inputs alone)."""
    code, out, err = c_native.run_cli(["compile", str(DATA / "c" / "heap" / "heap_swap_param.c"), "-o", str(tmp_path)])
    assert code == 0, err
    scf = (tmp_path / "heap_swap_param.scf.mlir").read_text()
    assert re.search(r"%out_len = memref\.dim %out, %\w+ : memref<\?xi32>", scf), scf
    assert re.search(r"%src = memref\.alloc\(%\w+\) : memref<\?xi32>", scf)
    dfg = (tmp_path / "heap_swap_param.dfg.mlir").read_text()
    assert "func.func @src_size(%out: memref<?xi32>, %n: i32) -> index" in dfg


def test_a_host_length_on_a_huge_parameter_length_decides_nothing(tmp_path):
    """heap_swap_param's host length reads ``dim(out, 0)``; checking it on concrete values runs the size function
    on a list that long. A model may give a length up to 2^48 -- no list holds it (it was a MemoryError) -- so
    beyond ``VALUE_ELEMENTS`` the check decides nothing; on a real length it gives the kernel's size."""
    from loom.mlir import parse_file
    from loom.verify.assume import host_length_assumptions
    from loom.verify.host_length import VALUE_ELEMENTS, HostLength, holds

    code, _, err = c_native.run_cli(["compile", str(DATA / "c" / "heap" / "heap_swap_param.c"), "-o", str(tmp_path)])
    assert code == 0, err
    func = next(op for op in parse_file(str(tmp_path / "heap_swap_param.dfg.mlir")).walk()
                if op.name == "handshake.func")
    (length,) = [c.right for a in host_length_assumptions(func) for c in a.atoms if isinstance(c.right, HostLength)]
    assert sorted(length.names()) == ["dim(out,0)", "n"]
    assert length.value({"n": 5, "dim(out,0)": 7}) == 5 + 7  # n ints of scratch, then out's mirror
    assert holds(length, 12, {"n": 5, "dim(out,0)": 7}) is True and holds(length, 11, {"n": 5, "dim(out,0)": 7}) is False
    assert length.value({"n": 5, "dim(out,0)": VALUE_ELEMENTS + 1}) is None
    assert holds(length, 3, {"n": 5, "dim(out,0)": 1 << 40}) is None
