"""Float arith/math ops and casts against numpy's IEEE types and exact references."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.ir.attributes import FloatAttr, IntegerAttr
from loom.ir.types import FloatType, IntegerType, TaggedType, bf16, f16, f32, f64, i1, i32, i64, index
from loom.semantics.scalar import (
    CMPF_PREDICATES,
    bits_to_float,
    eval_scalar,
    float_to_bits,
    mask,
    pack_tagged,
    round_float,
    to_signed,
    unpack_tagged,
)

i5 = IntegerType(5)
NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def f32s():
    return st.floats(width=32, allow_nan=True, allow_infinity=True)


def f16s():
    return st.floats(width=16, allow_nan=True, allow_infinity=True)


def same(a: float, b: float) -> bool:
    """Bitwise-equal floats (NaN equals NaN, -0.0 differs from 0.0)."""
    if a != a or b != b:
        return a != a and b != b
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


def op(name, t, *vals, rt=None):
    return eval_scalar(name, {}, [t] * len(vals), [rt or t], list(vals))[0]


@settings(max_examples=150, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_rounding_from_f64_matches_numpy(x):
    with np.errstate(over="ignore"):
        assert same(round_float(x, f32), float(np.float32(x)))
        assert same(round_float(x, f16), float(np.float16(x)))
    assert same(round_float(x, f64), x)


def bf16_reference(x32: float) -> float:
    """bf16 RNE from an f32 value by the classic bit trick (independent of loom's rounding)."""
    bits = struct.unpack("<I", struct.pack("<f", x32))[0]
    if x32 != x32:
        return x32
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return struct.unpack("<f", struct.pack("<I", (rounded & 0xFFFF) << 16))[0]


@settings(max_examples=150, deadline=None)
@given(f32s())
def test_bf16_rounding_matches_bit_trick(x):
    assert same(round_float(x, bf16), bf16_reference(x))


def test_rounding_edge_cases():
    assert round_float(1e40, f32) == math.inf and round_float(-1e40, f32) == -math.inf
    assert round_float(65519.99, f16) == 65504.0 and round_float(65520.0, f16) == math.inf
    assert round_float(2.0**-150, f32) == 0.0  # exactly half the smallest subnormal: ties to even (0)
    assert round_float(2.0**-150 * 1.5, f32) == 2.0**-149
    assert same(round_float(-1e-50, f32), -0.0)
    assert round_float(Fraction(1, 3), f32) == float(np.float32(1 / 3))
    assert round_float(2**64 - 1, f32) == 2.0**64
    assert round_float(1.00390625, bf16) == 1.0  # tie -> even
    assert round_float(1.01171875, bf16) == 1.015625  # tie -> even (up)


BINOPS = {
    "arith.addf": lambda a, b: a + b,
    "arith.subf": lambda a, b: a - b,
    "arith.mulf": lambda a, b: a * b,
    "arith.divf": lambda a, b: a / b,
}


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["f16", "f32", "f64"]), st.data())
def test_basic_arith_matches_numpy(tname, data):
    t = FloatType(tname)
    gen = st.floats(width={"f16": 16, "f32": 32, "f64": 64}[tname])
    a, b = data.draw(gen), data.draw(gen)
    nt = NP[tname]
    with np.errstate(all="ignore"):
        for name, f in BINOPS.items():
            assert same(op(name, t, a, b), float(f(nt(a), nt(b)))), (name, a, b)
        assert same(op("arith.remf", t, a, b), float(np.fmod(nt(a), nt(b))))
        assert same(op("math.sqrt", t, a), float(np.sqrt(nt(a))))
        assert same(op("arith.negf", t, a), float(-nt(a)))
        assert same(op("math.absf", t, a), float(np.abs(nt(a))))
        assert same(op("arith.maximumf", t, a, b), float(np.maximum(nt(a), nt(b)))) or (a == b == 0)
        assert same(op("arith.maxnumf", t, a, b), float(np.fmax(nt(a), nt(b)))) or (a == b == 0)
        assert same(op("arith.minnumf", t, a, b), float(np.fmin(nt(a), nt(b)))) or (a == b == 0)
        assert same(op("math.floor", t, a), float(np.floor(nt(a))))
        assert same(op("math.ceil", t, a), float(np.ceil(nt(a))))
        assert same(op("math.trunc", t, a), float(np.trunc(nt(a))))
        assert same(op("math.roundeven", t, a), float(np.rint(nt(a))))


