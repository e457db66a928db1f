"""Bad option values and options that would be ignored are usage errors (CLI_USAGE, exit 2), named by the
command and the option, before any input is read."""

from __future__ import annotations

import contextlib
import io

import pytest

from loom.cli import _check_option_needs, build_parser, main

# none of these files is read: a bad option must be refused before any input is opened
IN, JSON, ADG = "missing.scf.mlir", "missing.json", "missing.fabric.mlir"


def run(*argv: str) -> tuple[int, str, str]:
    """``loom`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def usage_line(err: str, command: str) -> str:
    """The one CLI_USAGE line of ``err``, after its ``loom <command>: error: [CLI_USAGE]`` prefix."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    prefix = f"loom {command}: error: [CLI_USAGE] "
    assert lines[0].startswith(prefix), err
    return lines[0][len(prefix):]


SIM, RTL = ["sim", IN, "--inputs", JSON], ["sim", "--rtl", IN, "--inputs", JSON]
MAP, MESH = ["map", IN, "--adg", ADG], ["adg", "mesh", "-o", "x.fabric.mlir"]

BAD_VALUES = [
    (SIM + ["--max-steps", "0"], "--max-steps must be >= 1 (got 0)"),
    (SIM + ["--max-steps", "-5"], "--max-steps must be >= 1 (got -5)"),
    (SIM + ["--lower", "--max-join-fanin", "1"], "--max-join-fanin must be >= 2 (got 1)"),
    (RTL + ["--fifo-depth", "0"], "--fifo-depth must be >= 1 (got 0)"),
    (RTL + ["--stall", "-1"], "--stall must be in 0..2147483647 (got -1)"),
    (RTL + ["--stall", str(2**31)], "--stall must be in 0..2147483647"),
    (["hdl", IN, "-o", "out", "--fifo-depth", "0"], "--fifo-depth must be >= 1 (got 0)"),
    (["hdl", IN, "-o", "out", "--max-join-fanin", "0"], "--max-join-fanin must be >= 2 (got 0)"),
    (["compile", IN, "--max-join-fanin", "1"], "--max-join-fanin must be >= 2 (got 1)"),
    (["verify", IN, "--timeout", "0"], "--timeout must be a positive, finite number of seconds (got 0)"),
    (["verify", IN, "--timeout", "nan"], "--timeout must be a positive, finite number of seconds (got nan)"),
    (["verify", IN, "--budget", "-1"], "--budget must be a positive, finite number of seconds (got -1)"),
    (["verify", IN, "--bmc-k", "-1"], "--bmc-k must be >= 0 (got -1)"),
    (["verify", IN, "--rtl", "--rtl-bound", "-1"], "--rtl-bound must be >= 0 (got -1)"),
    (["verify", IN, "--rtl", "--rtl-depth", "-1"], "--rtl-depth must be >= 0 (got -1)"),
    (["verify", IN, "--adg", ADG, "--seed", "-1"], "--seed must be >= 0 (got -1)"),
    (MAP + ["--seed", "-3"], "--seed must be >= 0 (got -3)"),
    (MAP + ["--budget", "0"], "--budget must be a positive, finite number of seconds (got 0)"),
    (MAP + ["--budget", "inf"], "--budget must be a positive, finite number of seconds (got inf)"),
    (MAP + ["--max-join-fanin", "1"], "--max-join-fanin must be >= 2 (got 1)"),
    (MESH + ["--rows", "0"], "--rows must be in 1..64 (got 0)"),
    (MESH + ["--cols", "65"], "--cols must be in 1..64 (got 65)"),
    (MESH + ["--extmem", "-1"], "--extmem must be in 0..16 (got -1)"),
    (MESH + ["--max-join-fanin", "1"], "--max-join-fanin must be in 2..64 (got 1)"),
    (MESH + ["--tracks", "5"], "--tracks must be in 1..4 (got 5)"),
]


def _command(argv: list[str]) -> str:
    return " ".join(argv[:2]) if argv[0] == "adg" else argv[0]


