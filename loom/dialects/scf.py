"""scf dialect: scf.for, scf.while, scf.if and their terminators scf.yield / scf.condition.

Bodies of scf.for and scf.if always end with an ``scf.yield`` in the IR; the
parser adds an empty one when the text leaves it out, and the printer leaves an
empty one out again (as mlir-opt does).
"""

from __future__ import annotations

from loom.dialects.checks import (
    ARITY,
    OPERAND_TYPE,
    TERMINATOR,
    VerifyContext,
    counts,
    fail,
    is_i1,
    is_int_like,
    must_be_last,
    types_equal,
)
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import (
    AsmParser,
    AsmPrinter,
    AttrDict,
    EachOperand,
    Format,
    Lit,
    Opd,
    OpDraft,
    Opds,
    OperandRef,
    Sig,
    SigError,
)
from loom.ir.attributes import UnitAttr
from loom.ir.core import Operation, Region
from loom.ir.types import FunctionType, Type, i1, index


def _result_types(p: AsmParser) -> list[Type]:
    """``-> (T, ...)`` or ``-> T`` after the ``->``."""
    return p.parse_paren_type_list() if p.at("(") else [p.parse_type()]


def _assignments(p: AsmParser) -> tuple[list[OperandRef], list[OperandRef]]:
    """``(%a = %x, %b = %y)``: the region argument names and the initial values."""
    names: list[OperandRef] = []
    inits: list[OperandRef] = []
    p.expect("(")
    while True:
        names.append(p.parse_operand())
        p.expect("=", " in the initial value list")
        inits.append(p.parse_operand())
        if not p.accept(","):
            break
    p.expect(")", " after the initial value list")
    return names, inits


def _ends_with_yield(region: Region) -> bool:
    """One block ending in scf.yield: the parser's implicit terminator cannot change it."""
    last = region.blocks[0].terminator if len(region.blocks) == 1 else None
    return last is not None and last.name == "scf.yield"


def _elidable_yield(region: Region) -> str | None:
    """The terminator name the printer may leave out (an empty scf.yield)."""
    if len(region.blocks) != 1:
        return None
    last = region.blocks[0].terminator
    if last is None or last.name != "scf.yield" or last.operands or last.attributes or last.regions or last.results:
        return None
    return "scf.yield"


