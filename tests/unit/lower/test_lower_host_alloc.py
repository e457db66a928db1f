"""Dynamically sized allocations the host makes (loom/lower/host_alloc.py): which ones, their sizes, the DFG's
trailing arguments."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.lower import lower_module
from loom.lower.host_alloc import buffer_shapes, host_buffers, with_host_buffers
from loom.mlir import parse_text

KERNEL = """
func.func @k(%a: memref<?xi32>, %n: index, %m: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %sz = arith.muli %n, %m : index
  %once = memref.alloc(%sz) : memref<?xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (i32) {
    %each = memref.alloc(%m) : memref<?x2xi32>
    %v = memref.load %a[%i] : memref<?xi32>
    memref.store %v, %once[%i] : memref<?xi32>
    memref.store %v, %each[%c0, %c1] : memref<?x2xi32>
    %w = memref.load %each[%c0, %c1] : memref<?x2xi32>
    %s2 = arith.addi %s, %w : i32
    scf.yield %s2 : i32
  }
  return %r : i32
}
"""


def _func(text: str):
    module = parse_text(text)
    return module, next(f for f in module.functions() if f.name == "func.func")


def test_sizes_from_arguments_become_trailing_arguments():
    """Both allocations have sizes pure ops of the arguments give; the one in the loop never leaves its
    iteration, so one host buffer serves every iteration. The DFG takes both, after the source arguments."""
    module, func = _func(KERNEL)
    assert [(b.name, str(b.type)) for b in host_buffers(func)] == [("once", "memref<?xi32>"),
                                                                   ("each", "memref<?x2xi32>")]
    assert buffer_shapes(func, {"a": [1, 2, 3], "n": 3, "m": 4}) == {"once": [12], "each": [4, 2]}
    moved = with_host_buffers(func)
    assert moved is not func and not any(o.name == "memref.alloc" for o in moved.walk())
    assert any(o.name == "memref.alloc" for o in func.walk())  # the source function is left as it was
    dfg = lower_module(module, "k")
    hs = next(f for f in dfg.functions() if f.name == "handshake.func")
    assert [a.value for a in hs.attributes["argNames"].elements] == ["a", "n", "m", "once", "each", "start_token"]


@pytest.mark.parametrize("change", ["load", "escape"])
def test_other_dynamic_allocations_stay_refused(change):
    """A size that needs a load, or a buffer a loop carries to the next iteration, is no host buffer: the
    lowering still refuses the dynamic allocation."""
    if change == "load":
        text = KERNEL.replace("%sz = arith.muli %n, %m : index",
                              "%sz0 = memref.load %a[%c0] : memref<?xi32>\n  %sz = arith.index_cast %sz0 : i32 to index")
    else:
        text = """
func.func @k(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.alloc(%n) : memref<?xi32>
  %r, %last = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0, %prev = %first) -> (index, memref<?xi32>) {
    %buf = memref.alloc(%n) : memref<?xi32>
    scf.yield %i, %buf : index, memref<?xi32>
  }
  return %r : index
}
"""
    module, func = _func(text)
    names = [b.name for b in host_buffers(func)]
    assert names == (["each"] if change == "load" else ["first"])
    with pytest.raises(LoomError) as e:
        lower_module(module, "k")
    assert e.value.code == "CPL_LOWER_UNSUPPORTED"
