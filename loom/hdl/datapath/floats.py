"""Float ops (bf16, f16, f32, f64) -> SystemVerilog: behavioural simulation models, bit-exact with the semantics.

Values are computed in SV ``real`` (f64) through ``$bitstoreal``/``$realtobits`` and exact conversions of the
narrow formats (``loom.hdl.datapath.float_conv``), and rounded once to the result type, as ``loom.semantics.scalar``
does; NaNs are made as the semantics makes them (the quiet NaN, the sign kept); what SV has no real function for
calls C libm (``loom.hdl.datapath.libm_c``). Under Yosys (``YOSYS`` defined: synthesis and formal) a model's result is a
free ``anyseq`` wire, so no property depends on a float value. A few ops (copysign, classification, min/max)
are plain bit logic and synthesizable. specs/hdl.md ("Datapath") lists the rules and what has no model yet.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from loom.hdl.datapath import libm_c
from loom.hdl.datapath.float_conv import INF_MAG, MODES, QNAN, fptoi_function, from_f64_function, int_to_float_function, \
    to_f64_function
from loom.hdl.datapath.expr import CMPF_PREDICATES, HdlUnsupported, SvExprBuilder, bits, literal, predicate
from loom.ir.types import FloatType, Type, i1
from loom.semantics.expr import ScalarInfo
from loom.semantics.float_ops import FLOAT_OPS
from loom.semantics.layout import FLOAT_FORMATS
from loom.semantics.scalar import ROUNDING_MODES, rounding_mode

FLOAT_BINARY = {"arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/"}


def fmt(t: Type) -> str:
    """The name of a float type the RTL models (every format of ``loom.semantics.layout.FLOAT_FORMATS``)."""
    if not isinstance(t, FloatType) or t.name not in FLOAT_FORMATS:
        raise HdlUnsupported(f"float type {t} (the RTL models bf16, f16, f32 and f64)")
    return t.name


def _call(fn: str, define: Callable[[], str], args: str, b: Optional[SvExprBuilder]) -> str:
    """``fn(args)``; the function's definition goes into ``b`` the first time it is called there."""
    if b is not None and fn not in b.functions:
        b.functions[fn] = define()
    return f"{fn}({args})"


def to_f64(x: str, t: Type, b: Optional[SvExprBuilder] = None) -> str:
    """The f64 bits of float wire ``x`` of type ``t`` (exact)."""
    name = fmt(t)
    return x if name == "f64" else _call(f"loom_{name}_to_f64", lambda: to_f64_function(name), x, b)


def from_f64(x64: str, t: Type, b: Optional[SvExprBuilder] = None, mode: str = "to_nearest_even") -> str:
    """f64 bits ``x64`` rounded once to ``t`` in rounding ``mode`` (``loom.semantics.scalar.ROUNDING_MODES``)."""
    name = fmt(t)
    if name == "f64":
        return x64
    return _call(f"loom_f64_to_{name}{MODES[mode][0]}", lambda: from_f64_function(name, mode=mode), x64, b)


def _real(x: str, t: Type, b: Optional[SvExprBuilder] = None) -> str:
    return f"$bitstoreal({to_f64(x, t, b)})"


CANON64 = """`ifndef YOSYS
  // an f64 NaN as the semantics encodes every NaN: the quiet NaN, the sign kept (real arithmetic keeps payloads)
  function automatic [63:0] loom_canon_f64(input [63:0] x);
    loom_canon_f64 = (x[62:0] > 63'h7ff0000000000000) ? {x[63], 63'h7ff8000000000000} : x;
  endfunction
`endif"""


def _bits(expr: str, t: Type, b: Optional[SvExprBuilder] = None) -> str:
    """The bits of real expression ``expr`` rounded once to ``t``, NaN made the semantics' quiet NaN."""
    if fmt(t) == "f64":
        if b is not None:
            b.functions["loom_canon_f64"] = CANON64
        return f"loom_canon_f64($realtobits({expr}))"
    return from_f64(f"$realtobits({expr})", t, b)


