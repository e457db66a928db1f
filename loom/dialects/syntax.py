"""Assembly formats: one declaration per op drives both its parser and its printer.

A ``Format`` is a list of directives, like MLIR's ``assemblyFormat``: each
directive knows how to parse its piece of custom syntax into an ``OpDraft`` and
how to print the same piece back from an ``Operation``. Exactly one directive of
a format is a ``Sig`` (the type signature); it maps the types written in the text
to operand and result types and back, and refuses (``NoFit``) any op whose types
it would not reproduce, so the printer falls back to the generic form instead of
printing text that re-parses differently. Ops whose syntax is not expressible
this way (functions, loops, memory interfaces) implement ``OpSyntax`` by hand in
their dialect module, still with both directions side by side.

This module does not import the parser or the printer: it talks to them through
the small ``AsmParser``/``AsmPrinter`` protocols below.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from loom.dialects.checks import bool_like
from loom.ir.attributes import (
    Attribute,
    BoolAttr,
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
)
from loom.ir.core import Operation, Region, Value
from loom.ir.location import Location
from loom.ir.types import (
    FloatType,
    FunctionType,
    IntegerType,
    MemRefType,
    Type,
    i1,
    i64,
    index,
)


class NoFit(Exception):
    """The op cannot be printed faithfully in this custom form; print it generically."""


class SigError(Exception):
    """The types written in the text do not fit the op's signature (message for the user)."""


@dataclass(frozen=True)
class OperandRef:
    """A use of ``%name`` or ``%name#index`` in the text, with its token for messages."""

    name: str
    index: int
    tok: Any


@dataclass
class OpDraft:
    """What a custom syntax parses: the pieces of one op before it is built."""

    name: str
    loc: Location
    n_bound: int  # number of result names bound by the text (``%a, %b:2 = ...`` -> 3)
    operands: list[OperandRef] = field(default_factory=list)
    operand_types: list[Type | None] | None = None  # None entry: take the value's own type
    result_types: list[Type] | None = None
    attributes: dict[str, Attribute] = field(default_factory=dict)
    regions: list[Region] = field(default_factory=list)
    result_count: int | None = None  # set by directives such as ``fork [N]``
    successors: list[Any] = field(default_factory=list)  # blocks named by ``^label`` (cf branches)

    def set_attr(self, p: AsmParser, name: str, value: Attribute, tok: Any) -> None:
        if name in self.attributes:
            raise p.error(f"attribute '{name}' is given twice", tok)
        self.attributes[name] = value


class AsmParser(Protocol):
    """The parser services a syntax may call (implemented by loom.mlir.parser.Parser)."""

    def peek(self, k: int = 0) -> Any: ...
    def next(self) -> Any: ...
    def at(self, value: str) -> bool: ...
    def accept(self, value: str) -> Any: ...
    def expect(self, value: str, context: str = "") -> Any: ...
    def error(self, message: str, tok: Any = None) -> Exception: ...
    def at_operand(self) -> bool: ...
    def parse_operand(self) -> OperandRef: ...
    def parse_operand_list(self, open: str | None = None, close: str | None = None) -> list[OperandRef]: ...
    def parse_type(self) -> Type: ...
    def parse_type_list(self) -> list[Type]: ...
    def parse_paren_type_list(self) -> list[Type]: ...
    def parse_attribute(self, dense_type: Type | None = None) -> Attribute: ...
    def parse_attr_dict(self, keyword: bool = False) -> dict[str, Attribute]: ...
    def parse_int(self) -> int: ...
    def parse_keyword(self, choices: Sequence[str] | None = None) -> str: ...
    def parse_symbol_name(self) -> str: ...
    def parse_string(self) -> str: ...
    def parse_region(self, entry_args: list[tuple[OperandRef, Type]] | None = None, implicit_terminator: str | None = None) -> Region: ...
    def parse_optional_loc(self) -> str | None: ...
    def parse_successor(self) -> Any: ...


