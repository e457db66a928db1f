"""Types and attributes: the LALR half of the parser.

``parse_prefix`` runs the lark LALR tables of ``mlir.lark`` (start symbol ``type``
or ``attribute``) over the longest prefix of a token list the grammar accepts, then
turns the tree into loom IR types/attributes, resolving ``!alias``/``#alias`` names.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError
from lark.parsers.lalr_analysis import Shift

from loom.diagnostics import LoomError, ParseError, warn
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
from loom.ir.location import Location
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
    f64,
)
from loom.mlir.lexer import EOF_TYPE, LARK, Tok, tok_loc
from loom.mlir.numbers import bits_to_float, format_float, int_range, round_decimal

MAX_NESTING = 64  # brackets inside one type/attribute; deeper input is rejected, not recursed into
FLOAT_RANGE = "CPL_IR_FLOAT_RANGE"  # warning: a decimal float literal beyond its type's range, read as infinity

_OPENERS = {"LESS", "LPAR", "LSQB", "LBRACE"}
_CLOSERS = {"MORE", "RPAR", "RSQB", "RBRACE"}

_TERMINAL_TEXT = {
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'", "RBRACE": "'}'",
    "LESS": "'<'", "MORE": "'>'", "COMMA": "','", "COLON": "':'", "DCOLON": "'::'", "EQUAL": "'='",
    "ARROW": "'->'", "QMARK": "'?'", "STAR": "'*'", "MINUS": "'-'", "BARE_ID": "identifier",
    "INT": "integer", "FLOAT": "float", "HEX": "hex integer", "STRING": "string", "DIMS": "dimension list",
    "AT_ID": "symbol", "HASH_ID": "attribute alias", "BANG_ID": "type alias", "$END": "end of type",
}


@dataclass
class PrefixCache:
    """Earlier type/attribute parses of one text, reused when the same source text recurs.

    An entry is (start symbol, source text, token count, value, final LALR state
    stack); it applies at a new position when the text there is identical and the
    following token could not have extended the parse (checked on the saved stack).
    """

    entries: dict[tuple[str, str], list[tuple[str, int, Any, list]]] = field(default_factory=dict)


@dataclass
class Aliases:
    """``#name = attr`` and ``!name = type`` definitions seen so far in a file."""

    attributes: dict[str, Attribute] = field(default_factory=dict)
    types: dict[str, Type] = field(default_factory=dict)
    resources: dict[str, str] = field(default_factory=dict)  # dense_resource key -> "0x" blob (file metadata)


def _parse_table():
    return LARK.parser.parser.parser.parse_table


_END_STATES: dict[str, int] = dict(_parse_table().end_states)


def _states() -> dict:
    return _parse_table().states


def _can_feed(state_stack: list, end_state: int, ttype: str) -> bool:
    """Whether the LALR automaton in ``state_stack`` can shift a token of type ``ttype``.

    Simulates the reductions on a copy of the state stack only (cheap), so a token that
    does not belong to the current type/attribute ends the prefix without disturbing it.
    For the end marker, "shift" means reaching ``end_state`` (the input is complete).
    """
    states = _states()
    stack = list(state_stack)
    while True:
        act = states[stack[-1]].get(ttype)
        if act is None:
            return False
        action, arg = act
        if action is Shift:
            return True
        n = len(arg.expansion)
        if n:
            del stack[-n:]
        goto = states[stack[-1]].get(arg.origin.name)
        if goto is None:  # pragma: no cover - LALR tables always have the goto
            return False
        stack.append(goto[1])
        if ttype == EOF_TYPE and goto[1] == end_state:
            return True


def _expected(state_stack: list, end_state: int) -> str:
    names = sorted(t for t in _states()[state_stack[-1]] if t.isupper() or t == EOF_TYPE)
    shown = [_TERMINAL_TEXT.get(t, t.lower()) for t in names if _can_feed(state_stack, end_state, t)]
    if not shown or len(shown) > 6:
        return "a value"
    return " or ".join(shown) if len(shown) <= 2 else "one of " + ", ".join(shown)


