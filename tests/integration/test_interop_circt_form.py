"""``compile --circt`` on a kernel with multi-dimensional local memories: they become 1-D (CIRCT's rule)
with row-major linear addresses computed before each access, and the result still simulates, verifies,
and passes CIRCT's fork/sink materialization unchanged."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from loom.cli import main
from loom.mlir import parse_file

KERNEL = """
memref.global "private" constant @tab : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
func.func @f(%i: index, %j: index) -> i32 {
  %t = memref.get_global @tab : memref<2x3xi32>
  %v = memref.load %t[%i, %j] : memref<2x3xi32>
  %a = memref.alloc() : memref<2x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %v, %a[%c1, %c0] : memref<2x2xi32>
  %w = memref.load %a[%c1, %c0] : memref<2x2xi32>
  %s = arith.addi %w, %v : i32
  return %s : i32
}
"""


def run(*argv: str) -> tuple[int, str, str]:
    """``loom`` in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_multidimensional_memories_are_flattened_and_behave_the_same(tmp_path: Path) -> None:
    src = tmp_path / "k.scf.mlir"
    src.write_text(KERNEL)
    assert run("compile", str(src), "--circt", "-o", str(tmp_path / "c"))[0] == 0
    dfg = tmp_path / "c" / "k.dfg.mlir"
    mems = [op for op in parse_file(dfg).functions()[0].regions[0].entry.ops if op.name == "handshake.memory"]
    assert len(mems) == 2 and all(op.attributes["memRefType"].type.rank == 1 for op in mems)
    for i in range(2):
        for j in range(3):
            inputs = tmp_path / "in.json"
            inputs.write_text(json.dumps({"i": i, "j": j}))
            code, out, err = run("sim", str(dfg), "--inputs", str(inputs), "--json")
            assert code == 0, err
            assert json.loads(out)["results"] == [2 * (3 * i + j + 1)]
    code, out, err = run("verify", "-q", str(dfg), "--assume", "0 <= i <= 1 && 0 <= j <= 2")  # tab's indices
    assert code == 0, out + err


def test_circt_materializes_the_flattened_form(tmp_path: Path) -> None:
    import circt
    import circt.ir as ir
    from circt.passmanager import PassManager

    src = tmp_path / "k.scf.mlir"
    src.write_text(KERNEL)
    assert run("compile", str(src), "--circt", "--generic", "-o", str(tmp_path))[0] == 0
    with ir.Context() as ctx:
        circt.register_dialects(ctx)
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse((tmp_path / "k.dfg.mlir").read_text())
        assert module.operation.verify()
        before = str(module)
        PassManager.parse("builtin.module(handshake.func(handshake-materialize-forks-sinks))").run(module.operation)
        assert module.operation.verify()
        assert str(module).count("handshake.fork") == before.count("handshake.fork")