class AsmPrinter(Protocol):
    """The printer services a syntax may call (implemented by loom.mlir.printer)."""

    def value(self, v: Value) -> str: ...
    def type(self, t: Type) -> str: ...
    def attr(self, a: Attribute) -> str: ...
    def attr_dict(self, attrs: dict[str, Attribute], elide: set[str] = ..., keyword: bool = False) -> str: ...
    def region(self, region: Region, entry_args: bool = True, elide_terminator: str | None = None) -> str: ...
    def symbol(self, name: str) -> str: ...
    def block_name(self, b: Any) -> str: ...
    def indent(self) -> str: ...


class OpSyntax(Protocol):
    """Custom assembly of one op: ``parse`` fills a draft, ``print`` gives the text after the op name."""

    def parse(self, p: AsmParser, st: OpDraft) -> None: ...

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        """Text after the op name (with its leading space), or None when only the generic form fits."""
        ...


# ============================================================================ directives


@dataclass
class _View:
    """An op being printed, with its operands split into the format's groups."""

    groups: dict[str, list[Value]]
    claimed: set[str]


class Directive:
    """One piece of a format."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        raise NotImplementedError

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        raise NotImplementedError

    def claims(self, op: Operation) -> set[str]:
        """Attributes this directive prints itself (elided from the attribute dictionary)."""
        return set()


@dataclass
class Lit(Directive):
    """A literal keyword or punctuation."""

    text: str
    space: bool = True
    context: str = ""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        p.expect(self.text, self.context)

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        return (" " if self.space else "") + self.text


@dataclass
class Opd(Directive):
    """Exactly one operand."""

    group: str
    space: bool = True

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.append(p.parse_operand())

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        return (" " if self.space else "") + w.value(view.groups[self.group][0])


@dataclass
class Opds(Directive):
    """A comma-separated operand list, optionally between ``open`` and ``close``."""

    group: str
    open: str | None = None
    close: str | None = None
    space: bool = True

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        st.operands.extend(p.parse_operand_list(self.open, self.close))

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        body = ", ".join(w.value(v) for v in view.groups[self.group])
        if self.open:
            body = f"{self.open}{body}{self.close}"
        elif not body:
            return ""
        return (" " if self.space else "") + body


@dataclass
class AttrDict(Directive):
    """``{name = value, ...}`` for every attribute no other directive printed."""

    keyword: bool = False

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        for k, v in p.parse_attr_dict(self.keyword).items():
            st.set_attr(p, k, v, tok)

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        return w.attr_dict(op.attributes, view.claimed, self.keyword)


@dataclass
class EnumAttr(Directive):
    """A keyword standing for an integer enum attribute: required (cmpi/cmpf predicates, i64) or ``optional``
    (arith.truncf's rounding mode, i32: absent means the op's default)."""

    attr: str
    cases: tuple[str, ...]  # case i has value i
    trailing: str = ""  # punctuation printed right after the keyword
    optional: bool = False
    width: int = 64  # the enum attribute's integer type

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        if self.optional and not (tok.is_bare and tok.value in self.cases):
            return
        word = p.parse_keyword(self.cases)
        st.set_attr(p, self.attr, IntegerAttr(self.cases.index(word), IntegerType(self.width)), tok)
        if self.trailing:
            p.expect(self.trailing, f" after '{word}'")

    def claims(self, op: Operation) -> set[str]:
        return {self.attr}

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        a = op.attributes.get(self.attr)
        if a is None and self.optional:
            return ""
        if not (isinstance(a, IntegerAttr) and a.type == IntegerType(self.width) and 0 <= a.value < len(self.cases)):
            raise NoFit
        return f" {self.cases[a.value]}{self.trailing}"


@dataclass
class FlagAttr(Directive):
    """An optional ``keyword<a, b>`` standing for the opaque attribute ``#prefix<a, b>``.

    Used for ``overflow<nsw>`` (``overflowFlags``) and ``fastmath<fast>`` (``fastmath``).
    """

    attr: str
    keyword: str
    prefix: str

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        if not p.at(self.keyword):
            return
        tok = p.next()
        p.expect("<", f" after '{self.keyword}'")
        words = [p.parse_keyword()]
        while p.accept(","):
            words.append(p.parse_keyword())
        p.expect(">", f" to close '{self.keyword}<'")
        st.set_attr(p, self.attr, OpaqueAttr(f"{self.prefix}<{', '.join(words)}>"), tok)

    def _inner(self, op: Operation) -> str | None:
        a = op.attributes.get(self.attr)
        if not isinstance(a, OpaqueAttr) or not (a.text.startswith(self.prefix + "<") and a.text.endswith(">")):
            return None
        words = [x.strip() for x in a.text[len(self.prefix) + 1 : -1].split(",")]
        if not all(_is_word(x) for x in words) or ", ".join(words) != a.text[len(self.prefix) + 1 : -1]:
            return None
        return ", ".join(words)

    def claims(self, op: Operation) -> set[str]:
        return {self.attr} if self._inner(op) is not None else set()

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        inner = self._inner(op)
        return "" if inner is None else f" {self.keyword}<{inner}>"


def _is_word(s: str) -> bool:
    import re

    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", s) is not None


@dataclass
class SymbolAttr(Directive):
    """A required ``@symbol`` stored as a SymbolRefAttr."""

    attr: str
    space: bool = True

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        if tok.type != "AT_ID":
            raise p.error(f"expected symbol name, found {tok.describe()}", tok)
        a = p.parse_attribute()
        if not isinstance(a, SymbolRefAttr):  # pragma: no cover - AT_ID always parses as one
            raise p.error("expected symbol reference", tok)
        st.set_attr(p, self.attr, a, tok)

    def claims(self, op: Operation) -> set[str]:
        return {self.attr}

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        a = op.attributes.get(self.attr)
        if not isinstance(a, SymbolRefAttr):
            raise NoFit
        return (" " if self.space else "") + w.attr(a)


@dataclass
class Count(Directive):
    """``[N]``: the number of results (handshake.fork)."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        p.expect("[")
        tok = p.peek()
        n = p.parse_int()
        if n < 1:
            raise p.error("result count must be positive", tok)
        st.result_count = n
        p.expect("]")

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        if not op.results:
            raise NoFit
        return f" [{len(op.results)}]"


@dataclass
class BracketInt(Directive):
    """``[N]`` stored as an integer attribute (handshake.buffer slots)."""

    attr: str
    type: Type

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.expect("[")
        st.set_attr(p, self.attr, IntegerAttr(p.parse_int(), self.type), tok)
        p.expect("]")

    def claims(self, op: Operation) -> set[str]:
        return {self.attr}

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        a = op.attributes.get(self.attr)
        if not (isinstance(a, IntegerAttr) and a.type == self.type and a.value >= 0):
            raise NoFit
        return f" [{a.value}]"


@dataclass
class KeywordAttr(Directive):
    """A required keyword from ``choices`` stored as a string attribute (buffer ``seq``/``fifo``)."""

    attr: str
    choices: tuple[str, ...]

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        st.set_attr(p, self.attr, StringAttr(p.parse_keyword(self.choices)), tok)

    def claims(self, op: Operation) -> set[str]:
        return {self.attr}

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        a = op.attributes.get(self.attr)
        if not (isinstance(a, StringAttr) and a.value in self.choices):
            raise NoFit
        return f" {a.value}"


# ============================================================================ signatures


class Sig(Directive):
    """The type signature: text types <-> operand/result types.

    ``parse_types`` reads the written form S, ``render`` prints S, ``extract`` gets
    S from an op, and ``infer`` maps S (plus operand/result counts) to the full
    operand and result types. The printer only uses the custom form if
    ``infer(extract(op))`` gives back the op's exact types.
    """

    def parse_types(self, p: AsmParser, st: OpDraft) -> Any:
        raise NotImplementedError

    def render(self, w: AsmPrinter, s: Any) -> str:
        raise NotImplementedError

    def extract(self, op: Operation) -> Any:
        raise NotImplementedError

    def infer(self, s: Any, n_operands: int, count: int | None) -> tuple[list[Type | None], list[Type]]:
        raise NotImplementedError

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        tok = p.peek()
        s = self.parse_types(p, st)
        count = st.result_count if st.result_count is not None else (st.n_bound if st.n_bound >= 0 else None)
        try:
            st.operand_types, st.result_types = self.infer(s, len(st.operands), count)
        except SigError as e:
            raise p.error(str(e), tok) from None

    def print(self, w: AsmPrinter, op: Operation, view: _View) -> str:
        try:
            s = self.extract(op)
            opd, res = self.infer(s, len(op.operands), len(op.results))
        except (SigError, LookupError, AttributeError, TypeError, ValueError):
            raise NoFit from None  # the op's shape is not this signature's: print it generically
        if opd != [v.type for v in op.operands] or res != [r.type for r in op.results]:
            raise NoFit
        return self.render(w, s)


def _need(n_operands: int, k: int, what: str) -> None:
    if n_operands != k:
        raise SigError(f"{what} takes {k} operand{'s' if k != 1 else ''}, found {n_operands}")


@dataclass
class SameType(Sig):
    """``: T`` -- every operand and result has type T."""

    results: int | None = 1  # None: the count comes from the text (``fork [N]``)
    operands: int | None = None  # required operand count, if fixed
    what: str = "operation"

    def parse_types(self, p, st):
        p.expect(":", " before the type")
        return p.parse_type()

    def render(self, w, s):
        return f" : {w.type(s)}"

    def extract(self, op):
        return op.operands[0].type if op.operands else op.results[0].type

    def infer(self, s, n, count):
        if self.operands is not None:
            _need(n, self.operands, self.what)
        nres = self.results if self.results is not None else count
        if nres is None:  # pragma: no cover - Count always runs first
            raise SigError("result count is unknown")
        return [s] * n, [s] * nres


@dataclass
class CmpSig(Sig):
    """``: T`` -- ``operands`` operands of type T, an i1 result (or a shaped i1).

    Comparisons take two operands; float classifications (``math.isnan``) one.
    """

    operands: int = 2
    what: str = "comparison"

    def parse_types(self, p, st):
        p.expect(":", " before the operand type")
        return p.parse_type()

    def render(self, w, s):
        return f" : {w.type(s)}"

    def extract(self, op):
        return op.operands[0].type

    def infer(self, s, n, count):
        _need(n, self.operands, self.what)
        return [s] * n, [bool_like(s)]


@dataclass
class PickSig(Sig):
    """``: T0, T1, ...`` -- every operand and result type is one of the written types, by index.

    Like ODS's ``type($x)`` list: ``math.fpowi`` writes (lhs, rhs) and picks operands
    (0, 1) and result (0,); ``arith.addui_extended`` writes (sum, overflow) and picks
    operands (0, 0) and results (0, 1).
    """

    operands: tuple[int, ...]
    results: tuple[int, ...]
    what: str

    def parse_types(self, p, st):
        p.expect(":", " before the types")
        return p.parse_type_list()

    def render(self, w, s):
        return f" : {', '.join(w.type(t) for t in s)}"

    def extract(self, op):
        found = dict(zip(self.results, (r.type for r in op.results)))
        found.update(zip(self.operands, (v.type for v in op.operands)))
        return [found[k] for k in range(self._written())]

    def infer(self, s, n, count):
        _need(n, len(self.operands), self.what)
        if len(s) != self._written():
            raise SigError(f"{self.what} needs {self._written()} types after ':', found {len(s)}")
        return [s[k] for k in self.operands], [s[k] for k in self.results]

    def _written(self) -> int:
        """How many types the text writes."""
        return 1 + max(self.operands + self.results)


@dataclass
class CastSig(Sig):
    """``: A to B`` (``into`` for reshapes)."""

    keyword: str = "to"

    def parse_types(self, p, st):
        p.expect(":", " before the source type")
        a = p.parse_type()
        p.expect(self.keyword, " between source and result types")
        return a, p.parse_type()

    def render(self, w, s):
        return f" : {w.type(s[0])} {self.keyword} {w.type(s[1])}"

    def extract(self, op):
        return op.operands[0].type, op.results[0].type

    def infer(self, s, n, count):
        _need(n, 1, "cast")
        return [s[0]], [s[1]]


@dataclass
class SelectSig(Sig):
    """``: T`` (i1 condition) or ``: C, T``."""

    def parse_types(self, p, st):
        p.expect(":", " before the type")
        first = p.parse_type()
        if p.accept(","):
            return first, p.parse_type()
        return None, first

    def render(self, w, s):
        return f" : {w.type(s[1])}" if s[0] is None else f" : {w.type(s[0])}, {w.type(s[1])}"

    def extract(self, op):
        c = op.operands[0].type
        return (None if c == i1 else c), op.results[0].type

    def infer(self, s, n, count):
        _need(n, 3, "select")
        return [s[0] or i1, s[1], s[1]], [s[1]]


@dataclass
class EachOperand(Sig):
    """``: T1, T2, ...`` -- one type per operand (omitted when there are none); fixed results."""

    results: tuple[Type, ...] = ()

    def parse_types(self, p, st):
        if not st.operands and not p.at(":"):
            return []
        p.expect(":", " before the operand types")
        return p.parse_type_list()

    def render(self, w, s):
        return f" : {', '.join(w.type(t) for t in s)}" if s else ""

    def extract(self, op):
        return [v.type for v in op.operands]

    def infer(self, s, n, count):
        if len(s) != n:
            raise SigError(f"{n} operand{'s' if n != 1 else ''} but {len(s)} type{'s' if len(s) != 1 else ''}")
        return list(s), list(self.results)


@dataclass
class ArrowSig(Sig):
    """``: A, B -> C, D`` -- every operand and result type, unparenthesised (dataflow ops)."""

    operands: int
    results: int
    what: str

    def parse_types(self, p, st):
        p.expect(":", " before the operand types")
        ins = p.parse_type_list()
        p.expect("->", " between operand and result types")
        return ins, p.parse_type_list()

    def render(self, w, s):
        return f" : {', '.join(w.type(t) for t in s[0])} -> {', '.join(w.type(t) for t in s[1])}"

    def extract(self, op):
        return [v.type for v in op.operands], [r.type for r in op.results]

    def infer(self, s, n, count):
        _need(n, self.operands, self.what)
        if len(s[0]) != n:
            raise SigError(f"{self.what} has {n} operands but {len(s[0])} operand types")
        if len(s[1]) != self.results:
            raise SigError(f"{self.what} has {self.results} result{'s' if self.results != 1 else ''} but {len(s[1])} result types")
        return list(s[0]), list(s[1])


@dataclass
class FnSig(Sig):
    """``: (A, B) -> (C)`` -- a function type with every operand and result type."""

    optional_default: tuple[tuple[Type | None, ...], tuple[Type, ...]] | None = None

    def parse_types(self, p, st):
        if self.optional_default is not None and not p.at(":"):
            return None
        tok = p.expect(":", " before the function type")
        t = p.parse_type()
        if not isinstance(t, FunctionType):
            raise p.error(f"expected a function type '(...) -> (...)', found '{t}'", tok)
        return t

    def render(self, w, s):
        return f" : {w.type(s)}"

    def extract(self, op):
        return FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))

    def infer(self, s, n, count):
        if s is None:
            ins, outs = self.optional_default  # type: ignore[misc]
            if len(ins) != n:
                raise SigError(f"{len(ins)} operands expected, found {n}")
            return list(ins), list(outs)
        if len(s.inputs) != n:
            raise SigError(f"{n} operand{'s' if n != 1 else ''} but {len(s.inputs)} input type{'s' if len(s.inputs) != 1 else ''}")
        return list(s.inputs), list(s.results)