def _qnan(t: Type) -> str:
    return f"{bits(t)}'h{QNAN[fmt(t)]:x}"


def isnan(x: str, t: Type) -> str:
    w = bits(t)
    return f"({x}[{w - 2}:0] > {w - 1}'h{INF_MAG[fmt(t)]:x})"


def _truncf_mode(info: ScalarInfo) -> str:
    """An arith.truncf's rounding mode; one outside MLIR's enum has no model."""
    try:
        return rounding_mode(dict(info.attrs))
    except ValueError as e:
        raise HdlUnsupported(str(e)) from None


def float_sv(op: str, info: ScalarInfo, a: Sequence[str], b: SvExprBuilder, out_t: Type) -> tuple[str, Type]:
    """The wire holding the result of float op ``op`` (or a float comparison/conversion) on operand wires ``a``;
    an op without a descriptor in the scalar-op table (``loom.semantics.float_ops``) has no model."""
    if op not in FLOAT_OPS:
        raise HdlUnsupported(f"{op} has no descriptor in loom.semantics.float_ops, so no RTL model")
    ins = info.operand_types
    if op in FLOAT_BINARY:
        fmt(out_t)
        expr = f"{_real(a[0], ins[0], b)} {FLOAT_BINARY[op]} {_real(a[1], ins[1], b)}"
        raw = _round_to(b.wire(_F64, f"$realtobits({expr})", behavioural=True), out_t, b)
        return _nan_first(out_t, b, [(a[0], ins[0]), (a[1], ins[1])], raw), out_t
    if op == "arith.negf":  # the sign flipped; a NaN's payload is not kept (the semantics' quiet NaN)
        w = bits(out_t)
        return b.wire(out_t, f"{{~{a[0]}[{w - 1}], {_mag(a[0], out_t)}}}"), out_t
    if op == "math.absf":
        return b.wire(out_t, f"{{1'b0, {_mag(a[0], out_t)}}}"), out_t
    if op == "math.sqrt":  # a negative non-NaN operand gives the positive quiet NaN (the semantics' domain rule)
        raw = b.wire(out_t, _bits(f"$sqrt({_real(a[0], ins[0], b)})", out_t, b), behavioural=True)
        w = bits(out_t)
        neg = f"{a[0]}[{w - 1}] && ({a[0]}[{w - 2}:0] != 0) && !{isnan(a[0], out_t)}"
        return b.wire(out_t, f"({neg}) ? {_qnan(out_t)} : {raw}"), out_t
    if op == "arith.cmpf":
        p = predicate(info, CMPF_PREDICATES)
        t = ins[0]
        nan = f"({isnan(a[0], t)} || {isnan(a[1], t)})"
        if p in ("false", "true"):
            return b.wire(i1, "1'b1" if p == "true" else "1'b0"), i1
        if p in ("ord", "uno"):
            return b.wire(i1, f"!{nan}" if p == "ord" else nan), i1
        rel = {"eq": "==", "gt": ">", "ge": ">=", "lt": "<", "le": "<=", "ne": "!="}[p[1:]]
        c = b.wire(i1, f"{_real(a[0], t, b)} {rel} {_real(a[1], t, b)}", behavioural=True)
        return b.wire(i1, f"!{nan} && {c}" if p[0] == "o" else f"{nan} || {c}"), i1
    if op in ("arith.sitofp", "arith.uitofp"):
        return b.wire(out_t, int_to_float(a[0], ins[0], op == "arith.sitofp", out_t, b), behavioural=True), out_t
    if op == "math.fma":
        return (_fma(a, ins, out_t, b) if fmt(out_t) != "f64" else _fma64(a, out_t, b)), out_t
    mode = _truncf_mode(info) if op == "arith.truncf" else ROUNDING_MODES[0]
    if mode != ROUNDING_MODES[0]:  # a directed truncf: bit logic, no real
        return b.wire(out_t, from_f64(to_f64(a[0], ins[0], b), out_t, b, mode), behavioural=True), out_t
    if op in ("arith.extf", "arith.truncf"):
        return b.wire(out_t, _bits(_real(a[0], ins[0], b), out_t, b), behavioural=True), out_t
    if op in FLOAT_CLASS_SV:
        return b.wire(i1, FLOAT_CLASS_SV[op](a[0], ins[0])), i1
    if op == "math.copysign":  # the magnitude of a (a NaN's is the quiet NaN's), the sign of b: synthesizable
        w = bits(out_t)
        return b.wire(out_t, f"{{{a[1]}[{w - 1}], {_mag(a[0], out_t)}}}"), out_t
    if op in MINMAX:
        return _minmax(op, a, out_t, b), out_t
    if op in LIBM_UNARY or op in LIBM_C_UNARY or op in ("math.exp2", "math.rsqrt"):
        return _libm_unary(op, a[0], ins[0], out_t, b), out_t
    if op in INTEGRAL:
        return _integral(op, a[0], ins[0], out_t, b), out_t
    if op in ("math.powf", "math.fpowi"):
        return _pow(op, a, ins, out_t, b), out_t
    if op == "math.atan2":  # a NaN operand gives the positive quiet NaN; otherwise libm's atan2
        raw = b.wire(out_t, _bits(f"$atan2({_real(a[0], ins[0], b)}, {_real(a[1], ins[1], b)})", out_t, b),
                     behavioural=True)
        return b.wire(out_t, f"({isnan(a[0], ins[0])} || {isnan(a[1], ins[1])}) ? {_qnan(out_t)} : {raw}"), out_t
    if op == "arith.remf":
        return _remf(a, out_t, b), out_t
    if op in ("arith.fptosi", "arith.fptoui"):
        return _fptoi(op, a[0], ins[0], out_t, b), out_t
    raise HdlUnsupported(f"{op} has no RTL model yet")


