"""cf dialect: cf.br, cf.cond_br, cf.switch and cf.assert in mlir-opt's pretty form (what --convert-scf-to-cf prints).

Successor operands are ordinary operands of the op, as in MLIR: ``cf.br`` passes
all of them to its one successor; ``cf.cond_br`` keeps ``[cond, *true, *false]``
split by its ``operandSegmentSizes`` property (``array<i32: 1, T, F>``).
"""

from __future__ import annotations

from loom.dialects.checks import (
    ARITY,
    ATTRIBUTE,
    OPERAND_TYPE,
    VerifyContext,
    counts,
    fail,
    is_i1,
    must_be_last,
    types_equal,
)
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import AsmParser, AsmPrinter, OpDraft, OperandRef
from loom.ir.attributes import DenseArrayAttr, DenseElementsAttr, StringAttr
from loom.ir.core import Block, Operation, Value
from loom.ir.types import IntegerType, Type, VectorType, i1

SEGMENTS = "operandSegmentSizes"
_I32 = IntegerType(32)


def cond_br_groups(op: Operation) -> tuple[Value, list[Value], list[Value]]:
    """(condition, true-successor operands, false-successor operands) of a verified cf.cond_br."""
    seg = op.attributes.get(SEGMENTS)
    n_true = seg.values[1] if isinstance(seg, DenseArrayAttr) and len(seg.values) == 3 else len(op.operands) - 1
    return op.operands[0], list(op.operands[1 : 1 + n_true]), list(op.operands[1 + n_true :])


def switch_groups(op: Operation) -> tuple[Value, list[int], list[list[Value]]]:
    """(flag, case values, operands per successor: default first) of a verified cf.switch."""
    seg = op.attributes.get(SEGMENTS)
    cases = op.attributes.get("case_values")
    case_segs = op.attributes.get("case_operand_segments")
    n_default = seg.values[1] if isinstance(seg, DenseArrayAttr) else 0
    values = [int(v) for v in cases.values] if isinstance(cases, DenseElementsAttr) else []
    sizes = list(case_segs.values) if isinstance(case_segs, DenseArrayAttr) else [0] * len(values)
    groups = [list(op.operands[1 : 1 + n_default])]
    at = 1 + n_default
    for n in sizes:
        groups.append(list(op.operands[at : at + n]))
        at += n
    return op.operands[0], values, groups


def successor_operands(op: Operation, k: int) -> list[Value]:
    """The operands ``op`` (cf.br, cf.cond_br or cf.switch) passes to its successor ``k``."""
    if op.name == "cf.br":
        return list(op.operands)
    if op.name == "cf.switch":
        return switch_groups(op)[2][k]
    _, t, f = cond_br_groups(op)
    return t if k == 0 else f


def _parse_dest(p: AsmParser, st: OpDraft) -> int:
    """``^bb(%a, %b : T, U)`` (the list is optional); returns how many operands it added."""
    st.successors.append(p.parse_successor())
    if not p.accept("("):
        return 0
    refs: list[OperandRef] = [p.parse_operand()]
    while p.accept(","):
        refs.append(p.parse_operand())
    tok = p.expect(":", " before the successor operand types")
    types = p.parse_type_list()
    if len(types) != len(refs):
        raise p.error(f"{len(refs)} successor operands but {len(types)} types", tok)
    p.expect(")", " after the successor operand types")
    st.operands.extend(refs)
    assert st.operand_types is not None
    st.operand_types.extend(types)
    return len(refs)


def _print_dest(w: AsmPrinter, block: Block, values: list[Value]) -> str:
    s = w.block_name(block)
    if values:
        s += "(" + ", ".join(w.value(v) for v in values) + " : " + ", ".join(w.type(v.type) for v in values) + ")"
    return s


