"""The tests tree keeps its layers (tests/README.md): every test file sits in a layer folder, none imports another
test file, the checkout's paths come from support.paths alone, and the docs name test files that exist."""

from __future__ import annotations

import ast
import re

from support.paths import ROOT, TESTS

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


def test_docs_name_files_that_exist():
    """A ``tests/...py`` or ``loom/...py`` path (or glob) in the README, tests/README.md, specs/, docs/ or
    pyproject.toml matches a file: the re-layout left ``tests/test_hdl_*.py`` pointers behind once, and
    pyproject.toml named ``loom/hdl/liveness.py`` after it moved to ``loom/hdl/formal``."""
    docs = [ROOT / "README.md", TESTS / "README.md", ROOT / "pyproject.toml", *(ROOT / "specs").glob("*.md"),
            *(ROOT / "docs").glob("*.md")]
    stale = []
    for doc in docs:
        for path in sorted(set(re.findall(r"\b(?:tests|loom)/[\w./*-]+?\.py\b", doc.read_text()))):
            if not list(ROOT.glob(path)):
                stale.append(f"{doc.relative_to(ROOT)}: {path}")
    assert stale == []