# ----------------------------------------------------------------------------- more float ops (simulation models
# unless noted). The transcendental ones call the simulator's libm through SV's real math functions (IEEE
# 1800-2017 20.8), as loom.semantics calls it through Python's math module; each rule below is where Python's math
# module answers differently from libm (it raises, and the semantics picks the IEEE result).

# SV real function of each math op whose f64 result the semantics takes from libm (Python's math module)
LIBM_UNARY = {"math.exp": "$exp", "math.log": "$ln", "math.log10": "$log10", "math.sin": "$sin", "math.cos": "$cos",
              "math.tan": "$tan", "math.asin": "$asin", "math.acos": "$acos", "math.atan": "$atan",
              "math.sinh": "$sinh", "math.cosh": "$cosh", "math.tanh": "$tanh", "math.asinh": "$asinh",
              "math.acosh": "$acosh", "math.atanh": "$atanh"}
# the ones IEEE 1800 has no function for: C libm's through loom_libm.c (loom.hdl.datapath.libm_c)
LIBM_C_UNARY = {"math.log2": "log2", "math.log1p": "log1p", "math.expm1": "expm1", "math.cbrt": "cbrt",
                "math.erf": "erf", "math.erfc": "erfc"}
INTEGRAL = ("math.floor", "math.ceil", "math.trunc", "math.round", "math.roundeven")
MINMAX = ("arith.maximumf", "arith.minimumf", "arith.maxf", "arith.minf", "arith.maxnumf", "arith.minnumf")
_F64 = FloatType("f64")


def _sign(x: str, t: Type) -> str:
    return f"{x}[{bits(t) - 1}]"


def _mag(x: str, t: Type) -> str:
    """The magnitude bits of ``x``, a NaN's replaced by the quiet NaN's (the semantics keeps only a NaN's sign)."""
    w = bits(t)
    return f"({isnan(x, t)} ? {w - 1}'h{QNAN[fmt(t)]:x} : {x}[{w - 2}:0])"


