"""The C front end on struct parameters with pointer members and on malloc/calloc/free, against native execution.

Kernels in tests/data/c/heap: a struct pointer parameter becomes one parameter per member read (``m_row_ptr``),
``malloc``/``calloc`` a ``memref.alloc`` (static when the size is a constant, so the DFG takes it). The
native side is gcc -O0 -ffp-contract=off of the harness tools/c_corpus.py generates (it fills the struct from
the member parameters); ``loom sim`` of the SCF stage, and of the DFG when there is one, must print the same.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.paths import DATA, ROOT

sys.path.insert(0, str(ROOT / "tools"))

import c_corpus  # noqa: E402

KERNELS = sorted((DATA / "c" / "heap").glob("*.c"))
LENGTH = 10
# the kernels whose every allocation has a constant size, so they lower to a DFG
WITH_DFG = {"csr_spmv", "heap_hist", "graph_degree", "copy_rev"}


@pytest.fixture(scope="module", params=KERNELS, ids=lambda p: p.name)
def kernel(request, tmp_path_factory):
    """A kernel's SCF stage, its DFG (if it lowers), its parameters and its native binary."""
    src: Path = request.param
    tmp = tmp_path_factory.mktemp(src.stem)
    code, _, err = c_corpus.run_cli(["compile", str(src), "-o", str(tmp)])
    scf = tmp / f"{src.stem}.scf.mlir"
    if src.stem in WITH_DFG:
        assert code == 0, err
    else:  # a size from the parameters: the SCF stage runs it, the DFG lowering says why not, at the C line
        assert code == 2 and "CPL_LOWER_UNSUPPORTED" in err and f"{src.name}:" in err, err
        from loom.frontend.c import compile_c

        scf.write_text(compile_c(src, src.stem).scf)
    params, result = c_corpus.signature(scf, src.stem)
    main_file = tmp / "harness.c"
    main_file.write_text(c_corpus.harness(src, src.stem, params, result))
    gcc = shutil.which("gcc")
    assert gcc, "the oracle needs the system C compiler (apt-get install gcc)"
    subprocess.run([gcc, "-O0", "-ffp-contract=off", "-w", "-Wno-incompatible-pointer-types", "-o",
                    str(tmp / "native"), str(main_file), "-lm"], check=True)
    return src, tmp, params, result


def test_struct_members_are_parameters(kernel):
    """A struct pointer parameter is split into the members the kernel reads, named ``g_member`` after C's ``g->member``."""
    src, tmp, params, _ = kernel
    names = [p.name for p in params]
    if src.stem == "csr_spmv":
        assert names == ["m_rows", "m_row_ptr", "m_col", "m_val", "x", "y"]  # `nnz` is never read
    if src.stem == "graph_degree":
        assert names == ["g_num_vertices", "g_row_ptr", "g_col_idx", "deg"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, LENGTH - 1))
def test_native_equals_scf_and_dfg(kernel, seed, n):
    """Native execution == loom sim of the SCF stage and of the DFG, on generated inputs of size n."""
    src, tmp, params, result = kernel
    inputs = c_corpus.make_inputs(params, n, LENGTH, "mixed", seed)
    inputs_file = tmp / "in.json"
    inputs_file.write_text(__import__("json").dumps(inputs))
    want = c_corpus.run_native(tmp / "native", params, inputs, result)
    stages = [tmp / f"{src.stem}.scf.mlir"] + ([tmp / f"{src.stem}.dfg.mlir"] if src.stem in WITH_DFG else [])
    for path in stages:
        got, why = c_corpus.loom_sim(path, src.stem, inputs_file, [])
        assert got is not None, why
        assert not c_corpus.differs(want, got), f"{path.name} on {inputs}: {c_corpus.differs(want, got)}"


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
        code, out, err = c_corpus.run_cli(["compile", str(path), "-o", str(tmp_path / "out")])
        assert code == 2 and out == "", err
        assert err.count("\n") == 1 and "[CPL_C_UNSUPPORTED]" in err and f"{name}:{line}:" in err, err


def test_the_comparison_sees_differences_and_equal_nans():
    """The corpus tool's comparison: a NaN equals a NaN (C prints any NaN as nan, loom's JSON as "nan"), a
    differing element or result is named with its position."""
    nan = float("nan")
    a = {"results": [nan], "memrefs": {"y": [1.0, nan]}}
    assert c_corpus.differs(a, {"results": [nan], "memrefs": {"y": [1.0, nan]}}) == ""
    assert c_corpus.differs(a, {"results": [nan], "memrefs": {"y": [1.5, nan]}}).startswith("y[0]: 1.0 != 1.5")
    assert c_corpus.differs(a, {"results": [0.0], "memrefs": {"y": [1.0, nan]}}).startswith("result")
    assert c_corpus.differs(a, {"results": [nan], "memrefs": {"y": [1.0]}}) == "y: lengths differ"