class ForSyntax:
    """``scf.for [unsigned] %iv = %lb to %ub step %s [iter_args(%a = %x) -> (T)] [: ivT] {body} {attrs}``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        utok = p.accept("unsigned")
        iv = p.parse_operand()
        p.expect("=", " after the induction variable")
        lb = p.parse_operand()
        p.expect("to", " after the lower bound")
        ub = p.parse_operand()
        p.expect("step", " after the upper bound")
        step = p.parse_operand()
        names: list[OperandRef] = []
        inits: list[OperandRef] = []
        types: list[Type] = []
        if p.at("iter_args"):
            p.next()
            names, inits = _assignments(p)
            tok = p.expect("->", " after iter_args")
            types = _result_types(p)
            if len(types) != len(inits):
                raise p.error(f"{len(inits)} iter_args but {len(types)} result types", tok)
        iv_type: Type = index
        if p.accept(":"):
            iv_type = p.parse_type()
        st.regions.append(p.parse_region([(iv, iv_type), *zip(names, types)], None if types else "scf.yield"))
        if utok is not None:
            st.set_attr(p, "unsignedCmp", UnitAttr(), utok)
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)
        st.operands = [lb, ub, step, *inits]
        st.operand_types = [iv_type] * 3 + types
        st.result_types = list(types)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.operands) < 3 or len(op.regions) != 1 or op.successors or len(op.regions[0].blocks) != 1:
            return None
        if not _ends_with_yield(op.regions[0]):
            return None
        body = op.regions[0].blocks[0]
        inits = op.operands[3:]
        iv_t = op.operands[0].type
        if len(body.args) != 1 + len(inits) or any(v.type != iv_t for v in op.operands[:3]) or body.args[0].type != iv_t:
            return None
        types = [v.type for v in inits]
        if [a.type for a in body.args[1:]] != types or [r.type for r in op.results] != types:
            return None
        unsigned = op.attributes.get("unsignedCmp")
        claim = {"unsignedCmp"} if isinstance(unsigned, UnitAttr) else set()
        lb, ub, step = (w.value(v) for v in op.operands[:3])
        out = (" unsigned" if claim else "") + f" {w.value(body.args[0])} = {lb} to {ub} step {step}"
        if inits:
            pairs = ", ".join(f"{w.value(a)} = {w.value(v)}" for a, v in zip(body.args[1:], inits))
            out += f" iter_args({pairs}) -> ({', '.join(w.type(t) for t in types)})"
        if iv_t != index:
            out += f" : {w.type(iv_t)}"
        elide = _elidable_yield(op.regions[0]) if not types else None
        out += " " + w.region(op.regions[0], entry_args=False, elide_terminator=elide)
        return out + w.attr_dict(op.attributes, claim)


class WhileSyntax:
    """``scf.while [(%a = %x)] : (T) -> (R) {before} do {after} [attributes {...}]``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        names: list[OperandRef] = []
        inits: list[OperandRef] = []
        if p.at("("):
            names, inits = _assignments(p)
        tok = p.expect(":", " before the loop's function type")
        ft = p.parse_type()
        if not isinstance(ft, FunctionType):
            raise p.error(f"expected a function type '(...) -> (...)', found '{ft}'", tok)
        if len(ft.inputs) != len(inits):
            raise p.error(f"{len(inits)} initial values but {len(ft.inputs)} input types", tok)
        st.regions.append(p.parse_region(list(zip(names, ft.inputs))))
        p.expect("do", " between the before and after regions")
        st.regions.append(p.parse_region())
        tok = p.peek()
        for k, v in p.parse_attr_dict(keyword=True).items():
            st.set_attr(p, k, v, tok)
        st.operands = inits
        st.operand_types = list(ft.inputs)
        st.result_types = list(ft.results)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.regions) != 2 or op.successors or not op.regions[0].blocks:
            return None
        before = op.regions[0].blocks[0]
        if [a.type for a in before.args] != [v.type for v in op.operands]:
            return None
        out = ""
        if op.operands:
            out += " (" + ", ".join(f"{w.value(a)} = {w.value(v)}" for a, v in zip(before.args, op.operands)) + ")"
        ft = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        out += f" : {w.type(ft)} {w.region(op.regions[0], entry_args=False)} do {w.region(op.regions[1], entry_args=True)}"
        return out + w.attr_dict(op.attributes, set(), keyword=True)