def test_min_max_signed_zero_and_nan():
    nan = math.nan
    assert same(op("arith.maximumf", f32, -0.0, 0.0), 0.0)
    assert same(op("arith.maximumf", f32, 0.0, -0.0), 0.0)
    assert same(op("arith.minimumf", f32, 0.0, -0.0), -0.0)
    assert same(op("arith.minimumf", f32, -0.0, 0.0), -0.0)
    assert same(op("arith.maximumf", f32, nan, 1.0), nan)
    assert same(op("arith.minimumf", f32, 1.0, nan), nan)
    assert op("arith.maxnumf", f32, nan, 1.0) == 1.0
    assert op("arith.minnumf", f32, 2.0, nan) == 2.0


def test_ieee_special_results_never_raise():
    assert op("arith.divf", f32, 1.0, 0.0) == math.inf
    assert op("arith.divf", f32, 1.0, -0.0) == -math.inf
    assert same(op("arith.divf", f32, 0.0, 0.0), math.nan)
    assert same(op("arith.remf", f32, 1.0, 0.0), math.nan)
    assert op("arith.remf", f32, 5.5, math.inf) == 5.5
    assert same(op("math.sqrt", f32, -1.0), math.nan)
    assert same(op("math.sqrt", f32, -0.0), -0.0)
    assert op("math.log", f32, 0.0) == -math.inf
    assert same(op("math.log", f32, -1.0), math.nan)
    assert op("math.log1p", f64, -1.0) == -math.inf
    assert op("math.exp", f32, 100.0) == math.inf  # finite in f64, overflows f32
    assert op("math.exp", f64, 1000.0) == math.inf
    assert op("math.exp2", f64, 2000.0) == math.inf
    assert op("math.sinh", f64, -1000.0) == -math.inf
    assert same(op("math.sin", f64, math.inf), math.nan)
    assert op("math.atanh", f64, 1.0) == math.inf
    assert op("math.powf", f32, 0.0, -1.0) == math.inf
    assert op("math.powf", f32, -0.0, -3.0) == -math.inf
    assert same(op("math.powf", f32, -8.0, 1 / 3), math.nan)
    assert op("math.powf", f64, -10.0, 401.0) == -math.inf
    assert op("math.rsqrt", f32, 4.0) == 0.5
    assert op("math.round", f32, 2.5) == 3.0 and op("math.round", f32, -2.5) == -3.0
    assert op("math.roundeven", f32, 2.5) == 2.0
    assert same(op("math.round", f32, -0.4), -0.0)


def nearest_f32(q: Fraction) -> float:
    """Correctly rounded f32 of an exact rational, by comparing neighbouring f32 values."""
    guess = np.float32(float(q))
    cands = {guess, np.nextafter(guess, np.float32(np.inf)), np.nextafter(guess, np.float32(-np.inf))}
    finite = [c for c in cands if np.isfinite(c)]
    best = min(finite, key=lambda c: (abs(Fraction(float(c)) - q), int(np.array(c).view(np.uint32)) & 1))
    return float(best)


@settings(max_examples=120, deadline=None)
@given(st.floats(-1e6, 1e6, width=32), st.floats(-1e6, 1e6, width=32), st.floats(-(2.0**40), 2.0**40, width=32))
def test_fma_is_fused_single_rounding(a, b, c):
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    got = eval_scalar("math.fma", {}, [f32] * 3, [f32], [a, b, c])[0]
    if exact == 0:
        assert got == 0.0
    else:
        assert got == nearest_f32(exact)


def test_fma_differs_from_unfused_when_it_should():
    a = round_float(1 + 2**-12, f32)
    c = round_float(-(1 + 2**-11), f32)
    fused = eval_scalar("math.fma", {}, [f32] * 3, [f32], [a, a, c])[0]
    unfused = op("arith.addf", f32, op("arith.mulf", f32, a, a), c)
    assert fused == 2.0**-24 and unfused == 0.0
    # f64 fma is also exact, where a*b+c in Python floats would round twice.
    x = 1 + 2**-30
    assert eval_scalar("math.fma", {}, [f64] * 3, [f64], [x, x, -(1 + 2**-29)])[0] == 2.0**-60


def cmpf_ref(pred: str, a: float, b: float) -> bool:
    uno = a != a or b != b
    rel = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b, "ne": a != b and not uno}
    if pred == "false":
        return False
    if pred == "true":
        return True
    if pred == "ord":
        return not uno
    if pred == "uno":
        return uno
    if pred[0] == "o":
        return not uno and rel[pred[1:]]
    return uno or rel[pred[1:]]


@settings(max_examples=120, deadline=None)
@given(st.one_of(f32s(), st.sampled_from([0.0, -0.0, math.nan])), st.one_of(f32s(), st.sampled_from([0.0, math.nan])))
def test_cmpf_all_sixteen_predicates(a, b):
    for n, pred in enumerate(CMPF_PREDICATES):
        got = eval_scalar("arith.cmpf", {"predicate": IntegerAttr(n, i64)}, [f32, f32], [i1], [a, b])
        assert got == [1 if cmpf_ref(pred, a, b) else 0], (pred, a, b)