@dataclass
class MemrefSig(Sig):
    """``: memref<...>`` -- the memref type gives every other type.

    kinds: ``load`` [M, *idx] -> [elem]; ``store`` [elem, M, *idx] -> [];
    ``dim`` [M, index] -> [index]; ``alloc`` [*index] -> [M]; ``result`` [] -> [M];
    ``free`` [M] -> []; ``rank`` [M] -> [index].
    """

    kind: str

    def parse_types(self, p, st):
        tok = p.expect(":", " before the memref type")
        t = p.parse_type()
        if not isinstance(t, MemRefType):
            raise p.error(f"expected a memref type, found '{t}'", tok)
        return t

    def render(self, w, s):
        return f" : {w.type(s)}"

    def extract(self, op):
        if self.kind in ("load", "dim", "free", "rank"):
            return op.operands[0].type
        if self.kind == "store":
            return op.operands[1].type
        return op.results[0].type

    def infer(self, s, n, count):
        if not isinstance(s, MemRefType):
            raise SigError("expected a memref type")
        k = self.kind
        if k == "load":
            if n < 1:
                raise SigError("load needs a memref operand")
            return [s] + [index] * (n - 1), [s.element]
        if k == "store":
            if n < 2:
                raise SigError("store needs a value and a memref")
            return [s.element, s] + [index] * (n - 2), []
        if k == "dim":
            _need(n, 2, "memref.dim")
            return [s, index], [index]
        if k == "alloc":
            return [index] * n, [s]
        if k == "free":
            _need(n, 1, "memref.dealloc")
            return [s], []
        if k == "rank":
            _need(n, 1, "memref.rank")
            return [s], [index]
        _need(n, 0, "operation")
        return [], [s]