def parse_prefix(
    start: str,
    toks: list[Tok],
    pos: int,
    text: str,
    filename: str,
    aliases: Aliases,
    dense_type: Type | None = None,
    cache: PrefixCache | None = None,
) -> tuple[Any, int]:
    """Parse a ``type`` or ``attribute`` starting at ``toks[pos]``; returns (value, next pos).

    ``dense_type`` is the type of a ``dense<...>`` written without ``: type`` (only
    memref.global elides it); elsewhere such an attribute is an error.
    """
    first = toks[pos]
    key = (start, first.value)
    if cache is not None:
        for src, n, value, final in cache.entries.get(key, ()):
            last = toks[pos + n - 1] if pos + n - 1 < len(toks) else None
            if (
                last is not None
                and last.end - first.start == len(src)
                and text.startswith(src, first.start)
                and not _can_feed(final, _END_STATES[start], toks[pos + n].type)
            ):
                return value, pos + n
    what = "type" if start == "type" else "attribute"
    ip = LARK.parse_interactive(start=start)
    stack = ip.parser_state.state_stack
    end = ip.parser_state.parse_conf.end_state
    i = pos
    depth = 0
    while True:
        tok = toks[i]
        if tok.type == EOF_TYPE or not _can_feed(stack, end, tok.type):
            break
        if tok.type in _OPENERS:
            depth += 1
            if depth > MAX_NESTING:
                raise ParseError(f"{what} nested more than {MAX_NESTING} levels deep", tok_loc(tok, filename))
        elif tok.type in _CLOSERS:
            depth -= 1
        ip.feed_token(tok.as_lark())
        i += 1
    tok = toks[i]
    if i == pos:
        raise ParseError(f"expected {what}, found {tok.describe()}", tok_loc(tok, filename))
    if not _can_feed(stack, end, EOF_TYPE):
        raise ParseError(f"expected {_expected(stack, end)} in {what}, found {tok.describe()}", tok_loc(tok, filename))
    final = list(stack)
    try:
        tree = ip.feed_eof(toks[i - 1].as_lark())
    except UnexpectedInput:  # pragma: no cover - _can_feed said EOF is fine
        raise ParseError(f"malformed {what}", tok_loc(toks[pos], filename)) from None
    try:
        value = _Builder(text, filename, aliases, dense_type).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, LoomError):
            raise e.orig_exc from None
        raise ParseError(f"malformed {what}: {e.orig_exc}", tok_loc(toks[pos], filename)) from None
    except RecursionError:
        raise ParseError(f"{what} nested too deeply", tok_loc(toks[pos], filename)) from None
    if cache is not None:
        cache.entries.setdefault(key, []).append((text[first.start : toks[i - 1].end], i - pos, value, final))
    return value, i


# ---------------------------------------------------------------------------- tree -> IR

_INT_TYPE = re.compile(r"(s|u)?i([0-9]+)")
SCALAR_TYPES: dict[str, Type] = {
    **{f"i{w}": IntegerType(w) for w in (1, 2, 4, 8, 16, 32, 64, 128)},
    "index": IndexType(),
    "none": NoneType(),
    **{n: FloatType(n) for n in ("f16", "bf16", "f32", "f64")},
}
_FLOATS = {"f16", "bf16", "f32", "f64"}
_OTHER_FLOATS = re.compile(r"f80|f128|tf32|f8E[0-9A-Za-z]+|f6E[0-9A-Za-z]+|f4E[0-9A-Za-z]+")
MAX_INT_WIDTH = 1 << 16


def unescape_string(literal: str, loc: Location) -> str:
    """The value of an MLIR string literal (with its quotes): ``\\n \\t \\" \\\\ \\XX``."""
    body = literal[1:-1]
    out: list[str] = []
    pending = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            if pending:
                out.append(pending.decode("utf-8", "surrogateescape"))
                pending.clear()
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in ('"', "\\", "n", "t"):
            if pending:
                out.append(pending.decode("utf-8", "surrogateescape"))
                pending.clear()
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        elif re.fullmatch(r"[0-9A-Fa-f]{2}", body[i + 1 : i + 3]):
            pending.append(int(body[i + 1 : i + 3], 16))
            i += 3
        else:
            raise ParseError(f"unknown escape '\\{nxt}' in string", loc)
    if pending:
        out.append(pending.decode("utf-8", "surrogateescape"))
    return "".join(out)


