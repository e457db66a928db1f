"""One descriptor per scalar integer op: its Python evaluation, Z3 term, SystemVerilog expression and UB rules.

``INT_OPS[name]`` is the single source every engine reads for an integer ``arith``/``math`` op:

* ``py`` -- the Python evaluation (the builder in ``loom.semantics.scalar``: ``scalar_fn`` dispatches to it;
  the SCF interpreter and the token simulator run it);
* ``z3(args, info)`` -- the op's result ``info.result_index`` as a Z3 term over bit-vector operands, each as
  wide as its type's ``bus_width`` (``loom.semantics.layout``). Two operands are not bit-vectors:
  ``arith.select``'s condition is a Z3 Bool (and its data operands are passed through as they are), and
  ``arith.cmpi``'s result is a Z3 Bool; the caller converts to and from its own encoding of ``i1``. Where the
  Python evaluation raises (``traps``: integer division by zero) the term is the SMT-LIB total answer, which
  no run reaches; a caller that must not rely on it guards the term with the trap rule's ``term``. The Z3
  translator of the operator tables (``loom.verify.z3model.exact_scalar``) and the length calculus
  (``loom.verify.lengths.values``) read it;
* ``sv(a, info, b)`` -- the SystemVerilog of the result over operand wires ``a``: it declares its wires through
  the builder ``b`` (``wire(type, rhs)``, ``functions``, ``hazards``: the duck type
  ``loom.hdl.datapath.expr.SvExprBuilder``) and returns the result wire. Where the Python evaluation raises,
  the expression gives 0 and records the hazard (the component's runtime error). The HDL datapath
  (``loom.hdl.datapath.scalar``) reads it;
* ``rules`` -- where MLIR leaves the op undefined (``loom.semantics.undefined``: ``ub_rules`` picks the ones an
  op's attributes and types enable, ``UbRule.holds/term/sv`` are the condition in each engine); ``traps`` the
  ones the fixed-answer semantics still stops at (the others have a fixed answer, documented in
  ``loom.semantics.scalar``).

Float ops are described in ``loom.semantics.float_ops`` (``FLOAT_OPS``: the Python evaluation, the exact IEEE
term, the RTL model family, the cast rule). ``arith.constant`` (a source, no
operands) and ``arith.bitcast`` (a re-interpretation between formats) are not integer ops either.
``tests/unit/semantics/test_semantics_descriptors.py`` checks the three forms against each other on generated vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol, Sequence

import z3

from loom.ir.types import IntegerType, Type, i1
from loom.semantics.expr import ScalarInfo
from loom.semantics.layout import bus_width
from loom.semantics.predicates import CMPI_PREDICATES, predicate_name
from loom.semantics.scalar import _BUILDERS, DIV_BY_ZERO, ScalarFn
from loom.semantics.undefined import _RULES, UbRule


class SvBuilder(Protocol):
    """What an op's SV expression needs from the module it is emitted into."""

    functions: dict[str, str]
    hazards: list[tuple[str, str, str]]

    def wire(self, t: Type, rhs: str) -> str: ...


Z3Term = Callable[[Sequence[z3.ExprRef], ScalarInfo], z3.ExprRef]
SvExpr = Callable[[Sequence[str], ScalarInfo, SvBuilder], str]


@dataclass(frozen=True)
class IntOp:
    """One scalar integer op (see the module docstring)."""

    name: str
    arity: int
    z3: Z3Term
    sv: SvExpr
    bool_result: bool = False  # the Z3 term is a Bool (cmpi)

    @property
    def py(self) -> Callable[[Any], ScalarFn]:
        """The Python evaluation's builder (``OpSig -> fn(values) -> results``), as ``scalar_fn`` runs it."""
        return _BUILDERS[self.name]

    @property
    def rules(self) -> tuple[UbRule, ...]:
        """Every undefined case the op can have (``ub_rules`` selects by attributes and types)."""
        return _RULES.get(self.name, ())

    @property
    def traps(self) -> tuple[UbRule, ...]:
        """The undefined cases where the Python evaluation raises (integer division by zero)."""
        return tuple(r for r in self.rules if r.code == DIV_BY_ZERO)


