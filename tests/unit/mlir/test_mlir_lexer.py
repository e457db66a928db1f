"""The fast tokenizer gives exactly the tokens of lark's own lexer for mlir.lark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedCharacters

from loom.diagnostics import ParseError
from loom.mlir.lexer import LARK, tokenize

from support.paths import SHARED

FILES = sorted((SHARED / "corpus").rglob("*.mlir"))


SHAPED = {"MEMREF", "TENSOR", "VECTOR"}
DIMS = re.compile(LARK.get_terminal("DIMS").pattern.to_regexp())


def lark_tokens(text: str, line: int = 1, col: int = 1) -> list[tuple[str, str, int, int]]:
    """lark's own tokens, except MLIR's one context rule: right after `memref<` a `0x..` is a dimension."""
    out: list[tuple[str, str, int, int]] = []
    for t in LARK.lex(text):
        at = (t.line + line - 1, t.column + (col - 1 if t.line == 1 else 0))
        dims = DIMS.match(text, t.start_pos)
        if t.type == "HEX" and len(out) >= 2 and out[-1][0] == "LESS" and out[-2][0] in SHAPED and dims:
            out.append(("DIMS", dims.group(), *at))
            line_at, col_at = at[0], at[1] + len(dims.group())
            try:
                return out + lark_tokens(text[dims.end() :], line_at, col_at)
            except UnexpectedCharacters as e:  # report it where it is in the whole text, not in the rest
                if not getattr(e, "absolute", False):  # (line_at, col_at) are whole-text positions: shift once
                    if e.line == 1:
                        e.column += col_at - 1
                    e.line += line_at - 1
                    e.absolute = True
                raise
        out.append((t.type, str(t), *at))
    return out


def our_tokens(text: str) -> list[tuple[str, str, int, int]]:
    return [(t.type, t.value, t.line, t.col) for t in tokenize(text, "x")[:-1]]


@pytest.mark.shared
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_tokens_match_lark(path: Path):
    text = path.read_text()
    assert our_tokens(text) == lark_tokens(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list('%^@#!:,()[]{}<>=-.?*x0123456789"\\ \n\tabcfiu_/') + ["->", "...", "memref", "vector", "true", "0x1F", "0xf32", "1.5e3"]), max_size=40).map("".join))
def test_random_text_tokens_match_lark(text: str):
    try:
        want = lark_tokens(text)
    except UnexpectedCharacters as e:
        with pytest.raises(ParseError) as info:
            tokenize(text, "x")
        assert (info.value.loc.line, info.value.loc.col) == (e.line, e.column)
        return
    assert our_tokens(text) == want


def test_end_token_position():
    toks = tokenize("a // c\n  b\n", "x")
    assert [(t.value, t.line, t.col) for t in toks] == [("a", 1, 1), ("b", 2, 3), ("", 3, 1)]


@pytest.mark.parametrize(
    ("text", "dims"),
    [("memref<0xf32>", "0x"), ("memref<0x4xf32>", "0x4x"), ("tensor<0x?xf16>", "0x?x"), ("vector<0xbf16>", "0x"), ("memref<4x0xf32>", "4x0x")],
)
def test_zero_size_dimension_is_not_hex(text: str, dims: str):
    toks = tokenize(text, "x")
    assert [t.value for t in toks if t.type == "DIMS"] == [dims]
    assert not [t for t in toks if t.type == "HEX"]


def test_hex_outside_a_shape_stays_hex():
    assert [t.type for t in tokenize("0xf32 < 0x4", "x")[:-1]] == ["HEX", "LESS", "HEX"]
