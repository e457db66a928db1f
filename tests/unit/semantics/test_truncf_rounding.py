"""``arith.truncf``'s ``roundingmode`` (MLIR's arith::RoundingMode): the semantics rounds in each of the five
modes, checked against an independent oracle (the two neighbouring values of the narrow type, chosen by exact
comparison), and the RTL model agrees with the semantics bit for bit under iverilog (ties, overflow,
subnormals and values below the least subnormal, of both signs)."""

from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from loom.hdl.datapath import vectors
from loom.hdl.datapath.vectors import OpSig, check_vectors, expected
from loom.ir.attributes import IntegerAttr
from loom.ir.types import FloatType, IntegerType
from loom.semantics.scalar import FLOAT_FORMATS, ROUNDING_MODES, eval_scalar, round_to_format

from support.hdl import need

NARROW = {"f32": np.float32, "f16": np.float16}
F64 = FloatType("f64")


def oracle(x: float, name: str, mode: str) -> float:
    """``x`` rounded to f32/f16 in ``mode``: numpy's nearest value and its neighbour on the other side of x."""
    t = NARROW[name]
    with np.errstate(over="ignore"):
        near = t(x)
    if math.isinf(near) and not math.isinf(x):  # beyond the largest finite value
        big = float(np.finfo(t).max)
        lo, hi = (big, math.inf) if x > 0 else (-math.inf, -big)
    elif float(near) == x:
        return x
    else:
        other = np.nextafter(near, t(math.copysign(math.inf, x - float(near))))
        lo, hi = sorted((float(near), float(other)))
    if mode == "downward":
        return lo
    if mode == "upward":
        return hi
    if mode == "toward_zero":
        return lo if x > 0 else hi
    ex, dlo, dhi = Fraction(x), None, None
    dlo = ex - Fraction(lo) if not math.isinf(lo) else None
    dhi = Fraction(hi) - ex if not math.isinf(hi) else None
    if dlo is not None and dhi is not None and dlo != dhi:
        return lo if dlo < dhi else hi
    if dlo is None or dhi is None:  # overflow region: nearest modes go to infinity past the halfway point
        return float(near)
    if mode == "to_nearest_away":
        return hi if x > 0 else lo
    return float(near)  # to_nearest_even: numpy's choice


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=400, deadline=None)
@given(finite, st.sampled_from(sorted(NARROW)), st.sampled_from(ROUNDING_MODES))
def test_semantics_rounds_like_the_oracle(x, name, mode):
    got = round_to_format(x, FLOAT_FORMATS[name], mode)
    want = oracle(x, name, mode)
    assert got == want and math.copysign(1, got) == math.copysign(1, want) or (got == want == 0.0), (x, got, want)


@pytest.mark.parametrize("mode", ROUNDING_MODES)
def test_ties_overflow_and_underflow(mode):
    f32 = FLOAT_FORMATS["f32"]
    tie = 1 + 2.0 ** -24  # halfway between 1 and the next f32
    lo, hi = 1.0, 1 + 2.0 ** -23
    expect_tie = {"to_nearest_even": lo, "to_nearest_away": hi, "downward": lo, "upward": hi, "toward_zero": lo}
    assert round_to_format(tie, f32, mode) == expect_tie[mode]
    assert round_to_format(-tie, f32, mode) == -{"downward": hi, "upward": lo}.get(mode, expect_tie[mode])
    big = float(np.finfo(np.float32).max)
    assert round_to_format(1e39, f32, mode) == (big if mode in ("downward", "toward_zero") else math.inf)
    assert round_to_format(-1e39, f32, mode) == (-big if mode in ("upward", "toward_zero") else -math.inf)
    least = 2.0 ** -149
    assert round_to_format(1e-60, f32, mode) == (least if mode == "upward" else 0.0)
    assert round_to_format(-1e-60, f32, mode) == (-least if mode == "downward" else 0.0)


def test_absent_mode_is_to_nearest_even_and_attribute_selects_the_mode():
    x = 1.00000001
    assert eval_scalar("arith.truncf", {}, [F64], [FloatType("f32")], [x]) == [1.0]
    up = {"roundingmode": IntegerAttr(2, IntegerType(32))}
    assert eval_scalar("arith.truncf", up, [F64], [FloatType("f32")], [x]) == [1 + 2.0 ** -23]


