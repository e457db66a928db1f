"""The scalar float op descriptors (loom.semantics.float_ops): each op's Python evaluation and its exact IEEE term in
Z3 compute the same value on generated operands and on the IEEE edges (signed zeros, subnormals, the largest finite
value, infinities, NaN, rounding ties), in every format loom models; the cast rule (loom.semantics.undefined) holds
in Python exactly where Z3's conversion leaves the result unspecified. The RTL models of the same ops are checked
against Python in simulation by tests/rtl/test_hdl_vectors.py."""

from __future__ import annotations

import math
import random
import struct
from dataclasses import dataclass
from typing import Sequence

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st


from loom.ir.attributes import Attribute, IntegerAttr
from loom.ir.types import FloatType, IntegerType, Type, i1
from loom.semantics import float_ops
from loom.semantics.expr import ScalarInfo
from loom.semantics.float_ops import FLOAT_OPS
from loom.semantics.layout import FLOAT_FORMATS, from_bus, to_bus, width_of
from loom.semantics.predicates import CMPF_PREDICATES, ROUNDING_MODES
from loom.semantics.scalar import SCALAR_OPS, scalar_fn
from loom.semantics.undefined import ub_rules

from support.operands import draw_vector

F16, BF16, F32, F64 = (FloatType(n) for n in ("f16", "bf16", "f32", "f64"))
FLOATS = (F16, BF16, F32, F64)
I8, I32, I64 = IntegerType(8), IntegerType(32), IntegerType(64)


@dataclass(frozen=True)
class Sig:
    name: str
    operands: tuple[Type, ...]
    results: tuple[Type, ...]
    attrs: tuple[tuple[str, Attribute], ...] = ()

    @property
    def info(self) -> ScalarInfo:
        return ScalarInfo(self.attrs, self.operands, self.results, 0)

    def __str__(self) -> str:
        return f"{self.name}({', '.join(map(str, self.operands))}) -> {self.results[0]} {dict(self.attrs)}"


def signatures() -> list[Sig]:
    out: list[Sig] = []
    exact = {n: d for n, d in FLOAT_OPS.items() if d.z3 is not None}
    for t in FLOATS:
        for name, d in exact.items():
            if d.sv == float_ops.CONVERT:
                continue
            if name == "arith.cmpf":
                out += [Sig(name, (t, t), (i1,), (("predicate", IntegerAttr(k)),))
                        for k in range(len(CMPF_PREDICATES))]
            else:
                out.append(Sig(name, (t,) * d.arity, (i1,) if d.result == "bool" else (t,)))
        for it in (I8, I32, I64):
            out += [Sig(n, (it,), (t,)) for n in ("arith.sitofp", "arith.uitofp")]
            out += [Sig(n, (t,), (it,)) for n in ("arith.fptosi", "arith.fptoui")]
    for lo, hi in ((F16, F32), (BF16, F32), (F32, F64), (F16, F64), (BF16, F64)):
        out.append(Sig("arith.extf", (lo,), (hi,)))
        out += [Sig("arith.truncf", (hi,), (lo,), (("roundingmode", IntegerAttr(k)),))
                for k in range(len(ROUNDING_MODES))]
    return out


SIGS = signatures()


def float_edges(t: Type) -> list[int]:
    """The IEEE edges of format ``t`` as encodings: signed zeros, the smallest and largest subnormal, the smallest
    normal, 1, 1.5, 2.5 (ties), the largest finite value, infinities and quiet NaNs of both signs."""
    f = FLOAT_FORMATS[t.name]
    frac = f.precision - 1
    sign = 1 << (f.width - 1)
    one = f.emax << frac
    mags = {0, 1, (1 << frac) - 1, 1 << frac, one, one | (1 << (frac - 1)), ((f.emax + 1) << frac) | (1 << (frac - 2)),
            f.inf_mag - 1, f.inf_mag, f.qnan, ((f.emax + 3) << frac) | 1}
    return sorted({m | s for m in mags for s in (0, sign)})


def int_edges(t: Type) -> list[int]:
    w = width_of(t)
    m = (1 << w) - 1
    return sorted({v & m for v in (0, 1, 2, 3, m >> 1, (m >> 1) + 1, m, (1 << 24) + 1, (1 << 53) + 1)})


def edges(t: Type) -> list[int]:
    return float_edges(t) if isinstance(t, FloatType) else int_edges(t)


def _is_nan(bits_: int, t: Type) -> bool:
    f = FLOAT_FORMATS[t.name]
    return (bits_ & ((1 << (f.width - 1)) - 1)) > f.inf_mag


def python_value(sig: Sig, vec: Sequence[int]) -> int:
    fn = scalar_fn(sig.name, dict(sig.attrs), list(sig.operands), list(sig.results))
    return to_bus(fn([from_bus(v, t) for v, t in zip(vec, sig.operands)])[0], sig.results[0])


