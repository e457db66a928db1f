"""The token cursor of the MLIR parser and the pieces it reads directly: operands, types, attributes,
integers, keywords, symbol names, strings and trailing locations.

These are the ``AsmParser`` services each op's custom syntax (``loom.dialects.syntax``) calls; types and
attributes go to the LALR sub-parser (``typeattr.py``). Op, region and SSA-name handling live in
``parser.py`` and ``ssa.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loom.diagnostics import ParseError
from loom.dialects.syntax import OperandRef
from loom.ir.attributes import Attribute, DictAttr
from loom.ir.location import Location
from loom.ir.types import Type
from loom.mlir.lexer import EOF_TYPE, Tok, tok_loc, tokenize
from loom.mlir.resources import split_metadata
from loom.mlir.typeattr import SCALAR_TYPES, Aliases, PrefixCache, parse_prefix, unescape_string

MAX_INT_DIGITS = 1000  # longer integer literals are rejected (Python caps int() of huge strings)


class Cursor:
    """A position in one text's tokens, with the aliases and location aliases the text defines."""

    def __init__(self, text: str, filename: str) -> None:
        text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark is not part of the text
        self.text, resources = split_metadata(text, filename)
        self.filename = filename
        self.toks = tokenize(self.text, filename)
        self.pos = 0
        self.aliases = Aliases(resources=resources)
        self.cache = PrefixCache()
        self.loc_aliases: dict[str, str] = {}

    # ------------------------------------------------------------------ tokens
    def peek(self, k: int = 0) -> Tok:
        return self.toks[min(self.pos + k, len(self.toks) - 1)]

    def next(self) -> Tok:
        tok = self.toks[self.pos]
        if tok.type != EOF_TYPE:
            self.pos += 1
        return tok

    def at(self, value: str) -> bool:
        tok = self.peek()
        return tok.value == value and tok.type != "STRING"

    def accept(self, value: str) -> Tok | None:
        return self.next() if self.at(value) else None

    def expect(self, value: str, context: str = "") -> Tok:
        if not self.at(value):
            tok = self.peek()
            raise ParseError(f"expected '{value}'{context}, found {tok.describe()}", self.loc(tok))
        return self.next()

    def loc(self, tok: Tok) -> Location:
        return tok_loc(tok, self.filename)

    def error(self, message: str, tok: Any = None) -> ParseError:
        return ParseError(message, self.loc(tok if tok is not None else self.peek()))

    # ------------------------------------------------------------ simple pieces
    def at_operand(self) -> bool:
        return self.peek().type == "PERCENT_ID"

    def parse_operand(self) -> OperandRef:
        tok = self.peek()
        if tok.type != "PERCENT_ID":
            raise self.error(f"expected SSA value, found {tok.describe()}")
        self.next()
        name, _, idx = tok.value[1:].partition("#")
        return OperandRef(name, int(idx) if idx else 0, tok)

    def parse_operand_list(self, open: str | None = None, close: str | None = None) -> list[OperandRef]:
        out: list[OperandRef] = []
        if open is not None:
            self.expect(open)
            if self.accept(close or ""):
                return out
        elif not self.at_operand() or self._at_result_names():
            return out  # an empty list; a following ``%x = ...`` starts the next op
        out.append(self.parse_operand())
        while self.accept(","):
            out.append(self.parse_operand())
        if close is not None:
            self.expect(close, " after operand list")
        return out

    def _at_result_names(self) -> bool:
        """Whether the tokens ahead are ``%a, %b:2 =`` (the results of the next op)."""
        k = 0
        while self.peek(k).type == "PERCENT_ID" and "#" not in self.peek(k).value:
            k += 1
            if self.peek(k).type == "COLON" and self.peek(k + 1).type == "INT":
                k += 2
            if self.peek(k).type != "COMMA":
                return self.peek(k).type == "EQUAL"
            k += 1
        return False

    def parse_type(self) -> Type:
        tok = self.toks[self.pos]
        if tok.type == "BARE_ID" and self.toks[self.pos + 1].type != "LESS":
            simple = SCALAR_TYPES.get(tok.value)  # fast path: most types are one word
            if simple is not None:
                self.pos += 1
                return simple
        value, self.pos = parse_prefix("type", self.toks, self.pos, self.text, self.filename, self.aliases, cache=self.cache)
        return value

    def parse_type_list(self) -> list[Type]:
        out = [self.parse_type()]
        while self.accept(","):
            out.append(self.parse_type())
        return out

    def parse_paren_type_list(self) -> list[Type]:
        self.expect("(")
        if self.accept(")"):
            return []
        out = self.parse_type_list()
        self.expect(")", " after type list")
        return out

    def parse_attribute(self, dense_type: Type | None = None) -> Attribute:
        value, self.pos = parse_prefix(
            "attribute", self.toks, self.pos, self.text, self.filename, self.aliases, dense_type, None if dense_type else self.cache
        )
        return value

    def parse_attr_dict(self, keyword: bool = False) -> dict[str, Attribute]:
        if keyword:
            if not self.accept("attributes"):
                return {}
        elif not self.at("{"):
            return {}
        tok = self.peek()
        if not self.at("{"):
            raise self.error(f"expected '{{' after 'attributes', found {tok.describe()}")
        a = self.parse_attribute()
        if not isinstance(a, DictAttr):  # pragma: no cover - '{' always starts a dictionary
            raise self.error("expected attribute dictionary", tok)
        return dict(a.entries)

    def parse_int(self) -> int:
        neg = self.accept("-")
        tok = self.peek()
        if tok.type not in ("INT", "HEX") or len(tok.value) > MAX_INT_DIGITS:
            raise self.error(f"expected integer, found {tok.describe()}")
        self.next()
        v = int(tok.value, 16) if tok.type == "HEX" else int(tok.value)
        return -v if neg else v

    def parse_keyword(self, choices: Sequence[str] | None = None) -> str:
        tok = self.peek()
        if not tok.is_bare or (choices is not None and tok.value not in choices):
            want = "keyword" if choices is None else "one of " + ", ".join(f"'{c}'" for c in choices)
            raise self.error(f"expected {want}, found {tok.describe()}")
        self.next()
        return tok.value

    def parse_symbol_name(self) -> str:
        tok = self.peek()
        if tok.type != "AT_ID":
            raise self.error(f"expected symbol name '@...', found {tok.describe()}")
        self.next()
        s = tok.value[1:]
        return unescape_string(s, self.loc(tok)) if s.startswith('"') else s

    def parse_string(self) -> str:
        tok = self.peek()
        if tok.type != "STRING":
            raise self.error(f"expected string, found {tok.describe()}")
        self.next()
        return unescape_string(tok.value, self.loc(tok))

    def parse_optional_loc(self) -> str | None:
        """A trailing ``loc(...)``, returned verbatim (``#alias`` references resolved)."""
        if not (self.at("loc") and self.peek(1).value == "(" and self.peek(1).type == "LPAR"):
            return None
        start = self.next()
        self.next()
        depth = 1
        while depth:
            tok = self.next()
            if tok.type == EOF_TYPE:
                raise self.error("unterminated 'loc(' location", start)
            if tok.type == "LPAR":
                depth += 1
            elif tok.type == "RPAR":
                depth -= 1
        text = self.text[start.start : self.toks[self.pos - 1].end]
        inner = text[4:-1].strip()
        if inner.startswith("#") and inner[1:] in self.loc_aliases:
            return self.loc_aliases[inner[1:]]
        return text
