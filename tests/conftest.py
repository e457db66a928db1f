"""Shared test configuration: hypothesis profiles.

``dev`` (the default) keeps the suite quick; ``ci`` (selected when the environment has ``CI=true``) runs
ten times as many examples in the property tests that scale their example counts with ``scaled``.
"""

from __future__ import annotations

import os

from hypothesis import settings

BASE_EXAMPLES = 100  # the dev profile's max_examples: ``scaled(n)`` is n there
settings.register_profile("dev", max_examples=BASE_EXAMPLES)
settings.register_profile("ci", max_examples=10 * BASE_EXAMPLES)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


def scaled(n: int) -> int:
    """``n`` examples under the dev profile, ten times as many under ``ci``."""
    return max(1, n * settings.default.max_examples // BASE_EXAMPLES)
