"""``loom compile --generic`` writes MLIR's generic form: loom reads it back to the same module, and
CIRCT's own parser (the ``circt`` wheel, pinned in the test extra) and verifier accept it."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from loom.cli import main
from loom.mlir import parse_file, print_module

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.scf.mlir"))


def run(*argv: str) -> tuple[int, str, str]:
    """``loom`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """Every example compiled twice: custom syntax and --generic."""
    pretty, generic = tmp_path_factory.mktemp("pretty"), tmp_path_factory.mktemp("generic")
    files = [str(p) for p in EXAMPLES]
    assert run("compile", *files, "-o", str(pretty))[0] == 0
    assert run("compile", *files, "--generic", "-o", str(generic))[0] == 0
    return {p.name: (pretty / p.name.replace(".scf.", ".dfg."), generic / p.name.replace(".scf.", ".dfg."))
            for p in EXAMPLES}


@pytest.mark.parametrize("name", [p.name for p in EXAMPLES])
def test_generic_output_reads_back_to_the_same_module(name: str, compiled) -> None:
    pretty, generic = compiled[name]
    text = generic.read_text()
    # every op line is generic: a quoted op name, never custom syntax
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith(("^", "}", ")")):
            assert re.match(r'^(%[\w#:, %]+ = )?"[\w.]+"\(', s), line
    assert print_module(parse_file(generic)) == print_module(parse_file(pretty))


@pytest.mark.parametrize("name", [p.name for p in EXAMPLES])
def test_circt_parses_and_verifies_the_generic_output(name: str, compiled) -> None:
    import circt
    import circt.ir as ir

    _, generic = compiled[name]
    with ir.Context() as ctx:
        circt.register_dialects(ctx)
        ctx.allow_unregistered_dialects = True  # dataflow.* is LOOM's dialect, unknown to CIRCT
        module = ir.Module.parse(generic.read_text())
        assert module.operation.verify()
