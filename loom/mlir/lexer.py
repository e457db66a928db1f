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
        "MEMREF", "TENSOR", "VECTOR", "COMPLEX", "TUPLE", "DENSE", "ARRAY", "STRIDED",
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


def _scanner() -> tuple[re.Pattern[str], dict[str, str], frozenset[str]]:
    """One regex over lark's own terminal list (same order, same priorities), keyword table, ignored types.

    lark's lexer retypes a BARE_ID/BANG_ID spelled like a keyword terminal; the keyword
    table does the same here. Matching with one compiled alternation avoids lark's
    per-token bookkeeping, which dominated parse time.
    """
    lexer = LARK.parser.lexer
    lexer.scanner  # builds the ordered, keyword-free terminal list  # noqa: B018
    scanned = lexer.scanner.terminals
    names = {t.name for t in scanned}
    keywords = {t.pattern.value: t.name for t in lexer.terminals if t.name not in names}
    pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in scanned)
    return re.compile(pattern), keywords, frozenset(lexer.ignore_types)


_SCAN, _KEYWORDS, _IGNORED = _scanner()


def tokenize(text: str, filename: str) -> list[Tok]:
    """All tokens of ``text`` (comments and whitespace dropped), ending with an EOF token."""
    toks: list[Tok] = []
    append = toks.append
    pos, n = 0, len(text)
    line, line_start = 1, 0
    match = _SCAN.match
    count = text.count
    while pos < n:
        m = match(text, pos)
        if m is None or m.end() == pos:
            ch = text[pos]
            what = "unterminated string" if ch == '"' else f"unexpected character {ch!r}"
            raise ParseError(what, Location(filename, line, pos - line_start + 1))
        kind = m.lastgroup
        end = m.end()
        if kind in _IGNORED:
            nl = count("\n", pos, end)
            if nl:
                line += nl
                line_start = text.rindex("\n", pos, end) + 1
        else:
            value = m.group()
            if kind in ("BARE_ID", "BANG_ID"):
                kind = _KEYWORDS.get(value, kind)
            append(Tok(kind, value, line, pos - line_start + 1, pos, end))  # type: ignore[arg-type]
        pos = end
    append(Tok(EOF_TYPE, "", line, pos - line_start + 1, n, n))
    return toks


def tok_loc(tok: Tok, filename: str) -> Location:
    """The location of ``tok`` in ``filename``."""
    return Location(filename, tok.line, tok.col)
