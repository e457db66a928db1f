"""scf.index_switch and scf.execute_region in mlir-opt's pretty form.

``scf.index_switch %x -> T case 0 {..} case 2 {..} default {..}`` keeps the
default region first and the case regions after it (MLIR's region order), with
the case values in the ``cases`` property (``array<i64: 0, 2>``).
``scf.execute_region -> T {..}`` runs its region once.
"""

from __future__ import annotations

from loom.dialects.checks import (
    ARITY,
    ATTRIBUTE,
    OPERAND_TYPE,
    TERMINATOR,
    VerifyContext,
    counts,
    fail,
    types_equal,
)
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import AsmParser, AsmPrinter, OpDraft
from loom.ir.attributes import DenseArrayAttr, UnitAttr
from loom.ir.core import Operation, Region
from loom.ir.types import Type, i64, index


def _result_types(p: AsmParser) -> list[Type]:
    """``-> T, U`` or ``-> (T, U)`` (both spellings occur in printed MLIR)."""
    if not p.accept("->"):
        return []
    if p.at("("):
        return p.parse_paren_type_list()
    return p.parse_type_list()


def _attrs(p: AsmParser, st: OpDraft) -> None:
    tok = p.peek()
    for k, v in p.parse_attr_dict().items():
        st.set_attr(p, k, v, tok)


def _region_text(w: AsmPrinter, op: Operation, region: Region) -> str:
    return w.region(region, entry_args=False, elide_terminator="scf.yield" if not op.results else None)


def _simple(region: Region) -> bool:
    """One block, no arguments, ending with scf.yield: the only shape the pretty form prints."""
    return len(region.blocks) == 1 and not region.blocks[0].args and region.blocks[0].terminator is not None \
        and region.blocks[0].terminator.name == "scf.yield"


class IndexSwitchSyntax:
    """``scf.index_switch %x [{attrs}] [-> T] (case N {..})* default {..}``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.append(p.parse_operand())
        _attrs(p, st)
        st.operand_types, st.result_types = [index], _result_types(p)
        implicit = None if st.result_types else "scf.yield"
        cases: list[int] = []
        regions: list[Region] = []
        while p.at("case"):
            p.next()
            tok = p.peek()
            value = p.parse_int()
            if value in cases:
                raise p.error(f"duplicate case value {value}", tok)
            cases.append(value)
            regions.append(p.parse_region(None, implicit))
        p.expect("default", " after the cases of scf.index_switch")
        st.regions = [p.parse_region(None, implicit), *regions]
        st.attributes["cases"] = DenseArrayAttr(i64, tuple(cases))

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        cases = op.attributes.get("cases")
        if len(op.operands) != 1 or op.operands[0].type != index or op.successors or not isinstance(cases, DenseArrayAttr):
            return None
        if cases.element_type != i64 or len(op.regions) != len(cases.values) + 1 or not all(_simple(r) for r in op.regions):
            return None
        pad = "\n" + w.indent()
        out = f" {w.value(op.operands[0])}" + w.attr_dict({k: v for k, v in op.attributes.items() if k != "cases"})
        if op.results:
            out += " -> " + ", ".join(w.type(r.type) for r in op.results)
        for value, region in zip(cases.values, op.regions[1:]):
            out += f"{pad}case {value} " + _region_text(w, op, region)
        return out + f"{pad}default " + _region_text(w, op, op.regions[0])


class ExecuteRegionSyntax:
    """``scf.execute_region [-> T] [no_inline] {..} [{attrs}]``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operand_types, st.result_types = [], _result_types(p)
        tok = p.peek()
        if p.accept("no_inline"):
            st.set_attr(p, "no_inline", UnitAttr(), tok)
        st.regions.append(p.parse_region())
        _attrs(p, st)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if op.operands or op.successors or len(op.regions) != 1 or not op.regions[0].blocks or op.regions[0].blocks[0].args:
            return None
        out = ""
        if op.results:
            out += " -> " + ", ".join(w.type(r.type) for r in op.results)
        if isinstance(op.attributes.get("no_inline"), UnitAttr):
            out += " no_inline"
        rest = {k: v for k, v in op.attributes.items() if k != "no_inline"}
        return out + " " + w.region(op.regions[0], entry_args=False) + w.attr_dict(rest)


def _yields(op: Operation, region: Region, what: str) -> None:
    for block in region.blocks:
        last = block.terminator
        if last is None:
            fail(op, TERMINATOR, f"{what} has a block without a terminator")
        if last.name == "scf.yield":
            types_equal(op, [v.type for v in last.operands], [r.type for r in op.results], f"{what} yields types that differ from the results")


def verify_index_switch(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, regions=len(op.regions))
    if op.operands[0].type != index:
        fail(op, OPERAND_TYPE, f"switch value must be index, found {op.operands[0].type}")
    cases = op.attributes.get("cases")
    if not isinstance(cases, DenseArrayAttr) or cases.element_type != i64 or len(set(cases.values)) != len(cases.values):
        fail(op, ATTRIBUTE, "needs a 'cases' attribute 'array<i64: ...>' of distinct values")
    if len(op.regions) != len(cases.values) + 1:
        fail(op, ARITY, f"has {len(cases.values)} cases but {len(op.regions) - 1} case regions")
    for k, region in enumerate(op.regions):
        if len(region.blocks) != 1 or region.blocks[0].args:
            fail(op, ARITY, "each region must have one block without arguments")
        if region.blocks[0].terminator is None or region.blocks[0].terminator.name != "scf.yield":
            fail(op, TERMINATOR, "each region must end with 'scf.yield'")
        _yields(op, region, "the default region" if k == 0 else f"case {cases.values[k - 1]}")


def verify_execute_region(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=0, regions=1)
    if not op.regions[0].blocks:
        fail(op, ARITY, "needs a non-empty region")
    if op.regions[0].blocks[0].args:
        fail(op, ARITY, "entry block takes no arguments")
    _yields(op, op.regions[0], "the region")


OPS = [
    OpDef("scf.index_switch", IndexSwitchSyntax(), verify_index_switch),
    OpDef("scf.execute_region", ExecuteRegionSyntax(), verify_execute_region),
]