def z3_value(sig: Sig, vec: Sequence[int]) -> tuple[str, int]:
    """("nan", 0) for a NaN result, else ("bits", the result's encoding or 0/1)."""
    args = [z3.BitVecVal(v, width_of(t)) for v, t in zip(vec, sig.operands)]
    r = z3.simplify(FLOAT_OPS[sig.name].z3(args, sig.info))
    if z3.is_bool(r):
        assert z3.is_true(r) or z3.is_false(r), r
        return "bits", int(z3.is_true(r))
    if z3.is_bv(r):
        assert z3.is_bv_value(r), r
        return "bits", r.as_long()
    if z3.is_true(z3.simplify(z3.fpIsNaN(r))):
        return "nan", 0
    b = z3.simplify(z3.fpToIEEEBV(r))
    assert z3.is_bv_value(b), r
    return "bits", b.as_long()


def cast_rule_holds(sig: Sig, vec: Sequence[int]) -> bool:
    rules, usig = ub_rules(sig.name, dict(sig.attrs), sig.operands, sig.results)
    vals = [from_bus(v, t) for v, t in zip(vec, sig.operands)]
    return any(r.what == "cast" and r.holds(vals, usig) for r in rules)


def disagreements(sig: Sig, vec: Sequence[int]) -> list[str]:
    if sig.name in ("arith.fptosi", "arith.fptoui") and cast_rule_holds(sig, vec):
        return []  # undefined: Z3's conversion is unspecified there, Python's fixed answer is loom's choice
    py = python_value(sig, vec)
    kind, z = z3_value(sig, vec)
    out_t = sig.results[0]
    if isinstance(out_t, FloatType):
        if kind == "nan" or _is_nan(py, out_t):
            if not (kind == "nan" and _is_nan(py, out_t)):
                return [f"{sig} {[hex(v) for v in vec]}: Python {py:#x}, Z3 {'NaN' if kind == 'nan' else hex(z)}"]
            return []
    if py != z:
        return [f"{sig} {[hex(v) for v in vec]}: Python {py:#x}, Z3 {z:#x}"]
    return []


def test_every_float_op_of_the_python_semantics_has_a_descriptor():
    """Together with the integer table, every scalar op but a constant, a poison source and a bitcast between
    formats has a descriptor; only libm's transcendental functions lack an exact Z3 term."""
    from loom.semantics.ops import INT_OPS

    assert SCALAR_OPS - set(INT_OPS) - set(FLOAT_OPS) == {"arith.constant", "ub.poison", "arith.bitcast"}
    assert not set(INT_OPS) & set(FLOAT_OPS)
    inexact = {n for n, d in FLOAT_OPS.items() if d.z3 is None}
    assert inexact and all(FLOAT_OPS[n].sv == float_ops.LIBM or n.startswith("math.") for n in inexact)
    assert {"arith.addf", "arith.divf", "arith.remf", "math.fma", "arith.cmpf", "arith.truncf",
            "arith.fptosi"} <= set(FLOAT_OPS) - inexact


def test_python_and_z3_agree_on_every_edge():
    rng = random.Random(5)
    bad = []
    for sig in SIGS:
        combos: list[tuple[int, ...]] = [()]
        for t in sig.operands:
            combos = [c + (v,) for c in combos for v in edges(t)]
        if len(combos) > 150:
            combos = rng.sample(combos, 150)
        bad += [b for vec in combos for b in disagreements(sig, vec)]
    assert bad == [], bad[:10]


@pytest.mark.parametrize("name", sorted({s.name for s in SIGS}))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_python_and_z3_agree_on_generated_operands(name, data):
    sig = data.draw(st.sampled_from([s for s in SIGS if s.name == name]), label="signature")
    vec = draw_vector(data, sig.operands, edges)
    assert disagreements(sig, vec) == []


def test_the_cast_rule_is_where_z3_conversion_is_unspecified():
    """fptosi of NaN, infinity or a value out of range: the rule holds in Python on exactly those edges."""
    sig = Sig("arith.fptosi", (F32,), (I8,))
    enc = lambda x: struct.unpack("<I", struct.pack("<f", x))[0]  # noqa: E731
    assert [cast_rule_holds(sig, [enc(x)]) for x in (127.9, -128.9, 128.0, -129.0, math.inf, math.nan)] == \
        [False, False, True, True, True, True]


def test_the_comparison_catches_a_wrong_term(monkeypatch):
    """A descriptor whose term rounds toward zero instead of to nearest is caught on the edges."""
    wrong = float_ops.FloatOp("arith.addf", 2, float_ops._fp(lambda a, b: z3.fpAdd(z3.RTZ(), a, b)), float_ops.REAL)
    monkeypatch.setitem(FLOAT_OPS, "arith.addf", wrong)
    sig = Sig("arith.addf", (F32, F32), (F32,))
    vecs = [(a, b) for a in float_edges(F32) for b in float_edges(F32)]
    assert any(disagreements(sig, v) for v in vecs)


def test_the_rtl_refuses_a_float_op_without_a_descriptor(monkeypatch):
    """The HDL datapath reads the table: an op removed from it has no RTL model."""
    from loom.hdl.datapath.expr import HdlUnsupported, SvExprBuilder
    from loom.hdl.datapath.floats import float_sv

    monkeypatch.delitem(FLOAT_OPS, "arith.addf")
    info = ScalarInfo((), (F32, F32), (F32,), 0)
    with pytest.raises(HdlUnsupported, match="descriptor"):
        float_sv("arith.addf", info, ["a", "b"], SvExprBuilder({}, {}, str, str), F32)
