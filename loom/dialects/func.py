"""func dialect: func.func, func.return, func.call; plus the function syntax handshake.func shares."""

from __future__ import annotations

from loom.dialects.checks import (
    ARITY,
    ATTRIBUTE,
    TERMINATOR,
    UNKNOWN_SYMBOL,
    VerifyContext,
    counts,
    fail,
    must_be_last,
    types_equal,
)
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import (
    AsmParser,
    AsmPrinter,
    AttrDict,
    EachOperand,
    FnSig,
    Format,
    OpDraft,
    Opds,
    OperandRef,
    SymbolAttr,
)
from loom.ir.attributes import ArrayAttr, Attribute, DictAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from loom.ir.core import Operation, Region
from loom.ir.types import FunctionType, Type

_VISIBILITIES = ("private", "public", "nested")


class FunctionSyntax:
    """``[private] @name(%a: T {attrs}, ...) -> (R {attrs}) [attributes {...}] [{ body }]``.

    A body-less function is a declaration (argument types only are fine). With
    ``variadic_attr`` set, a trailing ``...`` in the argument list is kept as that
    unit attribute (CIRCT's handshake.func prints one).
    """

    def __init__(self, variadic_attr: str | None = None) -> None:
        self.variadic_attr = variadic_attr

    # ------------------------------------------------------------------ parse
    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        if tok.is_bare and tok.value in _VISIBILITIES:
            p.next()
            st.set_attr(p, "sym_visibility", StringAttr(tok.value), tok)
        tok = p.peek()
        st.set_attr(p, "sym_name", StringAttr(p.parse_symbol_name()), tok)
        args, arg_attrs, named, variadic = self._parse_args(p)
        results, res_attrs = self._parse_results(p)
        if variadic:
            st.set_attr(p, self.variadic_attr, UnitAttr(), variadic)  # type: ignore[arg-type]
        st.set_attr(p, "function_type", TypeAttr(FunctionType(tuple(t for _, t in args), tuple(results))), tok)
        if any(arg_attrs):
            st.set_attr(p, "arg_attrs", ArrayAttr(tuple(DictAttr(tuple(d.items())) for d in arg_attrs)), tok)
        if any(res_attrs):
            st.set_attr(p, "res_attrs", ArrayAttr(tuple(DictAttr(tuple(d.items())) for d in res_attrs)), tok)
        dtok = p.peek()
        for k, v in p.parse_attr_dict(keyword=True).items():
            st.set_attr(p, k, v, dtok)
        if p.at("{") and args and not named:  # `@f(i32) {` then `^bb0(%a: i32):` names them in the body
            btok = p.peek()
            region = p.parse_region()
            got = [a.type for a in region.blocks[0].args] if region.blocks else []
            if got != [t for _, t in args]:
                raise p.error("a function with a body must name its arguments, in the signature ('%arg0: i32') "
                              f"or on its entry block ('^bb0(%arg0: i32):'); the entry block takes "
                              f"({', '.join(map(str, got))}), the signature ({', '.join(str(t) for _, t in args)})",
                              btok)
            st.regions.append(region)
        elif p.at("{"):
            st.regions.append(p.parse_region(entry_args=[(ref, t) for ref, t in args]))  # type: ignore[misc]
        else:
            st.regions.append(Region())
        st.operand_types, st.result_types = [], []

    def _parse_args(self, p: AsmParser):
        p.expect("(", " before the argument list")
        args: list[tuple[OperandRef | None, Type]] = []
        attrs: list[dict[str, Attribute]] = []
        named: bool | None = None
        variadic = None
        if not p.at(")"):
            while True:
                if p.at("..."):
                    variadic = p.next()
                    if self.variadic_attr is None:
                        raise p.error("'...' is only allowed in handshake.func", variadic)
                    break
                if p.at_operand():
                    ref = p.parse_operand()
                    if named is False:
                        raise p.error("either name every argument or none", ref.tok)
                    named = True
                    p.expect(":", " after argument name")
                else:
                    if named:
                        raise p.error(f"expected argument name, found {p.peek().describe()}")
                    named, ref = False, None
                args.append((ref, p.parse_type()))
                attrs.append(p.parse_attr_dict() if p.at("{") else {})
                p.parse_optional_loc()
                if not p.accept(","):
                    break
        p.expect(")", " after the argument list")
        return args, attrs, bool(named), variadic

    def _parse_results(self, p: AsmParser) -> tuple[list[Type], list[dict[str, Attribute]]]:
        if not p.accept("->"):
            return [], []
        if not p.at("("):
            return [p.parse_type()], [{}]
        p.next()
        types: list[Type] = []
        attrs: list[dict[str, Attribute]] = []
        if not p.accept(")"):
            while True:
                types.append(p.parse_type())
                attrs.append(p.parse_attr_dict() if p.at("{") else {})
                p.parse_optional_loc()
                if not p.accept(","):
                    break
            p.expect(")", " after the result list")
        return types, attrs

    # ------------------------------------------------------------------ print
    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        a = op.attributes
        name, ft_attr = a.get("sym_name"), a.get("function_type")
        if not isinstance(name, StringAttr) or not isinstance(ft_attr, TypeAttr) or not isinstance(ft_attr.type, FunctionType):
            return None
        if op.operands or op.results or op.successors or len(op.regions) != 1:
            return None
        ft = ft_attr.type
        body = op.regions[0]
        if body.blocks and [x.type for x in body.blocks[0].args] != list(ft.inputs):
            return None
        own = {"sym_name", "function_type", "sym_visibility"}
        arg_attrs = self._attr_list(a, "arg_attrs", len(ft.inputs), own)
        res_attrs = self._attr_list(a, "res_attrs", len(ft.results), own)
        vis = a.get("sym_visibility")
        if vis is not None and not (isinstance(vis, StringAttr) and vis.value in _VISIBILITIES):
            return None
        variadic = False
        if self.variadic_attr is not None and self.variadic_attr in a:
            if not isinstance(a[self.variadic_attr], UnitAttr):
                return None
            variadic = True
            own.add(self.variadic_attr)
        out = f" {vis.value}" if isinstance(vis, StringAttr) else ""
        out += f" {w.symbol(name.value)}("
        pieces = []
        for k, t in enumerate(ft.inputs):
            s = f"{w.value(body.blocks[0].args[k])}: {w.type(t)}" if body.blocks else w.type(t)
            if arg_attrs[k]:
                s += " " + w.attr(DictAttr(tuple(arg_attrs[k].items())))
            pieces.append(s)
        if variadic:
            pieces.append("...")
        out += ", ".join(pieces) + ")"
        if ft.results:
            rs = []
            for k, t in enumerate(ft.results):
                s = w.type(t)
                if res_attrs[k]:
                    s += " " + w.attr(DictAttr(tuple(res_attrs[k].items())))
                rs.append(s)
            if len(rs) == 1 and not res_attrs[0] and not isinstance(ft.results[0], FunctionType):
                out += f" -> {rs[0]}"
            else:
                out += f" -> ({', '.join(rs)})"
        out += w.attr_dict(a, own, keyword=True)
        if body.blocks:
            out += " " + w.region(body, entry_args=False)
        return out

    @staticmethod
    def _attr_list(attrs: dict[str, Attribute], key: str, n: int, own: set[str]) -> list[dict[str, Attribute]]:
        """Per-argument (or per-result) dictionaries to print inline; claims ``key`` when it can.

        A list that is absent, malformed or all-empty is not printed inline (it would not
        come back the same); it stays in the ``attributes {...}`` dictionary instead.
        """
        a = attrs.get(key)
        empty: list[dict[str, Attribute]] = [{} for _ in range(n)]
        if not isinstance(a, ArrayAttr) or len(a.elements) != n or not all(isinstance(d, DictAttr) for d in a.elements):
            return empty
        if not any(d.entries for d in a.elements):  # type: ignore[union-attr]
            return empty
        own.add(key)
        return [dict(d.entries) for d in a.elements]  # type: ignore[union-attr]


