"""Test-session set-up: the ``shared`` marker for tests that read ``../shared`` (the upstream LOOM corpus and specs).

``../shared`` sits beside the checkout (see README, "Tests"). Under ``CI=true`` a
missing ``../shared`` stops the session with an error: CI must never go green by
not running these tests. Elsewhere those tests are skipped, and the reason says why.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shared: reads ../shared (the upstream LOOM corpus and specs)")


def pytest_sessionstart(session: pytest.Session) -> None:
    if not (SHARED / "corpus").is_dir() and _in_ci():
        raise pytest.UsageError(
            f"{SHARED}: error: the tests read ../shared/corpus beside the checkout and it is missing (CI=true)"
        )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if (SHARED / "corpus").is_dir():
        return
    skip = pytest.mark.skip(reason=f"needs {SHARED}/corpus beside the checkout (see README, 'Tests')")
    for item in items:
        if item.get_closest_marker("shared") is not None:
            item.add_marker(skip)