class IfSyntax:
    """``scf.if %c [-> (T)] {then} [else {else}] {attrs}``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        cond = p.parse_operand()
        types: list[Type] = []
        if p.accept("->"):
            types = _result_types(p)
        implicit = None if types else "scf.yield"
        st.regions.append(p.parse_region(None, implicit))
        if p.accept("else"):
            st.regions.append(p.parse_region(None, implicit))
        else:
            st.regions.append(Region())
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)
        st.operands = [cond]
        st.operand_types = [i1]
        st.result_types = types

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.operands) != 1 or op.operands[0].type != i1 or len(op.regions) != 2 or op.successors:
            return None
        then, other = op.regions
        if not _ends_with_yield(then) or (other.blocks and not _ends_with_yield(other)):
            return None
        if any(b.args for r in op.regions for b in r.blocks):
            return None
        out = f" {w.value(op.operands[0])}"
        if op.results:
            out += f" -> ({', '.join(w.type(r.type) for r in op.results)})"
        elide = (lambda r: _elidable_yield(r)) if not op.results else (lambda r: None)
        out += " " + w.region(then, entry_args=False, elide_terminator=elide(then))
        if other.blocks:
            out += " else " + w.region(other, entry_args=False, elide_terminator=elide(other))
        return out + w.attr_dict(op.attributes, set())


class ConditionSig(Sig):
    """``scf.condition(%c) %a, %b : A, B`` -- an i1 condition, then one type per forwarded value."""

    def parse_types(self, p, st):
        if len(st.operands) == 1 and not p.at(":"):
            return []
        p.expect(":", " before the forwarded value types")
        return p.parse_type_list()

    def render(self, w, s):
        return f" : {', '.join(w.type(t) for t in s)}" if s else ""

    def extract(self, op):
        return [v.type for v in op.operands[1:]]

    def infer(self, s, n, count):
        if n - 1 != len(s):
            raise SigError(f"{n - 1} forwarded values but {len(s)} types")
        return [i1, *s], []


# ---------------------------------------------------------------------------- verifiers


def _terminated_by(op: Operation, region: Region, name: str) -> Operation:
    if len(region.blocks) != 1:
        fail(op, ARITY, f"region must have exactly one block, found {len(region.blocks)}")
    last = region.blocks[0].terminator
    if last is None or last.name != name:
        fail(op, TERMINATOR, f"region must end with '{name}'")
    return last


def verify_for(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=3, regions=1)
    lb, ub, step = op.operands[:3]
    t = lb.type
    if not is_int_like(t) or ub.type != t or step.type != t:
        fail(op, OPERAND_TYPE, f"lower bound, upper bound and step must share one integer or index type, found {lb.type}, {ub.type}, {step.type}")
    inits = op.operands[3:]
    types_equal(op, [r.type for r in op.results], [v.type for v in inits], "result types differ from the iter_args types")
    _terminated_by(op, op.regions[0], "scf.yield")
    body = op.regions[0].blocks[0]
    types_equal(op, [a.type for a in body.args], [t, *(v.type for v in inits)], "body arguments must be the induction variable and the iter_args")


def verify_while(op: Operation, ctx: VerifyContext) -> None:
    counts(op, regions=2)
    cond = _terminated_by(op, op.regions[0], "scf.condition")
    _terminated_by(op, op.regions[1], "scf.yield")
    types_equal(op, [a.type for a in op.regions[0].blocks[0].args], [v.type for v in op.operands], "before-region arguments differ from the initial values")
    forwarded = [v.type for v in cond.operands[1:]]
    types_equal(op, [a.type for a in op.regions[1].blocks[0].args], forwarded, "after-region arguments differ from the values scf.condition forwards")


def verify_if(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, regions=2)
    if not is_i1(op.operands[0].type):
        fail(op, OPERAND_TYPE, f"condition must be i1, found {op.operands[0].type}")
    _terminated_by(op, op.regions[0], "scf.yield")
    if op.regions[1].blocks:
        _terminated_by(op, op.regions[1], "scf.yield")
    elif op.results:
        fail(op, ARITY, "with results needs an else region")
    for r in op.regions:
        if r.blocks and r.blocks[0].args:
            fail(op, ARITY, "regions take no arguments")


def verify_yield(op: Operation, ctx: VerifyContext) -> None:
    counts(op, results=0)
    must_be_last(op)
    parent = op.parent_op
    if parent is None or parent.name not in ("scf.for", "scf.if", "scf.while", "scf.index_switch", "scf.execute_region"):
        if parent is not None and not parent.name.startswith("scf."):
            fail(op, TERMINATOR, "must be inside an scf.for, scf.if or scf.while region")
        return
    got = [v.type for v in op.operands]
    if parent.name == "scf.while":
        if op.parent is None or op.parent.parent is not parent.regions[1]:
            fail(op, TERMINATOR, "may only end the 'do' region of scf.while")
        types_equal(op, got, [v.type for v in parent.operands], "yielded types differ from the loop's initial values")
    else:
        types_equal(op, got, [r.type for r in parent.results], f"yielded types differ from the results of '{parent.name}'")


def verify_condition(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1, results=0)
    must_be_last(op)
    if not is_i1(op.operands[0].type):
        fail(op, OPERAND_TYPE, f"condition must be i1, found {op.operands[0].type}")
    parent = op.parent_op
    if parent is None or parent.name != "scf.while" or op.parent is None or op.parent.parent is not parent.regions[0]:
        fail(op, TERMINATOR, "must end the before region of scf.while")
    types_equal(op, [v.type for v in op.operands[1:]], [r.type for r in parent.results], "forwarded types differ from the scf.while results")


OPS = [
    OpDef("scf.for", ForSyntax(), verify_for),
    OpDef("scf.while", WhileSyntax(), verify_while),
    OpDef("scf.if", IfSyntax(), verify_if),
    OpDef("scf.yield", Format(Opds("operands"), AttrDict(), EachOperand()), verify_yield, terminator=True),
    OpDef(
        "scf.condition",
        Format(Lit("(", space=False), Opd("cond", space=False), Lit(")", space=False), Opds("args"), AttrDict(), ConditionSig()),
        verify_condition,
        terminator=True,
    ),
]
