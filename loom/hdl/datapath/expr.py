"""Operator-table expressions -> SystemVerilog: one typed wire per function application.

Every ``Apply`` node of a table expression becomes its own wire of exactly the
width of its type, so wrap-around happens where the semantics says it does
(never widened by the surrounding SV expression). The function vocabulary
(``loom.semantics.functions``) and the integer ``scalar:<op>`` ops are
synthesizable and bit-exact; float ops are behavioural models for simulation
(``$bitstoshortreal``/``$realtobits``) and unconstrained (``anyseq``) under
Yosys, which is stated in every report that mentions them. A tuple (``handshake.pack``/``unpack``) is its
elements side by side, element 0 in the low bits, each ``bits`` wide: ``loom.semantics.layout``'s bus layout,
which the Z3 model reads too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from loom.ir.types import FloatType, NoneType, TupleType, Type, i1, index
from loom.semantics.expr import Apply, Const, Expr, In, Reg, ScalarInfo
from loom.semantics.functions import TUPLE_GET, TUPLE_MAKE, TupleIndex
from loom.semantics.layout import bus_width, from_bus, to_bus, tuple_fields
from loom.semantics.predicates import CMPF_PREDICATES, CMPI_PREDICATES, predicate_name


class HdlUnsupported(Exception):
    """An expression the RTL generator cannot translate (raised with a human message)."""


def unique(base: str, taken: set[str]) -> str:
    """``base``, or ``base_1``, ``base_2``, ... : the first not in ``taken`` (which it joins)."""
    out, k = base, 1
    while out in taken:
        out = f"{base}_{k}"
        k += 1
    taken.add(out)
    return out


# The bus layout is the semantics' (loom.semantics.layout), under the names the RTL generator uses: ``bits`` is
# ``bus_width`` (a none token and ``tuple<>`` one bit, a tuple the sum of its elements' buses), ``tuple_fields``
# each element's (low bit, width), ``encode``/``decode`` a runtime value's bus pattern and back.
bits = bus_width
encode = to_bus
decode = from_bus


def literal(value: object, t: Type) -> str:
    """A sized SV literal of the runtime value ``value`` of type ``t``."""
    if isinstance(t, NoneType):
        return "1'b0"
    return f"{bits(t)}'h{encode(value, t):x}"


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType)


@dataclass
class SvExprBuilder:
    """Declares wires for expressions of one module; ``hazards`` collects runtime-error conditions."""

    in_types: dict[str, Type]
    reg_types: dict[str, Type]
    in_signal: Callable[[str], str]
    reg_signal: Callable[[str], str]
    mem_read: Optional[Callable[[list[str]], tuple[str, Type]]] = None
    mem_dim: Optional[Callable[[str], str]] = None
    lines: list[str] = field(default_factory=list)
    functions: dict[str, str] = field(default_factory=dict)
    c_files: set[str] = field(default_factory=set)  # C sources the module's models call (loom.hdl.datapath.libm_c)
    hazards: list[tuple[str, str, str]] = field(default_factory=list)  # (condition, code, message)
    floats: bool = False
    _n: int = 0
    _memo: dict = field(default_factory=dict)

    def wire(self, t: Type, rhs: str, *, behavioural: bool = False) -> str:
        """Declare ``logic [w-1:0] tN = rhs`` and return its name (memoized on the right-hand side)."""
        key = (bits(t), rhs)
        if key in self._memo:
            return self._memo[key]
        name = f"t{self._n}"
        self._n += 1
        w = bits(t)
        if behavioural:
            self.floats = True
            self.lines += [
                "`ifdef YOSYS",
                f"  (* anyseq *) logic [{w - 1}:0] {name};  // float: behavioural model, free under Yosys",
                "`else",
                f"  wire [{w - 1}:0] {name} = {rhs};",
                "`endif",
            ]
        else:
            self.lines.append(f"  wire [{w - 1}:0] {name} = {rhs};")
        self._memo[key] = name
        return name

    # ------------------------------------------------------------------ expressions

    def emit(self, e: Expr, want: Optional[Type] = None) -> tuple[str, Type]:
        """SV for ``e`` (a wire name or a literal) and its type; ``want`` types bare constants."""
        if isinstance(e, In):
            return self.in_signal(e.port), self.in_types[e.port]
        if isinstance(e, Reg):
            return self.reg_signal(e.name), self.reg_types[e.name]
        if isinstance(e, Const):
            if want is None:
                raise HdlUnsupported(f"untyped constant {e.value!r}")
            return literal(e.value, want), want
        assert isinstance(e, Apply)
        fn = e.fn
        if fn in ("eq", "ne", "cmp.==", "cmp.!="):
            a, b = self._pair(e.args)
            op = "==" if fn in ("eq", "cmp.==") else "!="
            return self.wire(i1, f"({a[0]} {op} {b[0]})"), i1
        if fn in ("not", "and", "or"):
            xs = [self.emit(x, i1)[0] for x in e.args]
            rhs = f"!{xs[0]}" if fn == "not" else f"({xs[0]} {'&&' if fn == 'and' else '||'} {xs[1]})"
            return self.wire(i1, rhs), i1
        if fn.startswith("cmp.") or fn.startswith("ucmp."):
            a, b = self._pair(e.args)
            sym = fn.split(".", 1)[1]
            if fn.startswith("cmp."):
                return self.wire(i1, f"($signed({a[0]}) {sym} $signed({b[0]}))"), i1
            return self.wire(i1, f"({a[0]} {sym} {b[0]})"), i1
        if fn.startswith("step."):
            a = self.emit(e.args[0], index)[0]
            b = self.emit(e.args[1], index)[0]
            return self.wire(index, step_sv(fn[5:], a, b, self)), index
        if fn == "mem.read":
            if self.mem_read is None:
                raise HdlUnsupported("mem.read outside a memory operator")
            return self.mem_read([self.emit(x, index)[0] for x in e.args])
        if fn == "mem.dim":
            if self.mem_dim is None:
                raise HdlUnsupported("mem.dim outside a memory operator")
            return self.wire(index, self.mem_dim(self.emit(e.args[0], index)[0])), index
        if fn == TUPLE_MAKE and not e.args:  # () is one zero bit, like a none token
            return "1'b0", TupleType(())
        if fn == TUPLE_MAKE:
            tt = want if isinstance(want, TupleType) and len(want.types) == len(e.args) else None
            parts = [self.emit(x, tt.types[k] if tt else None) for k, x in enumerate(e.args)]
            t = TupleType(tuple(pt for _, pt in parts))
            return self.wire(t, "{" + ", ".join(p for p, _ in reversed(parts)) + "}"), t
        if fn == TUPLE_GET and isinstance(e.param, TupleIndex) and isinstance(e.param.tuple_type, TupleType):
            tt, k = e.param.tuple_type, e.param.index
            x = self.emit(e.args[0], tt)[0]
            if not x.isidentifier():  # a literal: SV slices only names
                x = self.wire(tt, x)
            low, w = tuple_fields(tt)[k]
            return self.wire(tt.types[k], f"{x}[{low + w - 1}:{low}]"), tt.types[k]
        if fn.startswith("scalar:") and isinstance(e.param, ScalarInfo):
            info = e.param
            args = [self.emit(x, t) for x, t in zip(e.args, info.operand_types)]
            from loom.hdl.datapath.scalar import scalar_sv

            return scalar_sv(fn[7:], info, [a for a, _ in args], self)
        raise HdlUnsupported(f"function {fn!r}")

    def _pair(self, args: tuple[Expr, ...]) -> tuple[tuple[str, Type], tuple[str, Type]]:
        """Two operands typed alike: a bare constant takes the other operand's type."""
        x, y = args
        if isinstance(x, Const) and not isinstance(y, Const):
            b = self.emit(y)
            return self.emit(x, b[1]), b
        if isinstance(y, Const) and not isinstance(x, Const):
            a = self.emit(x)
            return a, self.emit(y, a[1])
        return self.emit(x, index), self.emit(y, index)


