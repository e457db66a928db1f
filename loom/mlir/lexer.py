"""Tokenizer for MLIR text, driven by the terminals of ``mlir.lark``.

One lark LALR instance (built once, at import) serves both jobs: its terminal
set (in lark's priority order) splits the whole text into tokens with
line/column positions, and its parse tables parse the type and attribute
sublanguage (see ``typeattr.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from lark import Lark, Token

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
    cache=True,  # the LALR tables are pickled in the temp dir: much faster start-up of the CLI
)

# Token types that spell a bare identifier (keywords of the type/attribute language
# are retyped by lark, but in op syntax they are ordinary words).
KEYWORD_TYPES = frozenset(
    {
        "MEMREF", "TENSOR", "VECTOR", "COMPLEX", "TUPLE", "DENSE", "DENSE_RESOURCE", "ARRAY", "STRIDED",
        "OFFSET", "AFFINE_MAP", "AFFINE_SET", "TRUE", "FALSE", "UNIT",
    }
)
BARE_TYPES = KEYWORD_TYPES | {"BARE_ID"}

EOF_TYPE = "$END"


class Tok(NamedTuple):
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


def _scanner() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    """Regexes over lark's own terminal list (same order, same priorities) and the keyword table.

    Each match of the token regex is the ignored text (whitespace, comments) before a
    token plus the token itself, in one named group. lark's lexer retypes a
    BARE_ID/BANG_ID spelled like a keyword terminal; the keyword table does the same
    here. One compiled alternation, scanned with ``finditer``, avoids lark's per-token
    bookkeeping, which dominated parse time.
    """
    lexer = LARK.parser.lexer
    lexer.scanner  # builds the ordered, keyword-free terminal list  # noqa: B018
    scanned = lexer.scanner.terminals
    names = {t.name for t in scanned}
    keywords = {t.pattern.value: t.name for t in lexer.terminals if t.name not in names}
    # atomic: a comment must never give characters back to a token after it
    trivia = "(?>(?:" + "|".join(t.pattern.to_regexp() for t in scanned if t.name in lexer.ignore_types) + ")*)"
    tokens = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in scanned if t.name not in lexer.ignore_types)
    return re.compile(f"{trivia}(?:{tokens})"), re.compile(trivia), keywords


_TOKEN, _TRIVIA, _KEYWORDS = _scanner()
_RETYPED = ("BARE_ID", "BANG_ID")
_DIMS = re.compile(LARK.get_terminal("DIMS").pattern.to_regexp())
_SHAPED = frozenset({"MEMREF", "TENSOR", "VECTOR"})


def _in_shape(toks: list[Tok]) -> bool:
    """True right after `memref<`, `tensor<` or `vector<`: where a shape's first dimension starts.

    There `0xf32` is the dimension `0x` then `f32` (MLIR's own lexer makes the same
    context-sensitive split); later dimensions are inside one DIMS token already.
    """
    return len(toks) >= 2 and toks[-1].type == "LESS" and toks[-2].type in _SHAPED


def tokenize(text: str, filename: str) -> list[Tok]:
    """All tokens of ``text`` (comments and whitespace dropped), ending with an EOF token."""
    toks: list[Tok] = []
    append = toks.append
    count = text.count
    keywords = _KEYWORDS
    line, line_start, pos = 1, 0, 0
    match = _TOKEN.match
    while (m := match(text, pos)) is not None:
        kind = m.lastgroup
        start, end = m.span(kind)
        if start == end:
            break
        nl = count("\n", pos, start)
        if nl:
            line += nl
            line_start = text.rindex("\n", pos, start) + 1
        if kind == "HEX" and _in_shape(toks):
            dims = _DIMS.match(text, start)
            if dims is not None:  # `memref<0xf32>`: a zero-size dimension, not hex
                kind, end = "DIMS", dims.end()
        value = text[start:end]
        if kind in _RETYPED:
            kind = keywords.get(value, kind)
        append(Tok(kind, value, line, start - line_start + 1, start, end))  # type: ignore[arg-type]
        pos = end
    rest = _TRIVIA.match(text, pos)
    stop = rest.end() if rest else pos
    nl = count("\n", pos, stop)
    if nl:
        line += nl
        line_start = text.rindex("\n", pos, stop) + 1
    if stop < len(text):
        ch = text[stop]
        what = "unterminated string" if ch == '"' else f"unexpected character {ch!r}"
        raise ParseError(what, Location(filename, line, stop - line_start + 1))
    append(Tok(EOF_TYPE, "", line, stop - line_start + 1, stop, stop))
    return toks


def tok_loc(tok: Tok, filename: str) -> Location:
    """The location of ``tok`` in ``filename``."""
    return Location(filename, tok.line, tok.col)
