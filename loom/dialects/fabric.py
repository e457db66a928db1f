"""The fabric dialect (ADG hardware IR): syntax of module, spatial_pe/sw, function_unit, memories, instance, yield.

Only the text forms are defined here, so the core parser reads fabric files and
the printer writes them back. What a fabric means and its rules (CPL_FABRIC_*)
live in ``loom.map.adg``; the core never imports that package.

Forms (hardware parameters in ``[...]``, runtime state in ``{...}``):

    fabric.module @m(%a: T, ...) -> (T, ...) [attributes {...}] { graph body }
    fabric.spatial_pe @pe(%a: T, ...) -> (T, ...) { fabric.function_unit ... fabric.yield }
    %r = fabric.spatial_pe @pe inputs(%a, ...) : (T...) -> (R...) { fabric.function_unit ... fabric.yield }
    fabric.function_unit @fu(%a: T) -> (T) [latency = L, interval = I] { body; fabric.yield %x : T }
    fabric.spatial_sw @sw [connectivity_table = [...]] : (T, ...) -> (T, ...)
    %r:2 = fabric.extmemory @e [ldCount = 1, ...] (%mem, %addr) : (memref<?xi32>, T) -> (T, T)
    %r:2 = fabric.instance @target(%a, %b) {sym_name = "x"} : (T, T) -> (T, T)
    fabric.yield %a, %b : T, T
    fabric.temporal_pe @tpe(%a: T, ...) -> (T, ...) [num_instruction = N, ...] { function units; fabric.yield }
    %r = fabric.temporal_pe @tpe [params] inputs(%a, ...) : (T...) -> (R...) { function units; fabric.yield }
    %r:2 = fabric.temporal_sw @tsw [num_route_table = N] (%a) attributes {route_table = [...]} : (T) -> (T, T)
    %r = fabric.fifo @f [depth = 2, bypassable] (%a) attributes {bypassed = true} : (T) -> (T)
    %m = fabric.mux %a, %b {sel = 0 : i64, discard = false, disconnect = false} : T, T -> T   (inside an FU)
    %t = fabric.add_tag %a {tag = 0 : i64} : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %u = fabric.map_tag %t [table_size = 2 : i64] attributes {table = [[1, 0, 1], ...]} : T -> R
    %v = fabric.del_tag %u : !fabric.tagged<!fabric.bits<32>, i1> -> i32
"""

from __future__ import annotations

from loom.dialects.func import FunctionSyntax
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import AsmParser, AsmPrinter, OpDraft
from loom.ir.attributes import Attribute, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from loom.ir.core import Operation
from loom.ir.types import FunctionType

# attributes printed inside ``[...]`` (hardware parameters), in this order
PARAM_KEYS = (
    "latency", "interval", "connectivity_table", "decomposable_bits",
    "ldCount", "stCount", "lsqDepth", "memrefType", "numRegion", "is_private",
    "depth", "bypassable", "table_size", "num_register", "num_instruction", "reg_fifo_depth",
    "enable_share_operand_buffer", "operand_buffer_size", "num_route_table",
)


def _parse_params(p: AsmParser, st: OpDraft) -> None:
    """``[key = attr, ...]`` into the draft's attributes (nothing when absent)."""
    if not p.accept("["):
        return
    if p.accept("]"):
        return
    while True:
        tok = p.next()
        if not tok.is_bare:
            raise p.error(f"expected a parameter name, found {tok.describe()}", tok)
        if p.accept("="):
            st.set_attr(p, tok.value, p.parse_attribute(), tok)
        else:  # a bare flag such as a FIFO's ``bypassable``
            st.set_attr(p, tok.value, UnitAttr(), tok)
        if not p.accept(","):
            break
    p.expect("]", " to close the parameter list")


def _print_params(w: AsmPrinter, op: Operation) -> tuple[str, set[str]]:
    keys = [k for k in PARAM_KEYS if k in op.attributes]
    if not keys:
        return "", set()
    parts = [k if isinstance(op.attributes[k], UnitAttr) else f"{k} = {w.attr(op.attributes[k])}" for k in keys]
    return " [" + ", ".join(parts) + "]", set(keys)