@pytest.mark.parametrize("argv, message", BAD_VALUES, ids=[" ".join(a[-2:]) for a, _ in BAD_VALUES])
def test_a_bad_option_value_is_a_usage_error_naming_the_option(argv: list[str], message: str, tmp_path,
                                                               monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert usage_line(err, _command(argv)).startswith(message)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, dest, value", [
    (SIM + ["--max-steps", "1"], "max_steps", 1),
    (RTL + ["--fifo-depth", "1", "--stall", "0"], "fifo_depth", 1),
    (RTL + ["--stall", str(2**31 - 1)], "stall", 2**31 - 1),
    (["verify", IN, "--bmc-k", "0", "--timeout", "0.5"], "bmc_k", 0),
    (["verify", IN, "--rtl", "--rtl-bound", "0", "--rtl-depth", "0"], "rtl_depth", 0),
    (MESH + ["--rows", "64", "--cols", "1", "--extmem", "0", "--tracks", "4"], "rows", 64),
    (MAP + ["--seed", "0", "--budget", "0.1"], "budget", 0.1),
])
def test_the_bounds_themselves_are_accepted(argv: list[str], dest: str, value) -> None:
    args = build_parser().parse_args(argv)
    _check_option_needs(args)
    assert getattr(args, dest) == value


NEEDS = [
    (SIM + ["--stall", "3"], "sim", "--stall needs --rtl"),
    (SIM + ["--fifo-depth", "4"], "sim", "--fifo-depth needs --rtl"),
    (SIM + ["--max-join-fanin", "3"], "sim", "--max-join-fanin needs --lower or --rtl"),
    (SIM + ["--no-rar"], "sim", "--no-rar needs --lower or --rtl"),
    (RTL + ["--max-steps", "100"], "sim", "--max-steps has no effect with --rtl"),
    (["verify", IN, "--rtl-bound", "3"], "verify", "--rtl-bound needs --rtl"),
    (["verify", IN, "--rtl-depth", "3"], "verify", "--rtl-depth needs --rtl"),
    (["verify", IN, "--rtl-prove"], "verify", "--rtl-prove needs --rtl"),
    (["verify", IN, "--rtl-timeout", "60"], "verify", "--rtl-timeout needs --rtl"),
    (["verify", IN, "--seed", "3"], "verify", "--seed needs --adg"),
    (MAP + ["--check-only", "--seed", "3"], "map", "--seed has no effect with --check-only"),
    (MAP + ["--check-only", "--budget", "3"], "map", "--budget has no effect with --check-only"),
]


@pytest.mark.parametrize("argv, command, message", NEEDS, ids=[m for _, _, m in NEEDS])
def test_an_option_that_would_be_ignored_is_a_usage_error(argv: list[str], command: str,
                                                          message: str) -> None:
    code, out, err = run(*argv)
    assert code == 2 and out == ""
    assert usage_line(err, command) == message


@pytest.mark.parametrize("argv", [
    SIM + ["--lower", "--max-join-fanin", "3", "--no-rar", "--max-steps", "5"],
    RTL + ["--stall", "3", "--fifo-depth", "4", "--max-join-fanin", "3", "--no-rar"],
    ["verify", IN, "--rtl", "--rtl-bound", "3", "--rtl-depth", "0", "--rtl-prove"],
    ["verify", IN, "--adg", ADG, "--seed", "3"],
    MAP + ["--seed", "3", "--budget", "2"],
    MAP + ["--check-only"],
])
def test_the_same_options_with_what_they_need_are_accepted(argv: list[str]) -> None:
    _check_option_needs(build_parser().parse_args(argv))


def test_a_non_positive_step_limit_no_longer_reaches_the_run(tmp_path) -> None:
    """--max-steps 0 was accepted and then failed at run time (RT_STEP_LIMIT, exit 1)."""
    src, inputs = tmp_path / "k.mlir", tmp_path / "in.json"
    src.write_text("func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n")
    inputs.write_text('{"a": 1}')
    code, out, err = run("sim", str(src), "--inputs", str(inputs), "--max-steps", "0")
    assert code == 2 and out == "" and "RT_STEP_LIMIT" not in err
    assert run("sim", str(src), "--inputs", str(inputs), "--max-steps", "1")[0] == 0
