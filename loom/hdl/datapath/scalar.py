"""``scalar:<op>`` -> SystemVerilog, bit-exact with ``loom.semantics.scalar`` (floats: ``loom.hdl.datapath.floats``).

Integer ops are synthesizable. Signed arithmetic always gets a wire of its own
(an SV expression mixing signed and unsigned operands is evaluated unsigned).
Division and remainder by zero give 0 and raise the ``RT_ARITH_DIV_BY_ZERO``
hazard, which the component reports as a runtime error exactly where the
simulator raises it. Floats (f32, f64) are behavioural simulation models.
"""

from __future__ import annotations

from typing import Sequence

from loom.hdl.datapath.floats import canon, float_sv
from loom.hdl.datapath.expr import CMPI_PREDICATES, HdlUnsupported, SvExprBuilder, bits, predicate
from loom.ir.types import FloatType, IntegerType, Type, i1
from loom.semantics.expr import ScalarInfo
from loom.semantics.scalar import DIV_BY_ZERO

SIGNED_CMP = {"slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}
UNSIGNED_CMP = {"ult": "<", "ule": "<=", "ugt": ">", "uge": ">=", "eq": "==", "ne": "!="}
PLAIN = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.andi": "&", "arith.ori": "|",
         "arith.xori": "^"}
DIVS = ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.ceildivui",
        "arith.floordivsi")


def scalar_sv(op: str, info: ScalarInfo, a: Sequence[str], b: SvExprBuilder) -> tuple[str, Type]:
    """The wire holding result ``info.result_index`` of ``op`` applied to the operand wires ``a``."""
    out_t = info.result_types[info.result_index]
    ow = bits(out_t)
    ins = info.operand_types
    w = bits(ins[0]) if ins else ow
    if op in PLAIN:
        return b.wire(out_t, f"{a[0]} {PLAIN[op]} {a[1]}"), out_t
    if op in DIVS:
        return _division(op, a, w, out_t, b), out_t
    if op == "arith.shli":
        return b.wire(out_t, f"({a[1]} >= {w}'d{w}) ? {w}'h0 : ({a[0]} << {a[1]})"), out_t
    if op == "arith.shrui":
        return b.wire(out_t, f"({a[1]} >= {w}'d{w}) ? {w}'h0 : ({a[0]} >> {a[1]})"), out_t
    if op == "arith.shrsi":
        sh = b.wire(out_t, f"$unsigned($signed({a[0]}) >>> {a[1]})")
        return b.wire(out_t, f"({a[1]} >= {w}'d{w}) ? {{{w}{{{a[0]}[{w - 1}]}}}} : {sh}"), out_t
    if op in ("arith.maxsi", "arith.minsi"):
        lt = b.wire(i1, f"$signed({a[0]}) {'>=' if op == 'arith.maxsi' else '<='} $signed({a[1]})")
        return b.wire(out_t, f"{lt} ? {a[0]} : {a[1]}"), out_t
    if op in ("arith.maxui", "arith.minui"):
        return b.wire(out_t, f"({a[0]} {'>=' if op == 'arith.maxui' else '<='} {a[1]}) ? {a[0]} : {a[1]}"), out_t
    if op == "arith.cmpi":
        p = predicate(info, CMPI_PREDICATES)
        if p in SIGNED_CMP:
            return b.wire(i1, f"$signed({a[0]}) {SIGNED_CMP[p]} $signed({a[1]})"), i1
        return b.wire(i1, f"{a[0]} {UNSIGNED_CMP[p]} {a[1]}"), i1
    if op == "arith.select":
        return b.wire(out_t, f"{a[0]} ? {a[1]} : {a[2]}"), out_t
    if op in ("arith.extsi", "arith.index_cast", "arith.extui", "arith.trunci", "arith.index_castui"):
        if ow <= w:
            return b.wire(out_t, f"{a[0]}[{ow - 1}:0]"), out_t
        fill = f"{a[0]}[{w - 1}]" if op in ("arith.extsi", "arith.index_cast") else "1'b0"
        return b.wire(out_t, f"{{{{{ow - w}{{{fill}}}}}, {a[0]}}}"), out_t
    if op == "arith.bitcast":
        if isinstance(out_t, FloatType):  # a float value's NaN is always the quiet NaN (loom.semantics.scalar)
            return b.wire(out_t, canon(a[0], out_t)), out_t
        return b.wire(out_t, a[0]), out_t
    if op == "math.absi":
        return b.wire(out_t, f"{a[0]}[{w - 1}] ? -{a[0]} : {a[0]}"), out_t
    if op in ("math.ctpop", "math.ctlz", "math.cttz"):
        return b.wire(out_t, f"{_count_fn(op, w, b)}({a[0]})"), out_t
    if op == "arith.addui_extended":
        s = b.wire(IntegerType(w + 1), f"{{1'b0, {a[0]}}} + {{1'b0, {a[1]}}}")
        return (b.wire(out_t, f"{s}[{w - 1}:0]") if info.result_index == 0 else b.wire(i1, f"{s}[{w}]")), out_t
    if op in ("arith.mului_extended", "arith.mulsi_extended"):
        if op == "arith.mulsi_extended":
            p = b.wire(IntegerType(2 * w), f"$unsigned($signed({{{{{w}{{{a[0]}[{w - 1}]}}}}, {a[0]}}}) * "
                                            f"$signed({{{{{w}{{{a[1]}[{w - 1}]}}}}, {a[1]}}}))")
        else:
            p = b.wire(IntegerType(2 * w), f"{{{w}'h0, {a[0]}}} * {{{w}'h0, {a[1]}}}")
        hi = info.result_index == 1
        return b.wire(out_t, f"{p}[{2 * w - 1}:{w}]" if hi else f"{p}[{w - 1}:0]"), out_t
    if op == "math.ipowi":
        return b.wire(out_t, _ipowi(a, w, b)), out_t
    if op == "arith.constant":
        raise HdlUnsupported("arith.constant with operands")
    return float_sv(op, info, a, b, out_t)