class FabricDefSyntax:
    """``@name(%a: T, ...) -> (R, ...) [params] [attributes {...}] { body }`` (module, spatial_pe, function_unit)."""

    def __init__(self) -> None:
        self._fn = FunctionSyntax()

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        st.set_attr(p, "sym_name", StringAttr(p.parse_symbol_name()), tok)
        args, _, named, _ = self._fn._parse_args(p)
        results, _ = self._fn._parse_results(p)
        st.set_attr(p, "function_type", TypeAttr(FunctionType(tuple(t for _, t in args), tuple(results))), tok)
        _parse_params(p, st)
        dtok = p.peek()
        for k, v in p.parse_attr_dict(keyword=True).items():
            st.set_attr(p, k, v, dtok)
        if args and not named:
            raise p.error("a fabric definition must name its arguments ('%a: !fabric.bits<32>')")
        st.regions.append(p.parse_region(entry_args=[(ref, t) for ref, t in args]))  # type: ignore[misc]
        st.operand_types, st.result_types = [], []

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        name, ft = op.attributes.get("sym_name"), op.attributes.get("function_type")
        if not isinstance(name, StringAttr) or not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
            return None
        if op.operands or op.results or op.successors or len(op.regions) != 1 or not op.regions[0].blocks:
            return None
        body = op.regions[0]
        if [a.type for a in body.blocks[0].args] != list(ft.type.inputs):
            return None
        args = ", ".join(f"{w.value(a)}: {w.type(a.type)}" for a in body.blocks[0].args)
        out = f" {w.symbol(name.value)}({args}) -> ({', '.join(w.type(t) for t in ft.type.results)})"
        params, own = _print_params(w, op)
        out += params + w.attr_dict(op.attributes, own | {"sym_name", "function_type"}, keyword=True)
        return out + " " + w.region(body, entry_args=False)


class ComponentSyntax:
    """``[@name] [params] [(operands)] [attributes {...}] : (T...) -> (R...)`` (switches, memories).

    Without operands the op is a named definition and keeps its port types in
    ``function_type``; with operands it is an inline instantiation.
    """

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        if tok.type == "AT_ID":
            st.set_attr(p, "sym_name", StringAttr(p.parse_symbol_name()), tok)
        _parse_params(p, st)
        inline = p.at("(")
        if inline:
            st.operands.extend(p.parse_operand_list("(", ")"))
        dtok = p.peek()
        for k, v in p.parse_attr_dict(keyword=True).items():
            st.set_attr(p, k, v, dtok)
        if not p.at("{"):
            pass
        else:
            for k, v in p.parse_attr_dict().items():
                st.set_attr(p, k, v, dtok)
        p.expect(":", " before the port types")
        ftok = p.peek()
        ft = p.parse_type()
        if not isinstance(ft, FunctionType):
            raise p.error("expected a function type '(inputs) -> (outputs)'", ftok)
        if inline:
            if len(ft.inputs) != len(st.operands):
                raise p.error(f"{len(st.operands)} operands but {len(ft.inputs)} input types", ftok)
            st.operand_types, st.result_types = list(ft.inputs), list(ft.results)
        else:
            st.set_attr(p, "function_type", TypeAttr(ft), ftok)
            st.operand_types, st.result_types = [], []

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if op.regions or op.successors or (op.results and not op.operands):
            return None  # regions have no custom form; results without operands would read back as a definition
        name = op.attributes.get("sym_name")
        out = f" {w.symbol(name.value)}" if isinstance(name, StringAttr) else ""
        params, own = _print_params(w, op)
        out += params
        if isinstance(name, StringAttr):
            own.add("sym_name")
        if op.operands:
            ft = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
            out += " (" + ", ".join(w.value(v) for v in op.operands) + ")"
        else:
            a = op.attributes.get("function_type")
            if not isinstance(a, TypeAttr) or not isinstance(a.type, FunctionType):
                return None
            ft = a.type
            own.add("function_type")
        out += w.attr_dict(op.attributes, own, keyword=True)
        return out + f" : {w.type(ft)}"


