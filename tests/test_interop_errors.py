"""Every bad input is one coded, located line (issue 12): parse errors, undecodable bytes (as line:col),
bad or too-deep JSON, integers outside their type's range."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from loom.cli import main

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
        # DESIGN.md: integers print as the signed decimal of their bit pattern
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