def canon(x: str, t: Type) -> str:
    """``x`` with a NaN made the quiet NaN of the same sign (how the semantics encodes every NaN)."""
    return f"{{{_sign(x, t)}, {_mag(x, t)}}}"


FLOAT_CLASS_SV = {
    "math.isnan": lambda x, t: isnan(x, t),
    "math.isinf": lambda x, t: f"({x}[{bits(t) - 2}:0] == {bits(t) - 1}'h{INF_MAG[fmt(t)]:x})",
    "math.isfinite": lambda x, t: f"({x}[{bits(t) - 2}:0] < {bits(t) - 1}'h{INF_MAG[fmt(t)]:x})",
}


def _order_key(x: str, t: Type) -> str:
    """An unsigned key whose order is the float order of non-NaN values, -0 just below +0 (synthesizable)."""
    w = bits(t)
    return f"({_sign(x, t)} ? ~{x} : {{1'b1, {x}[{w - 2}:0]}})"


def _minmax(op: str, a: Sequence[str], t: Type, b: SvExprBuilder) -> str:
    """maximumf/minimumf: a NaN operand gives the positive quiet NaN, -0 < +0; maxnumf/minnumf: a NaN operand
    gives the other operand. Synthesizable: the float order is an unsigned order on re-coded bits."""
    ka, kb = _order_key(a[0], t), _order_key(a[1], t)
    biggest = op in ("arith.maximumf", "arith.maxf", "arith.maxnumf")
    pick = b.wire(t, f"({ka} {'>' if biggest else '<'} {kb}) ? {a[0]} : {a[1]}")
    na, nb = isnan(a[0], t), isnan(a[1], t)
    if op in ("arith.maxnumf", "arith.minnumf"):
        return b.wire(t, f"{na} ? {canon(a[1], t)} : {nb} ? {a[0]} : {pick}")
    return b.wire(t, f"({na} || {nb}) ? {_qnan(t)} : {pick}")


def _round_to(raw64: str, out_t: Type, b: SvExprBuilder) -> str:
    """An f64 bit pattern rounded once to ``out_t`` (NaN handled by the caller: no canonical NaN made here)."""
    if fmt(out_t) == "f64":
        return raw64
    return b.wire(out_t, from_f64(raw64, out_t, b), behavioural=True)


def _from_libm(x_nan: str, x_canon: str, real_expr: str, out_t: Type, b: SvExprBuilder) -> str:
    """The semantics' rule for a libm function of a float: a NaN operand gives itself (``x_canon``), a NaN
    from a non-NaN operand is a domain error and gives the positive quiet NaN (Python raises where libm returns
    a NaN of either sign), anything else is libm's f64 result rounded once to ``out_t``."""
    raw = b.wire(_F64, f"$realtobits({real_expr})", behavioural=True)
    return b.wire(out_t, f"{x_nan} ? {x_canon} : {isnan(raw, _F64)} ? {_qnan(out_t)} : {_round_to(raw, out_t, b)}")


def _libm_c(func: str, args: str, b: SvExprBuilder) -> str:
    """A call of C libm's ``func`` (``loom_libm.c``), declared in the module and its C file noted."""
    b.c_files.add(libm_c.FILE)
    return _call(libm_c.sv_name(func), lambda: libm_c.sv_function(func), args, b)


def _libm_unary(op: str, x: str, t: Type, out_t: Type, b: SvExprBuilder) -> str:
    r = _real(x, t, b)
    if op == "math.rsqrt":  # no _safe1 wrapper: a NaN operand gives the positive quiet NaN; 1/sqrt(-0) = -inf
        return _from_libm(isnan(x, t), _qnan(out_t), f"1.0 / $sqrt({r})", out_t, b)
    if op == "math.exp2":
        call = f"$pow(2.0, {r})"
    elif op in LIBM_C_UNARY:
        call = _libm_c(LIBM_C_UNARY[op], r, b)
    else:
        call = f"{LIBM_UNARY[op]}({r})"
    return _from_libm(isnan(x, t), canon(x, t), call, out_t, b)