@dataclass
class ResultSig(Sig):
    """``: T`` -- no operands, one result of type T."""

    def parse_types(self, p, st):
        p.expect(":", " before the result type")
        return p.parse_type()

    def render(self, w, s):
        return f" : {w.type(s)}"

    def extract(self, op):
        return op.results[0].type

    def infer(self, s, n, count):
        _need(n, 0, "operation")
        return [], [s]


@dataclass
class FixedSig(Sig):
    """No written types: fixed operand and result types (``handshake.source``)."""

    operands: tuple[Type, ...]
    results: tuple[Type, ...]

    def parse_types(self, p, st):
        return None

    def render(self, w, s):
        return ""

    def extract(self, op):
        return None

    def infer(self, s, n, count):
        _need(n, len(self.operands), "operation")
        return list(self.operands), list(self.results)


@dataclass
class ConstantSig(Sig):
    """The typed value of ``arith.constant`` (``42 : i32``, ``true``, ``dense<...> : T``)."""

    attr: str = "value"

    def parse_types(self, p, st):
        tok = p.peek()
        a = p.parse_attribute()
        t = constant_type(a)
        if t is None:
            raise p.error(f"constant value must be a number, a boolean or a dense attribute, found '{tok.value}'", tok)
        st.set_attr(p, self.attr, a, tok)
        return a

    def render(self, w, s):
        return f" {w.attr(s)}"

    def claims(self, op):
        return {self.attr}

    def extract(self, op):
        return op.attributes[self.attr]

    def infer(self, s, n, count):
        _need(n, 0, "constant")
        t = constant_type(s)
        if t is None:
            raise SigError("untyped constant")
        return [], [t]


