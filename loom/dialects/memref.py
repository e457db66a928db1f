"""memref dialect: load/store, allocation, views (cast, subview, reinterpret_cast, reshapes), globals."""

from __future__ import annotations

from loom.dialects.checks import (
    ARITY,
    ATTRIBUTE,
    INDEX_COUNT,
    OPERAND_TYPE,
    RESULT_TYPE,
    TYPE_MISMATCH,
    VerifyContext,
    counts,
    fail,
    memref_operand,
)
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import (
    AsmParser,
    AsmPrinter,
    AttrDict,
    Format,
    Lit,
    MemrefSig,
    Opd,
    OpDraft,
    Opds,
    OperandRef,
    SymbolAttr,
    cast,
)
from loom.ir.attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from loom.ir.core import Operation
from loom.ir.types import IndexType, MemRefType, TensorType, i64, index

DYNAMIC = -9223372036854775808  # ShapedType::kDynamic


def _memref_type(p: AsmParser, what: str) -> MemRefType:
    tok = p.peek()
    t = p.parse_type()
    if not isinstance(t, MemRefType):
        raise p.error(f"expected a memref type for {what}, found '{t}'", tok)
    return t


def _merge_attrs(p: AsmParser, st: OpDraft, keyword: bool = False) -> None:
    tok = p.peek()
    for k, v in p.parse_attr_dict(keyword).items():
        st.set_attr(p, k, v, tok)


# ------------------------------------------------------------------- mixed static/dynamic lists


def _parse_mixed(p: AsmParser) -> tuple[list[int], list[OperandRef]]:
    """``[%a, 4, %b]``: static values with DYNAMIC for each operand, and the operands."""
    p.expect("[")
    static: list[int] = []
    dyn: list[OperandRef] = []
    if not p.accept("]"):
        while True:
            if p.at_operand():
                dyn.append(p.parse_operand())
                static.append(DYNAMIC)
            else:
                static.append(p.parse_int())
            if not p.accept(","):
                break
        p.expect("]", " after the list")
    return static, dyn


def _print_mixed(w: AsmPrinter, static: tuple, dyn: list) -> str:
    it = iter(dyn)
    return "[" + ", ".join(w.value(next(it)) if s == DYNAMIC else str(s) for s in static) + "]"


def static_list(op: Operation, name: str) -> list[int] | None:
    """A view op's ``static_offsets``/``static_sizes``/``static_strides``/``static_output_shape``, with
    ``DYNAMIC`` where an operand gives the value; None when the attribute is missing or not integers.
    (Reader for the interpreter and the verifier; the op's own verifier asks for the canonical i64 form.)"""
    a = op.attributes.get(name)
    if isinstance(a, DenseArrayAttr):
        return [int(x) for x in a.values]
    if isinstance(a, ArrayAttr) and all(isinstance(e, IntegerAttr) for e in a.elements):
        return [e.value for e in a.elements]  # type: ignore[attr-defined]
    return None


def reassociation(op: Operation) -> list[list[int]] | None:
    """collapse_shape/expand_shape's dimension groups; None when missing or malformed."""
    a = op.attributes.get("reassociation")
    if not isinstance(a, ArrayAttr):
        return None
    groups = []
    for g in a.elements:
        if not isinstance(g, ArrayAttr) or not all(isinstance(e, IntegerAttr) for e in g.elements):
            return None
        groups.append([e.value for e in g.elements])  # type: ignore[attr-defined]
    return groups


def _static(op: Operation, name: str) -> tuple | None:
    a = op.attributes.get(name)
    if isinstance(a, DenseArrayAttr) and a.element_type == i64:
        return a.values
    return None


def _split_dynamic(op: Operation, names: tuple[str, ...], first: int) -> list[list] | None:
    """Operands after ``first`` split by the DYNAMIC entries of the static_* attributes."""
    lists = [_static(op, n) for n in names]
    if any(s is None for s in lists):
        return None
    out = []
    k = first
    for s in lists:
        n = sum(1 for x in s if x == DYNAMIC)  # type: ignore[union-attr]
        out.append(op.operands[k : k + n])
        k += n
    if k != len(op.operands) or any(v.type != index for v in op.operands[first:]):
        return None
    return out


_VIEW_ATTRS = ("static_offsets", "static_sizes", "static_strides")


