"""The tests tree keeps its layers (tests/README.md): every test file sits in a layer folder, none imports another
test file, and the checkout's paths come from support.paths alone."""

from __future__ import annotations

import ast

from support.paths import TESTS

LAYERS = ("unit", "integration", "rtl")


def _test_files():
    return sorted(TESTS.rglob("test_*.py"))


def test_every_test_file_is_in_a_layer():
    stray = [p.relative_to(TESTS) for p in _test_files() if p.relative_to(TESTS).parts[0] not in LAYERS]
    assert stray == []
    assert not list(TESTS.glob("test_*.py"))


def test_no_test_file_imports_another():
    bad = []
    for p in [*_test_files(), *(TESTS / "support").glob("*.py")]:
        for node in ast.walk(ast.parse(p.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{p.relative_to(TESTS)}: {n}" for n in names if n.split(".")[0].startswith("test_")]
    assert bad == []


def test_paths_are_defined_once():
    needle = "Path(" + "__file__)"  # spelled in two parts, so this file does not match itself
    own = [p.relative_to(TESTS) for p in [*_test_files(), *(TESTS / "support").glob("*.py")]
           if needle in p.read_text() and p.name != "paths.py"]
    assert own == []
