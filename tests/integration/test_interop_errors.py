"""Every bad input is one coded, located line (issue 12): parse errors, undecodable bytes (as line:col),
bad or too-deep JSON, integers outside their type's range."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from loom.cli import main

from support.paths import DATA, ROOT

IDENTITY = "func.func @f(%a: {t}) -> {t} {{\n  return %a : {t}\n}}\n"


def run(*argv: str) -> tuple[int, str, str]:
    """``loom`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _files(tmp_path: Path, mlir: str | bytes, inputs: str | bytes) -> tuple[str, str]:
    m, j = tmp_path / "k.mlir", tmp_path / "in.json"
    (m.write_bytes if isinstance(mlir, bytes) else m.write_text)(mlir)
    (j.write_bytes if isinstance(inputs, bytes) else j.write_text)(inputs)
    return str(m), str(j)


def test_parse_error_has_a_code(tmp_path: Path) -> None:
    m, j = _files(tmp_path, "func.func @f(%a: i32) -> i32 {\n  return %a i32\n}\n", "{}")
    code, _, err = run("sim", m, "--inputs", j)
    assert code == 2
    assert error_line(err).startswith(f"{m}:2:13: error: [CPL_IR_SYNTAX] ")


@pytest.mark.parametrize("prefix, line, col", [(b"", 1, 1), (b"// caf\xc3\xa9\n  ", 2, 3), (b"\n\n// abc", 3, 7)])
def test_undecodable_byte_is_named_by_line_and_column(tmp_path: Path, prefix: bytes, line: int, col: int) -> None:
    m, j = _files(tmp_path, prefix + b"\xff\nfunc.func @f() {\n  return\n}\n", "{}")
    code, _, err = run("verify", m)
    assert code == 2
    assert error_line(err).startswith(f"{m}:{line}:{col}: error: [IO_INPUT_ENCODING] "), err


def test_undecodable_inputs_file(tmp_path: Path) -> None:
    m, j = _files(tmp_path, IDENTITY.format(t="i32"), b'{"a": "\xfe"}')
    code, _, err = run("sim", m, "--inputs", j)
    assert code == 2
    assert error_line(err).startswith(f"{j}:1:8: error: [IO_INPUT_ENCODING] "), err


@pytest.mark.parametrize("text, line, col", [('{"a": ', 1, 7), ('{"a": 1,\n}', 2, 1), ("[1, 2", 1, 6)])
def test_invalid_json_is_coded_and_located(tmp_path: Path, text: str, line: int, col: int) -> None:
    m, j = _files(tmp_path, IDENTITY.format(t="i32"), text)
    code, _, err = run("sim", m, "--inputs", j)
    assert code == 2
    assert error_line(err).startswith(f"{j}:{line}:{col}: error: [IO_INPUT_JSON] "), err


def test_deep_json_says_where(tmp_path: Path) -> None:
    m, j = _files(tmp_path, IDENTITY.format(t="i32"), '{"a":\n' + "[" * 50_000 + "]" * 50_000 + "}")
    code, _, err = run("sim", m, "--inputs", j)
    assert code == 2
    assert error_line(err).startswith(f"{j}:2:200: error: [IO_INPUT_NESTING] "), err


def test_deep_mlir_says_where(tmp_path: Path) -> None:
    body = '"scf.execute_region"() ({' * 5000 + "})" * 5000
    m, j = _files(tmp_path, "func.func @f() {\n" + body + "\n  return\n}\n", "{}")
    code, _, err = run("sim", m, "--inputs", j)
    assert code == 2
    line = error_line(err)
    assert line.startswith(f"{m}:2:") and "error: [" in line, line


@pytest.mark.parametrize(
    "t, good, bad",
    [
        ("i64", [-(2**63), 2**63 - 1, 2**63, 2**64 - 1], [2**64, -(2**63) - 1]),
        ("i8", [-128, 127, 255], [256, -129]),
        ("ui8", [0, 255], [-1, 256]),
        ("si16", [-(2**15), 2**15 - 1], [2**15, 2**16 - 1]),
        ("i1", [0, 1, True, False], [2, -2]),
        ("index", [-(2**63), 2**63 - 1, 2**63], [2**64]),
    ],
)
def test_integer_inputs_outside_the_type_range_are_rejected(tmp_path: Path, t: str, good: list, bad: list) -> None:
    src = IDENTITY.format(t=t)
    for v in good:
        m, j = _files(tmp_path, src, json.dumps({"a": v}))
        code, out, err = run("sim", m, "--inputs", j, "--json")
        assert code == 0, (v, err)
        got = json.loads(out)["results"][0]
        if t == "i1":
            assert got in ((-1, 1, True) if v else (0, False)), (v, got)
            continue
        w = 64 if t == "index" else int(t.lstrip("sui"))
        # ../shared/DESIGN.md: integers print as the signed decimal of their bit pattern
        assert got == (v if v < 2 ** (w - 1) else v - 2**w), (v, got)
        above_signed = v >= 2 ** (w - 1) and not t.startswith(("si", "ui"))
        assert ("warning: [IO_INPUT_UNSIGNED]" in err) == above_signed, err  # never a silent wrap
    for v in bad:
        m, j = _files(tmp_path, src, json.dumps({"a": v}))
        code, out, err = run("sim", m, "--inputs", j)
        assert code == 2 and out == "", (v, out)
        assert "error: [IO_INPUT_TYPE] input 'a'" in error_line(err), err


def test_usage_errors_have_a_code() -> None:
    code, _, err = run("compile")
    assert code == 2 and "[CLI_USAGE]" in error_line(err)


# ---------------------------------------------------------------------------- unwritable outputs
DOT = str(ROOT / "examples" / "dot.scf.mlir")
FABRIC = str(DATA / "map" / "narrow.fabric.mlir")
# (command line writing to OUT, what OUT names, its code): every command reports it as `loom compile` does
WRITERS = [
    (["compile", DOT, "-o", "OUT"], "x", "IO_OUTPUT_DIR"),
    (["hdl", DOT, "-o", "OUT"], "x", "IO_OUTPUT_DIR"),
    (["map", DOT, "--adg", FABRIC, "-q", "-o", "OUT"], "x", "IO_OUTPUT_DIR"),
    (["adg", "mesh", "--rows", "2", "--cols", "2", "-o", "OUT"], "x.fabric.mlir", "IO_OUTPUT_FILE"),
    (["verify", "-q", DOT, "--emit-smt2", "OUT"], "x", "IO_OUTPUT_DIR"),
    (["verify", "-q", DOT, "--junit", "OUT"], "x.xml", "IO_OUTPUT_FILE"),
    (["verify", "-q", DOT, "--sarif", "OUT"], "x.sarif", "IO_OUTPUT_FILE"),
]


@pytest.mark.parametrize("argv, name, code", WRITERS, ids=[" ".join(a[:1] + a[-2:-1]) for a, _, _ in WRITERS])
@pytest.mark.parametrize("where", ["proc", "under a file"])
def test_an_unwritable_output_is_one_coded_line_at_its_path(argv: list[str], name: str, code: str, where: str,
                                                            tmp_path: Path, monkeypatch) -> None:
    """Under /proc (nothing can be created there, not even by root) or under a regular file: exit 2 with
    ``OUT: error: [IO_OUTPUT_DIR|FILE]``, before any verification or mapping runs, nothing written."""
    import loom.map.mapper
    import loom.verify.driver

    def never(*_a, **_k):
        raise AssertionError("the output path must be checked before the work starts")

    monkeypatch.setattr(loom.verify.driver, "verify_files", never)
    monkeypatch.setattr(loom.map.mapper, "map_dfg", never)
    plain = tmp_path / "plain"
    plain.write_text("x")
    target = str((Path("/proc") if where == "proc" else plain) / name)
    rc, out, err = run(*[target if a == "OUT" else a for a in argv])
    assert rc == 2 and out == ""
    assert error_line(err).startswith(f"{target}: error: [{code}] "), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"] and plain.read_text() == "x"


def test_a_hdl_output_name_taken_by_a_directory_writes_nothing(tmp_path: Path) -> None:
    """hdl writes all its files or none (as compile): a directory in the way of one file stops them all."""
    (tmp_path / "dot.sv").mkdir()
    rc, _, err = run("hdl", DOT, "-o", str(tmp_path))
    assert rc == 2
    assert error_line(err).startswith(f"{tmp_path / 'dot.sv'}: error: [IO_OUTPUT_FILE] "), err
    assert [p.name for p in tmp_path.iterdir()] == ["dot.sv"]


# ---------------------------------------------------------------------------- runtime errors in every engine
REM = "func.func @rem(%a: i32, %b: i32) -> i32 {\n  %r = arith.remui %a, %b : i32\n  return %r : i32\n}\n"


def _sim_error(*argv: str) -> str:
    """The ``error`` of ``loom sim --json`` (status error, exit 1)."""
    rc, out, err = run("sim", *argv, "--json")
    assert rc == 1, err
    doc = json.loads(out)
    assert doc["status"] == "error"
    return doc["error"]


def test_a_runtime_error_names_its_op_once_in_the_interpreter_and_the_token_simulator(tmp_path: Path) -> None:
    m, j = _files(tmp_path, REM, '{"a": 7, "b": 0}')
    want = f"RT_ARITH_DIV_BY_ZERO arith.remui: integer division by zero (at {m}:2:3)"
    assert _sim_error(m, "--inputs", j) == want
    assert _sim_error(m, "--inputs", j, "--lower") == want  # was "arith.remui: arith.remui: ..."


def test_a_runtime_error_names_its_op_once_in_the_rtl(tmp_path: Path, monkeypatch) -> None:
    from support.hdl import need

    need("iverilog")
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")  # the quicker build
    m, j = _files(tmp_path, REM, '{"a": 7, "b": 0}')
    want = f"RT_ARITH_DIV_BY_ZERO arith.remui: integer division by zero (at {m}:2:3)"
    assert _sim_error(m, "--inputs", j, "--rtl") == want


def test_an_op_is_named_once_whoever_composed_the_message() -> None:
    from loom.diagnostics import SimulationError

    def text(op: str, message: str) -> str:
        return SimulationError.of_op(op, message, None, "RT_X").message

    assert text("arith.remui", "arith.remui: x") == "arith.remui: x"
    assert text("dataflow.stream", "step is zero") == "dataflow.stream: step is zero"
    assert text("arith.remui", "arith.remuix") == "arith.remui: arith.remuix"


@pytest.mark.parametrize("t, big, small", [("f32", 1e39, 3.0e38), ("f16", 70000.0, 65504.0), ("bf16", 3.4e38, 3.3e38)])
def test_a_float_input_beyond_its_type_reads_as_infinity_with_a_warning(tmp_path: Path, t: str, big: float,
                                                                        small: float) -> None:
    """A finite number beyond the float type's range becomes infinity, never silently: one located warning."""
    src = IDENTITY.format(t=t)
    for v, sign in ((big, ""), (-big, "-")):
        m, j = _files(tmp_path, src, json.dumps({"a": v}))
        code, out, err = run("sim", m, "--inputs", j, "--json")
        assert code == 0 and json.loads(out)["results"] == [f"{sign}inf"], (out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "warning: [IO_INPUT_FLOAT_RANGE] input 'a'" in lines[0], err
    m, j = _files(tmp_path, src, json.dumps({"a": small}))
    code, out, err = run("sim", m, "--inputs", j, "--json")
    assert code == 0 and err == "", err