def _finish_view(p: AsmParser, st: OpDraft, src: OperandRef, refs: list[OperandRef], sep: str) -> None:
    """The common tail of the view ops: attributes, then ``: A <sep> B``; operands are the source then the dynamic indices."""
    _merge_attrs(p, st)
    p.expect(":", " before the source type")
    a = _memref_type(p, "the source")
    p.expect(sep, " between the source and result types")
    b = _memref_type(p, "the result")
    st.operands = [src, *refs]
    st.operand_types = [a] + [index] * len(refs)
    st.result_types = [b]


class _ViewSyntax:
    """The shared shape of the offset/size/stride view ops: a source, three mixed
    static/dynamic lists (stored as ``static_*`` attributes plus dynamic operands),
    attributes, ``: A to B``. Subclasses only say how the three lists are spelled."""

    def parse_lists(self, p: AsmParser, st: OpDraft) -> list[OperandRef]:
        refs: list[OperandRef] = []
        for k, name in enumerate(_VIEW_ATTRS):
            self.before_list(p, k)
            tok = p.peek()
            static, dyn = _parse_mixed(p)
            st.set_attr(p, name, DenseArrayAttr(i64, tuple(static)), tok)
            refs += dyn
        return refs

    def before_list(self, p: AsmParser, k: int) -> None:
        """Consume what precedes list ``k`` (nothing by default)."""

    def format_lists(self, lists: list[str]) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        src = p.parse_operand()
        refs = self.parse_lists(p, st)
        _finish_view(p, st, src, refs, "to")

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.results) != 1 or not op.operands or op.regions or op.successors:
            return None
        groups = _split_dynamic(op, _VIEW_ATTRS, 1)
        if groups is None:
            return None
        lists = [_print_mixed(w, _static(op, n), g) for n, g in zip(_VIEW_ATTRS, groups)]  # type: ignore[arg-type]
        return (
            f" {w.value(op.operands[0])}{self.format_lists(lists)}"
            f"{w.attr_dict(op.attributes, set(_VIEW_ATTRS))} : {w.type(op.operands[0].type)} to {w.type(op.results[0].type)}"
        )


class SubviewSyntax(_ViewSyntax):
    """``memref.subview %src[offsets] [sizes] [strides] {attrs} : A to B``."""

    def format_lists(self, lists: list[str]) -> str:
        return f"{lists[0]} {lists[1]} {lists[2]}"


class ReinterpretCastSyntax(_ViewSyntax):
    """``memref.reinterpret_cast %src to offset: [o], sizes: [s], strides: [t] {attrs} : A to B``."""

    WORDS = ("offset", "sizes", "strides")

    def before_list(self, p: AsmParser, k: int) -> None:
        if k:
            p.expect(",", " between the offset, sizes and strides lists")
        else:
            p.expect("to", " after the source")
        p.expect(self.WORDS[k])
        p.expect(":", f" after '{self.WORDS[k]}'")

    def format_lists(self, lists: list[str]) -> str:
        return f" to offset: {lists[0]}, sizes: {lists[1]}, strides: {lists[2]}"


class ReshapeSyntax:
    """``memref.collapse_shape %src [[0, 1], [2]] : A into B`` and
    ``memref.expand_shape %src [[0, 1]] output_shape [%d, 4] : A into B``."""

    def __init__(self, expand: bool) -> None:
        self.expand = expand

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        src = p.parse_operand()
        tok = p.expect("[", " before the reassociation")
        groups: list[ArrayAttr] = []
        while True:
            p.expect("[", " before a reassociation group")
            dims: list[IntegerAttr] = []
            if not p.accept("]"):
                while True:
                    dims.append(IntegerAttr(p.parse_int()))
                    if not p.accept(","):
                        break
                p.expect("]", " after a reassociation group")
            groups.append(ArrayAttr(tuple(dims)))
            if not p.accept(","):
                break
        p.expect("]", " after the reassociation")
        st.set_attr(p, "reassociation", ArrayAttr(tuple(groups)), tok)
        refs: list[OperandRef] = []
        if self.expand and p.at("output_shape"):
            otok = p.next()
            static, refs = _parse_mixed(p)
            st.set_attr(p, "static_output_shape", DenseArrayAttr(i64, tuple(static)), otok)
        _finish_view(p, st, src, refs, "into")

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.results) != 1 or not op.operands or op.regions or op.successors:
            return None
        r = op.attributes.get("reassociation")
        if not isinstance(r, ArrayAttr) or not r.elements:
            return None
        groups = []
        for g in r.elements:
            if not isinstance(g, ArrayAttr) or not all(isinstance(x, IntegerAttr) and x.type is None for x in g.elements):
                return None
            groups.append("[" + ", ".join(str(x.value) for x in g.elements) + "]")  # type: ignore[union-attr]
        claim = {"reassociation"}
        out = f" {w.value(op.operands[0])} [{', '.join(groups)}]"
        if self.expand and "static_output_shape" in op.attributes:
            split = _split_dynamic(op, ("static_output_shape",), 1)
            if split is None:
                return None
            out += " output_shape " + _print_mixed(w, _static(op, "static_output_shape"), split[0])  # type: ignore[arg-type]
            claim.add("static_output_shape")
        elif len(op.operands) != 1:
            return None
        return out + f"{w.attr_dict(op.attributes, claim)} : {w.type(op.operands[0].type)} into {w.type(op.results[0].type)}"


