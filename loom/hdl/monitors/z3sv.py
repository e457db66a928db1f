"""A Z3 term over 64-bit operands printed as a SystemVerilog expression with the same value.

The stream termination table (``loom.verify.lemmas.termination``) states its preconditions and progress
relations as Z3 terms; the RTL monitors state the same conditions, so they print those terms rather than
restate them. Every arithmetic result is a concatenation ``{a op b}``, whose operands are self-determined (SV
would otherwise widen them to the widest one in the expression and change wrap-around; Z3's operands of one
operation have one width, so the result has exactly its width), signed operations go through
``$signed`` and unsigned ones through ``$unsigned``; mathematical integers (``BV2Int``, the ``int`` domain)
become ``INT_W``-bit signed values, wide enough for every product and sum of two 64-bit operands.
"""

from __future__ import annotations

import z3

INT_W = 200

_CMP = {z3.Z3_OP_SLT: "<", z3.Z3_OP_SLEQ: "<=", z3.Z3_OP_SGT: ">", z3.Z3_OP_SGEQ: ">=",
        z3.Z3_OP_ULT: "<", z3.Z3_OP_ULEQ: "<=", z3.Z3_OP_UGT: ">", z3.Z3_OP_UGEQ: ">=",
        z3.Z3_OP_LT: "<", z3.Z3_OP_LE: "<=", z3.Z3_OP_GT: ">", z3.Z3_OP_GE: ">="}
_UNSIGNED = {z3.Z3_OP_ULT, z3.Z3_OP_ULEQ, z3.Z3_OP_UGT, z3.Z3_OP_UGEQ}
_ARITH = {z3.Z3_OP_BADD: "+", z3.Z3_OP_BSUB: "-", z3.Z3_OP_BMUL: "*", z3.Z3_OP_BAND: "&", z3.Z3_OP_BOR: "|",
          z3.Z3_OP_BXOR: "^", z3.Z3_OP_ADD: "+", z3.Z3_OP_SUB: "-", z3.Z3_OP_MUL: "*"}


class Unprintable(Exception):
    """The term uses an operation this printer does not render."""


def _width(e: z3.ExprRef) -> int:
    return e.size() if z3.is_bv(e) else INT_W


def to_sv(e: z3.ExprRef, env: dict[str, str]) -> str:
    """SV text of ``e``; ``env`` maps each free constant's name to an SV expression of its width."""
    k = e.decl().kind() if z3.is_app(e) else None
    ch = e.children() if z3.is_app(e) else []
    rec = lambda x: to_sv(x, env)  # noqa: E731
    if z3.is_true(e):
        return "1'b1"
    if z3.is_false(e):
        return "1'b0"
    if z3.is_bv_value(e):
        return f"{e.size()}'h{e.as_long():x}"
    if z3.is_int_value(e):
        v = e.as_long()
        return f"{INT_W}'sd{v}" if v >= 0 else f"(-{INT_W}'sd{-v})"
    if z3.is_const(e) and k == z3.Z3_OP_UNINTERPRETED:
        name = e.decl().name()
        if name not in env:
            raise Unprintable(f"free constant {name}")
        return env[name]
    if k == z3.Z3_OP_AND:
        return "(" + " && ".join(rec(c) for c in ch) + ")"
    if k == z3.Z3_OP_OR:
        return "(" + " || ".join(rec(c) for c in ch) + ")"
    if k == z3.Z3_OP_NOT:
        return f"!{rec(ch[0])}"
    if k in (z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT):
        op = "==" if k == z3.Z3_OP_EQ else "!="
        if z3.is_bool(ch[0]):
            return f"({rec(ch[0])} {op} {rec(ch[1])})"
        return f"({_signed(ch[0], env)} {op} {_signed(ch[1], env)})"
    if k == z3.Z3_OP_ITE:
        body = f"({rec(ch[0])} ? {rec(ch[1])} : {rec(ch[2])})"
        return body if z3.is_bool(e) else "{" + body + "}"
    if k in _CMP:
        conv = "$unsigned" if k in _UNSIGNED else "$signed"
        return f"({conv}({rec(ch[0])}) {_CMP[k]} {conv}({rec(ch[1])}))"
    if k in _ARITH:
        op = _ARITH[k]
        inner = f" {op} ".join(_signed(c, env) for c in ch)
        return "{" + inner + "}"
    if k in (z3.Z3_OP_UMINUS, z3.Z3_OP_BNEG):
        return "{-" + _signed(ch[0], env) + "}"
    if k == z3.Z3_OP_BSREM or k == z3.Z3_OP_BSREM_I:
        a, b = rec(ch[0]), rec(ch[1])
        return f"(({b}) == '0 ? {a} : {{$signed({a}) % $signed({b})}})"
    if k == z3.Z3_OP_BASHR:
        return f"{{$signed({rec(ch[0])}) >>> {rec(ch[1])}}}"
    if k == z3.Z3_OP_SIGN_EXT:
        return f"{e.size()}'($signed({rec(ch[0])}))"
    if k == z3.Z3_OP_ZERO_EXT:
        return f"{e.size()}'($unsigned({rec(ch[0])}))"
    if k == z3.Z3_OP_EXTRACT:
        hi, lo = e.params()
        return f"{hi - lo + 1}'($unsigned({rec(ch[0])}) >> {lo})"
    if k == z3.Z3_OP_CONCAT:
        return "{" + ", ".join(rec(c) for c in ch) + "}"
    if k == z3.Z3_OP_BV2INT or e.decl().name() == "ubv_to_int":
        return f"{INT_W}'($unsigned({rec(ch[0])}))"
    raise Unprintable(f"operation {e.decl().name()}")


def _signed(e: z3.ExprRef, env: dict[str, str]) -> str:
    return f"$signed({to_sv(e, env)})"