ROUND_AWAY = """`ifndef YOSYS
  // round half away from zero of an f64 value (exact: r - trunc(r) is exact for |r| < 2**52, 0 above)
  function automatic real loom_round_away(input real r);
    real t;
  begin
    t = (r < 0.0) ? $ceil(r) : $floor(r);
    if (r - t >= 0.5) t = t + 1.0;
    else if (r - t <= -0.5) t = t - 1.0;
    loom_round_away = t;
  end
  endfunction
`endif"""

ROUND_EVEN = """`ifndef YOSYS
  // round half to even of an f64 value (Python's round(): exact)
  function automatic real loom_round_even(input real r);
    real f, d;
  begin
    f = $floor(r);
    d = r - f;
    if (d > 0.5 || (d == 0.5 && $floor(f / 2.0) * 2.0 != f)) f = f + 1.0;
    loom_round_even = f;
  end
  endfunction
`endif"""


def _integral(op: str, x: str, t: Type, out_t: Type, b: SvExprBuilder) -> str:
    """floor/ceil/trunc/round/roundeven: an integer-valued float with the operand's sign (the semantics'
    copysign); inf and NaN give themselves. The integer is exact in f64 and in the result type."""
    r = _real(x, t, b)
    if op == "math.round":
        b.functions["loom_round_away"] = ROUND_AWAY
        call = f"loom_round_away({r})"
    elif op == "math.roundeven":
        b.functions["loom_round_even"] = ROUND_EVEN
        call = f"loom_round_even({r})"
    else:
        call = {"math.floor": f"$floor({r})", "math.ceil": f"$ceil({r})",
                "math.trunc": f"(({r}) < 0.0 ? $ceil({r}) : $floor({r}))"}[op]
    raw = b.wire(_F64, f"$realtobits({call})", behavioural=True)
    v = _round_to(raw, out_t, b)
    w = bits(out_t)
    finite = FLOAT_CLASS_SV["math.isfinite"](x, t)
    signed = f"{v} ^ {{{v}[{w - 1}] ^ {_sign(x, t)}, {w - 1}'h0}}"  # v with the operand's sign
    return b.wire(out_t, f"{finite} ? ({signed}) : {canon(x, t)}")


def int_to_float(x: str, t: Type, signed: bool, out_t: Type, b: SvExprBuilder) -> str:
    """The ``out_t`` bits of integer wire ``x`` (two's complement when ``signed``): sign and magnitude, the
    magnitude converted unsigned by :func:`int_to_float_function`."""
    wi, name = bits(t), fmt(out_t)
    fn = f"loom_u{wi}_to_{name}"
    mag = b.wire(t, f"{x}[{wi - 1}] ? -{x} : {x}") if signed else x  # -min is min read unsigned: right
    sign = f"{x}[{wi - 1}]" if signed else "1'b0"
    return f"{{{sign}, {_call(fn, lambda: int_to_float_function(wi, name), mag, b)}}}"