class BranchSyntax:
    """``cf.br ^bb1(%a : T)``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operand_types, st.result_types = [], []
        _parse_dest(p, st)
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.successors) != 1 or op.results or op.regions:
            return None
        return " " + _print_dest(w, op.successors[0], list(op.operands)) + w.attr_dict(op.attributes)


class CondBranchSyntax:
    """``cf.cond_br %c, ^bb1(%a : T), ^bb2``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operand_types, st.result_types = [None], []
        st.operands.append(p.parse_operand())
        p.expect(",", " after the condition")
        n_true = _parse_dest(p, st)
        p.expect(",", " between the successors")
        n_false = _parse_dest(p, st)
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)
        st.set_attr(p, SEGMENTS, DenseArrayAttr(_I32, (1, n_true, n_false)), tok)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        seg = op.attributes.get(SEGMENTS)
        if len(op.successors) != 2 or op.results or op.regions or not isinstance(seg, DenseArrayAttr):
            return None
        if seg.element_type != _I32 or len(seg.values) != 3 or seg.values[0] != 1 or sum(seg.values) != len(op.operands):
            return None
        cond, t, f = cond_br_groups(op)
        rest = {k: v for k, v in op.attributes.items() if k != SEGMENTS}
        return (
            f" {w.value(cond)}, {_print_dest(w, op.successors[0], t)}, {_print_dest(w, op.successors[1], f)}"
            + w.attr_dict(rest)
        )


class SwitchSyntax:
    """``cf.switch %flag : i32, [default: ^bb1(%a : T), 42: ^bb2, ...]``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.append(p.parse_operand())
        p.expect(":", " before the flag type")
        tok = p.peek()
        flag_t = p.parse_type()
        if not isinstance(flag_t, IntegerType):
            raise p.error(f"the flag of cf.switch must be an integer, found '{flag_t}'", tok)
        st.operand_types, st.result_types = [flag_t], []
        p.expect(",", " after the flag type")
        p.expect("[", " to open the case list")
        p.expect("default", " (the first case of cf.switch)")
        p.expect(":", " after 'default'")
        n_default = _parse_dest(p, st)
        values: list[int] = []
        sizes: list[int] = []
        while p.accept(","):
            tok = p.peek()
            v = p.parse_int()
            if v in values:
                raise p.error(f"duplicate case value {v}", tok)
            values.append(v)
            p.expect(":", " after the case value")
            sizes.append(_parse_dest(p, st))
        p.expect("]", " to close the case list")
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)
        if values:
            st.set_attr(p, "case_values", DenseElementsAttr(tuple(values), VectorType((len(values),), flag_t)), tok)
        st.set_attr(p, "case_operand_segments", DenseArrayAttr(_I32, tuple(sizes)), tok)
        st.set_attr(p, SEGMENTS, DenseArrayAttr(_I32, (1, n_default, sum(sizes))), tok)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if not op.operands:
            return None
        try:
            flag, values, groups = switch_groups(op)
        except (AttributeError, TypeError, ValueError):
            return None
        if op.results or op.regions or len(op.successors) != len(values) + 1 or not isinstance(flag.type, IntegerType):
            return None
        if sum(len(g) for g in groups) + 1 != len(op.operands):
            return None
        pad = "\n" + w.indent() + "  "
        items = [f"{pad}default: {_print_dest(w, op.successors[0], groups[0])}"]
        items += [f"{pad}{v}: {_print_dest(w, b, g)}" for v, b, g in zip(values, op.successors[1:], groups[1:])]
        rest = {k: v for k, v in op.attributes.items() if k not in (SEGMENTS, "case_values", "case_operand_segments")}
        return f" {w.value(flag)} : {w.type(flag.type)}, [" + ",".join(items) + "\n" + w.indent() + "]" + w.attr_dict(rest)


class AssertSyntax:
    """``cf.assert %c, "message"``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operand_types, st.result_types = [None], []
        st.operands.append(p.parse_operand())
        p.expect(",", " after the condition")
        tok = p.peek()
        st.set_attr(p, "msg", StringAttr(p.parse_string()), tok)
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        msg = op.attributes.get("msg")
        if len(op.operands) != 1 or op.results or op.regions or op.successors or not isinstance(msg, StringAttr):
            return None
        rest = {k: v for k, v in op.attributes.items() if k != "msg"}
        return f" {w.value(op.operands[0])}, {w.attr(msg)}" + w.attr_dict(rest)


