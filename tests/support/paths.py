"""The checkout's paths, defined once for every test file."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
DATA = TESTS / "data"
EXAMPLES_DIR = ROOT / "examples"
SHARED = ROOT.parent / "shared"