class InstanceSyntax:
    """``@target(%a, ...) {attrs} : (T...) -> (R...)``; the target is kept in ``module``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        st.set_attr(p, "module", SymbolRefAttr(p.parse_symbol_name()), tok)
        _parse_ports(p, st, keyword=False, where=" before the instance's port types")

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        target = op.attributes.get("module")
        if not isinstance(target, SymbolRefAttr) or target.nested or op.regions or op.successors:
            return None
        ft = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        args = ", ".join(w.value(v) for v in op.operands)
        return f" {w.attr(target)}({args}){w.attr_dict(op.attributes, {'module'})} : {w.type(ft)}"


class YieldSyntax:
    """``%a, %b : T, T`` or nothing."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        if p.at_operand():
            st.operands.extend(p.parse_operand_list())
            p.expect(":", " before the yielded types")
            types = p.parse_type_list()
            if len(types) != len(st.operands):
                raise p.error(f"{len(st.operands)} yielded values but {len(types)} types")
            st.operand_types = list(types)
        else:
            st.operand_types = []
        st.result_types = []

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if op.results or op.attributes or op.regions or op.successors:
            return None
        if not op.operands:
            return ""
        return " " + ", ".join(w.value(v) for v in op.operands) + " : " + ", ".join(w.type(v.type) for v in op.operands)


def _parse_ports(p: AsmParser, st: OpDraft, keyword: bool, where: str) -> None:
    """``(%a, ...) [attrs] : (T...) -> (R...)``: an instance's operands, attributes (``{...}``, or
    ``attributes {...}`` when ``keyword``) and port types, one input type per operand."""
    st.operands.extend(p.parse_operand_list("(", ")"))
    dtok = p.peek()
    if keyword or p.at("{"):
        for k, v in p.parse_attr_dict(keyword=keyword).items():
            st.set_attr(p, k, v, dtok)
    p.expect(":", where)
    ftok = p.peek()
    ft = p.parse_type()
    if not isinstance(ft, FunctionType) or len(ft.inputs) != len(st.operands):
        raise p.error(f"expected a function type with {len(st.operands)} input types", ftok)
    st.operand_types, st.result_types = list(ft.inputs), list(ft.results)


class PESyntax:
    """``fabric.spatial_pe`` / ``fabric.temporal_pe``: a definition ``@name(%a: T, ...) -> (R, ...) [params] { body }``,
    or an inline instantiation ``@name [params] inputs(%a, ...) [attributes {...}] : (T...) -> (R...) { body }``."""

    def __init__(self, isolated_def: OpDef) -> None:
        self._def = FabricDefSyntax()
        self._isolated = isolated_def

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        if p.peek(1).value == "(":  # ``@name(`` opens a definition's argument list
            # A definition is isolated from above (its argument names may repeat the module's), an inline
            # instantiation is not (the printer prints isolated ops with operands only generically): the
            # OpDef is not isolated, so the definition's region is parsed under an isolated stand-in.
            stack = getattr(p, "op_stack", None)
            saved = stack[-1] if stack else None
            if stack:
                stack[-1] = (saved[0], self._isolated)  # type: ignore[index]
            try:
                self._def.parse(p, st)
            finally:
                if stack:
                    stack[-1] = saved
            return
        tok = p.peek()
        st.set_attr(p, "sym_name", StringAttr(p.parse_symbol_name()), tok)
        _parse_params(p, st)
        p.expect("inputs", " (an inline temporal_pe lists its operands as 'inputs(%a, ...)')")
        _parse_ports(p, st, keyword=True, where=" before the port types")
        st.regions.append(p.parse_region())

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if not op.operands and not op.results:
            return self._def.print(w, op)
        name = op.attributes.get("sym_name")
        if not isinstance(name, StringAttr) or op.successors or len(op.regions) != 1 \
                or len(op.regions[0].blocks) != 1:  # an inline body is one block (anything else: generic form)
            return None
        if op.regions[0].blocks[0].args:
            return None
        params, own = _print_params(w, op)
        ft = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        out = f" {w.symbol(name.value)}{params} inputs(" + ", ".join(w.value(v) for v in op.operands) + ")"
        out += w.attr_dict(op.attributes, own | {"sym_name"}, keyword=True)
        return out + f" : {w.type(ft)} " + w.region(op.regions[0], entry_args=False)


