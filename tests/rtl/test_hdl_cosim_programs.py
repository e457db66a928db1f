"""Co-simulation evidence beyond the examples: every corpus ``_cpu`` function lowered by loom and 50 generated
programs, each with random inputs, run as RTL (iverilog) with random FIFO stalls, random memory latency and
memory back-pressure (``--stall``), agree field by field with the token simulator: status, results, final
memories, residual tokens and every channel's token count."""

from __future__ import annotations

import json
import random
import re
from typing import Any, Optional

import pytest

from loom.hdl.emit import emit
from loom.hdl.rtlsim import run
from loom.ir.core import Module, Operation
from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file, parse_text, print_module
from loom.runtime import decode_inputs, function_arg_names, run_result_json
from loom.sim import simulate
from loom.testing.scf_gen import GenConfig, generate_program

from support.paths import DATA
from support.hdl import dfg_func, need
from support.legacy_kernels import CORPUS, CORPUS_KERNELS, cpu_function

# ops the RTL has no model for (specs/hdl.md, "Datapath"): the generator leaves them out. It has a model for
# every op the generator makes (math.fma on f64 aside, which the generator makes only on f32)
RTL_LACKS: frozenset[str] = frozenset()
GEN = GenConfig(max_ops=30, two_result_ops=False, exclude=RTL_LACKS)
GENERATED_SEEDS = range(50)
FIELDS = ("status", "results", "memrefs", "residual_tokens", "channels", "error")


def _handshake(module: Module) -> Operation:
    return next(f for f in module.functions() if f.name == "handshake.func")


def cosim(dfg: Module, inputs: dict[str, Any], stall: Optional[int]) -> tuple[dict, dict]:
    """The token simulator's and the RTL's run documents of ``dfg``'s handshake.func on JSON ``inputs``."""
    func = _handshake(dfg)
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    decoded = lambda: decode_inputs(names, types, inputs, "<inputs>", module=dfg)  # noqa: E731
    ref = simulate(func, decoded())
    rtl = run(emit(func, "cosim"), decoded(), dfg, stall=stall, simulator="iverilog")
    def doc(r) -> dict:
        return run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error,
                               func=func)

    return doc(ref), doc(rtl)


def assert_same(ref: dict, rtl: dict) -> None:
    assert list(rtl) == list(FIELDS)
    for f in FIELDS:
        assert rtl[f] == ref[f], f"{f}: token simulator {ref[f]!r}, RTL {rtl[f]!r}"


@pytest.mark.parametrize("seed", GENERATED_SEEDS)
def test_generated_program_cosim(seed: int) -> None:
    need("iverilog")
    prog = generate_program(random.Random(seed), GEN, seed=seed)
    dfg = lower_module(prog.module, prog.func_name, LowerOptions(rar=seed % 2 == 0))
    ref, rtl = cosim(dfg, prog.inputs, stall=seed + 1)
    assert ref["status"] == "completed", ref["error"]
    assert_same(ref, rtl)


@pytest.mark.shared
@pytest.mark.parametrize("kernel", sorted(CORPUS_KERNELS))
def test_corpus_cpu_function_cosim(kernel: str) -> None:
    need("iverilog")
    module = parse_file(CORPUS / f"{kernel}.mlir")
    inputs = CORPUS_KERNELS[kernel](random.Random(len(kernel) * 31), 4)
    dfg = lower_module(module, cpu_function(module), LowerOptions())
    ref, rtl = cosim(dfg, inputs, stall=len(kernel))
    assert ref["status"] == "completed", ref["error"]
    assert ref["memrefs"] and any(ref["channels"].values())
    assert_same(ref, rtl)


@pytest.mark.shared
def test_every_corpus_cpu_function_is_covered() -> None:
    assert sorted(p.stem for p in CORPUS.glob("*.mlir")) == sorted(CORPUS_KERNELS)


