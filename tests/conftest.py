"""Test-session set-up: hypothesis profiles, and the ``shared`` marker for tests that read ``../shared``.

``dev`` (the default) keeps the suite quick; ``ci`` (selected when the environment has ``CI=true``) runs
ten times as many examples in the property tests that scale their example counts with ``scaled``.

``../shared`` sits beside the checkout (see README, "Set up"). Under ``CI=true`` a
missing ``../shared`` stops the session with an error: CI must never go green by
not running these tests. Elsewhere those tests are skipped, and the reason says why.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from support import cpu_time
from support.paths import SHARED

BASE_EXAMPLES = 100  # the dev profile's max_examples: ``scaled(n)`` is n there
settings.register_profile("dev", max_examples=BASE_EXAMPLES)
settings.register_profile("ci", max_examples=10 * BASE_EXAMPLES)


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


settings.load_profile("ci" if _in_ci() else "dev")


def scaled(n: int) -> int:
    """``n`` examples under the dev profile, ten times as many under ``ci``."""
    return max(1, n * settings.default.max_examples // BASE_EXAMPLES)


pytest_runtest_protocol = cpu_time.pytest_runtest_protocol  # --cpu-times (tests/README.md)


def pytest_addoption(parser: pytest.Parser) -> None:
    cpu_time.add_option(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shared: reads ../shared (the upstream LOOM corpus and specs)")


@pytest.fixture(scope="session", autouse=True)
def rtl_build_cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """One cache of built RTL simulations (loom.hdl.simcache) for the whole run, shared by the xdist workers and
    the ``loom`` processes tests start: a design co-simulated in several tests (other inputs, other stall seeds)
    is built once. A fresh directory each run, so no run depends on an earlier one; ``LOOM_RTL_CACHE`` set by the
    caller wins."""
    if os.environ.get("LOOM_RTL_CACHE", "").strip():
        return
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if hasattr(request.config, "workerinput") else base  # xdist: gw0, gw1... share the parent
    os.environ["LOOM_RTL_CACHE"] = str(shared / "rtl-build-cache")


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
