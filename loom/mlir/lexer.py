"""Tokenizer for MLIR text, driven by the terminals of ``mlir.lark``.

One lark LALR instance (built once, at import) serves both jobs: its basic lexer
splits the whole text into tokens with line/column positions, and its parse
tables parse the type and attribute sublanguage (see ``typeattr.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters

from loom.diagnostics import ParseError
from loom.ir.location import Location

GRAMMAR_PATH = Path(__file__).with_name("mlir.lark")

LARK = Lark(
    GRAMMAR_PATH.read_text(),
    parser="lalr",
    lexer="basic",
    start=["type", "attribute"],
    propagate_positions=True,
    maybe_placeholders=False,
)

# Token types that spell a bare identifier (keywords of the type/attribute language
# are retyped by lark, but in op syntax they are ordinary words).
KEYWORD_TYPES = frozenset(
    {
        "MEMREF", "TENSOR", "VECTOR", "COMPLEX", "TUPLE", "DENSE", "ARRAY", "STRIDED",
        "OFFSET", "AFFINE_MAP", "AFFINE_SET", "TRUE", "FALSE", "UNIT",
    }
)
BARE_TYPES = KEYWORD_TYPES | {"BARE_ID"}

EOF_TYPE = "$END"


@dataclass(frozen=True)
class Tok:
    """One token: lark type name, text, 1-based line/column and character span."""

    type: str
    value: str
    line: int
    col: int
    start: int
    end: int

    @property
    def is_bare(self) -> bool:
        return self.type in BARE_TYPES

    def describe(self) -> str:
        """The token as shown in messages."""
        return "end of input" if self.type == EOF_TYPE else f"'{self.value}'"

    def as_lark(self) -> Token:
        return Token(self.type, self.value, self.start, self.line, self.col, self.line, self.col + len(self.value), self.end)


def tokenize(text: str, filename: str) -> list[Tok]:
    """All tokens of ``text`` (comments and whitespace dropped), ending with an EOF token."""
    toks: list[Tok] = []
    try:
        for t in LARK.lex(text):
            toks.append(Tok(t.type, str(t), t.line, t.column, t.start_pos, t.end_pos))
    except UnexpectedCharacters as e:
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        what = "unterminated string" if ch == '"' else f"unexpected character {ch!r}"
        raise ParseError(what, Location(filename, e.line, e.column)) from None
    line, col = _end_position(text)
    toks.append(Tok(EOF_TYPE, "", line, col, len(text), len(text)))
    return toks


def _end_position(text: str) -> tuple[int, int]:
    line = text.count("\n") + 1
    col = len(text) - (text.rfind("\n") + 1) + 1
    return line, col


def tok_loc(tok: Tok, filename: str) -> Location:
    """The location of ``tok`` in ``filename``."""
    return Location(filename, tok.line, tok.col)
