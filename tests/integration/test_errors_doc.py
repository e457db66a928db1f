"""Every error code loom can raise is documented in specs/errors.md (and the doc names no dead code)."""

from __future__ import annotations

import re

from support.paths import ROOT

_CODE = re.compile(r"\b((?:CPL|RT|IO|CLI|HDL|MAP)_[A-Z0-9_]+)\b")


def _codes_in_source() -> set[str]:
    found: set[str] = set()
    for p in (ROOT / "loom").rglob("*.py"):
        found |= set(re.findall(r"[\"']((?:CPL|RT|IO|CLI|HDL|MAP)_[A-Z0-9_]+)[\"']", p.read_text(encoding="utf-8")))
    return found


def test_every_code_raised_is_listed():
    doc = (ROOT / "specs" / "errors.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `((?:CPL|RT|IO|CLI|HDL|MAP)_[A-Z0-9_]+)` \|", doc, re.M))
    missing = sorted(_codes_in_source() - listed)
    assert not missing, f"codes raised but not in specs/errors.md: {missing}"
    assert len(_codes_in_source()) > 20  # the scan finds the codes (it cannot pass by finding none)