def _dims(tok: Token | None) -> tuple[int | None, ...]:
    if tok is None:
        return ()
    return tuple(None if d == "?" else int(d) for d in str(tok).split("x")[:-1])


def _is_layout(a: Attribute) -> bool:
    return isinstance(a, StridedLayoutAttr) or (isinstance(a, OpaqueAttr) and a.text.startswith("affine_map"))


@dataclass(frozen=True)
class _Num:
    kind: str  # "int", "float" or "hex"
    value: Any
    tok: Token


class _BuilderBase(Transformer):
    """What every part of the tree builder shares: the source text, its file name, the aliases and the type a
    dense literal's elements take."""

    def __init__(self, text: str, filename: str, aliases: Aliases, dense_type: Type | None = None) -> None:
        super().__init__()
        self.text = text
        self.filename = filename
        self.aliases = aliases
        self.dense_type = dense_type

    def _loc(self, tok: Token) -> Location:
        return Location(self.filename, tok.line, tok.column)

    def _slice(self, meta) -> str:
        return self.text[meta.start_pos : meta.end_pos]

    @staticmethod
    def _toks(children: list, ttype: str) -> list[Token]:
        return [c for c in children if isinstance(c, Token) and c.type == ttype]

    @staticmethod
    def _values(children: list) -> list:
        return [c for c in children if not isinstance(c, Token)]


class _Types(_BuilderBase):
    """The tree builder's type rules: builtin, memref, tensor, vector, tuple, dialect and function types."""

    def named_type(self, children):
        tok = children[0]
        name = str(tok)
        m = _INT_TYPE.fullmatch(name)
        if m:
            width = int(m.group(2))
            if not 1 <= width <= MAX_INT_WIDTH:
                raise ParseError(f"invalid integer width in type '{name}'", self._loc(tok))
            return IntegerType(width, m.group(1) or "")
        if name == "index":
            return IndexType()
        if name == "none":
            return NoneType()
        if name in _FLOATS:
            return FloatType(name)
        if _OTHER_FLOATS.fullmatch(name):
            return OpaqueType(name)
        raise ParseError(f"unknown type '{name}'", self._loc(tok))

    def memref_type(self, children):
        dims = self._toks(children, "DIMS")
        vals = self._values(children)
        element, attrs = vals[0], vals[1:]
        layout = space = None
        if attrs and _is_layout(attrs[0]):
            layout, attrs = attrs[0], attrs[1:]
        if len(attrs) > 1:
            raise ParseError("memref type takes at most a layout and a memory space", self._loc(children[0]))
        if attrs:
            space = attrs[0]
        return MemRefType(_dims(dims[0] if dims else None), element, layout, space)

    @v_args(meta=True)
    def opaque_type(self, meta, children):
        return OpaqueType(self._slice(meta))

    @v_args(meta=True)
    def tensor_type(self, meta, children):
        dims = self._toks(children, "DIMS")
        vals = self._values(children)
        if len(vals) > 1:  # an encoding: not modelled, keep the text
            return OpaqueType(self._slice(meta))
        return TensorType(_dims(dims[0] if dims else None), vals[0])

    def unranked_tensor_type(self, children):
        return TensorType(None, self._values(children)[0])

    def vector_type(self, children):
        dims = _dims(self._toks(children, "DIMS")[0])
        if any(d is None for d in dims):
            raise ParseError("vector dimensions must be static", self._loc(children[0]))
        return VectorType(tuple(int(d) for d in dims), self._values(children)[0])

    def tuple_type(self, children):
        vals = self._values(children)
        return TupleType(tuple(vals[0]) if vals else ())

    def tagged_type(self, children):
        value, tag = self._values(children)
        return TaggedType(value, tag)

    def bang_type(self, children):
        tok = children[0]
        name = str(tok)[1:]
        if name in self.aliases.types:
            return self.aliases.types[name]
        if "." in name:
            return OpaqueType(str(tok))
        raise ParseError(f"undefined type alias '!{name}'", self._loc(tok))

    def type_list(self, children):
        return self._values(children)

    def function_type(self, children):
        lists = self._values(children)
        inputs = lists[0] if len(lists) == 2 else []
        return FunctionType(tuple(inputs), tuple(lists[-1]))

    def single_result(self, children):
        return self._values(children)

    def result_list(self, children):
        vals = self._values(children)
        return vals[0] if vals else []