def constant_type(a: Attribute) -> Type | None:
    """The result type an ``arith.constant`` with value ``a`` has."""
    if isinstance(a, BoolAttr):
        return i1
    if isinstance(a, IntegerAttr):
        return a.type if a.type is not None else i64
    if isinstance(a, FloatAttr):
        return a.type if a.type is not None else FloatType("f64")
    if isinstance(a, DenseElementsAttr):
        return a.type
    return None


@dataclass
class MapSig(Sig):
    """A signature given by two functions of the written types (handshake ops).

    ``shape`` names the written form: ``one`` (``: T``), ``list`` (``: T1, T2``),
    ``one_opt2`` (``: T`` or ``: T, U``); ``fn(s, n)`` returns (operand types, result
    types) and ``back(op)`` recovers s from an op.
    """

    shape: str
    fn: Any
    back: Any

    def parse_types(self, p, st):
        p.expect(":", " before the type")
        if self.shape == "one":
            return p.parse_type()
        if self.shape == "list":
            return p.parse_type_list()
        first = p.parse_type()
        return (first, p.parse_type()) if p.accept(",") else (first, None)

    def render(self, w, s):
        if self.shape == "one":
            return f" : {w.type(s)}"
        if self.shape == "list":
            return f" : {', '.join(w.type(t) for t in s)}"
        return f" : {w.type(s[0])}" + ("" if s[1] is None else f", {w.type(s[1])}")

    def extract(self, op):
        return self.back(op)

    def infer(self, s, n, count):
        return self.fn(s, n)


