"""The fast tokenizer gives exactly the tokens of lark's own lexer for mlir.lark."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedCharacters

from loom.diagnostics import ParseError
from loom.mlir.lexer import LARK, tokenize

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
FILES = sorted((SHARED / "corpus").rglob("*.mlir"))


def lark_tokens(text: str) -> list[tuple[str, str, int, int]]:
    return [(t.type, str(t), t.line, t.column) for t in LARK.lex(text)]


def our_tokens(text: str) -> list[tuple[str, str, int, int]]:
    return [(t.type, t.value, t.line, t.col) for t in tokenize(text, "x")[:-1]]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_tokens_match_lark(path: Path):
    text = path.read_text()
    assert our_tokens(text) == lark_tokens(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list('%^@#!:,()[]{}<>=-.?*x0123456789"\\ \n\tabcfiu_/') + ["->", "...", "memref", "true", "0x1F", "1.5e3"]), max_size=40).map("".join))
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
