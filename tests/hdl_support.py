"""Shared helpers of the tests/test_hdl_*.py files: the external tools they need, and lowering an example."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.scf.mlir"))
BIN = Path(sys.executable).parent


def need(tool: str) -> str:
    """The path of ``tool``; a missing tool skips locally but FAILS under CI=true (CI must install it)."""
    path = shutil.which(tool) or (str(BIN / tool) if (BIN / tool).exists() else None)
    if path is None:
        msg = f"{tool} is not installed (apt-get install -y iverilog verilator; pip install -e '.[test]')"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return path


def dfg_func(path: Path):
    """The lowered handshake.func of an example (and its module)."""
    from loom.cli import _dfg_module, _pick_function

    ns = argparse.Namespace(max_join_fanin=None, no_rar=False)
    module = _dfg_module(path, None, ns)
    return _pick_function(module, None, ("handshake.func",), path), module


def stem(path: Path) -> str:
    return path.name[: -len(".scf.mlir")]
