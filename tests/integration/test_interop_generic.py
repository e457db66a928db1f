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

from support.paths import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.scf.mlir"))


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


@pytest.fixture(scope="module")
def circt_compiled(tmp_path_factory) -> Path:
    """Every example compiled with --generic --circt."""
    out = tmp_path_factory.mktemp("circt")
    assert run("compile", *[str(p) for p in EXAMPLES], "--generic", "--circt", "-o", str(out))[0] == 0
    return out


def _count_ops(text: str, name: str) -> int:
    return len(re.findall(rf'(?:"{re.escape(name)}"|\b{re.escape(name)}\b)\(', text))


@pytest.mark.parametrize("name", [p.name for p in EXAMPLES])
def test_circt_materializes_the_circt_form_without_adding_forks_or_sinks(name: str, circt_compiled: Path) -> None:
    import circt
    import circt.ir as ir
    from circt.passmanager import PassManager

    text = (circt_compiled / name.replace(".scf.", ".dfg.")).read_text()
    with ir.Context() as ctx:
        circt.register_dialects(ctx)
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        assert module.operation.verify()
        before = str(module)
        PassManager.parse("builtin.module(handshake.func(handshake-materialize-forks-sinks))").run(module.operation)
        assert module.operation.verify()
        after = str(module)
    for op in ("handshake.fork", "handshake.sink"):  # loom already wrote every fork and sink CIRCT wants
        assert after.count(op) == before.count(op), op
    assert "memref.dim" not in text


def _shape(value) -> list[int]:
    dims = []
    while isinstance(value, list):
        dims.append(len(value))
        value = value[0] if value else None
    return dims


@pytest.mark.parametrize("name", [p.name for p in EXAMPLES])
def test_circt_form_simulates_like_the_plain_dfg(name: str, circt_compiled: Path, compiled, tmp_path: Path) -> None:
    import json

    stem = name.removesuffix(".scf.mlir")
    inputs_path = EXAMPLES[0].parent / f"{stem}.inputs.json"
    inputs = json.loads(inputs_path.read_text())
    circt_file = circt_compiled / f"{stem}.dfg.mlir"
    func = parse_file(circt_file).functions()[0]
    from loom.runtime import function_arg_names

    for arg in function_arg_names(func):  # the sizes CIRCT's memref ports cannot tell: extra index arguments
        m = re.fullmatch(r"(.+)_dim(\d+)", arg)
        if m and arg not in inputs:
            inputs[arg] = _shape(inputs[m.group(1)])[int(m.group(2))]
    extended = tmp_path / "in.json"
    extended.write_text(json.dumps(inputs))
    code_c, out_c, err_c = run("sim", str(circt_file), "--inputs", str(extended), "--json")
    code_p, out_p, err_p = run("sim", str(compiled[name][0]), "--inputs", str(inputs_path), "--json")
    assert code_c == code_p == 0, err_c + err_p
    doc_c, doc_p = json.loads(out_c), json.loads(out_p)
    assert doc_c["results"] == doc_p["results"] and doc_c["memrefs"] == doc_p["memrefs"]
    assert doc_c["residual_tokens"] == 0