class AllocSyntax:
    """``memref.alloc(%d0, ...)[%s0, ...] {attrs} : memref<...>`` (also alloca): sizes, then symbols."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        refs = p.parse_operand_list("(", ")")
        if p.at("["):
            refs += p.parse_operand_list("[", "]")
        _merge_attrs(p, st)
        tok = p.expect(":", " before the memref type")
        t = _memref_type(p, "the allocation")
        n_dyn = sum(1 for d in t.shape if d is None)
        if len(refs) < n_dyn:
            raise p.error(f"{t} has {n_dyn} dynamic sizes but {len(refs)} operands are given", tok)
        st.operands = refs
        st.operand_types = [index] * len(refs)
        st.result_types = [t]

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.results) != 1 or op.regions or op.successors or not isinstance(op.results[0].type, MemRefType):
            return None
        t = op.results[0].type
        n_dyn = sum(1 for d in t.shape if d is None)
        if len(op.operands) < n_dyn or any(v.type != index for v in op.operands):
            return None
        sizes = ", ".join(w.value(v) for v in op.operands[:n_dyn])
        out = f"({sizes})"
        if len(op.operands) > n_dyn:
            out += "[" + ", ".join(w.value(v) for v in op.operands[n_dyn:]) + "]"
        return out + f"{w.attr_dict(op.attributes, set())} : {w.type(t)}"


class GlobalSyntax:
    """``memref.global ["private"] [constant] @name : memref<...> [= dense<...> | = uninitialized] {attrs}``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        if p.peek().type == "STRING":
            tok = p.peek()
            st.set_attr(p, "sym_visibility", StringAttr(p.parse_string()), tok)
        if p.at("constant"):
            st.set_attr(p, "constant", UnitAttr(), p.next())
        tok = p.peek()
        st.set_attr(p, "sym_name", StringAttr(p.parse_symbol_name()), tok)
        p.expect(":", " before the global's type")
        t = _memref_type(p, "the global")
        st.set_attr(p, "type", TypeAttr(t), tok)
        if p.accept("="):
            vtok = p.peek()
            if p.at("uninitialized"):
                p.next()
                st.set_attr(p, "initial_value", UnitAttr(), vtok)
            else:
                st.set_attr(p, "initial_value", p.parse_attribute(TensorType(t.shape, t.element)), vtok)
        _merge_attrs(p, st)
        st.operand_types, st.result_types = [], []

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        a = op.attributes
        name, t = a.get("sym_name"), a.get("type")
        if op.operands or op.results or op.regions or op.successors:
            return None
        if not isinstance(name, StringAttr) or not isinstance(t, TypeAttr) or not isinstance(t.type, MemRefType):
            return None
        claim = {"sym_name", "type"}
        out = ""
        vis = a.get("sym_visibility")
        if isinstance(vis, StringAttr):
            out += " " + w.attr(vis)
            claim.add("sym_visibility")
        if isinstance(a.get("constant"), UnitAttr):
            out += " constant"
            claim.add("constant")
        out += f" {w.symbol(name.value)} : {w.type(t.type)}"
        init = a.get("initial_value")
        if isinstance(init, UnitAttr):
            out += " = uninitialized"
            claim.add("initial_value")
        elif isinstance(init, DenseElementsAttr) and init.type == TensorType(t.type.shape, t.type.element):
            text = w.attr(init)
            out += " = " + text[: text.rindex(" : ")]  # the type is implied by the memref's
            claim.add("initial_value")
        elif init is not None:
            out += f" = {w.attr(init)}"
            claim.add("initial_value")
        return out + w.attr_dict(a, claim)


# ---------------------------------------------------------------------------- verifiers


def _indices(op: Operation, t: MemRefType, idx: list) -> None:
    if len(idx) != t.rank:
        fail(op, INDEX_COUNT, f"needs {t.rank} indices for {t}, found {len(idx)}")
    for v in idx:
        if not isinstance(v.type, IndexType):
            fail(op, OPERAND_TYPE, f"indices must be index, found {v.type}")


