"""The examples parsed and lowered once per session, and the verify context the mutation tests use."""

from __future__ import annotations

import functools

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.verify.obligation import VerifyContext

from support.paths import ROOT

EXAMPLE_NAMES = sorted(p.name[: -len(".scf.mlir")] for p in (ROOT / "examples").glob("*.scf.mlir"))
MUTATION_CTX = VerifyContext(bmc_k=2, timeout=10)


@functools.lru_cache(maxsize=None)
def example_source(name: str):
    """(module, func.func) of examples/<name>.scf.mlir."""
    m = parse_file(ROOT / "examples" / f"{name}.scf.mlir")
    return m, [f for f in m.functions() if f.name == "func.func"][0]


@functools.lru_cache(maxsize=None)
def example_lowered(name: str):
    """The DFG module lowered from that example with the default options."""
    m, _ = example_source(name)
    return lower_module(m, None, LowerOptions())
