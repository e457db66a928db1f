"""The versions of loom and of the solver that decides its verdicts, as every report records them."""

from __future__ import annotations

import z3

from loom import __version__


def tool_versions() -> dict[str, str]:
    """``{"loom": ..., "z3": ...}``: what produced a report (z3-solver is pinned in pyproject.toml)."""
    return {"loom": __version__, "z3": z3.get_version_string()}