def _check_dest(op: Operation, block: Block, values: list[Value], which: str) -> None:
    if block.parent is None or op.parent is None or block.parent is not op.parent.parent:
        fail(op, ATTRIBUTE, f"{which}successor is not a block of the enclosing region")
    want: list[Type] = [a.type for a in block.args]
    if len(values) != len(want):
        fail(op, ARITY, f"passes {len(values)} operands to {which}successor ^{block.label or '?'}, which has {len(want)} arguments")
    types_equal(op, [v.type for v in values], want, f"operand types differ from the {which}successor's argument types")


def verify_br(op: Operation, ctx: VerifyContext) -> None:
    counts(op, results=0)
    must_be_last(op)
    if len(op.successors) != 1:
        fail(op, ARITY, f"expects 1 successor, found {len(op.successors)}")
    _check_dest(op, op.successors[0], list(op.operands), "")


def verify_cond_br(op: Operation, ctx: VerifyContext) -> None:
    counts(op, results=0, min_operands=1)
    must_be_last(op)
    if len(op.successors) != 2:
        fail(op, ARITY, f"expects 2 successors, found {len(op.successors)}")
    seg = op.attributes.get(SEGMENTS)
    if not (isinstance(seg, DenseArrayAttr) and len(seg.values) == 3 and seg.values[0] == 1
            and min(seg.values) >= 0 and sum(seg.values) == len(op.operands)):
        fail(op, ATTRIBUTE, f"needs '{SEGMENTS} = array<i32: 1, T, F>' with T + F successor operands")
    cond, t, f = cond_br_groups(op)
    if not is_i1(cond.type):
        fail(op, OPERAND_TYPE, f"condition must be i1, found {cond.type}")
    _check_dest(op, op.successors[0], t, "true ")
    _check_dest(op, op.successors[1], f, "false ")


def verify_switch(op: Operation, ctx: VerifyContext) -> None:
    counts(op, results=0, min_operands=1)
    must_be_last(op)
    seg = op.attributes.get(SEGMENTS)
    case_segs = op.attributes.get("case_operand_segments")
    cases = op.attributes.get("case_values")
    values = list(cases.values) if isinstance(cases, DenseElementsAttr) else []
    if cases is not None and not isinstance(cases, DenseElementsAttr):
        fail(op, ATTRIBUTE, "needs 'case_values' as a dense integer vector")
    if not (isinstance(seg, DenseArrayAttr) and len(seg.values) == 3 and seg.values[0] == 1
            and isinstance(case_segs, DenseArrayAttr) and len(case_segs.values) == len(values)
            and sum(seg.values) == len(op.operands) and seg.values[2] == sum(case_segs.values)):
        fail(op, ATTRIBUTE, "operand segments do not match the cases")
    if len(op.successors) != len(values) + 1:
        fail(op, ARITY, f"has {len(values)} cases but {len(op.successors)} successors")
    if len(set(values)) != len(values):
        fail(op, ATTRIBUTE, "case values must be distinct")
    flag, _, groups = switch_groups(op)
    if not isinstance(flag.type, IntegerType):
        fail(op, OPERAND_TYPE, f"flag must be an integer, found {flag.type}")
    for k, (block, vals) in enumerate(zip(op.successors, groups)):
        _check_dest(op, block, vals, "default " if k == 0 else f"case {values[k - 1]} ")


def verify_assert(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=0)
    if op.operands[0].type != i1:
        fail(op, OPERAND_TYPE, f"condition must be i1, found {op.operands[0].type}")
    if not isinstance(op.attributes.get("msg"), StringAttr):
        fail(op, ATTRIBUTE, "needs a 'msg' string attribute")


OPS = [
    OpDef("cf.br", BranchSyntax(), verify_br, terminator=True),
    OpDef("cf.cond_br", CondBranchSyntax(), verify_cond_br, terminator=True),
    OpDef("cf.switch", SwitchSyntax(), verify_switch, terminator=True),
    OpDef("cf.assert", AssertSyntax(), verify_assert),
]
