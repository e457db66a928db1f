"""MLIR as other tools print it (tests/data/mlir_real): round-trip, CLI outcomes, differential runs, proofs.

Each file there is hand-written the way mlir-opt / a front end prints it. The
table below says what loom must do with it: every file parses and round-trips;
``sim`` either completes or fails with one located, coded line; ``compile``
either lowers (and then the DFG agrees with the interpreter and its
obligations are proved) or refuses with one located, coded line (exit 2).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from loom.cli import main
from loom.ir.equality import first_difference, modules_equal
from loom.mlir import parse_file, parse_text, print_module
from loom.testing.differential import check_lowering

from support.paths import DATA

DATA = DATA / "mlir_real"
ONE_LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: \[(?P<code>[A-Z0-9_]+)\] [^\n]+\n$")
LOWERS = "lowers"


@dataclass(frozen=True)
class Expect:
    """What loom does with one file.

    ``sim``: "completed", a runtime code (``RT_*``: status "error", exit 1) or the
    code of a one-line rejection (exit 2). ``compile``: LOWERS or the code of a
    one-line rejection at ``error_line``. ``parses``: False for files loom
    refuses to read (then every command gives the same one-line error).
    """

    func: str
    sim: str = "completed"
    compile: str = LOWERS
    error_line: int | None = None  # where the compile error points, when it is refused
    parses: bool = True


UNSUPPORTED = "CPL_LOWER_UNSUPPORTED"

TABLE: dict[str, Expect] = {
    "affine_layout.mlir": Expect("rowsum"),
    "affine_loop.mlir": Expect("scale", sim="CPL_IR_UNKNOWN_OP", compile="CPL_IR_UNKNOWN_OP", error_line=8, parses=False),
    "arith_flags.mlir": Expect("mix"),
    "assert_fails.mlir": Expect("checked_div", sim="RT_CF_ASSERT", compile=UNSUPPORTED, error_line=7),
    "block_arg_locs.mlir": Expect("find_first"),
    "cf_loop.mlir": Expect("sum"),
    "cf_select.mlir": Expect("clamp"),
    "for_i32_unsigned.mlir": Expect("sum_u"),
    "generic_cf.mlir": Expect("sum_pos"),
    "generic_form.mlir": Expect("count_above"),
    "if_no_else.mlir": Expect("relu_count"),
    "linalg_loops_copy.mlir": Expect("add"),
    "locs_saxpy.mlir": Expect("saxpy"),
    "math_ops.mlir": Expect("softplus"),
    "memref_views.mlir": Expect("tile"),
    "poison.mlir": Expect("pick"),
    "polygeist_histogram.mlir": Expect("histogram"),
    "poison_call.mlir": Expect("apply"),
    "resources.mlir": Expect("lookup"),
    "switch_region.mlir": Expect("classify"),
    "torch_relu.mlir": Expect("forward", compile=UNSUPPORTED, error_line=12),
    "vector_ops.mlir": Expect("vadd", sim="IO_INPUT_TYPE", compile=UNSUPPORTED, error_line=5),
    "while_multi.mlir": Expect("gcd_steps"),
    "zero_size.mlir": Expect("sum_both"),
}
FILES = sorted(TABLE)
READABLE = [f for f in FILES if TABLE[f].parses]
LOWERED = [f for f in FILES if TABLE[f].compile == LOWERS]


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def inputs_of(name: str) -> Path:
    return DATA / name.replace(".mlir", ".inputs.json")


def test_every_file_has_an_expectation_and_inputs():
    on_disk = sorted(p.name for p in DATA.glob("*.mlir"))
    assert on_disk == FILES
    for name in FILES:
        assert inputs_of(name).is_file(), name


@pytest.mark.parametrize("name", READABLE)
def test_round_trip_equal_modulo_names(name: str):
    first = parse_file(DATA / name)
    text = print_module(first)
    second = parse_text(text, name)
    assert modules_equal(first, second), first_difference(first.op, second.op)
    assert print_module(second) == text  # the printed form is a fixed point


@pytest.mark.parametrize("name", FILES)
def test_sim_completes_or_fails_in_one_line(name: str):
    want = TABLE[name]
    code, out, err = cli("sim", str(DATA / name), "--func", want.func, "--inputs", str(inputs_of(name)), "--json")
    if want.sim == "completed":
        assert code == 0, err
        assert json.loads(out)["status"] == "completed"
    elif want.sim.startswith("RT_"):
        assert code == 1, err
        doc = json.loads(out)
        assert doc["status"] == "error" and doc["error"].startswith(want.sim + " ")
    else:
        assert code == 2 and out == ""
        m = ONE_LINE.match(err)
        assert m is not None, err
        assert m["code"] == want.sim


@pytest.mark.parametrize("name", FILES)
def test_compile_lowers_or_refuses_in_one_line(name: str, tmp_path: Path):
    want = TABLE[name]
    code, _, err = cli("compile", str(DATA / name), "--func", want.func, "-o", str(tmp_path))
    produced = sorted(tmp_path.iterdir())
    if want.compile == LOWERS:
        assert code == 0, err
        assert len(produced) == 1
        dfg = parse_file(produced[0])
        assert [op.name for op in dfg.ops if op.name == "handshake.func"] == ["handshake.func"]
    else:
        assert code == 2 and produced == []
        m = ONE_LINE.match(err)
        assert m is not None, err
        assert (m["file"], int(m["line"]), m["code"]) == (str(DATA / name), want.error_line, want.compile)


@pytest.mark.parametrize("name", LOWERED)
def test_lowering_agrees_with_the_interpreter(name: str):
    module = parse_file(DATA / name)
    inputs = json.loads(inputs_of(name).read_text())
    c = check_lowering(module, TABLE[name].func, inputs)
    assert c.ok, c.detail
    assert c.interp.status == "completed"


@pytest.mark.parametrize("name", LOWERED)
def test_lowering_is_proved(name: str):
    """Every obligation is proved (BMC kept short for speed): the lowering's token discipline and the
    refinement of the source (a source with calls, a CFG or memref.copy through the structured kernel)."""
    code, out, err = cli("verify", str(DATA / name), "--func", TABLE[name].func, "--json", "--bmc-k", "1")
    report = json.loads(out)
    obs = report["obligations"]
    assert any(o["kind"] == "refinement" for o in obs)
    bad = [(o["id"], o["status"], o["detail"]) for o in obs if o["status"] not in ("proved", "assumed")
           and o["kind"] != "safety"]
    assert not bad
    # these files state no preconditions: their safety obligations are findings about their inputs, each refuted
    # one with inputs the interpreter stops on (checked here again), and none left unknown
    safety = [o for o in obs if o["kind"] == "safety"]
    assert not [o["id"] for o in safety if o["status"] == "unknown"]
    refuted = [o for o in safety if o["status"] == "refuted"]
    assert code == (1 if refuted else 0), err
    module = parse_file(DATA / name)
    for o in refuted:
        from loom.interp import run_json
        from loom.ir.core import Module

        run = run_json(Module(module.op), TABLE[name].func, o["counterexample"]["inputs"])
        assert run.status == "error" and o["counterexample"]["error"].startswith(run.error.code), o["id"]


def test_generic_and_pretty_forms_read_the_same():
    """generic_form.mlir is the pretty kernel below written generically: both give equal modules."""
    pretty = """
func.func @count_above(%arg0: memref<8xi32>, %arg1: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %0 = scf.for %arg2 = %c0 to %c8 step %c1 iter_args(%arg3 = %c0_i32) -> (i32) {
    %1 = memref.load %arg0[%arg2] {nontemporal = false} : memref<8xi32>
    %2 = arith.cmpi sgt, %1, %arg1 : i32
    %3 = scf.if %2 -> (i32) {
      %4 = arith.addi %arg3, %c1_i32 : i32
      scf.yield %4 : i32
    } else {
      scf.yield %arg3 : i32
    }
    scf.yield %3 : i32
  }
  return %0 : i32
}
"""
    generic = parse_file(DATA / "generic_form.mlir")
    assert modules_equal(parse_text("module {" + pretty + "}", "p.mlir"), generic), first_difference(
        parse_text("module {" + pretty + "}", "p.mlir").op, generic.op
    )
