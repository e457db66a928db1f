"""Bit-exactness: every integer scalar op's RTL against loom.semantics on edge and random vectors."""

from __future__ import annotations

import random

import pytest

from loom.hdl.datapath import scalar as scalar_sv
from loom.hdl.datapath.vectors import OpSig, check_vectors
from loom.ir.attributes import StringAttr
from loom.ir.types import FloatType, IndexType, IntegerType
from loom.semantics.scalar import CMPF_PREDICATES, CMPI_PREDICATES

from support.hdl import need

i1, i8, i32, idx = IntegerType(1), IntegerType(8), IntegerType(32), IndexType()
f32, f64 = FloatType("f32"), FloatType("f64")
BINARY = ["addi", "subi", "muli", "andi", "ori", "xori", "divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui",
          "floordivsi", "shli", "shrui", "shrsi", "maxsi", "minsi", "maxui", "minui"]


def integer_sigs() -> list[OpSig]:
    sigs = []
    for w in (i8, i32, idx):
        sigs += [OpSig("arith." + b, (w, w), (w,)) for b in BINARY]
        sigs += [OpSig("arith.cmpi", (w, w), (i1,), (("predicate", StringAttr(p)),)) for p in CMPI_PREDICATES]
        sigs += [OpSig("math." + u, (w,), (w,)) for u in ("absi", "ctpop", "ctlz", "cttz")]
        sigs += [OpSig("math.ipowi", (w, w), (w,)), OpSig("arith.select", (i1, w, w), (w,)),
                 OpSig("arith.addui_extended", (w, w), (w, i1)), OpSig("arith.mului_extended", (w, w), (w, w)),
                 OpSig("arith.mulsi_extended", (w, w), (w, w))]
    sigs += [OpSig("arith.extsi", (i8,), (i32,)), OpSig("arith.extui", (i8,), (i32,)),
             OpSig("arith.trunci", (i32,), (i8,)), OpSig("arith.index_cast", (i32,), (idx,)),
             OpSig("arith.index_cast", (idx,), (i32,)), OpSig("arith.index_castui", (i32,), (idx,)),
             OpSig("arith.extsi", (i1,), (i32,)), OpSig("arith.addi", (i1, i1), (i1,)),
             OpSig("arith.bitcast", (i32,), (f32,))]
    return sigs


def float_sigs() -> list[OpSig]:
    sigs = []
    for t in (f32, f64):
        sigs += [OpSig("arith." + b, (t, t), (t,)) for b in ("addf", "subf", "mulf", "divf")]
        sigs += [OpSig("arith.cmpf", (t, t), (i1,), (("predicate", StringAttr(p)),)) for p in CMPF_PREDICATES]
        sigs += [OpSig("arith.negf", (t,), (t,)), OpSig("math.absf", (t,), (t,)), OpSig("math.sqrt", (t,), (t,)),
                 OpSig("arith.sitofp", (i32,), (t,)), OpSig("arith.uitofp", (i32,), (t,))]
        # wider than f64's precision and than 64 bits: rounded once, straight from the integer
        sigs += [OpSig(n, (IntegerType(w),), (t,)) for n in ("arith.sitofp", "arith.uitofp") for w in (64, 128)]
    return sigs + [OpSig("arith.extf", (f32,), (f64,)), OpSig("arith.truncf", (f64,), (f32,))]


def half_sigs() -> list[OpSig]:
    """f16 and bf16: computed through f64 and rounded once, as the semantics does (their conversions to and from
    f64 are generated from one template with f32's)."""
    f16, bf16 = FloatType("f16"), FloatType("bf16")
    sigs = []
    for t in (f16, bf16):
        sigs += [OpSig("arith." + b, (t, t), (t,)) for b in ("addf", "subf", "mulf", "divf", "maximumf", "remf")]
        sigs += [OpSig("arith.cmpf", (t, t), (i1,), (("predicate", StringAttr(p)),)) for p in ("olt", "une", "uno")]
        sigs += [OpSig("math." + u, (t,), (t,)) for u in ("sqrt", "exp", "floor", "roundeven", "log1p")]
        sigs += [OpSig("math.fma", (t, t, t), (t,))]
        sigs += [OpSig("arith.sitofp", (i32,), (t,)), OpSig("arith.fptosi", (t,), (i32,)),
                 OpSig("arith.uitofp", (IntegerType(64),), (t,)),
                 OpSig("arith.extf", (t,), (f32,)), OpSig("arith.extf", (t,), (f64,)),
                 OpSig("arith.truncf", (f32,), (t,)), OpSig("arith.truncf", (f64,), (t,)),
                 OpSig("arith.bitcast", (IntegerType(16),), (t,)), OpSig("math.isnan", (t,), (i1,))]
    return sigs