# ============================================================================ formats


class Format:
    """A declarative custom syntax: directives in textual order, one of them a ``Sig``."""

    def __init__(self, *directives: Directive) -> None:
        sigs = [d for d in directives if isinstance(d, Sig)]
        if len(sigs) != 1:
            raise ValueError("a format needs exactly one signature directive")
        self.directives = directives
        groups = [d for d in directives if isinstance(d, (Opd, Opds))]
        self._fixed = sum(1 for d in groups if isinstance(d, Opd))
        if sum(1 for d in groups if isinstance(d, Opds)) > 1:
            raise ValueError("a declarative format allows one variadic operand group")
        self._groups = groups

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        for d in self.directives:
            d.parse(p, st)

    def _split(self, op: Operation) -> dict[str, list[Value]]:
        n_var = len(op.operands) - self._fixed
        if n_var < 0 or (n_var > 0 and len(self._groups) == self._fixed):
            raise NoFit
        out: dict[str, list[Value]] = {}
        k = 0
        for d in self._groups:
            size = 1 if isinstance(d, Opd) else n_var
            out[d.group] = list(op.operands[k : k + size])
            k += size
        return out

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        if op.regions or op.successors:
            return None
        try:
            view = _View(self._split(op), set())
            for d in self.directives:
                view.claimed |= d.claims(op)
            return "".join(d.print(w, op, view) for d in self.directives)
        except NoFit:
            return None


