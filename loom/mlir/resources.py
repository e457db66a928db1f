"""The file metadata section ``{-# dialect_resources: {...} #-}`` that mlir-opt prints after the module.

``split_metadata`` blanks the section out of the text (keeping every other
character's line and column) and returns the blobs of the ``builtin`` dialect,
which ``dense_resource<key>`` attributes name. Other dialects' resources and
``external_resources`` are read (so malformed text is still an error) and
dropped: nothing in loom's subset uses them.
"""

from __future__ import annotations

import re

from loom.diagnostics import ParseError
from loom.mlir.lexer import EOF_TYPE, Tok, tok_loc, tokenize
from loom.mlir.typeattr import unescape_string

_OPEN, _CLOSE = "{-#", "#-}"
_HEX_BLOB = re.compile(r"0x([0-9A-Fa-f]{2})*")


def split_metadata(text: str, filename: str) -> tuple[str, dict[str, str]]:
    """(text with every ``{-# ... #-}`` section blanked, builtin resource key -> "0x..." blob)."""
    resources: dict[str, str] = {}
    start = _find_open(text, 0)
    while start >= 0:
        end = text.find(_CLOSE, start + len(_OPEN))
        if end < 0:
            line = text.count("\n", 0, start) + 1
            col = start - (text.rfind("\n", 0, start) + 1) + 1
            raise ParseError("file metadata '{-#' is never closed with '#-}'", tok_loc(Tok("", "", line, col, start, start), filename))
        end += len(_CLOSE)
        inner = _blank(text[:start]) + " " * len(_OPEN) + text[start + len(_OPEN) : end - len(_CLOSE)]
        _parse_section(tokenize(inner, filename), filename, resources)
        text = text[:start] + _blank(text[start:end]) + text[end:]
        start = _find_open(text, end)
    return text, resources


_SCAN = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*"|\{-#')


def _find_open(text: str, pos: int) -> int:
    """Where the next ``{-#`` outside comments and strings starts, or -1."""
    if text.find(_OPEN, pos) < 0:  # the common case: no metadata at all
        return -1
    for m in _SCAN.finditer(text, pos):
        if m.group() == _OPEN:
            return m.start()
    return -1


def _blank(s: str) -> str:
    """``s`` with every character but newlines turned into a space (positions stay put)."""
    return re.sub(r"[^\n]", " ", s)


class _Reader:
    """A cursor over the section's tokens: ``key: value`` dictionaries, strings and bare words."""

    def __init__(self, toks: list[Tok], filename: str) -> None:
        self.toks, self.pos, self.filename = toks, 0, filename

    def peek(self) -> Tok:
        return self.toks[self.pos]

    def expect(self, value: str, what: str) -> Tok:
        tok = self.peek()
        if tok.value != value or tok.type == EOF_TYPE:
            raise ParseError(f"expected '{value}' {what} in the file metadata, found {tok.describe()}", tok_loc(tok, self.filename))
        self.pos += 1
        return tok

    def key(self) -> Tok:
        tok = self.peek()
        if not tok.is_bare and tok.type != "STRING":
            raise ParseError(f"expected a key in the file metadata, found {tok.describe()}", tok_loc(tok, self.filename))
        self.pos += 1
        return tok

    def entries(self) -> list[tuple[Tok, object]]:
        """``{ key: value, ... }`` where a value is a nested dictionary or a single token."""
        self.expect("{", "to open a dictionary")
        out: list[tuple[Tok, object]] = []
        while self.peek().value != "}":
            k = self.key()
            self.expect(":", "after a key")
            if self.peek().value == "{":
                out.append((k, self.entries()))
            else:
                v = self.peek()
                if v.type == EOF_TYPE:
                    raise ParseError("file metadata ends inside a dictionary", tok_loc(v, self.filename))
                self.pos += 1
                out.append((k, v))
            if self.peek().value != ",":
                break
            self.pos += 1
        self.expect("}", "to close a dictionary")
        return out


def _parse_section(toks: list[Tok], filename: str, resources: dict[str, str]) -> None:
    r = _Reader(toks, filename)
    entries: list[tuple[Tok, object]] = []  # the section's top-level keys have no braces around them
    while r.peek().type != EOF_TYPE:
        k = r.key()
        r.expect(":", "after a key")
        entries.append((k, r.entries()))
        if r.peek().value == ",":
            r.pos += 1
    for key, groups in entries:
        if key.value not in ("dialect_resources", "external_resources"):
            raise ParseError(f"unknown file metadata section '{key.value}'", tok_loc(key, filename))
        if key.value != "dialect_resources":
            continue
        for dialect, blobs in groups:  # type: ignore[assignment]
            if dialect.value != "builtin" or not isinstance(blobs, list):
                continue
            for name, blob in blobs:
                if not isinstance(blob, Tok) or blob.type != "STRING":
                    raise ParseError(f"resource '{name.value}' must be a hex string \"0x...\"", tok_loc(name, filename))
                value = unescape_string(blob.value, tok_loc(blob, filename))
                if not _HEX_BLOB.fullmatch(value) or len(value) < 10:
                    raise ParseError(f"resource '{name.value}' must be a hex blob \"0x\" + 4 alignment bytes + data",
                                     tok_loc(blob, filename))
                key_name = unescape_string(name.value, tok_loc(name, filename)) if name.type == "STRING" else name.value
                if key_name in resources:
                    raise ParseError(f"resource '{key_name}' is defined twice", tok_loc(name, filename))
                resources[key_name] = value