LIBM = ("exp", "exp2", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh",
        "acosh", "atanh", "rsqrt", "floor", "ceil", "trunc", "round", "roundeven",
        "log2", "log1p", "expm1", "cbrt", "erf", "erfc")  # the last six: C libm through loom_libm.c


def libm_sigs() -> list[OpSig]:
    """The math/arith float ops beyond the basic arithmetic: libm calls, rounding, min/max, remf, pow,
    classification, copysign and the saturating float-to-integer conversions."""
    i8, i64, i128 = IntegerType(8), IntegerType(64), IntegerType(128)
    sigs = []
    for t in (f32, f64):
        sigs += [OpSig("math." + u, (t,), (t,)) for u in LIBM]
        sigs += [OpSig(n, (t, t), (t,)) for n in ("arith.maximumf", "arith.minimumf", "arith.maxnumf",
                                                  "arith.minnumf", "arith.maxf", "arith.minf", "arith.remf", "math.powf", "math.atan2",
                                                  "math.copysign")]
        sigs += [OpSig("math.fpowi", (t, w), (t,)) for w in (i32, i128)]
        sigs += [OpSig("math.fma", (t, t, t), (t,))]
        sigs += [OpSig("math." + c, (t,), (i1,)) for c in ("isnan", "isinf", "isfinite")]
        sigs += [OpSig(n, (t,), (w,)) for n in ("arith.fptosi", "arith.fptoui")
                 for w in (i1, i8, i32, i64, i128)]
    return sigs


def test_vectors_cover_every_op_of_the_semantics_table():
    """Every arith/math op loom.semantics defines has an RTL model that the vector benches check bit-exact (the
    constants and ub.poison are sources, not functions of operands: test_hdl_emit and the co-simulations)."""
    from loom.semantics.scalar import SCALAR_OPS

    checked = {s.name for s in integer_sigs() + float_sigs() + libm_sigs() + half_sigs()}
    assert SCALAR_OPS - {"arith.constant", "ub.poison"} <= checked, sorted(SCALAR_OPS - checked)


def test_integer_ops_bit_exact():
    need("iverilog")
    n, bad = check_vectors(integer_sigs())
    assert n > 10000
    assert bad == [], bad[:10]


def test_float_models_match_semantics_in_simulation():
    need("iverilog")
    n, bad = check_vectors(float_sigs())
    assert n > 3000
    assert bad == [], bad[:10]


def test_libm_rounding_minmax_pow_remf_and_conversions_match_semantics_in_simulation():
    """Every one of these ops on NaNs and infinities of both signs, zeros, ties and overflow edges: the RTL
    model's rules (where Python's math module answers differently from libm) agree with loom.semantics."""
    need("iverilog")
    n, bad = check_vectors(libm_sigs())
    assert n > 3500
    assert bad == [], bad[:10]


def test_half_precision_models_match_semantics_in_simulation():
    need("iverilog")
    n, bad = check_vectors(half_sigs())
    assert n > 2500
    assert bad == [], bad[:10]


def test_vectors_catch_a_wrong_translation(monkeypatch):
    """The check can fail: a subtraction passed off as addition is caught."""
    need("iverilog")
    monkeypatch.setitem(scalar_sv.PLAIN, "arith.addi", "-")
    n, bad = check_vectors([OpSig("arith.addi", (i32, i32), (i32,))])
    assert n > 50 and len(bad) > n // 2


def test_division_by_zero_flags_fail():
    """x / 0 has no value in the semantics (RT_ARITH_DIV_BY_ZERO): the component must raise fail."""
    need("iverilog")
    from loom.hdl.datapath.vectors import expected

    sig = OpSig("arith.divsi", (i8, i8), (i8,))
    assert expected(sig, (5, 0)) is None
    n, bad = check_vectors([sig])
    assert n and bad == []


def _verilator_groups() -> dict[str, tuple[list[OpSig], int]]:
    """The Verilator samples, each with its vector limit per op."""
    names = ("arith.divsi", "arith.remsi", "arith.floordivsi", "arith.shrsi", "arith.mulsi_extended")
    # the signed corner cases again under Verilator (the default simulator of loom sim --rtl)
    signed = [s for s in integer_sigs() if s.operands[0] == i32 and s.name in names]
    # Verilator's real math functions and its DPI-C calls into loom_libm.c agree as iverilog's do (through VPI):
    # a sample of the libm, pow, remf, rounding, min/max and conversion models
    pick = {("math.exp", "f64"), ("math.log", "f32"), ("math.sin", "f64"), ("math.powf", "f32"),
            ("arith.remf", "f64"), ("math.roundeven", "f32"), ("arith.maxnumf", "f64"), ("arith.fptoui", "f64"),
            ("math.log2", "f64"), ("math.erfc", "f32"), ("math.fma", "f64")}  # the last three: DPI-C into libm
    libm = [s for s in libm_sigs() if (s.name, str(s.operands[0])) in pick and s.results[0] != IntegerType(8)]
    # Verilator commutes a real * or + (so its NaN result can be the second operand's): the models pick the
    # first NaN operand themselves, as the semantics' host floats do. Two NaNs of different signs catch it.
    f16 = FloatType("f16")
    nan = [OpSig("arith.mulf", (f32, f32), (f32,)), OpSig("arith.addf", (f16, f16), (f16,)),
           OpSig("math.fma", (f32, f32, f32), (f32,)), OpSig("math.fma", (f64, f64, f64), (f64,))]
    return {"signed": (signed, 30), "libm": (libm, 20), "nan": (nan, 90)}