# Convenience constructors for the most common shapes ------------------------------------

def binary(flag: tuple[str, str, str] | None = None, results: int = 1) -> Format:
    """``%a, %b [flag<...>] {attrs} : T`` (``results`` results of type T, e.g. 2 for ``arith.mulsi_extended``)."""
    ds: list[Directive] = [Opd("lhs"), Lit(",", space=False), Opd("rhs")]
    if flag:
        ds.append(FlagAttr(*flag))
    return Format(*ds, AttrDict(), SameType(results=results, operands=2, what="binary operation"))


def unary(flag: tuple[str, str, str] | None = None) -> Format:
    """``%a [flag<...>] {attrs} : T``."""
    ds: list[Directive] = [Opd("operand")]
    if flag:
        ds.append(FlagAttr(*flag))
    return Format(*ds, AttrDict(), SameType(operands=1, what="unary operation"))


def same_type_variadic(flag: tuple[str, str, str] | None = None) -> Format:
    """``%a, %b, ... [flag<...>] {attrs} : T`` (math ops of any arity)."""
    ds: list[Directive] = [Opds("operands")]
    if flag:
        ds.append(FlagAttr(*flag))
    return Format(*ds, AttrDict(), SameType())


def cast(flag: tuple[str, str, str] | None = None, keyword: str = "to", enum: EnumAttr | None = None) -> Format:
    """``%a [enum] [flag] {attrs} : A to B``."""
    ds: list[Directive] = [Opd("in")]
    if enum:
        ds.append(enum)
    if flag:
        ds.append(FlagAttr(*flag))
    return Format(*ds, AttrDict(), CastSig(keyword))


OVERFLOW = ("overflowFlags", "overflow", "#arith.overflow")
FASTMATH = ("fastmath", "fastmath", "#arith.fastmath")

__all__ = [
    "FASTMATH",
    "OVERFLOW",
    "ArrowSig",
    "AsmParser",
    "AsmPrinter",
    "AttrDict",
    "BracketInt",
    "CastSig",
    "CmpSig",
    "ConstantSig",
    "Count",
    "Directive",
    "EachOperand",
    "EnumAttr",
    "FixedSig",
    "FlagAttr",
    "FnSig",
    "Format",
    "KeywordAttr",
    "Lit",
    "MapSig",
    "MemrefSig",
    "NoFit",
    "OpDraft",
    "OpSyntax",
    "Opd",
    "Opds",
    "OperandRef",
    "PickSig",
    "ResultSig",
    "SameType",
    "SelectSig",
    "Sig",
    "SigError",
    "SymbolAttr",
    "binary",
    "cast",
    "constant_type",
    "same_type_variadic",
    "unary",
]
