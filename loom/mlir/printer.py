"""loom IR -> MLIR text.

Every op prints in its custom syntax when its ``OpDef`` has one that fits the op
exactly, otherwise in the generic form; either way the text parses back to a
structurally identical op. Types and attributes are printed here (not with the
IR classes' ``__str__``) so that the printer alone decides what re-parses.
"""

from __future__ import annotations

import math
import re

from loom.dialects.registry import lookup
from loom.ir.attributes import (
    ArrayAttr,
    Attribute,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.types import (
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    OpaqueType,
    TaggedType,
    TensorType,
    Type,
    TupleType,
    VectorType,
)
from loom.mlir.names import Names, compute_names
from loom.mlir.numbers import format_float

INDENT = "  "
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def quote(s: str) -> str:
    """An MLIR string literal for ``s`` (control bytes as ``\\XX``)."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\{o:02X}")
        elif 0xDC80 <= o <= 0xDCFF:  # a raw byte kept by surrogateescape
            out.append(f"\\{o - 0xDC00:02X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _dims(shape) -> str:
    return "".join(("?" if d is None else str(d)) + "x" for d in shape)


class _TypeAttrPrinter:
    """Printer's types and attributes (builtin and dialect types, dense and strided attributes, attribute
    dictionaries), as MLIR prints them (a mixin)."""

    def type(self, t: Type) -> str:
        if isinstance(t, IntegerType):
            return f"{t.signedness}i{t.width}"
        if isinstance(t, (IndexType, NoneType)):
            return "index" if isinstance(t, IndexType) else "none"
        if isinstance(t, FloatType):
            return t.name
        if isinstance(t, MemRefType):
            s = f"memref<{_dims(t.shape)}{self.type(t.element)}"
            if t.layout is not None:
                s += f", {self.attr(t.layout)}"
            if t.memory_space is not None:
                s += f", {self.attr(t.memory_space)}"
            return s + ">"
        if isinstance(t, TensorType):
            dims = "*x" if t.shape is None else _dims(t.shape)
            return f"tensor<{dims}{self.type(t.element)}>"
        if isinstance(t, VectorType):
            return f"vector<{_dims(t.shape)}{self.type(t.element)}>"
        if isinstance(t, TaggedType):
            return f"!dataflow.tagged<{self.type(t.value)}, {self.type(t.tag)}>"
        if isinstance(t, TupleType):
            return f"tuple<{', '.join(self.type(x) for x in t.types)}>"
        if isinstance(t, FunctionType):
            ins = ", ".join(self.type(x) for x in t.inputs)
            if len(t.results) == 1 and not isinstance(t.results[0], FunctionType):
                return f"({ins}) -> {self.type(t.results[0])}"
            return f"({ins}) -> ({', '.join(self.type(x) for x in t.results)})"
        if isinstance(t, OpaqueType):
            return t.text
        return str(t)

    def attr(self, a: Attribute) -> str:
        if isinstance(a, BoolAttr):
            return "true" if a.value else "false"
        if isinstance(a, IntegerAttr):
            return str(a.value) if a.type is None else f"{a.value} : {self.type(a.type)}"
        if isinstance(a, FloatAttr):
            text = format_float(a.value, a.type)
            if a.type is None:
                return text
            return f"{text} : {self.type(a.type)}"
        if isinstance(a, StringAttr):
            return quote(a.value)
        if isinstance(a, UnitAttr):
            return "unit"
        if isinstance(a, TypeAttr):
            return self.type(a.type)
        if isinstance(a, ArrayAttr):
            return "[" + ", ".join(self.attr(e) for e in a.elements) + "]"
        if isinstance(a, DictAttr):
            return "{" + ", ".join(self._entry(k, v) for k, v in a.entries) + "}"
        if isinstance(a, DenseArrayAttr):
            if not a.values:
                return f"array<{self.type(a.element_type)}>"
            return f"array<{self.type(a.element_type)}: {', '.join(self._element(v, a.element_type) for v in a.values)}>"
        if isinstance(a, DenseElementsAttr):
            return f"dense<{self._dense_body(a)}> : {self.type(a.type)}"
        if isinstance(a, SymbolRefAttr):
            return "::".join(self.symbol(n) for n in (a.root, *a.nested))
        if isinstance(a, StridedLayoutAttr):
            def d(x: int | None) -> str:
                return "?" if x is None else str(x)

            s = "strided<[" + ", ".join(d(x) for x in a.strides) + "]"
            if a.offset != 0:
                s += f", offset: {d(a.offset)}"
            return s + ">"
        if isinstance(a, OpaqueAttr):
            return a.text
        return str(a)

    def _entry(self, key: str, value: Attribute) -> str:
        k = key if _BARE.fullmatch(key) else quote(key)
        return k if isinstance(value, UnitAttr) else f"{k} = {self.attr(value)}"

    def _element(self, v, t: Type) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) or isinstance(t, FloatType):
            return format_float(float(v), t)
        return str(v)

    def _dense_body(self, a: DenseElementsAttr) -> str:
        et = getattr(a.type, "element", None)
        vals = [self._element(v, et) for v in a.values]  # type: ignore[arg-type]
        if a.splat:
            return vals[0]
        shape = getattr(a.type, "shape", None) or (len(vals),)
        if not vals:
            return ""
        if math.prod(shape) != len(vals):
            return "[" + ", ".join(vals) + "]"

        def nest(dims: tuple, flat: list[str]) -> str:
            if len(dims) <= 1:
                return "[" + ", ".join(flat) + "]"
            step = len(flat) // dims[0]
            return "[" + ", ".join(nest(dims[1:], flat[k * step : (k + 1) * step]) for k in range(dims[0])) + "]"

        return nest(tuple(shape), vals)

    def attr_dict(self, attrs: dict[str, Attribute], elide: set[str] = frozenset(), keyword: bool = False) -> str:  # type: ignore[assignment]
        items = [(k, v) for k, v in attrs.items() if k not in elide]
        if not items:
            return ""
        body = "{" + ", ".join(self._entry(k, v) for k, v in items) + "}"
        return f" attributes {body}" if keyword else f" {body}"


class Printer(_TypeAttrPrinter):
    """Prints ops with the names of the scopes they sit in (see ``names.py``); types and attributes by
    ``_TypeAttrPrinter``."""

    def __init__(self, debuginfo: bool = False, generic: bool = False) -> None:
        self.scopes: list[Names] = []
        self.depth = 0
        self.debuginfo = debuginfo  # print every op's location, as mlir-opt's -mlir-print-debuginfo does
        self.generic_only = generic  # every op in the generic form, as mlir-opt's -mlir-print-op-generic does

    # ------------------------------------------------------------------ values
    def value(self, v: Value) -> str:
        """``%name`` of ``v`` in the innermost scope (only it is visible: scopes are isolated)."""
        if not self.scopes:
            self.scopes.append(Names())
        names = self.scopes[-1]
        n = names.values.get(v)
        if n is None:  # not defined in this scope: printed under a fresh name the parser will reject
            n = f"%undef_{names.fresh()}"
            names.values[v] = n
        return n

    def indent(self) -> str:
        """The indentation of the op being printed (for syntax that continues on new lines)."""
        return INDENT * self.depth

    def block_name(self, b: Block) -> str:
        for names in reversed(self.scopes):
            n = names.blocks.get(b)
            if n is not None:
                return n
        return "^undefined_block"

    def symbol(self, name: str) -> str:
        return "@" + (name if _BARE.fullmatch(name) else quote(name))

    # --------------------------------------------------------------------- ops
    def results(self, op: Operation) -> str:
        if not op.results:
            return ""
        scope = self.scopes[-1]
        group = scope.groups.get(op)
        if group is not None:
            return f"{group}:{len(op.results)} = "
        return ", ".join(self.value(r) for r in op.results) + " = "

    def op(self, op: Operation) -> str:
        """One op (with nested regions, over several lines) without leading indentation."""
        head = self.results(op)
        d = lookup(op.name)
        isolated = d is not None and d.isolated
        operands = [self.value(v) for v in op.operands]  # named in the enclosing scope, even for isolated ops
        if isolated:
            self.scopes.append(compute_names(op.regions))
        try:
            custom = d is not None and d.syntax is not None and not (isolated and op.operands) and not self.generic_only
            body = d.syntax.print(self, op) if custom else None
            if body is None:
                text = self.generic(op, operands)
            else:  # builtin ops print unqualified, as mlir-opt does (``module``)
                text = (op.name.removeprefix("builtin.")) + body
        finally:
            if isolated:
                self.scopes.pop()
        if op.loc.text:
            text += " " + op.loc.text
        elif self.debuginfo and op.loc.line > 0:
            text += f' loc("{_escape_file(op.loc.file)}":{op.loc.line}:{op.loc.col})'
        return head + text

    def generic(self, op: Operation, operands: list[str]) -> str:
        """``"name"(operands)[succ] ({regions}) {attrs} : (types) -> (types)``."""
        s = quote(op.name) + "(" + ", ".join(operands) + ")"
        if op.successors:
            s += "[" + ", ".join(self.block_name(b) for b in op.successors) + "]"
        if op.regions:
            s += " (" + ", ".join(self.region(r, entry_args=True) for r in op.regions) + ")"
        s += self.attr_dict(op.attributes)
        ft = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        ins = ", ".join(self.type(x) for x in ft.inputs)
        return s + f" : ({ins}) -> ({', '.join(self.type(x) for x in ft.results)})"

    def region(self, region: Region, entry_args: bool = True, elide_terminator: str | None = None) -> str:
        """``{ ... }`` over several lines; the entry block header only when ``entry_args``."""
        pad = INDENT * self.depth
        lines = ["{"]
        self.depth += 1
        try:
            for k, block in enumerate(region.blocks):
                ops = block.ops
                if elide_terminator and k == len(region.blocks) - 1 and ops and ops[-1].name == elide_terminator:
                    ops = ops[:-1]
                # an empty entry block needs its label, or the next block's label would start the region
                header = k > 0 or (entry_args and (bool(block.args) or not block.ops))
                if header:
                    lines.append(pad + self.block_header(block))
                for inner in ops:
                    lines.append(INDENT * self.depth + self.op(inner))
        finally:
            self.depth -= 1
        lines.append(pad + "}")
        return "\n".join(lines)

    def block_header(self, block: Block) -> str:
        s = self.block_name(block)
        if block.args:
            s += "(" + ", ".join(f"{self.value(a)}: {self.type(a.type)}" for a in block.args) + ")"
        return s + ":"

    # ------------------------------------------------------------------ module
    def module(self, module: Module) -> str:
        m = module.op
        if self.generic_only or module.explicit or m.attributes or m.name != "builtin.module" or len(m.regions) != 1 or len(m.regions[0].blocks) != 1:
            self.scopes.append(compute_names([], [m]))
            return self.op(m) + "\n"
        self.scopes.append(compute_names(m.regions))
        return "".join(self.op(op) + "\n" for op in m.regions[0].blocks[0].ops)


def print_module(module: Module, debuginfo: bool = False, generic: bool = False) -> str:
    """The text of ``module``; parsing it gives a structurally identical module.

    ``debuginfo`` adds a ``loc("file":line:col)`` to every op that has a location (the
    lowering keeps each source op's location on what it emits, so a DFG printed this way
    can be related back to its SCF source, e.g. by ``loom verify --source``).
    ``generic`` prints every op in MLIR's generic form (``"dialect.op"(...) : (...) -> (...)``),
    the one form any MLIR parser reads whatever dialects it knows."""
    return Printer(debuginfo, generic).module(module)


def _escape_file(name: str) -> str:
    return name.replace("\\", "\\\\").replace('"', '\\"')


def _isolated(op: Operation) -> bool:
    d = lookup(op.name)
    return d is not None and d.isolated


def print_op(op: Operation) -> str:
    """One op (with its regions), named as it would be inside its enclosing function."""
    p = Printer()
    root = next((a for a in op.ancestors() if _isolated(a)), None)
    if root is not None:
        p.scopes.append(compute_names(root.regions))
    else:
        top = op
        for a in op.ancestors():
            top = a
        p.scopes.append(compute_names([] if _isolated(top) else top.regions, [top]))
    return p.op(op)