def test_signed_libm_and_nan_models_bit_exact_under_verilator(monkeypatch):
    """Three samples under Verilator (the default simulator of loom sim --rtl), kept small because Verilator
    compiles C++ -- and built as one bench, one C++ compile instead of three (~2/3 of these tests' CPU). Each
    sample keeps the vectors it had as a bench of its own (the same seed and limit per sample), so the NaN
    pairs that catch a commuted real * or + are still among them."""
    need("verilator")
    from loom.hdl.datapath import vectors

    groups = _verilator_groups()
    assert len(groups["libm"][0]) >= 9
    planned: list[list[tuple[int, ...]]] = []
    for sigs, limit in groups.values():  # what check_vectors(sigs, limit=limit) alone would draw
        rng = random.Random(1)
        planned += [vectors.vectors_for(s, rng, limit) for s in sigs]
    queue = iter(planned)
    monkeypatch.setattr(vectors, "vectors_for", lambda sig, rng, limit: next(queue))
    n, bad = check_vectors([s for sigs, _ in groups.values() for s in sigs], simulator="verilator")
    assert next(queue, None) is None and n == sum(map(len, planned))
    counts, i = {}, 0
    for key, (sigs, _) in groups.items():
        counts[key] = sum(len(v) for v in planned[i:i + len(sigs)])
        i += len(sigs)
    assert counts["signed"] >= 100 and counts["libm"] >= 150 and counts["nan"] >= 350, counts
    assert bad == [], bad[:10]


@pytest.mark.parametrize("defines", [(), ("LOOM_ASSERTIONS",)])
def test_every_scalar_component_is_verilator_wall_clean(tmp_path, defines):
    """Every op model the vector benches build (the examples' RTL holds a few of them: tests/rtl/test_hdl_lint.py)
    passes verilator --lint-only -Wall, plain and with the assertions."""
    need("verilator")
    from loom.hdl.lint import verilator_lint
    from loom.hdl.datapath.vectors import vector_bench

    files, _ = vector_bench(integer_sigs() + float_sigs() + libm_sigs() + half_sigs(), limit=1)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    comps = [n for n in files if n.endswith(".sv") and n != "tb.sv"]
    assert len(comps) > 300
    assert verilator_lint(tmp_path, comps, defines) == []


def test_float_models_have_no_pyslang_diagnostic():
    """The float models (real math functions, casts between reals and integers) elaborate cleanly in pyslang,
    in both property backends, as the examples' RTL does (tests/rtl/test_hdl_lint.py)."""
    from loom.hdl.lint import slang_diagnostics
    from loom.hdl.datapath.vectors import vector_bench

    files, _ = vector_bench(float_sigs() + libm_sigs() + half_sigs(), limit=1)
    comps = {n: t for n, t in files.items() if n != "tb.sv"}
    assert len(comps) > 100
    for full in (True, False):
        assert slang_diagnostics(comps, full=full, defines=()) == []


def test_fma_is_fused_on_a_tie(monkeypatch):
    """a*b exactly halfway between two neighbours of the type, c far smaller: the fused (exact) sum rounds
    toward c's side, where computing a*b+c in f64 first would lose c and round the tie to even."""
    need("iverilog")
    import struct

    from loom.hdl.datapath import vectors
    from loom.hdl.datapath.vectors import expected

    def f32_bits(x: float) -> int:
        return struct.unpack("<I", struct.pack("<f", x))[0]

    bf16 = FloatType("bf16")
    cases = {f32: [(f32_bits(1.5), f32_bits(1 + 2**-23), f32_bits(s * 2.0**-120)) for s in (1, -1)],
             bf16: [(f32_bits(1.5) >> 16, f32_bits(1 + 2**-7) >> 16, f32_bits(s * 2.0**-100) >> 16) for s in (1, -1)]}
    for t, vecs in cases.items():
        sig = OpSig("math.fma", (t, t, t), (t,))
        up, down = (expected(sig, v)[0] for v in vecs)
        assert up == down + 1  # the exact sums lie on either side of the tie
        monkeypatch.setattr(vectors, "vectors_for", lambda s, rng, limit=120, _v=vecs: list(_v))
        assert check_vectors([sig]) == (2, [])