class _Attrs(_Types):
    """The tree builder's attribute rules: numbers, strings, arrays, dictionaries, symbols, strides and
    dense arrays."""

    def number(self, children):
        neg = len(children) == 2
        tok = children[-1]
        s = str(tok)
        if tok.type == "INT":
            return _Num("int", -int(s) if neg else int(s), tok)
        if tok.type == "HEX":
            return _Num("hex", -int(s, 16) if neg else int(s, 16), tok)
        return _Num("float", -float(s) if neg else float(s), tok)

    def _typed_number(self, num: _Num, t: Type | None) -> Attribute:
        if isinstance(t, OpaqueType) and _OTHER_FLOATS.fullmatch(t.text):
            raise ParseError(
                f"float type '{t}' is not supported (loom supports {', '.join(sorted(_FLOATS))})", self._loc(num.tok)
            )
        if isinstance(t, FloatType):
            if num.kind == "hex":
                if num.value < 0 or num.value >= 1 << t.width:
                    raise ParseError(f"hexadecimal float literal does not fit in {t}", self._loc(num.tok))
                return FloatAttr(bits_to_float(num.value, t), t)
            return FloatAttr(self._decimal_float(num, t), t)
        if num.kind == "float":
            if t is not None:
                raise ParseError(f"floating point literal with non-float type '{t}'", self._loc(num.tok))
            return FloatAttr(self._decimal_float(num, f64), None)
        if t is not None:
            rng = int_range(t)
            if rng is None:
                raise ParseError(f"integer literal with non-integer type '{t}'", self._loc(num.tok))
            if not rng[0] <= num.value <= rng[1]:
                raise ParseError(f"integer value {num.value} out of range for type '{t}'", self._loc(num.tok))
        return IntegerAttr(num.value, t)

    def _decimal_float(self, num: _Num, t: FloatType) -> float:
        """``num`` rounded to ``t``. One beyond ``t``'s range becomes infinity, as MLIR's parser reads it (so loom
        takes what mlir-opt takes), with a located warning: a decimal literal means a finite value, and MLIR
        itself prints infinity as a hex bit pattern."""
        value = round_decimal(num.value, t)
        if value is None:
            value = -math.inf if num.value < 0 else math.inf
            lit = str(num.tok.value)
            lit = lit if len(lit) <= 40 else f"{lit[:16]}...{lit[-16:]}"
            warn(f"floating point value {lit} is beyond the range of {t}: read as infinity, as MLIR "
                 f"reads it (write {format_float(value, t)} to mean infinity)", self._loc(num.tok), FLOAT_RANGE)
        return value

    def number_attr(self, children):
        vals = self._values(children)
        return self._typed_number(vals[0], vals[1] if len(vals) > 1 else None)

    def true_attr(self, children):
        return BoolAttr(True)

    def false_attr(self, children):
        return BoolAttr(False)

    def unit_attr(self, children):
        return UnitAttr()

    def string_attr(self, children):
        return StringAttr(unescape_string(str(children[0]), self._loc(children[0])))

    def array_attr(self, children):
        return ArrayAttr(tuple(self._values(children)))

    def dict_attr(self, children):
        entries = self._values(children)
        seen: set[str] = set()
        for key, _, tok in entries:
            if key in seen:
                raise ParseError(f"duplicate key '{key}' in dictionary", self._loc(tok))
            seen.add(key)
        return DictAttr(tuple((k, v) for k, v, _ in entries))

    def dict_entry(self, children):
        key, tok = children[0]
        vals = self._values(children[1:])
        return (key, vals[0] if vals else UnitAttr(), tok)

    def key(self, children):
        tok = children[0]
        if tok.type == "STRING":
            return unescape_string(str(tok), self._loc(tok)), tok
        return str(tok), tok

    def symbol_ref(self, children):
        names = []
        for tok in self._toks(children, "AT_ID"):
            s = str(tok)[1:]
            names.append(unescape_string(s, self._loc(tok)) if s.startswith('"') else s)
        return SymbolRefAttr(names[0], tuple(names[1:]))

    def hash_attr(self, children):
        tok = children[0]
        name = str(tok)[1:]
        if name in self.aliases.attributes:
            return self.aliases.attributes[name]
        if "." in name:
            return OpaqueAttr(str(tok))
        raise ParseError(f"undefined attribute alias '#{name}'", self._loc(tok))

    @v_args(meta=True)
    def opaque_attr(self, meta, children):
        return OpaqueAttr(self._slice(meta))

    def type_attr(self, children):
        return TypeAttr(children[0])

    def stride(self, children):
        if children[0].type == "QMARK":
            return None
        return -int(children[-1]) if len(children) == 2 else int(children[-1])

    def strided_attr(self, children):
        # strides come before the OFFSET keyword, the offset after it
        offset_at = next((k for k, c in enumerate(children) if isinstance(c, Token) and c.type == "OFFSET"), None)
        strides = self._stride_values(children[: offset_at if offset_at is not None else len(children)])
        offset: int | None = 0
        if offset_at is not None:
            offset = self._stride_values(children[offset_at:])[0]
        return StridedLayoutAttr(tuple(strides), offset)

    @staticmethod
    def _stride_values(children: list) -> list[int | None]:
        return [c for c in children if not isinstance(c, Token) and (c is None or isinstance(c, int))]

    def array_elem(self, children):
        c = children[0]
        if isinstance(c, Token):
            return c.type == "TRUE"
        return c

    def dense_array_attr(self, children):
        vals = self._values(children)
        et, elems = vals[0], vals[1:]
        out = []
        for e in elems:
            out.append(self._element(e, et, children[0]))
        return DenseArrayAttr(et, tuple(out))