def test_cmpf_enum_order_is_mlirs():
    assert CMPF_PREDICATES[0] == "false" and CMPF_PREDICATES[1] == "oeq" and CMPF_PREDICATES[7] == "ord"
    assert CMPF_PREDICATES[8] == "ueq" and CMPF_PREDICATES[13] == "une" and CMPF_PREDICATES[15] == "true"


@settings(max_examples=120, deadline=None)
@given(st.integers(-(2**63), 2**63 - 1))
def test_int_to_float_matches_numpy(v):
    assert eval_scalar("arith.sitofp", {}, [i64], [f32], [mask(v, 64)]) == [float(np.float32(np.int64(v)))]
    assert eval_scalar("arith.sitofp", {}, [i64], [f64], [mask(v, 64)]) == [float(np.float64(np.int64(v)))]
    u = mask(v, 64)
    assert eval_scalar("arith.uitofp", {}, [i64], [f32], [u]) == [float(np.float32(np.uint64(u)))]


@settings(max_examples=120, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, width=32), st.sampled_from([8, 16, 32, 64]))
def test_float_to_int_truncates_and_saturates(x, w):
    t = IntegerType(w)
    got_s = eval_scalar("arith.fptosi", {}, [f32], [t], [x])[0]
    got_u = eval_scalar("arith.fptoui", {}, [f32], [t], [x])[0]
    if x != x:
        assert got_s == 0 and got_u == 0
        return
    lo, hi = -(2 ** (w - 1)), 2 ** (w - 1) - 1
    t_val = -(10**30) if x == -math.inf else 10**30 if x == math.inf else int(x)  # int() truncates toward 0
    assert to_signed(got_s, w) == min(max(t_val, lo), hi)
    assert got_u == min(max(t_val, 0), 2**w - 1)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_bitcast_round_trip_matches_numpy(bits):
    x = eval_scalar("arith.bitcast", {}, [i32], [f32], [bits])[0]
    ref = float(np.array([bits], dtype=np.uint32).view(np.float32)[0])
    assert same(x, ref)
    if x == x:
        assert eval_scalar("arith.bitcast", {}, [f32], [i32], [x]) == [bits]
    h = bits & 0xFFFF
    assert float_to_bits(bits_to_float(h, bf16), bf16) == h or bits_to_float(h, bf16) != bits_to_float(h, bf16)
    hx = bits_to_float(h, f16)
    assert same(hx, float(np.array([h], dtype=np.uint16).view(np.float16)[0]))


@settings(max_examples=100, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=True))
def test_extf_truncf(x):
    x16 = round_float(x, f16)
    assert eval_scalar("arith.extf", {}, [f16], [f32], [x16]) == [x16]
    with np.errstate(over="ignore"):
        assert same(eval_scalar("arith.truncf", {}, [f64], [f32], [x])[0], float(np.float32(x)))
        assert same(eval_scalar("arith.truncf", {}, [f64], [bf16], [x])[0],
                    bf16_reference(float(np.float32(x))) if abs(x) < 3e38 or not math.isfinite(x)
                    else eval_scalar("arith.truncf", {}, [f64], [bf16], [x])[0])


def test_float_constants_round_to_their_type():
    got = eval_scalar("arith.constant", {"value": FloatAttr(0.1, f32)}, [], [f32], [])[0]
    assert got == float(np.float32(0.1))
    got = eval_scalar("arith.constant", {"value": IntegerAttr(0x7F800000, i32)}, [], [f32], [])[0]
    assert got == math.inf
    assert eval_scalar("ub.poison", {}, [], [f32], []) == [0.0]


@settings(max_examples=100, deadline=None)
@given(f32s(), st.integers(0, 31))
def test_tagged_packing(x, tag):
    t = TaggedType(f32, i5)
    x = round_float(x, f32)
    packed = pack_tagged(x, tag, t)
    assert packed >> 32 == tag
    v, g = unpack_tagged(packed, t)
    assert g == tag and same(v, x)
    ti = TaggedType(index, IntegerType(1))
    assert unpack_tagged(pack_tagged(mask(-1, 64), 1, ti), ti) == (2**64 - 1, 1)


@pytest.mark.parametrize("name", ["math.isnan", "math.isinf", "math.isfinite"])
def test_float_classification(name):
    ref = {"math.isnan": math.isnan, "math.isinf": math.isinf, "math.isfinite": math.isfinite}[name]
    for x in [0.0, -1.5, math.inf, -math.inf, math.nan]:
        assert eval_scalar(name, {}, [f32], [i1], [x]) == [1 if ref(x) else 0]
