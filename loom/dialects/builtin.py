"""builtin.module: ``module [@name] [attributes {...}] { ... }``."""

from __future__ import annotations

from loom.dialects.checks import ATTRIBUTE, VerifyContext, counts, fail
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import AsmParser, AsmPrinter, OpDraft
from loom.ir.attributes import StringAttr
from loom.ir.core import Block, Operation


class ModuleSyntax:
    """``module @name attributes {...} { body }``; the body is a graph region without terminator."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        if p.peek().type == "AT_ID":
            tok = p.peek()
            st.set_attr(p, "sym_name", StringAttr(p.parse_symbol_name()), tok)
        tok = p.peek()
        for k, v in p.parse_attr_dict(keyword=True).items():
            st.set_attr(p, k, v, tok)
        region = p.parse_region()
        if not region.blocks:
            region.add_block(Block())  # the body is a single block, even when empty
        st.regions.append(region)
        st.operand_types, st.result_types = [], []

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if op.operands or op.results or op.successors or len(op.regions) != 1:
            return None
        if len(op.regions[0].blocks) != 1 or op.regions[0].blocks[0].args:
            return None
        name = op.attributes.get("sym_name")
        if name is not None and not isinstance(name, StringAttr):
            return None
        head = f" {w.symbol(name.value)}" if name is not None else ""
        return f"{head}{w.attr_dict(op.attributes, {'sym_name'}, keyword=True)} {w.region(op.regions[0], entry_args=False)}"


def verify_module_op(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=0, results=0, regions=1)
    name = op.attributes.get("sym_name")
    if name is not None and not isinstance(name, StringAttr):
        fail(op, ATTRIBUTE, "attribute 'sym_name' must be a string")


OPS = [OpDef("builtin.module", ModuleSyntax(), verify_module_op, isolated=True, graph_regions=True)]
