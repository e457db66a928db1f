"""docs/api.md's examples run as doctests from the repository's root: the Python API it documents is what loom
exports, and prints what the page shows."""

from __future__ import annotations

import doctest
import re

from support.paths import ROOT

API = ROOT / "docs" / "api.md"


def test_every_example_of_the_api_page_runs(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)  # the examples read examples/*.scf.mlir by relative path
    result = doctest.testfile(str(API), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted >= 20, "docs/api.md lost its examples"
    assert result.failed == 0


def test_the_table_names_only_what_the_packages_export() -> None:
    import importlib

    rows = re.findall(r"^\| `(loom\.[a-z.]+)` \| (.+?) \|", API.read_text(), re.M)
    assert len(rows) >= 6
    for package, names in rows:
        mod = importlib.import_module(package)
        for name in re.findall(r"`(\w+)`", names):
            assert hasattr(mod, name), f"docs/api.md names {package}.{name}, which does not exist"
