"""The fabric legalization of math.roundeven (loom.map.legalize): exact for every f32 and f64, allowlisted ops only."""

from __future__ import annotations

import json
import math
import random
import struct

import pytest
import z3

from loom.ir.types import FloatType
from loom.map.legalize import legalize_for_fabric
from loom.mlir import parse_text
from loom.semantics.expr import ScalarInfo
from loom.semantics.float_ops import FLOAT_OPS, as_fp
from loom.semantics.scalar import UNARY_FLOAT
from loom.sim.engine import prepare

ALLOWED = {"handshake.join", "handshake.constant", "math.absf", "arith.addf", "arith.subf", "arith.negf",
           "arith.cmpf", "arith.select", "arith.ori", "handshake.return"}  # spec-fabric-function_unit-ops


def kernel(t: str) -> str:
    return f"""module {{
  handshake.func @re(%x: {t}, %start_token: none, ...) -> ({t}, none) attributes {{argNames = ["x", "start_token"], resNames = ["out0", "done_token"]}} {{
    %r = math.roundeven %x : {t}
    handshake.return %r, %start_token : {t}, none
  }}
}}"""


def legalized(t: str):
    func = parse_text(kernel(t), "<re>").functions()[0]
    assert legalize_for_fabric(func) is func
    return func


def bits(x: float, t: str) -> object:
    """The IEEE encoding of ``x`` in ``t`` (a NaN: its sign, as loom encodes every NaN as the quiet NaN)."""
    if math.isnan(x):
        return ("nan", math.copysign(1.0, x))
    return struct.unpack("<I", struct.pack("<f", x))[0] if t == "f32" else struct.unpack("<Q", struct.pack("<d", x))[0]


