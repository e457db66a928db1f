"""Hypothesis fuzz: truncated and mutated corpus text either parses (and then round-trips) or
raises ParseError/VerifyError -- never any other exception, never a hang."""

from __future__ import annotations

import pytest

import contextlib
import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError
from loom.ir.equality import modules_equal
from loom.mlir import parse_text, print_module
from loom.mlir.lexer import tokenize

from support.paths import SHARED

FILES = sorted((SHARED / "corpus" / "loom-legacy").glob("*.mlir")) + sorted((SHARED / "corpus" / "loom-fabric").glob("*.dfg.mlir"))
TEXTS = [p.read_text() for p in FILES]
MAX_LINES = 30  # windows keep each example small and fast

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SNIPPETS = ["%", "^", "@", "#", "!", ":", ",", "(", ")", "[", "]", "{", "}", "<", ">", "=", "->", "...", "?", "x", "0x",
            "\"", "\\", "loc(", "dense<", "memref<", "!dataflow.tagged<", "%8#", ":2", "//", "\n", " ", "-", "1.5e", "}}"]


@st.composite
def windows(draw) -> str:
    text = draw(st.sampled_from(TEXTS))
    lines = text.split("\n")
    if draw(st.booleans()) or len(lines) <= MAX_LINES:
        start = draw(st.integers(0, max(0, len(lines) - 1)))
        lines = lines[start : start + draw(st.integers(1, MAX_LINES))]
    return "\n".join(lines)


@st.composite
def mutations(draw) -> str:
    s = draw(windows())
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(s)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "truncate", "byte"]))
        if kind == "insert":
            s = s[:i] + draw(st.sampled_from(SNIPPETS)) + s[i:]
        elif kind == "delete":
            s = s[:i] + s[i + draw(st.integers(1, 8)) :]
        elif kind == "replace":
            s = s[:i] + draw(st.sampled_from(SNIPPETS)) + s[i + 1 :]
        elif kind == "truncate":
            s = s[:i]
        else:
            s = s[:i] + chr(draw(st.integers(0, 0x2FF))) + s[i:]
    return s


@st.composite
def token_shuffles(draw) -> str:
    s = draw(windows())
    try:
        toks = tokenize(s, "w")[:-1]
    except LoomError:
        return s
    if len(toks) < 2:
        return s
    values = [t.value for t in toks]
    for _ in range(draw(st.integers(1, 3))):
        a = draw(st.integers(0, len(values) - 1))
        b = draw(st.integers(0, len(values) - 1))
        values[a], values[b] = values[b], values[a]
    if draw(st.booleans()):
        del values[draw(st.integers(0, len(values) - 1))]
    return " ".join(values)


def parse_or_loom_error(text: str) -> None:
    """The contract: a module (that round-trips) or a LoomError; anything else fails the test."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            module = parse_text(text, "fuzz.mlir")
    except LoomError as e:
        assert str(e).startswith("fuzz.mlir:")
        assert "\n" not in str(e)
        return
    printed = print_module(module)
    with contextlib.redirect_stderr(io.StringIO()):
        again = parse_text(printed, "printed.mlir")
    assert modules_equal(module, again), printed
    assert print_module(again) == printed


@pytest.mark.shared
@SETTINGS
@given(mutations())
def test_mutated_corpus(text: str):
    parse_or_loom_error(text)


@pytest.mark.shared
@SETTINGS
@given(token_shuffles())
def test_shuffled_tokens(text: str):
    parse_or_loom_error(text)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text(text: str):
    parse_or_loom_error(text)


@pytest.mark.shared
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TEXTS), st.data())
def test_every_prefix_cut(text: str, data):
    cut = data.draw(st.integers(0, len(text)))
    parse_or_loom_error(text[:cut])
