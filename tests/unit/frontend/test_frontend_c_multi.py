"""Several C files as one program (`loom compile --link a.c b.c`): calls across the files inlined, checked natively.

tests/data/c/multi/: mix_sum.c calls mix() and smooth() of util.c, both files include common.h (a macro, a
static inline helper, the prototypes), and each has a ``static int twice`` of its own that computes something
else -- static names must not clash. The oracle is gcc of both files with the shared harness.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.testing import c_native
from loom.testing.c_native import run_cli

from support.paths import DATA, ROOT

MULTI = DATA / "c" / "multi"
KERNEL, UTIL = MULTI / "mix_sum.c", MULTI / "util.c"
LENGTH = 8


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    """mix_sum.c + util.c compiled by `loom compile` (artifacts named after the kernel's file) and natively."""
    tmp = tmp_path_factory.mktemp("multi")
    code, out, err = run_cli(["compile", "--link", str(KERNEL), str(UTIL), "--func", "mix_sum", "-o", str(tmp)])
    assert code == 0, err
    assert sorted(p.name for p in tmp.iterdir()) == ["mix_sum.cf.mlir", "mix_sum.dfg.mlir", "mix_sum.ll",
                                                     "mix_sum.scf.mlir"]
    params, result = c_native.signature(tmp / "mix_sum.scf.mlir", "mix_sum")
    binary, why = c_native.build(KERNEL, "mix_sum", params, result, tmp, others=(UTIL,))
    assert binary is not None, why
    return tmp, params, result


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_two_files_native_equals_scf_and_dfg(program, seed):
    """gcc of both files == loom sim of the SCF stage, of the DFG, and of the two .c files themselves."""
    tmp, params, result = program
    rng = random.Random(seed)
    inputs = {"a": [rng.randint(-300, 300) for _ in range(LENGTH)],
              "b": [rng.randint(-300, 300) for _ in range(LENGTH)], "n": rng.randint(0, LENGTH)}
    want = c_native.run_native(tmp / "native", params, inputs, result)
    inp = tmp / "in.json"
    inp.write_text(json.dumps(inputs))
    for path, extra in ((tmp / "mix_sum.scf.mlir", []), (tmp / "mix_sum.dfg.mlir", []), (KERNEL, [str(UTIL)])):
        code, out, err = run_cli(["sim", str(path), *extra, "--func", "mix_sum", "--inputs", str(inp), "--json"])
        assert code == 0, err
        doc = json.loads(out)
        got = {"results": doc["results"], "memrefs": {k: c_native.flatten(v) for k, v in doc["memrefs"].items()}}
        assert not c_native.differs(want, got), f"{path.name} on {inputs}: {c_native.differs(want, got)}"


def test_locations_name_each_file(program):
    """Each op is located in the file its C line is in: the kernel's, the other file's, the shared header's."""
    scf = (program[0] / "mix_sum.scf.mlir").read_text()
    for name in ("mix_sum.c", "util.c", "common.h"):
        assert f'{name}":' in scf, name
    assert 'mix_sum.c":11:' in scf and 'util.c":10:' in scf  # the kernel's call line, smooth's average


def test_artifacts_named_after_the_file_defining_func(tmp_path):
    """--func of a function of the second file: the artifacts are named after that file."""
    code, out, err = run_cli(["compile", "--link", str(KERNEL), str(UTIL), "--func", "smooth", "-o", str(tmp_path)])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["util.cf.mlir", "util.dfg.mlir", "util.ll",
                                                          "util.scf.mlir"]


def test_one_file_alone_keeps_the_refusal(tmp_path):
    """The kernel's file alone: mix() is defined nowhere loom reads, refused at the call, naming it."""
    code, out, err = run_cli(["compile", str(KERNEL), "--func", "mix_sum", "-o", str(tmp_path)])
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "[CPL_C_UNSUPPORTED]" in err and "'smooth'" in err and f"{KERNEL}:9:" in err, err
    assert not list(tmp_path.iterdir())


def test_function_defined_in_two_files(tmp_path):
    """An external name two files define is one located error naming both definitions; nothing written."""
    other = tmp_path / "again.c"
    other.write_text("/* a second mix */\n\nint mix(int a, int b) { return a - b; }\n")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    code, out, err = run_cli(["compile", "--link", str(KERNEL), str(UTIL), str(other), "-o", str(out_dir)])
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{other}:3:1: error: [CPL_C_DUPLICATE] 'mix' is defined in two files"), err
    assert f"{UTIL}:6:1" in err, err
    assert not list(out_dir.iterdir())


def test_error_located_in_the_second_file(tmp_path):
    """C loom cannot map in a helper of the second file is refused at that file's line, not the kernel's."""
    helper = tmp_path / "helper.c"
    helper.write_text("int mix(int a, int b) {\n  volatile int t = a;\n  return t + b;\n}\n"
                      "void smooth(int *x, int n) { }\n")
    code, out, err = run_cli(["compile", "--link", str(KERNEL), str(helper), "--func", "mix_sum",
                              "-o", str(tmp_path)])
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{helper}:2:") and "[CPL_C_UNSUPPORTED]" in err, err


def test_sim_takes_c_files_only_as_more_inputs(tmp_path):
    """`loom sim a.c b.mlir`: several inputs are one C program, so each must be a C file (a usage error)."""
    inp = tmp_path / "in.json"
    inp.write_text("{}")
    code, out, err = run_cli(["sim", str(KERNEL), str(tmp_path / "x.scf.mlir"), "--inputs", str(inp)])
    assert code == 2 and "[CLI_USAGE]" in err and "one C program" in err, err


def test_each_files_own_main_is_dropped(tmp_path):
    """Two files with a test main each (as upstream's kernel files): each main is its file's own, not a clash."""
    k, h = tmp_path / "k.c", tmp_path / "h.c"
    k.write_text("int twice(int x);\nint k(int x) { return twice(x) + 1; }\nint main(void) { return k(1); }\n")
    h.write_text("int twice(int x) { return 2 * x; }\nint main(void) { return twice(3); }\n")
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = run_cli(["compile", "--link", str(k), str(h), "-o", str(out)])
    assert code == 0, err
    scf = (out / "k.scf.mlir").read_text()
    assert "@main" not in scf and "func.func @k(" in scf and "func.func @twice(" in scf


def test_prototype_that_does_not_match_the_definition(tmp_path):
    """A call through another file's prototype with other parameters (UB in C) is refused at the call, saying so."""
    k, h = tmp_path / "k.c", tmp_path / "h.c"
    k.write_text("void fill(int *a, int n);\nvoid k(int *a, int n) {\n  fill(a, n);\n}\n")
    h.write_text("void fill(int *a, int n, int v) { for (int i = 0; i < n; i++) a[i] = v; }\n")
    code, _, err = run_cli(["compile", "--link", str(k), str(h), "--func", "k", "-o", str(tmp_path)])
    assert code == 2 and err.startswith(f"{k}:3:3: error: [CPL_C_UNSUPPORTED] call of 'fill' with arguments "
                                        "(ptr, i32) that do not match its definition's parameters (ptr, i32, i32)"), err


def test_without_link_each_c_file_is_its_own(tmp_path):
    """`loom compile a.c b.c` without --link (the README's `examples/c/*.c`): one set of artifacts per file."""
    examples = [ROOT / "examples" / "c" / "dot.c", ROOT / "examples" / "c" / "vecadd.c"]
    code, _, err = run_cli(["compile", *map(str, examples), "-o", str(tmp_path)])
    assert code == 0, err
    assert {p.name for p in tmp_path.glob("*.dfg.mlir")} == {"dot.dfg.mlir", "vecadd.dfg.mlir"}


def test_verify_link_proves_the_program():
    """`loom verify --link` verifies the linked program once (without --link each file alone is refused)."""
    assume = "n >= 0 && dim(a,0) >= n && dim(b,0) >= n"
    code, out, err = run_cli(["verify", "--link", str(KERNEL), str(UTIL), "--func", "mix_sum", "--assume", assume])
    assert code == 0 and "0 refuted, 0 unknown" in out + err, out + err
    code, out, err = run_cli(["verify", str(KERNEL), str(UTIL), "--func", "mix_sum"])
    assert code == 2 and "call of 'smooth'" in err, err


def test_linked_artifacts_are_deterministic(tmp_path):
    """Two --link compiles write byte-identical artifacts, naming no directory of this machine."""
    files = [str(KERNEL.relative_to(ROOT)), str(UTIL.relative_to(ROOT))]
    for out in (tmp_path / "a", tmp_path / "b"):
        out.mkdir()
        code, _, err = run_cli(["compile", "--link", *files, "--func", "mix_sum", "-o", str(out)])
        assert code == 0, err
    for name in ("mix_sum.ll", "mix_sum.cf.mlir", "mix_sum.scf.mlir", "mix_sum.dfg.mlir"):
        text = (tmp_path / "a" / name).read_text()
        assert text == (tmp_path / "b" / name).read_text(), name
        assert str(ROOT) not in text, f"{name} names the checkout's directory"


def test_undefined_callee_names_the_close_definitions(tmp_path):
    """A driver calling `smooth` where the other file defines `smooth_rows` (upstream's drivers): the refusal
    suggests the names the files do define."""
    k, h = tmp_path / "k.c", tmp_path / "h.c"
    k.write_text("void smooth(int *a, int n);\nvoid k(int *a, int n) {\n  smooth(a, n);\n}\n")
    h.write_text("void smooth_rows(int *a, int n) { for (int i = 1; i < n; i++) a[i] += a[i - 1]; }\n")
    code, _, err = run_cli(["compile", "--link", str(k), str(h), "--func", "k", "-o", str(tmp_path)])
    assert code == 2 and err.startswith(f"{k}:3:3: error: [CPL_C_UNSUPPORTED] call of 'smooth', which is not "
                                        "defined in the files compiled (did you mean 'smooth_rows'?)"), err


def test_hdl_takes_the_program_files(tmp_path):
    """`loom hdl a.c b.c` (one input, further C files of the program): the kernel's RTL; the kernel's file alone
    is refused at the call of the other file's function."""
    code, _, err = run_cli(["hdl", str(KERNEL), str(UTIL), "--func", "mix_sum", "-o", str(tmp_path / "rtl")])
    assert code == 0, err
    assert (tmp_path / "rtl" / "mix_sum.sv").is_file()
    code, _, err = run_cli(["hdl", str(KERNEL), "--func", "mix_sum", "-o", str(tmp_path / "alone")])
    assert code == 2 and "call of 'smooth'" in err, err
