"""Fuzzing the CLI in-process (issue 12): whatever the arguments and file contents, ``main()`` returns
0-3 without raising, and a bad input (exit 2) gives exactly one located error line with a code."""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.cli import main

from support.paths import DATA

DATA = DATA / "circt"
SEED_MLIR = (DATA / "source_constant.mlir").read_text()
SCF = "func.func @f(%a: i32, %n: index) -> i32 {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n" \
      "  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (i32) {\n    %y = arith.addi %x, %x : i32\n" \
      "    scf.yield %y : i32\n  }\n  return %r : i32\n}\n"
LOCATED = re.compile(r"^(?!<unknown>)\S.*?(:\d+:\d+)?: error: \[[A-Z][A-Z0-9_]+\] \S")


def _mutate(text: str, data: st.DataObject) -> bytes:
    raw = bytearray(text.encode())
    for _ in range(data.draw(st.sampled_from([0, 0, 0, 1, 2, 4]), label="edits")):
        kind = data.draw(st.sampled_from(["cut", "flip", "insert", "dup"]), label="kind")
        if not raw:
            break
        at = data.draw(st.integers(0, len(raw) - 1), label="at")
        if kind == "cut":
            del raw[at:]
        elif kind == "flip":
            raw[at] = data.draw(st.integers(0, 255), label="byte")
        elif kind == "insert":
            raw[at:at] = data.draw(st.sampled_from([b"{", b"}", b"(", b"%", b"[" * 400, b"\xff", b"@x", b"\n^bb1:"]))
        else:
            raw[at:at] = raw[at: at + 40]
    return bytes(raw)


GOOD_INPUTS = {SEED_MLIR: b'{"x": 2, "y": 3}', SCF: b'{"a": 1, "n": 3}'}
BAD_INPUTS = st.one_of(
    st.sampled_from([b"", b"{", b"[]", b'{"a": 1e999}', b'{"a": 18446744073709551616}', b'{"a": "x"}',
                     b"\xfe\xff", b"[" * 5000, b'{"a": 1, "n": -1}', b'{"a": true, "n": 2}', b'{"zz": 1}']),
    st.binary(max_size=40),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_cli_never_raises_and_bad_input_is_one_located_line(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        seed = data.draw(st.sampled_from([SEED_MLIR, SCF]), label="seed")
        src = tmp / ("k.scf.mlir" if seed is SCF else "k.mlir")
        src.write_bytes(_mutate(seed, data))
        inputs = tmp / "in.json"
        good = data.draw(st.booleans(), label="good inputs")
        inputs.write_bytes(GOOD_INPUTS[seed] if good else data.draw(BAD_INPUTS, label="inputs"))
        (tmp / "file").write_text("x")
        path = st.sampled_from([str(tmp / "out")] * 3 + [str(src), str(tmp), str(tmp / "file"),
                                                         str(tmp / "file" / "under")])
        cmd = data.draw(st.sampled_from(["sim", "verify", "compile"] * 3 + ["bogus"]), label="cmd")
        argv = [cmd, data.draw(st.sampled_from([str(src)] * 4 + [str(tmp / "missing.mlir"), str(tmp)]))]
        if cmd == "compile":
            argv += ["-o", data.draw(path, label="out")]
            argv += data.draw(st.sampled_from([[], ["--generic"], ["--func", "nope"], [str(src)]]), label="extra")
        elif cmd == "sim":
            argv += ["--inputs", data.draw(st.sampled_from([str(inputs), str(inputs), str(tmp)]), label="in")]
            argv += data.draw(st.sampled_from([[], [], ["--json"], ["--max-steps", "50"], ["--lower"], ["--max-steps", "x"]]))
        elif cmd == "verify":
            argv += ["-q", "--bmc-k", "1"]
            argv += data.draw(st.sampled_from([[], [], ["--junit", str(tmp / "r.xml")], ["--junit", str(tmp)],
                                               ["--sarif", str(tmp / "file" / "s")],
                                               ["--emit-smt2", str(tmp / "file")], ["--json"], ["--timeout", "-1"]]))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        assert code in (0, 1, 2, 3), (argv, code)
        assert "Traceback" not in err.getvalue()
        if code == 2:
            errors = [line for line in err.getvalue().splitlines() if ": error: " in line]
            assert len(errors) == 1, (argv, err.getvalue())
            assert LOCATED.match(errors[0]), (argv, errors[0])