def _pow(op: str, a: Sequence[str], ins: Sequence[Type], out_t: Type, b: SvExprBuilder) -> str:
    """powf/fpowi as the semantics' _pow on Python's math.pow: pow(NaN, 0) = pow(1, NaN) = 1, otherwise a NaN
    operand gives itself (x's first); a NaN from non-NaN operands is the positive quiet NaN; the rest (zeros to
    negative powers, overflow, infinities) is what libm returns (C99 Annex F, as Python's rules)."""
    x, t = a[0], ins[0]
    rx = _real(x, t, b)
    if op == "math.fpowi":
        wy = bits(ins[1])
        ry = f"$bitstoreal({int_to_float(a[1], ins[1], True, _F64, b)})"  # float(n), rounded once
        y_nan, y_zero, y_canon = "1'b0", f"({a[1]} == {wy}'h0)", ""
    else:
        ry = _real(a[1], ins[1], b)
        wy = bits(ins[1])
        y_nan, y_zero, y_canon = isnan(a[1], ins[1]), f"({a[1]}[{wy - 2}:0] == {wy - 1}'h0)", canon(a[1], ins[1])
    one = literal(1.0, out_t)
    x_one = f"({x} == {literal(1.0, t)})"
    raw = b.wire(_F64, f"$realtobits($pow({rx}, {ry}))", behavioural=True)
    rest = f"{isnan(raw, _F64)} ? {_qnan(out_t)} : {_round_to(raw, out_t, b)}"
    nan_y = f"{y_nan} ? ({x_one} ? {one} : {y_canon}) : " if y_canon else ""
    return b.wire(out_t, f"{isnan(x, t)} ? ({y_zero} ? {one} : {canon(x, t)}) : {nan_y}{rest}")


FMOD64 = """`ifndef YOSYS
  // fmod of finite f64 a and finite nonzero b, exactly: |a| = ma*2^ea, |b| = mb*2^eb; the remainder of ma*2^(ea-eb)
  // by mb, one doubling at a time, is the result's integer significand at 2^eb (always representable), sign of a
  function automatic [63:0] loom_fmod64(input [63:0] a, input [63:0] b);
    reg [53:0] ma, mb, r; integer ea, eb, i, p, e;
  begin
    ma = (a[62:52] == 11'h0) ? {2'b0, a[51:0]} : {2'b01, a[51:0]};
    mb = (b[62:52] == 11'h0) ? {2'b0, b[51:0]} : {2'b01, b[51:0]};
    ea = (a[62:52] == 11'h0) ? -1074 : $signed({21'h0, a[62:52]}) - 1075;
    eb = (b[62:52] == 11'h0) ? -1074 : $signed({21'h0, b[62:52]}) - 1075;
    if (ea < eb) loom_fmod64 = a;  // then |a| < |b|
    else begin
      r = ma % mb;
      for (i = 0; i < ea - eb; i = i + 1) r = (r << 1) % mb;
      if (r == 54'h0) loom_fmod64 = {a[63] | (b[63] & 1'b0), 63'h0};  // b's sign does not matter
      else begin
        p = 0;
        for (i = 0; i < 53; i = i + 1) if (r[i]) p = i;
        e = p + eb;  // the value is r * 2^eb, its leading bit at 2^e
        if (e >= -1022) begin
          r = r << (52 - p);
          loom_fmod64 = {a[63], 11'(e + 1023), r[51:0]};
        end else begin
          r = r << (eb + 1074);
          loom_fmod64 = {a[63], 11'h0, r[51:0]};
        end
      end
    end
  end
  endfunction
`endif"""


FMA_TIE = """`ifndef YOSYS
  // where the exact p + c lies against s = p + c rounded to f64 (Knuth's TwoSum: p + c = s + e exactly, no
  // overflow): 0 exact, 1 beyond s in magnitude, 2 short of it
  function automatic [1:0] loom_fma_tie(input real p, input real c);
    real s, bp, e;
  begin
    s = p + c;
    bp = s - p;
    e = (p - (s - bp)) + (c - bp);
    loom_fma_tie = (e == 0.0 || e != e) ? 2'd0 : ((e > 0.0) == (s > 0.0)) ? 2'd1 : 2'd2;
  end
  endfunction
`endif"""


def _nan_first(t: Type, b: SvExprBuilder, operands: Sequence[tuple[str, Type]], raw: str) -> str:
    """The semantics' NaN rule over ``raw`` (addf/subf/mulf/divf/fma): a NaN operand gives the first one (in
    ``operands`` order) as the quiet NaN of ``t`` with its sign, else a NaN result (an invalid operation) is the
    positive quiet NaN. The simulator's own real arithmetic would not do: Verilator commutes a ``*`` or ``+``
    and the invalid-operation NaN's sign is the host's."""
    expr = f"{isnan(raw, t)} ? {_qnan(t)} : {raw}"
    for x, xt in reversed(operands):
        expr = f"{isnan(x, xt)} ? {{{_sign(x, xt)}, {bits(t) - 1}'h{QNAN[fmt(t)]:x}}} : {expr}"
    return b.wire(t, expr)