def _f64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _hard_cases(rng: random.Random) -> list[tuple[int]]:
    """f64 operands at the places a rounding mode decides: ties and near-ties of every narrow format, overflow,
    subnormal results, values below the least subnormal, f64 subnormals, of both signs; plus random ones."""
    xs = [1 + 2.0 ** -24, 1 + 2.0 ** -24 + 2.0 ** -40, 1 + 2.0 ** -11, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -9,
          1.00000001, 3.4e38, 3.5e38, 1e39, 65519.0, 65520.0, 7e4, 3.39e38 * 1.004, 1.5 * 2.0 ** -149,
          2.0 ** -150, 3 * 2.0 ** -151, 1e-60, 5e-324, 1e-310, 2.0 ** -25, 2.0 ** -24 * 1.5, 2.0 ** -133 * 1.25,
          0.1, 1.0 / 3, 2.0 / 3, 0.0, math.inf, math.nan]
    xs += [rng.uniform(-1e5, 1e5) for _ in range(12)] + [rng.uniform(-1e-38, 1e-38) for _ in range(4)]
    return [(_f64(s * x),) for x in xs for s in (1, -1)]


def test_rtl_model_agrees_with_the_semantics_in_every_mode(monkeypatch):
    need("iverilog")
    cases = _hard_cases(random.Random(7))
    monkeypatch.setattr(vectors, "vectors_for", lambda s, rng, limit=120: list(cases))
    sigs = [OpSig("arith.truncf", (F64,), (FloatType(n),), (("roundingmode", IntegerAttr(m, IntegerType(32))),))
            for n in ("f32", "f16", "bf16") for m in range(len(ROUNDING_MODES))]
    n, bad = check_vectors(sigs, limit=len(cases))
    assert n == len(sigs) * len(cases) and bad == [], bad[:10]
    # the vectors tell the modes apart: a wrong mode would not pass
    up, down = (OpSig("arith.truncf", (F64,), (FloatType("f32"),), (("roundingmode", IntegerAttr(m, IntegerType(32))),))
                for m in (2, 1))
    assert sum(expected(up, v) != expected(down, v) for v in cases) > 20


def test_rtl_model_from_f32_to_half_formats(monkeypatch):
    need("iverilog")
    rng = random.Random(3)
    f32_bits = [struct.unpack("<I", struct.pack("<f", x))[0] for x in
                (1 + 2.0 ** -11, 1 + 2.0 ** -8, 65520.0, 1e-7, 3e38, 0.1)] + [rng.getrandbits(32) for _ in range(24)]
    cases = [(b,) for b in f32_bits] + [(b ^ 0x80000000,) for b in f32_bits]
    monkeypatch.setattr(vectors, "vectors_for", lambda s, rng, limit=120: list(cases))
    sigs = [OpSig("arith.truncf", (FloatType("f32"),), (FloatType(n),),
                  (("roundingmode", IntegerAttr(m, IntegerType(32))),)) for n in ("f16", "bf16") for m in (1, 2, 3, 4)]
    n, bad = check_vectors(sigs, limit=len(cases))
    assert n == len(sigs) * len(cases) and bad == [], bad[:10]


PRETTY = """func.func @rm(%x: f64) -> (f32, f32, f32) {
  %a = arith.truncf %x toward_zero : f64 to f32
  %b = arith.truncf %x upward fastmath<fast> : f64 to f32
  %c = arith.truncf %x : f64 to f32
  return %a, %b, %c : f32, f32, f32
}
"""


def test_pretty_form_reads_the_mode_keyword_as_mlir_opt_prints_it():
    """``arith.truncf %x upward : f64 to f32`` (MLIR's assembly: the mode right after the operand) is the
    generic form's ``roundingmode`` i32, and prints back pretty."""
    from loom.mlir import parse_text, print_module
    from loom.interp import run_json

    m = parse_text(PRETTY, "rm.mlir")
    modes = [op.attributes.get("roundingmode") for op in m.walk() if op.name == "arith.truncf"]
    assert modes == [IntegerAttr(3, IntegerType(32)), IntegerAttr(2, IntegerType(32)), None]
    text = print_module(m)
    assert "arith.truncf %x toward_zero : f64 to f32" in text and "arith.truncf %x upward fastmath<fast>" in text
    generic = PRETTY.replace("arith.truncf %x toward_zero : f64 to f32",
                             '"arith.truncf"(%x) <{roundingmode = 3 : i32}> : (f64) -> f32')
    assert print_module(parse_text(generic, "rm.mlir")) == text
    assert run_json(m, "rm", {"x": 1.00000001}).results == [1.0, 1 + 2.0 ** -23, 1.0]