# ----------------------------------------------------------------------------- shared decoders


def result_type(info: ScalarInfo) -> Type:
    return info.result_types[info.result_index]


def operand_width(info: ScalarInfo) -> int:
    """The bus width of operand 0 (of the result when the op has no operands)."""
    return bus_width(info.operand_types[0]) if info.operand_types else bus_width(result_type(info))


def cmpi_predicate(info: ScalarInfo) -> str:
    """The cmpi predicate of ``info``; ValueError when the attribute names none."""
    attrs = dict(info.attrs)
    p = predicate_name(attrs, CMPI_PREDICATES)
    if p is None:
        raise ValueError(f"predicate {attrs.get('predicate')}")
    return p


# ----------------------------------------------------------------------------- Z3 terms

# the one Z3 reading of the cmpi predicates (the ranking-function search of loom.verify.lengths.ranking reads it too)
CMPI_Z3: dict[str, Callable[[z3.BitVecRef, z3.BitVecRef], z3.BoolRef]] = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b,
    "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b,
    "sge": lambda a, b: a >= b,
    "ult": z3.ULT,
    "ule": z3.ULE,
    "ugt": z3.UGT,
    "uge": z3.UGE,
}


def _w(info: ScalarInfo) -> int:
    return bus_width(result_type(info))


def _binary_z3(f: Callable[[z3.BitVecRef, z3.BitVecRef, int], z3.ExprRef]) -> Z3Term:
    return lambda t, info: f(t[0], t[1], _w(info))