# ---------------------------------------------------------------------------- verifiers


def function_type(op: Operation) -> FunctionType:
    """The FunctionType of a func.func/handshake.func (verified to be present)."""
    ft = op.attributes.get("function_type")
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        fail(op, ATTRIBUTE, "needs a 'function_type' type attribute holding a function type")
    return ft.type


def verify_function(op: Operation, ctx: VerifyContext, terminator: str) -> None:
    """Shared checks of func.func and handshake.func."""
    counts(op, operands=0, results=0, regions=1)
    if not isinstance(op.attributes.get("sym_name"), StringAttr):
        fail(op, ATTRIBUTE, "needs a 'sym_name' string attribute")
    ft = function_type(op)
    for key, n in (("arg_attrs", len(ft.inputs)), ("res_attrs", len(ft.results))):
        v = op.attributes.get(key)
        if v is not None and not (
            isinstance(v, ArrayAttr) and len(v.elements) == n and all(isinstance(d, DictAttr) for d in v.elements)
        ):
            fail(op, ATTRIBUTE, f"attribute '{key}' must be an array of {n} dictionaries")
    body = op.regions[0]
    if not body.blocks:
        return
    types_equal(op, [a.type for a in body.blocks[0].args], ft.inputs, "entry block argument types differ from the function type")
    for block in body.blocks:
        last = block.terminator
        if last is None:
            fail(op, TERMINATOR, f"block must end with '{terminator}' (it is empty)")
        if last.name != terminator and last.name in ctx.non_terminators:
            fail(last, TERMINATOR, f"cannot end a function body; expected '{terminator}'")