def step_sv(op: str, a: str, b: str, bld: SvExprBuilder) -> str:
    """The stream's ``step_op`` on 64-bit index patterns, exactly as ``loom.semantics.functions``."""
    if op == "+=":
        return f"{a} + {b}"
    if op == "-=":
        return f"{a} - {b}"
    if op == "*=":
        return f"{a} * {b}"
    if op == "/=":
        bld.hazards.append((f"({b} == 64'h0)", "RT_DATAFLOW_STREAM_ZERO_STEP", "step./=: division by a zero step"))
        q = bld.wire(index, f"$unsigned($signed({a}) / $signed({b}))")
        return f"(({b} == 64'h0) ? 64'h0 : {q})"
    if op == "<<=":
        return f"(({b} >= 64'd64) ? 64'h0 : ({a} << {b}))"
    if op == ">>=":
        return f"$unsigned($signed({a}) >>> (({b} >= 64'd63) ? 64'd63 : {b}))"
    raise HdlUnsupported(f"step_op {op!r}")


def predicate(info: ScalarInfo, names: tuple[str, ...]) -> str:
    """The comparison predicate of a cmpi/cmpf call (``loom.semantics.predicates.predicate_name``)."""
    attrs = dict(info.attrs)
    p = predicate_name(attrs, names)
    if p is None:
        raise HdlUnsupported(f"predicate {attrs.get('predicate')}")
    return p


__all__ = [
    "CMPF_PREDICATES",
    "CMPI_PREDICATES",
    "HdlUnsupported",
    "SvExprBuilder",
    "bits",
    "decode",
    "encode",
    "is_float",
    "literal",
    "predicate",
    "tuple_fields",
]
