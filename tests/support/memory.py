"""Small memory-ordering kernels and DFG surgery (swap two accesses on a domain's chain) shared by the verify tests."""

from __future__ import annotations

from loom.ir.core import Operation
from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_text
from loom.verify.memory.structure import memory_layout



LOOP = """
func.func @loop(%a: memref<8xi32>, %b: memref<8xi32>, %n: index, %x: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %a[%k] : memref<8xi32>
    memref.store %x, %a[%k] : memref<8xi32>
    memref.store %v, %b[%k] : memref<8xi32>
  }
  return
}
"""


def lowered(text: str, name: str = "t.scf.mlir") -> tuple[Operation, Operation, object]:
    """(handshake.func, source func.func, source module) of an SCF text."""
    m = parse_text(text, name)
    out = lower_module(m, None, LowerOptions())
    dfg = next(f for f in out.functions() if f.name == "handshake.func")
    src = next(f for f in m.functions() if f.name == "func.func")
    return dfg, src, m


def accesses(func: Operation, domain: str):
    lay = memory_layout(func)
    d = next(d for d in lay.domains if d.name == domain)
    return lay, d.accesses


def uses_of(func: Operation, v) -> list[tuple[Operation, int]]:
    return [(op, i) for op in func.regions[0].entry.ops for i, x in enumerate(op.operands) if x is v]


def swap_order(func: Operation, domain: str, first: str, second: str) -> None:
    """Make ``second`` run before ``first`` (they are consecutive on the domain's chain)."""
    _, accs = accesses(func, domain)
    x = next(a for a in accs if a.name == first)
    y = next(a for a in accs if a.name == second)
    assert y.ctrl is x.done, "the two accesses must be consecutive"
    cont = uses_of(func, y.done)
    cx = x.ctrl
    y.op.operands[-1] = cx
    x.op.operands[-1] = y.done
    for op, i in cont:
        op.operands[i] = x.done