class _Builder(_Attrs):
    """Turns a type/attribute parse tree into loom IR values (the dense elements and resources here; types
    and the other attributes in its bases)."""

    def _element(self, e: Any, et: Type, anchor: Token) -> Any:
        """One dense element converted to the element type's Python value."""
        if isinstance(e, bool):
            if isinstance(et, IntegerType) and et.width == 1:
                return e
            if isinstance(et, (IntegerType, IndexType)):
                return int(e)
            raise ParseError(f"boolean element for element type '{et}'", self._loc(anchor))
        if isinstance(e, _Num):
            attr = self._typed_number(e, et if isinstance(et, (IntegerType, IndexType, FloatType)) else None)
            if isinstance(et, IntegerType) and et.width == 1:
                if attr.value not in (0, 1, -1):  # type: ignore[attr-defined]
                    raise ParseError("i1 element must be 0, 1, true or false", self._loc(e.tok))
                return bool(attr.value)  # type: ignore[attr-defined]
            if not isinstance(et, (IntegerType, IndexType, FloatType)):
                raise ParseError(f"unsupported element type '{et}'", self._loc(anchor))
            return attr.value  # type: ignore[attr-defined]
        raise ParseError("malformed element", self._loc(anchor))  # pragma: no cover

    def dense_number(self, children):
        return children[0]

    def dense_true(self, children):
        return True

    def dense_false(self, children):
        return False

    def dense_list(self, children):
        return ("list", self._values(children))

    def dense_value(self, children):
        return ("value", children[0])

    def dense_hex(self, children):
        return ("hex", children[0])

    def dense_attr(self, children):
        vals = self._values(children)
        anchor = children[0]
        if vals and isinstance(vals[-1], Type):
            t = vals[-1]
            vals = vals[:-1]
        elif self.dense_type is not None:
            t = self.dense_type
        else:
            raise ParseError("dense attribute needs a type: 'dense<...> : tensor<...>'", self._loc(anchor))
        shape = getattr(t, "shape", None)
        element = getattr(t, "element", None)
        if element is None or shape is None or any(d is None for d in shape):
            raise ParseError(f"dense attribute needs a static shaped type, not '{t}'", self._loc(anchor))
        count = math.prod(shape)
        if not vals:
            if count != 0:
                raise ParseError("empty dense attribute for a non-empty type", self._loc(anchor))
            return DenseElementsAttr((), t, False)
        kind, body = vals[0]
        if kind == "hex":
            values = self._dense_hex(body, element, count)
            return DenseElementsAttr(tuple(values), t, len(values) == 1 and count != 1)
        if isinstance(body, tuple) and body[0] == "list":
            flat: list = []
            self._flatten(body, flat)
            if len(flat) != count:
                raise ParseError(f"dense attribute has {len(flat)} elements but type '{t}' holds {count}", self._loc(anchor))
            return DenseElementsAttr(tuple(self._element(e, element, anchor) for e in flat), t, False)
        return DenseElementsAttr((self._element(body, element, anchor),), t, True)

    def dense_resource_attr(self, children):
        """``dense_resource<key>``: the blob from the file metadata, decoded like ``dense<"0x...">``.

        A blob starts with 4 bytes of alignment, then the elements little-endian.
        """
        key = children[2]
        name = unescape_string(str(key), self._loc(key)) if key.type == "STRING" else str(key)
        blob = self.aliases.resources.get(name)
        if blob is None:
            raise ParseError(f"dense_resource '{key}' is not defined in the file's dialect_resources", self._loc(key))
        types = [c for c in children if isinstance(c, Type)]
        t = types[0] if types else self.dense_type
        if t is None:
            raise ParseError("dense_resource attribute needs a type: 'dense_resource<key> : tensor<...>'", self._loc(key))
        shape = getattr(t, "shape", None)
        element = getattr(t, "element", None)
        if element is None or shape is None or any(d is None for d in shape):
            raise ParseError(f"dense_resource attribute needs a static shaped type, not '{t}'", self._loc(key))
        count = math.prod(shape)
        data = blob[10:]
        if count == 0:
            if data:
                raise ParseError(f"resource '{key}' holds data but type '{t}' has no elements", self._loc(key))
            return DenseElementsAttr((), t, False)
        values = self._dense_blob(bytes.fromhex(data), element, count, key)
        if len(values) != count:
            raise ParseError(f"resource '{key}' holds {len(values)} elements but type '{t}' needs {count}", self._loc(key))
        return DenseElementsAttr(tuple(values), t, False)

    def _flatten(self, node: Any, out: list) -> None:
        if isinstance(node, tuple) and len(node) == 2 and node[0] == "list":
            for c in node[1]:
                self._flatten(c, out)
        else:
            out.append(node)

    def _dense_hex(self, tok: Token, element: Type, count: int) -> list:
        s = unescape_string(str(tok), self._loc(tok))
        if not re.fullmatch(r"0x([0-9A-Fa-f]{2})*", s):
            raise ParseError("dense string must be a hex blob \"0x...\"", self._loc(tok))
        return self._dense_blob(bytes.fromhex(s[2:]), element, count, tok)

    def _dense_blob(self, data: bytes, element: Type, count: int, tok: Token) -> list:
        """Little-endian elements of ``element`` packed in ``data`` (one element is a splat)."""
        if isinstance(element, (IntegerType, IndexType, FloatType)):
            width = 64 if isinstance(element, IndexType) else element.width
        else:
            raise ParseError(f"unsupported element type '{element}' in hex dense", self._loc(tok))
        nbytes = max(1, (width + 7) // 8)
        if len(data) % nbytes or len(data) // nbytes not in (1, count):
            raise ParseError("hex dense blob size does not match its type", self._loc(tok))
        out = []
        for k in range(0, len(data), nbytes):
            raw = int.from_bytes(data[k : k + nbytes], "little")
            if isinstance(element, FloatType):
                out.append(bits_to_float(raw, element))
            elif isinstance(element, IntegerType) and element.width == 1:
                out.append(bool(raw & 1))
            elif isinstance(element, IntegerType) and element.signedness != "u" and raw >> (width - 1):
                out.append(raw - (1 << width))  # signless/signed elements read back as MLIR prints them
            else:
                out.append(raw)
        return out