def _ext_z3(signed: bool) -> Z3Term:
    def term(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
        a, w = t[0], _w(info)
        if a.size() >= w:
            return z3.Extract(w - 1, 0, a) if a.size() > w else a
        return z3.SignExt(w - a.size(), a) if signed else z3.ZeroExt(w - a.size(), a)

    return term


def _ceil_floor_z3(name: str) -> Z3Term:
    """ceildivui / ceildivsi / floordivsi from the truncating quotient and remainder (as the SV computes them)."""

    def term(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
        a, b = t[0], t[1]
        w = a.size()
        one, zero = z3.BitVecVal(1, w), z3.BitVecVal(0, w)
        if name == "arith.ceildivui":
            return z3.UDiv(a, b) + z3.If(z3.URem(a, b) != 0, one, zero)
        q, inexact = a / b, z3.SRem(a, b) != 0
        same_sign = (a < 0) == (b < 0)
        if name == "arith.ceildivsi":
            return q + z3.If(z3.And(inexact, same_sign), one, zero)
        return q - z3.If(z3.And(inexact, z3.Not(same_sign)), one, zero)

    return term


def _bit(t: z3.BitVecRef, i: int) -> z3.BoolRef:
    return z3.Extract(i, i, t) == 1


def _count_z3(name: str) -> Z3Term:
    def term(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
        a = t[0]
        w = a.size()
        if name == "math.ctpop":
            bits = [z3.ZeroExt(w - 1, z3.Extract(i, i, a)) if w > 1 else z3.Extract(i, i, a) for i in range(w)]
            return z3.Sum(bits) if len(bits) > 1 else bits[0]
        r: z3.ExprRef = z3.BitVecVal(w, w) if w > 1 else z3.BitVecVal(1, 1)
        order = range(w) if name == "math.ctlz" else reversed(range(w))  # the last bit tried decides
        for i in order:
            r = z3.If(_bit(a, i), z3.BitVecVal(w - 1 - i if name == "math.ctlz" else i, w), r)
        return r

    return term


def _ipowi_z3(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
    """Power by squaring mod 2^w; a negative exponent: 1/x truncated (x = 0 traps: division by zero)."""
    x, e = t[0], t[1]
    w = x.size()
    one = z3.BitVecVal(1, w)
    r, p = one, x
    for i in range(w - 1):
        r = z3.If(_bit(e, i), r * p, r)
        p = p * p
    negative = z3.If(x == 1, one, z3.If(x == z3.BitVecVal(-1, w), z3.If(_bit(e, 0), z3.BitVecVal(-1, w), one),
                                        z3.BitVecVal(0, w)))
    return z3.If(e < 0, negative, r)


def _extended_z3(name: str) -> Z3Term:
    def term(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
        a, b = t[0], t[1]
        w = a.size()
        if name == "arith.addui_extended":
            s = z3.ZeroExt(1, a) + z3.ZeroExt(1, b)
            return z3.Extract(w - 1, 0, s) if info.result_index == 0 else z3.Extract(w, w, s)
        ext = z3.SignExt if name == "arith.mulsi_extended" else z3.ZeroExt
        p = ext(w, a) * ext(w, b)
        return z3.Extract(w - 1, 0, p) if info.result_index == 0 else z3.Extract(2 * w - 1, w, p)

    return term


# ----------------------------------------------------------------------------- SystemVerilog

SIGNED_CMP = {"slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}
UNSIGNED_CMP = {"ult": "<", "ule": "<=", "ugt": ">", "uge": ">=", "eq": "==", "ne": "!="}
PLAIN = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.andi": "&", "arith.ori": "|",
         "arith.xori": "^"}
DIVS = ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.ceildivui",
        "arith.floordivsi")


def _plain_sv(name: str) -> SvExpr:
    return lambda a, info, b: b.wire(result_type(info), f"{a[0]} {PLAIN[name]} {a[1]}")


def _shift_sv(name: str) -> SvExpr:
    def sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
        out_t, w = result_type(info), operand_width(info)
        if name == "arith.shli":
            return b.wire(out_t, f"({a[1]} >= {w}'d{w}) ? {w}'h0 : ({a[0]} << {a[1]})")
        if name == "arith.shrui":
            return b.wire(out_t, f"({a[1]} >= {w}'d{w}) ? {w}'h0 : ({a[0]} >> {a[1]})")
        sh = b.wire(out_t, f"$unsigned($signed({a[0]}) >>> {a[1]})")
        return b.wire(out_t, f"({a[1]} >= {w}'d{w}) ? {{{w}{{{a[0]}[{w - 1}]}}}} : {sh}")

    return sv


def _minmax_sv(name: str) -> SvExpr:
    def sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
        out_t = result_type(info)
        if name in ("arith.maxsi", "arith.minsi"):
            lt = b.wire(i1, f"$signed({a[0]}) {'>=' if name == 'arith.maxsi' else '<='} $signed({a[1]})")
            return b.wire(out_t, f"{lt} ? {a[0]} : {a[1]}")
        return b.wire(out_t, f"({a[0]} {'>=' if name == 'arith.maxui' else '<='} {a[1]}) ? {a[0]} : {a[1]}")

    return sv


def _division_sv(name: str) -> SvExpr:
    def sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
        out_t, w = result_type(info), operand_width(info)
        x, y = a[0], a[1]
        zero = f"({y} == {w}'h0)"
        b.hazards.append((zero, DIV_BY_ZERO, f"{name}: integer division by zero"))
        unsigned = name in ("arith.divui", "arith.remui", "arith.ceildivui")
        sx, sy = (x, y) if unsigned else (f"$signed({x})", f"$signed({y})")

        def q() -> str:  # only the quotient and remainder wires the op reads are declared (no unused logic)
            return b.wire(out_t, f"{sx} / {sy}" if unsigned else f"$unsigned({sx} / {sy})")

        def r() -> str:
            return b.wire(out_t, f"{sx} % {sy}" if unsigned else f"$unsigned({sx} % {sy})")

        if name in ("arith.divui", "arith.divsi"):
            res = q()
        elif name in ("arith.remui", "arith.remsi"):
            res = r()
        elif name == "arith.ceildivui":
            res = f"{q()} + (({r()} != {w}'h0) ? {w}'h1 : {w}'h0)"
        elif name == "arith.ceildivsi":  # truncated quotient, plus one when inexact and the exact quotient is positive
            res = f"{q()} + ((({r()} != {w}'h0) && ({x}[{w - 1}] == {y}[{w - 1}])) ? {w}'h1 : {w}'h0)"
        else:  # floordivsi: minus one when inexact and negative
            res = f"{q()} - ((({r()} != {w}'h0) && ({x}[{w - 1}] != {y}[{w - 1}])) ? {w}'h1 : {w}'h0)"
        return b.wire(out_t, f"{zero} ? {w}'h0 : ({res})")

    return sv


def _cmpi_sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
    p = cmpi_predicate(info)
    if p in SIGNED_CMP:
        return b.wire(i1, f"$signed({a[0]}) {SIGNED_CMP[p]} $signed({a[1]})")
    return b.wire(i1, f"{a[0]} {UNSIGNED_CMP[p]} {a[1]}")


def _ext_sv(signed: bool) -> SvExpr:
    def sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
        out_t, w = result_type(info), operand_width(info)
        ow = bus_width(out_t)
        if ow <= w:
            return b.wire(out_t, f"{a[0]}[{ow - 1}:0]")
        fill = f"{a[0]}[{w - 1}]" if signed else "1'b0"
        return b.wire(out_t, f"{{{{{ow - w}{{{fill}}}}}, {a[0]}}}")

    return sv


def _count_fn(op: str, w: int, b: SvBuilder) -> str:
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


def _count_sv(name: str) -> SvExpr:
    return lambda a, info, b: b.wire(result_type(info), f"{_count_fn(name, operand_width(info), b)}({a[0]})")


def _ipowi_sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
    """Integer power mod 2^w; a negative exponent gives 1/base truncated (0 base: division by zero)."""
    w = operand_width(info)
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
    return b.wire(result_type(info), f"{name}({a[0]}, {a[1]})")


def _absi_sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
    w = operand_width(info)
    return b.wire(result_type(info), f"{a[0]}[{w - 1}] ? -{a[0]} : {a[0]}")


def _addui_extended_sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
    w = operand_width(info)
    s = b.wire(IntegerType(w + 1), f"{{1'b0, {a[0]}}} + {{1'b0, {a[1]}}}")
    return b.wire(result_type(info), f"{s}[{w - 1}:0]") if info.result_index == 0 else b.wire(i1, f"{s}[{w}]")


def _mul_extended_sv(name: str) -> SvExpr:
    def sv(a: Sequence[str], info: ScalarInfo, b: SvBuilder) -> str:
        w = operand_width(info)
        if name == "arith.mulsi_extended":
            p = b.wire(IntegerType(2 * w), f"$unsigned($signed({{{{{w}{{{a[0]}[{w - 1}]}}}}, {a[0]}}}) * "
                                            f"$signed({{{{{w}{{{a[1]}[{w - 1}]}}}}, {a[1]}}}))")
        else:
            p = b.wire(IntegerType(2 * w), f"{{{w}'h0, {a[0]}}} * {{{w}'h0, {a[1]}}}")
        hi = info.result_index == 1
        return b.wire(result_type(info), f"{p}[{2 * w - 1}:{w}]" if hi else f"{p}[{w - 1}:0]")

    return sv


# ----------------------------------------------------------------------------- the table


def _table() -> dict[str, IntOp]:
    ops: list[IntOp] = []
    arith = {
        "arith.addi": lambda a, b, w: a + b,
        "arith.subi": lambda a, b, w: a - b,
        "arith.muli": lambda a, b, w: a * b,
        "arith.andi": lambda a, b, w: a & b,
        "arith.ori": lambda a, b, w: a | b,
        "arith.xori": lambda a, b, w: a ^ b,
    }
    ops += [IntOp(n, 2, _binary_z3(f), _plain_sv(n)) for n, f in arith.items()]
    minmax = {
        "arith.maxsi": lambda a, b, w: z3.If(a >= b, a, b),
        "arith.minsi": lambda a, b, w: z3.If(a <= b, a, b),
        "arith.maxui": lambda a, b, w: z3.If(z3.UGE(a, b), a, b),
        "arith.minui": lambda a, b, w: z3.If(z3.ULE(a, b), a, b),
    }
    ops += [IntOp(n, 2, _binary_z3(f), _minmax_sv(n)) for n, f in minmax.items()]
    # a shift by the width or more gives 0, 0 and the sign fill: the semantics' fixed answers are SMT-LIB's
    # bvshl, bvlshr and bvashr exactly, so the plain terms need no guard
    shifts = {
        "arith.shli": lambda a, b, w: a << b,
        "arith.shrui": lambda a, b, w: z3.LShR(a, b),
        "arith.shrsi": lambda a, b, w: a >> b,
    }
    ops += [IntOp(n, 2, _binary_z3(f), _shift_sv(n)) for n, f in shifts.items()]
    divs = {
        "arith.divui": lambda a, b, w: z3.UDiv(a, b),
        "arith.remui": lambda a, b, w: z3.URem(a, b),
        "arith.divsi": lambda a, b, w: a / b,  # bvsdiv truncates toward zero; INT_MIN / -1 wraps to INT_MIN
        "arith.remsi": lambda a, b, w: z3.SRem(a, b),  # the sign of the dividend
    }
    ops += [IntOp(n, 2, _binary_z3(f), _division_sv(n)) for n, f in divs.items()]
    ops += [IntOp(n, 2, _ceil_floor_z3(n), _division_sv(n))
            for n in ("arith.ceildivui", "arith.ceildivsi", "arith.floordivsi")]
    ops.append(IntOp("arith.cmpi", 2, lambda t, info: CMPI_Z3[cmpi_predicate(info)](t[0], t[1]), _cmpi_sv,
                     bool_result=True))
    ops.append(IntOp("arith.select", 3, lambda t, info: z3.If(t[0], t[1], t[2]),
                     lambda a, info, b: b.wire(result_type(info), f"{a[0]} ? {a[1]} : {a[2]}")))
    ops += [IntOp(n, 1, _ext_z3(True), _ext_sv(True)) for n in ("arith.extsi", "arith.index_cast")]
    ops += [IntOp(n, 1, _ext_z3(False), _ext_sv(False)) for n in ("arith.extui", "arith.trunci",
                                                                  "arith.index_castui")]
    ops.append(IntOp("math.absi", 1, lambda t, info: z3.If(t[0] < 0, -t[0], t[0]), _absi_sv))
    ops += [IntOp(n, 1, _count_z3(n), _count_sv(n)) for n in ("math.ctpop", "math.ctlz", "math.cttz")]
    ops.append(IntOp("math.ipowi", 2, _ipowi_z3, _ipowi_sv))
    ops.append(IntOp("arith.addui_extended", 2, _extended_z3("arith.addui_extended"), _addui_extended_sv))
    ops += [IntOp(n, 2, _extended_z3(n), _mul_extended_sv(n)) for n in ("arith.mului_extended",
                                                                       "arith.mulsi_extended")]
    return {o.name: o for o in ops}


INT_OPS: dict[str, IntOp] = _table()


def int_op(name: str) -> Optional[IntOp]:
    """The descriptor of an integer op, None for any other op."""
    return INT_OPS.get(name)


__all__ = ["CMPI_Z3", "DIVS", "INT_OPS", "IntOp", "PLAIN", "SIGNED_CMP", "SvBuilder", "UNSIGNED_CMP",
           "cmpi_predicate", "int_op", "operand_width", "result_type"]
