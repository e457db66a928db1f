"""Integer arith ops against independent references (explicit formulas and numpy) at every width."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.diagnostics import SimulationError
from loom.ir.attributes import BoolAttr, IntegerAttr
from loom.ir.types import IndexType, IntegerType, i1, i64, index
from loom.semantics.scalar import (
    CMPI_PREDICATES,
    eval_scalar,
    is_scalar_op,
    mask,
    scalar_fn,
    to_signed,
    width_of,
)

WIDTHS = [1, 2, 7, 8, 16, 32, 33, 64]
NP_TYPES = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def ity(w: int):
    return IndexType() if w == "index" else IntegerType(w)


@st.composite
def operands(draw, widths=WIDTHS):
    w = draw(st.sampled_from(widths))
    edge = [0, 1, (1 << w) - 1, 1 << (w - 1), (1 << (w - 1)) - 1]
    val = st.one_of(st.sampled_from(edge), st.integers(0, (1 << w) - 1))
    return w, draw(val), draw(val)


def run(name, w, *vals, attrs=None, result_w=None):
    t = IntegerType(w)
    rt = IntegerType(result_w) if result_w else t
    return eval_scalar(name, attrs or {}, [t] * len(vals), [rt], list(vals))


def s(v, w):
    """Independent signed reading: subtract 2**w when the top bit is set."""
    return v - 2**w if v >= 2 ** (w - 1) else v


def wrap(x, w):
    return x % 2**w


@settings(max_examples=120, deadline=None)
@given(operands())
def test_wrapping_ops_match_modular_arithmetic(o):
    w, a, b = o
    assert run("arith.addi", w, a, b) == [wrap(a + b, w)]
    assert run("arith.subi", w, a, b) == [wrap(a - b, w)]
    assert run("arith.muli", w, a, b) == [wrap(s(a, w) * s(b, w), w)]
    assert run("arith.andi", w, a, b) == [a & b]
    assert run("arith.ori", w, a, b) == [a | b]
    assert run("arith.xori", w, a, b) == [a ^ b]
    assert run("arith.maxsi", w, a, b) == [wrap(max(s(a, w), s(b, w)), w)]
    assert run("arith.minsi", w, a, b) == [wrap(min(s(a, w), s(b, w)), w)]
    assert run("arith.maxui", w, a, b) == [max(a, b)]
    assert run("arith.minui", w, a, b) == [min(a, b)]


@settings(max_examples=100, deadline=None)
@given(operands(widths=[8, 16, 32, 64]))
def test_wrapping_ops_match_numpy(o):
    w, a, b = o
    nt = NP_TYPES[w]
    na, nb = np.array([s(a, w)], dtype=nt), np.array([s(b, w)], dtype=nt)
    with np.errstate(over="ignore"):
        for name, ref in [("arith.addi", na + nb), ("arith.subi", na - nb), ("arith.muli", na * nb)]:
            assert to_signed(run(name, w, a, b)[0], w) == int(ref[0])
    if b < w:
        assert to_signed(run("arith.shli", w, a, b)[0], w) == int((na << nb)[0])
        assert to_signed(run("arith.shrsi", w, a, b)[0], w) == int((na >> nb)[0])
        ua = na.view(np.dtype(f"u{w // 8}"))
        assert run("arith.shrui", w, a, b)[0] == int((ua >> nb.view(ua.dtype))[0])


def c_div(a: int, b: int) -> int:
    """C99 division: truncate toward zero (computed through the sign of the exact quotient)."""
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


@settings(max_examples=120, deadline=None)
@given(operands())
def test_division_family(o):
    w, a, b = o
    if b == 0:
        for name in ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi",
                     "arith.ceildivui", "arith.floordivsi"):
            with pytest.raises(SimulationError) as e:
                run(name, w, a, b)
            assert e.value.code == "RT_ARITH_DIV_BY_ZERO"
        return
    sa, sb = s(a, w), s(b, w)
    assert run("arith.divui", w, a, b) == [a // b]
    assert run("arith.remui", w, a, b) == [a % b]
    assert run("arith.ceildivui", w, a, b) == [(a + b - 1) // b]
    # Signed: INT_MIN / -1 wraps to INT_MIN (documented choice for MLIR's UB).
    assert run("arith.divsi", w, a, b) == [wrap(c_div(sa, sb), w)]
    rem = abs(sa) % abs(sb) * (-1 if sa < 0 else 1)  # sign of the dividend
    assert run("arith.remsi", w, a, b) == [wrap(rem, w)]
    import math as _m

    assert run("arith.floordivsi", w, a, b) == [wrap(_m.floor(__import__("fractions").Fraction(sa, sb)), w)]
    assert run("arith.ceildivsi", w, a, b) == [wrap(_m.ceil(__import__("fractions").Fraction(sa, sb)), w)]


def test_int_min_div_minus_one_wraps():
    assert run("arith.divsi", 8, 0x80, 0xFF) == [0x80]
    assert run("arith.remsi", 8, 0x80, 0xFF) == [0]
    assert run("arith.divsi", 32, 7, mask(-2, 32)) == [mask(-3, 32)]
    assert run("arith.remsi", 32, mask(-7, 32), 2) == [mask(-1, 32)]


@settings(max_examples=120, deadline=None)
@given(operands(), st.integers(0, 200))
def test_shifts_including_oversized_amounts(o, amount_raw):
    w, a, _ = o
    b = amount_raw % (1 << w)
    got_l, got_ru, got_rs = (run(n, w, a, b)[0] for n in ("arith.shli", "arith.shrui", "arith.shrsi"))
    if b >= w:
        assert got_l == 0 and got_ru == 0
        assert got_rs == (2**w - 1 if s(a, w) < 0 else 0)
    else:
        assert got_l == (a * 2**b) % 2**w
        assert got_ru == a // 2**b
        assert s(got_rs, w) == s(a, w) // 2**b


def test_huge_shift_amount_is_not_a_python_error():
    assert run("arith.shli", 64, 1, 2**64 - 1) == [0]
    assert run("arith.shrsi", 64, 2**63, 2**63) == [2**64 - 1]


def cmpi_ref(pred: str, a: int, b: int, w: int) -> bool:
    sa, sb = s(a, w), s(b, w)
    return {
        "eq": a == b, "ne": a != b, "slt": sa < sb, "sle": sa <= sb, "sgt": sa > sb, "sge": sa >= sb,
        "ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b,
    }[pred]


@settings(max_examples=120, deadline=None)
@given(operands())
def test_cmpi_all_predicates_by_enum_number(o):
    w, a, b = o
    for n, pred in enumerate(CMPI_PREDICATES):
        got = eval_scalar("arith.cmpi", {"predicate": IntegerAttr(n, i64)}, [IntegerType(w)] * 2, [i1], [a, b])
        assert got == [1 if cmpi_ref(pred, a, b, w) else 0], (pred, w, a, b)


def test_cmpi_enum_order_is_mlirs():
    assert CMPI_PREDICATES == ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def test_cmpi_on_index_is_64_bit():
    lt = eval_scalar("arith.cmpi", {"predicate": IntegerAttr(2, i64)}, [index, index], [i1], [mask(-1, 64), 0])
    assert lt == [1]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(WIDTHS + ["index"]), st.sampled_from(WIDTHS + ["index"]), st.data())
def test_integer_casts(wi, wo, data):
    ti, to = ity(wi), ity(wo)
    bi, bo = width_of(ti), width_of(to)
    v = data.draw(st.integers(0, 2**bi - 1))
    if "index" in (wi, wo):
        assert eval_scalar("arith.index_cast", {}, [ti], [to], [v]) == [wrap(s(v, bi), bo)]
        assert eval_scalar("arith.index_castui", {}, [ti], [to], [v]) == [v % 2**bo]
    if bo > bi:
        assert eval_scalar("arith.extsi", {}, [ti], [to], [v]) == [wrap(s(v, bi), bo)]
        assert eval_scalar("arith.extui", {}, [ti], [to], [v]) == [v]
    if bo < bi:
        assert eval_scalar("arith.trunci", {}, [ti], [to], [v]) == [v % 2**bo]


def test_index_cast_of_i1_sign_extends():
    assert eval_scalar("arith.index_cast", {}, [i1], [index], [1]) == [2**64 - 1]
    assert eval_scalar("arith.extui", {}, [i1], [IntegerType(32)], [1]) == [1]


@settings(max_examples=100, deadline=None)
@given(operands())
def test_select_and_extended_arith(o):
    w, a, b = o
    t = IntegerType(w)
    assert eval_scalar("arith.select", {}, [i1, t, t], [t], [1, a, b]) == [a]
    assert eval_scalar("arith.select", {}, [i1, t, t], [t], [0, a, b]) == [b]
    lo, carry = eval_scalar("arith.addui_extended", {}, [t, t], [t, i1], [a, b])
    assert lo + carry * 2**w == a + b
    lo, hi = eval_scalar("arith.mului_extended", {}, [t, t], [t, t], [a, b])
    assert lo + hi * 2**w == a * b
    lo, hi = eval_scalar("arith.mulsi_extended", {}, [t, t], [t, t], [a, b])
    assert lo + s(hi, w) * 2**w == s(a, w) * s(b, w)


@settings(max_examples=100, deadline=None)
@given(operands())
def test_math_integer_ops(o):
    w, a, b = o
    t = IntegerType(w)
    assert eval_scalar("math.absi", {}, [t], [t], [a]) == [wrap(abs(s(a, w)), w)]
    assert eval_scalar("math.ctpop", {}, [t], [t], [a]) == [bin(a).count("1")]
    bits = format(a, f"0{w}b")
    assert eval_scalar("math.ctlz", {}, [t], [t], [a]) == [len(bits) - len(bits.lstrip("0"))]
    assert eval_scalar("math.cttz", {}, [t], [t], [a]) == [len(bits) - len(bits.rstrip("0"))]
    base, exp = s(a, w), s(b, w)
    if exp >= 0 and exp < 40:
        assert eval_scalar("math.ipowi", {}, [t, t], [t], [a, b]) == [wrap(base**exp, w)]


def test_constants_and_poison():
    t8 = IntegerType(8)
    assert eval_scalar("arith.constant", {"value": IntegerAttr(-1, t8)}, [], [t8], []) == [255]
    assert eval_scalar("arith.constant", {"value": IntegerAttr(300, t8)}, [], [t8], []) == [44]
    assert eval_scalar("arith.constant", {"value": BoolAttr(True)}, [], [i1], []) == [1]
    assert eval_scalar("arith.constant", {"value": IntegerAttr(-5, index)}, [], [index], []) == [2**64 - 5]
    assert eval_scalar("ub.poison", {}, [], [IntegerType(32)], []) == [0]


def test_unknown_op_and_bad_predicate_are_simulation_errors():
    from loom.ir.location import Location

    loc = Location("k.mlir", 3, 7)
    with pytest.raises(SimulationError) as e:
        scalar_fn("arith.frobnicate", {}, [i1], [i1], loc)
    assert "k.mlir:3:7" in str(e.value)
    with pytest.raises(SimulationError):
        scalar_fn("arith.cmpi", {"predicate": IntegerAttr(10, i64)}, [i1, i1], [i1], loc)
    with pytest.raises(SimulationError):
        scalar_fn("arith.constant", {}, [], [i1], loc)
    assert is_scalar_op("arith.addi") and not is_scalar_op("scf.for")