def _fma(a: Sequence[str], ins: Sequence[Type], t: Type, b: SvExprBuilder) -> str:
    """math.fma on bf16/f16/f32, fused like the semantics (exact, rounded once): the product of two such values
    is exact in f64, the sum s = p + c is rounded to f64, and TwoSum's exact error e says which side of s the
    exact sum lies; rounding s to the result type only differs from rounding the exact sum when s is a tie of
    that type (every tie is an f64 value), and then e breaks it."""
    name = fmt(t)
    prod = f"({_real(a[0], ins[0], b)} * {_real(a[1], ins[1], b)})"
    c = _real(a[2], ins[2], b)
    tie = _call("loom_fma_tie", lambda: FMA_TIE, f"{prod}, {c}", b)
    raw = b.wire(t, _call(f"loom_f64_to_{name}_tb", lambda: from_f64_function(name, tie_break=True),
                          f"$realtobits({prod} + {c}), {tie}", b), behavioural=True)
    return _nan_first(t, b, [(a[0], ins[0]), (a[1], ins[1]), (a[2], ins[2])], raw)


def _fma64(a: Sequence[str], t: Type, b: SvExprBuilder) -> str:
    """math.fma on f64: C's fma (exact, rounded once) where the semantics computes the exact value; where it
    evaluates ``a*b + c`` in floats (an operand not finite, or a zero factor: the same IEEE result fused or not,
    NaN propagation and signed zeros included), so does the model."""
    r = [_real(x, t, b) for x in a]
    special = " || ".join([f"!{FLOAT_CLASS_SV['math.isfinite'](x, t)}" for x in a]
                          + [f"({x}[62:0] == 63'h0)" for x in a[:2]])
    fused = f"$realtobits({_libm_c('fma', ', '.join(r), b)})"
    plain = f"$realtobits({r[0]} * {r[1]} + {r[2]})"
    raw = b.wire(t, f"({special}) ? {plain} : {fused}", behavioural=True)  # its NaNs: _nan_first below
    return _nan_first(t, b, [(a[0], t), (a[1], t), (a[2], t)], raw)


def _remf(a: Sequence[str], t: Type, b: SvExprBuilder) -> str:
    """remf = the semantics' _fmod: NaN operands, a zero divisor or an infinite dividend give the positive quiet
    NaN; an infinite divisor gives the dividend; otherwise C's fmod, which is exact (computed on the integers)."""
    b.functions["loom_fmod64"] = FMOD64
    w = bits(t)
    raw = b.wire(t, from_f64(f"loom_fmod64({to_f64(a[0], t, b)}, {to_f64(a[1], t, b)})", t, b), behavioural=True)
    bad = (f"{isnan(a[0], t)} || {isnan(a[1], t)} || ({a[1]}[{w - 2}:0] == {w - 1}'h0) || "
           f"{FLOAT_CLASS_SV['math.isinf'](a[0], t)}")
    return b.wire(t, f"({bad}) ? {_qnan(t)} : {FLOAT_CLASS_SV['math.isinf'](a[1], t)} ? {a[0]} : {raw}")


def _fptoi(op: str, x: str, t: Type, out_t: Type, b: SvExprBuilder) -> str:
    """fptosi/fptoui of any width: the f64 value (exact) through :func:`fptoi_function`."""
    wo, signed = bits(out_t), op == "arith.fptosi"
    fn = f"loom_f64_to_{'s' if signed else 'u'}{wo}"
    return b.wire(out_t, _call(fn, lambda: fptoi_function(wo, signed), to_f64(x, t, b), b), behavioural=True)