def _division(op: str, a: Sequence[str], w: int, out_t: Type, b: SvExprBuilder) -> str:
    x, y = a[0], a[1]
    zero = f"({y} == {w}'h0)"
    b.hazards.append((zero, DIV_BY_ZERO, f"{op}: integer division by zero"))
    unsigned = op in ("arith.divui", "arith.remui", "arith.ceildivui")
    sx, sy = (x, y) if unsigned else (f"$signed({x})", f"$signed({y})")

    def q() -> str:  # only the quotient and remainder wires the op reads are declared (no unused logic)
        return b.wire(out_t, f"{sx} / {sy}" if unsigned else f"$unsigned({sx} / {sy})")

    def r() -> str:
        return b.wire(out_t, f"{sx} % {sy}" if unsigned else f"$unsigned({sx} % {sy})")

    if op in ("arith.divui", "arith.divsi"):
        res = q()
    elif op in ("arith.remui", "arith.remsi"):
        res = r()
    elif op == "arith.ceildivui":
        res = f"{q()} + (({r()} != {w}'h0) ? {w}'h1 : {w}'h0)"
    elif op == "arith.ceildivsi":  # truncated quotient, plus one when inexact and the exact quotient is positive
        res = f"{q()} + ((({r()} != {w}'h0) && ({x}[{w - 1}] == {y}[{w - 1}])) ? {w}'h1 : {w}'h0)"
    else:  # floordivsi: minus one when inexact and negative
        res = f"{q()} - ((({r()} != {w}'h0) && ({x}[{w - 1}] != {y}[{w - 1}])) ? {w}'h1 : {w}'h0)"
    return b.wire(out_t, f"{zero} ? {w}'h0 : ({res})")


def _count_fn(op: str, w: int, b: SvExprBuilder) -> str:
    """A per-width SV function counting ones / leading zeros / trailing zeros (loop, synthesizable)."""
    name = f"f_{op.split('.')[1]}_{w}"
    if name not in b.functions:
        if op == "math.ctpop":
            bit = f"{{{w - 1}'h0, x[i]}}" if w > 1 else "x[i]"
            body = f"    c = 0;\n    for (int i = 0; i < {w}; i++) c = c + {bit};"
        elif op == "math.ctlz":
            body = (f"    c = 0; seen = 1'b0;\n    for (int i = {w - 1}; i >= 0; i--) begin\n"
                    f"      if (x[i]) seen = 1'b1;\n      if (!seen) c = c + 1;\n    end")
        else:
            body = (f"    c = 0; seen = 1'b0;\n    for (int i = 0; i < {w}; i++) begin\n"
                    f"      if (x[i]) seen = 1'b1;\n      if (!seen) c = c + 1;\n    end")
        b.functions[name] = (f"  function automatic [{w - 1}:0] {name}(input [{w - 1}:0] x);\n"
                             f"    reg [{w - 1}:0] c;{'' if op == 'math.ctpop' else ' reg seen;'}\n  begin\n{body}\n"
                             f"    {name} = c;\n  end\n"
                             f"  endfunction")
    return name


def _ipowi(a: Sequence[str], w: int, b: SvExprBuilder) -> str:
    """Integer power mod 2^w; a negative exponent gives 1/base truncated (0 base: division by zero)."""
    name = f"f_ipowi_{w}"
    if name not in b.functions:
        b.functions[name] = (
            f"  function automatic [{w - 1}:0] {name}(input [{w - 1}:0] x, input [{w - 1}:0] e);\n"
            f"    reg [{w - 1}:0] r, p;\n  begin\n"
            f"    if (e[{w - 1}]) begin\n"
            f"      if (x == {w}'h1) r = {w}'h1;\n"
            f"      else if (x == {{{w}{{1'b1}}}}) r = e[0] ? {{{w}{{1'b1}}}} : {w}'h1;\n"
            f"      else r = {w}'h0;\n"
            f"    end else begin\n"
            f"      r = {w}'h1; p = x;\n"
            f"      for (int i = 0; i < {w - 1}; i++) begin\n"
            f"        if (e[i]) r = r * p;\n        p = p * p;\n      end\n"
            f"    end\n    {name} = r;\n  end\n  endfunction")
    b.hazards.append((f"({a[0]} == {w}'h0 && {a[1]}[{w - 1}])", DIV_BY_ZERO, "math.ipowi: integer division by zero"))
    return f"{name}({a[0]}, {a[1]})"