def test_generator_leaves_out_what_the_rtl_lacks() -> None:
    """The exclusion really removes those ops, the seeds vary, the programs exercise the memory port pairs
    (every one has an extmemory, and some store through it) and the float models beyond +-*/ (libm calls,
    min/max, copysign, the saturating conversions)."""
    texts = set()
    stores = 0
    ops: set[str] = set()
    for seed in range(8):
        prog = generate_program(random.Random(seed), GEN, seed=seed)
        text = print_module(prog.module)
        assert not any(f"{op} " in text for op in RTL_LACKS), seed
        ops |= set(re.findall(r"\b(?:arith|math)\.[a-z_]+", text))
        texts.add(text)
        dfg = print_module(lower_module(prog.module, prog.func_name, LowerOptions(rar=seed % 2 == 0)))
        assert "handshake.extmemory" in dfg, seed
        stores += "handshake.store" in dfg
    assert len(texts) == 8
    assert stores >= 2
    assert ops >= {"arith.fptosi", "arith.maxnumf", "math.copysign", "math.exp", "math.powf"}, sorted(ops)


OOB = """func.func @f(%m: memref<4xi32>, %i: index, %j: index, %v: i32) -> i32 {
  %x = memref.load %m[%i] : memref<4xi32>
  %y = arith.addi %x, %v : i32
  memref.store %y, %m[%j] : memref<4xi32>
  return %y : i32
}
"""


@pytest.mark.parametrize("i, j", [(7, 0), (1, 9), (2, 3)], ids=["load_oob", "store_oob", "in_bounds"])
def test_out_of_bounds_access_is_the_simulators_error(i: int, j: int) -> None:
    """The testbench memory flags an out-of-bounds request as the token simulator flags the firing. A run
    stops at its error, so the tokens still in flight then depend on the schedule: without stalls they are
    the simulator's; under --stall the status, the error and the memories still are."""
    need("iverilog")
    module = parse_text(OOB, "oob.scf.mlir")
    dfg = lower_module(module, "f", LowerOptions())
    inputs = {"m": [1, 2, 3, 4], "i": i, "j": j, "v": 5}
    ref, rtl = cosim(dfg, inputs, stall=None)
    assert ref["status"] == ("completed" if (i, j) == (2, 3) else "error")
    assert_same(ref, rtl)
    ref, rtl = cosim(dfg, inputs, stall=3)
    if ref["status"] == "completed":
        assert_same(ref, rtl)
    same = ("status", "error", "memrefs")
    assert [rtl[f] for f in same] == [ref[f] for f in same]


# Real MLIR as other tools print it (tests/data/mlir_real: mlir-opt, Polygeist, torch-mlir, generic form, ...):
# every file RTL co-simulates like the token simulator, under stalls, except those loom refuses with one error
REAL = DATA / "mlir_real"
REAL_REFUSED = {  # file: the error code loom gives, and why
    "affine_loop": "CPL_IR_UNKNOWN_OP",  # affine.for in custom form: run mlir-opt --lower-affine first
    "assert_fails": "CPL_LOWER_UNSUPPORTED",  # cf.assert
    "torch_relu": "CPL_LOWER_UNSUPPORTED",  # cf.assert
    "vector_ops": "CPL_LOWER_UNSUPPORTED",  # vector<4xf32> arguments
}


@pytest.mark.parametrize("path", sorted(REAL.glob("*.mlir")), ids=lambda p: p.stem)
def test_real_mlir_cosim(path, tmp_path, capsys) -> None:
    need("iverilog")
    from loom.cli import main

    if path.stem in REAL_REFUSED:
        assert main(["hdl", str(path), "-o", str(tmp_path / "out")]) == 2
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert f"error: [{REAL_REFUSED[path.stem]}]" in err, err
        assert not (tmp_path / "out").exists()
        return
    _, dfg = dfg_func(path)
    inputs = json.loads(path.with_suffix("").with_suffix(".inputs.json").read_text())
    for stall in (None, 5):
        ref, rtl = cosim(dfg, inputs, stall)
        if ref["status"] == "error":  # arith_flags: muli overflow<nsw, nuw> wraps in a loop (a safety monitor)
            # a run stops at its error: the tokens in flight then depend on the schedule (specs/hdl.md)
            same = ("status", "error", "memrefs")
            assert [rtl[f] for f in same] == [ref[f] for f in same]
        else:
            assert_same(ref, rtl)