def verify_func(op: Operation, ctx: VerifyContext) -> None:
    verify_function(op, ctx, "func.return")


def verify_return(op: Operation, ctx: VerifyContext) -> None:
    counts(op, results=0)
    parent = op.parent_op
    want = "func.func" if op.name == "func.return" else "handshake.func"
    if parent is None or parent.name != want:
        fail(op, TERMINATOR, f"must be directly inside '{want}'")
    must_be_last(op)
    ft = parent.attributes.get("function_type")
    if isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType):
        types_equal(op, [v.type for v in op.operands], ft.type.results, "returned types differ from the function's result types")


def verify_call(op: Operation, ctx: VerifyContext) -> None:
    counts(op)
    callee = op.attributes.get("callee")
    if not isinstance(callee, SymbolRefAttr):
        fail(op, ATTRIBUTE, "needs a 'callee' symbol reference")
    target = ctx.symbols.get(callee.root)
    if target is None or target.name not in ("func.func", "handshake.func"):
        fail(op, UNKNOWN_SYMBOL, f"calls '@{callee.root}', which is not a function in this module")
    ft = target.attributes.get("function_type")
    if isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType):
        if len(op.operands) != len(ft.type.inputs) or len(op.results) != len(ft.type.results):
            fail(op, ARITY, f"does not match the signature of '@{callee.root}' ({ft.type})")
        types_equal(op, [v.type for v in op.operands], ft.type.inputs, f"argument types differ from '@{callee.root}'")
        types_equal(op, [r.type for r in op.results], ft.type.results, f"result types differ from '@{callee.root}'")


RETURN_FORMAT = Format(Opds("operands"), AttrDict(), EachOperand())

OPS = [
    OpDef("func.func", FunctionSyntax(), verify_func, isolated=True, default_dialect="func"),
    OpDef("func.return", RETURN_FORMAT, verify_return, terminator=True),
    OpDef("func.call", Format(SymbolAttr("callee"), Opds("args", "(", ")", space=False), AttrDict(), FnSig()), verify_call),
]