def verify_load(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1, results=1)
    t = memref_operand(op, op.operands[0])
    _indices(op, t, op.operands[1:])
    if op.results[0].type != t.element:
        fail(op, TYPE_MISMATCH, f"result type {op.results[0].type} differs from the element type {t.element}")


def verify_store(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=2, results=0)
    t = memref_operand(op, op.operands[1])
    _indices(op, t, op.operands[2:])
    if op.operands[0].type != t.element:
        fail(op, TYPE_MISMATCH, f"stored value type {op.operands[0].type} differs from the element type {t.element}")


def verify_alloc(op: Operation, ctx: VerifyContext) -> None:
    counts(op, results=1)
    t = op.results[0].type
    if not isinstance(t, MemRefType):
        fail(op, RESULT_TYPE, f"result must be a memref, found {t}")
    n_dyn = sum(1 for d in t.shape if d is None)
    if len(op.operands) < n_dyn:
        fail(op, ARITY, f"needs {n_dyn} dynamic sizes for {t}, found {len(op.operands)}")
    for v in op.operands:
        if not isinstance(v.type, IndexType):
            fail(op, OPERAND_TYPE, f"sizes must be index, found {v.type}")


def verify_dim(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=2, results=1)
    memref_operand(op, op.operands[0])
    if not isinstance(op.operands[1].type, IndexType) or not isinstance(op.results[0].type, IndexType):
        fail(op, OPERAND_TYPE, "dimension operand and result must be index")


def _view(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1, results=1)
    a = memref_operand(op, op.operands[0])
    b = op.results[0].type
    if not isinstance(b, MemRefType):
        fail(op, RESULT_TYPE, f"result must be a memref, found {b}")
    if a.element != b.element:
        fail(op, TYPE_MISMATCH, f"element types differ: {a.element} and {b.element}")
    for v in op.operands[1:]:
        if not isinstance(v.type, IndexType):
            fail(op, OPERAND_TYPE, f"dynamic offsets/sizes/strides must be index, found {v.type}")


def verify_cast(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=1)
    _view(op, ctx)


def verify_get_global(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=0, results=1)
    if not isinstance(op.attributes.get("name"), SymbolRefAttr):
        fail(op, ATTRIBUTE, "needs a 'name' symbol reference")
    if not isinstance(op.results[0].type, MemRefType):
        fail(op, RESULT_TYPE, f"result must be a memref, found {op.results[0].type}")


def verify_global(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=0, results=0)
    if not isinstance(op.attributes.get("sym_name"), StringAttr):
        fail(op, ATTRIBUTE, "needs a 'sym_name' string attribute")
    t = op.attributes.get("type")
    if not isinstance(t, TypeAttr) or not isinstance(t.type, MemRefType):
        fail(op, ATTRIBUTE, "needs a 'type' attribute holding a memref type")
    init: Attribute | None = op.attributes.get("initial_value")
    if init is not None and not isinstance(init, (UnitAttr, DenseElementsAttr)):
        fail(op, ATTRIBUTE, "'initial_value' must be a dense attribute or 'uninitialized'")


OPS = [
    OpDef(
        "memref.load",
        Format(Opd("memref"), Opds("indices", "[", "]", space=False), AttrDict(), MemrefSig("load")),
        verify_load,
    ),
    OpDef(
        "memref.store",
        Format(Opd("value"), Lit(",", space=False), Opd("memref"), Opds("indices", "[", "]", space=False), AttrDict(), MemrefSig("store")),
        verify_store,
    ),
    OpDef("memref.alloc", AllocSyntax(), verify_alloc),
    OpDef("memref.alloca", AllocSyntax(), verify_alloc),
    OpDef("memref.dim", Format(Opd("memref"), Lit(",", space=False), Opd("index"), AttrDict(), MemrefSig("dim")), verify_dim),
    OpDef("memref.cast", cast(), verify_cast),
    OpDef("memref.subview", SubviewSyntax(), _view),
    OpDef("memref.reinterpret_cast", ReinterpretCastSyntax(), _view),
    OpDef("memref.collapse_shape", ReshapeSyntax(expand=False), _view),
    OpDef("memref.expand_shape", ReshapeSyntax(expand=True), _view),
    OpDef("memref.get_global", Format(SymbolAttr("name"), AttrDict(), MemrefSig("result")), verify_get_global),
    OpDef("memref.global", GlobalSyntax(), verify_global),
]