def edge_and_random(t: str, n: int) -> list[float]:
    """Signed zeros, infinities, NaNs, ties, the 2^(p-1) boundary and its neighbours, subnormals, then random
    encodings (uniform over all bit patterns, and over magnitudes near the rounding range)."""
    fmt, width, p = ("<f", 32, 24) if t == "f32" else ("<d", 64, 53)
    unpack = "<I" if width == 32 else "<Q"
    big = 2.0 ** (p - 1)

    def of_bits(b: int) -> float:
        return struct.unpack(fmt, struct.pack(unpack, b))[0]

    def near(x: float) -> list[float]:
        b = struct.unpack(unpack, struct.pack(fmt, x))[0]
        return [of_bits(b - 1), x, of_bits(b + 1)]

    xs = [0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999997,
          -0.49999997, 1.0, -1.0, of_bits(1), -of_bits(1), of_bits((1 << (width - 1)) - 1 - (1 << (p - 1)))]
    for x in (big, 2 * big, big / 2, big - 0.5, big / 2 + 0.5, 1.0, 0.5):
        xs += near(x) + [-v for v in near(x)]
    rng = random.Random(25)
    xs += [of_bits(rng.getrandbits(width)) for _ in range(n)]
    xs += [rng.choice((-1, 1)) * rng.uniform(0, 2 * big) for _ in range(n)]
    xs += [rng.choice((-1, 1)) * (rng.randrange(1 << 20) + 0.5) for _ in range(n // 4)]  # exact ties
    if t == "f32":
        xs = [struct.unpack("<f", struct.pack("<f", x))[0] for x in xs]
    return xs


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_legalized_roundeven_uses_allowlisted_ops_only(t):
    ops = {op.name for op in legalized(t).regions[0].blocks[0].ops}
    assert "math.roundeven" not in ops and ops <= ALLOWED


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_legalized_roundeven_simulates_as_the_semantics_table(t):
    """The token simulator of the rewritten DFG against the table's own roundeven, bit for bit."""
    plain = parse_text(kernel(t), "<re>").functions()[0]
    run_new, run_old = prepare(legalized(t)), prepare(plain)
    ref = UNARY_FLOAT["math.roundeven"]
    for x in edge_and_random(t, 1500):
        new, old = run_new._run({"x": x}, 1000), run_old._run({"x": x}, 1000)
        assert new.status == "completed" and new.residual_tokens == 0, x
        want = ref(x) if t == "f64" else struct.unpack("<f", struct.pack("<f", ref(x)))[0]
        assert bits(new.results[0], t) == bits(old.results[0], t) == bits(want, t), x


def _z3_of(func, t: str):
    """The legalized function's result as a Z3 term over its argument's bits, each op by the semantics table."""
    ft = FloatType(t)
    width = 32 if t == "f32" else 64
    x = z3.BitVec("x", width)
    env = {id(func.regions[0].blocks[0].args[0]): x}
    for op in func.regions[0].blocks[0].ops:
        args = [env.get(id(v)) for v in op.operands]
        if op.name == "handshake.join":
            val = None
        elif op.name == "handshake.constant":
            val = z3.fpToIEEEBV(z3.FPVal(op.attributes["value"].value, as_fp(x, ft).sort()))
        elif op.name == "arith.select":
            val = z3.If(args[0], args[1], args[2])
        elif op.name == "arith.ori":
            val = z3.Or(args[0], args[1])
        elif op.name == "handshake.return":
            return x, args[0]
        else:
            info = ScalarInfo(tuple(sorted(op.attributes.items())), tuple(v.type for v in op.operands),
                              tuple(r.type for r in op.results))
            val = FLOAT_OPS[op.name].z3(args, info)
            if isinstance(val, z3.FPRef):
                val = z3.fpToIEEEBV(val)
        env[id(op.results[0])] = val
    raise AssertionError("no return")


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_legalized_roundeven_equals_roundeven_for_every_input(t):
    """Z3 over all 2^32 (2^64) encodings: the rewrite is the table's math.roundeven, NaN for NaN, +-0 kept."""
    ft = FloatType(t)
    x, r = _z3_of(legalized(t), t)
    info = ScalarInfo((), (ft,), (ft,))
    want = FLOAT_OPS["math.roundeven"].z3([x], info)
    got = as_fp(r, ft)
    same = z3.Or(z3.And(z3.fpIsNaN(got), z3.fpIsNaN(want)), got == want)
    s = z3.Solver()
    s.add(z3.Not(same))
    assert s.check() == z3.unsat


def test_a_wrong_rule_is_caught():
    """The proof can fail: without the x == 0 guard, -0 comes back as +0."""
    func = legalized("f32")
    block = func.regions[0].blocks[0]
    keep = next(op for op in block.ops if op.name == "arith.ori")
    keep.operands[1] = keep.operands[0]  # drop the is-zero term
    x, r = _z3_of(func, "f32")
    ft = FloatType("f32")
    want = FLOAT_OPS["math.roundeven"].z3([x], ScalarInfo((), (ft,), (ft,)))
    s = z3.Solver()
    s.add(z3.Not(z3.Or(z3.And(z3.fpIsNaN(as_fp(r, ft)), z3.fpIsNaN(want)), as_fp(r, ft) == want)))
    assert s.check() == z3.sat
    m = s.model()  # the counterexample is a zero
    v = m.eval(as_fp(x, ft), model_completion=True)
    assert z3.is_true(m.eval(z3.fpIsZero(v)))


SCF = """module {
  func.func @round_all(%v: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %v, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %v[%i] : memref<?xf32>
      %r = math.roundeven %x : f32
      memref.store %r, %v[%i] : memref<?xf32>
    }
    return
  }
}
"""


def test_a_roundeven_kernel_maps_and_executes_right_from_config_bin(tmp_path):
    """loom adg mesh --fit then loom map: proved, and the configuration decoded from config.bin rounds as
    the unlegalized DFG does (ties both ways, signed zeros, the 2^23 boundary)."""
    from loom.lower import LowerOptions, lower_module
    from loom.map.adg.read import read_adg
    from loom.map.config import from_bytes
    from loom.map.execute import run_decoded
    from loom.mlir import parse_file
    from loom.testing.c_native import run_cli

    scf = tmp_path / "round_all.scf.mlir"
    scf.write_text(SCF)
    fabric, out = tmp_path / "m.fabric.mlir", tmp_path / "out"
    assert run_cli(["adg", "mesh", "--rows", "6", "--cols", "6", "--fit", str(scf), "-o", str(fabric)])[0] == 0
    code, stdout, err = run_cli(["map", str(scf), "--adg", str(fabric), "-o", str(out), "-q"])
    assert code == 0, err
    assert "checker: proved" in stdout
    adg = read_adg(parse_file(fabric), str(fabric))

    def lowered():
        module = lower_module(parse_file(scf), None, LowerOptions(max_join_fanin=adg.max_join_fanin()))
        return next(f for f in module.functions() if f.name == "handshake.func")

    values = [2.5, -2.5, 3.5, -0.0, 0.0, -0.25, 0.5, -1.5, 8388607.5, -8388607.5, 8388609.0, 1e30, 7.75]
    doc = json.loads(next(out.glob("*.map.json")).read_text())
    words = from_bytes(next(out.glob("*.config.bin")).read_bytes())
    plain, got = run_decoded(lowered(), lowered(), adg, words, doc, {"v": values})
    assert plain.status == got.status == "completed", got.deadlock_report or got.error
    want = [struct.unpack("<f", struct.pack("<f", UNARY_FLOAT["math.roundeven"](x)))[0] for x in values]
    assert [bits(x, "f32") for x in got.memrefs["v"]] == [bits(x, "f32") for x in want]
    assert got.memrefs == plain.memrefs