class MuxSyntax:
    """``fabric.mux %a, %b {sel = 0 : i64, discard = false, disconnect = false} : T, T -> T`` (FU-internal
    configured selector; a one-input, several-output mux is a demux)."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.extend(p.parse_operand_list())
        dtok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, dtok)
        p.expect(":", " before the mux's types")
        ttok = p.peek()
        ins = p.parse_type_list()
        if len(ins) != len(st.operands):
            raise p.error(f"{len(st.operands)} mux operands but {len(ins)} input types", ttok)
        p.expect("->", " between the mux's input and output types")
        st.operand_types, st.result_types = list(ins), list(p.parse_type_list())

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if not op.operands or not op.results or op.regions or op.successors:
            return None
        return (" " + ", ".join(w.value(v) for v in op.operands) + w.attr_dict(op.attributes)
                + " : " + ", ".join(w.type(v.type) for v in op.operands)
                + " -> " + ", ".join(w.type(r.type) for r in op.results))


class TagSyntax:
    """``fabric.add_tag %a {tag = 0 : i64} : T -> R``, ``fabric.del_tag %t : T -> R`` and
    ``fabric.map_tag %t [table_size = N] attributes {table = [...]} : T -> R`` (one operand, one result).

    ``keyword`` prints the runtime attributes as ``attributes {...}`` (map_tag, as upstream writes it)."""

    def __init__(self, keyword: bool) -> None:
        self.keyword = keyword

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.append(p.parse_operand())
        _parse_params(p, st)
        dtok = p.peek()
        for k, v in p.parse_attr_dict(keyword=True).items():
            st.set_attr(p, k, v, dtok)
        if p.at("{"):
            for k, v in p.parse_attr_dict().items():
                st.set_attr(p, k, v, dtok)
        p.expect(":", " before the tag op's types")
        ins = p.parse_type()
        p.expect("->", " between the tag op's input and output types")
        st.operand_types, st.result_types = [ins], [p.parse_type()]

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if len(op.operands) != 1 or len(op.results) != 1 or op.regions or op.successors:
            return None
        params, own = _print_params(w, op)
        out = f" {w.value(op.operands[0])}{params}{w.attr_dict(op.attributes, own, keyword=self.keyword)}"
        return out + f" : {w.type(op.operands[0].type)} -> {w.type(op.results[0].type)}"


def symbol_target(op: Operation) -> str | None:
    """The symbol a fabric.instance names (None when malformed)."""
    a: Attribute | None = op.attributes.get("module")
    return a.root if isinstance(a, SymbolRefAttr) else None


_DEF = FabricDefSyntax()
# the isolated stand-ins a PE definition's region is parsed under (see PESyntax.parse)
_ISOLATED_SPE = OpDef("fabric.spatial_pe", _DEF, isolated=True, graph_regions=True)
_ISOLATED_TPE = OpDef("fabric.temporal_pe", _DEF, isolated=True, graph_regions=True)
_COMP = ComponentSyntax()

OPS = [
    OpDef("fabric.module", _DEF, isolated=True, graph_regions=True),
    OpDef("fabric.spatial_pe", PESyntax(_ISOLATED_SPE), graph_regions=True),  # not isolated: see fabric.temporal_pe
    OpDef("fabric.function_unit", _DEF, isolated=True),
    OpDef("fabric.spatial_sw", _COMP),
    OpDef("fabric.extmemory", _COMP),
    OpDef("fabric.memory", _COMP),
    OpDef("fabric.instance", InstanceSyntax()),
    OpDef("fabric.yield", YieldSyntax(), terminator=True),
    OpDef("fabric.fifo", _COMP),
    OpDef("fabric.temporal_sw", _COMP),
    OpDef("fabric.temporal_pe", PESyntax(_ISOLATED_TPE), graph_regions=True),  # not isolated: isolated ops with operands print generic
    OpDef("fabric.mux", MuxSyntax()),
    OpDef("fabric.add_tag", TagSyntax(keyword=False)),
    OpDef("fabric.del_tag", TagSyntax(keyword=False)),
    OpDef("fabric.map_tag", TagSyntax(keyword=True)),
]
