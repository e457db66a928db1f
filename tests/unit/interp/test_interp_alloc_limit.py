"""An allocation larger than the interpreter can hold is a runtime error, never a MemoryError.

A safety witness may ask for ``n = -2`` in ``int v[n + 1]`` (2^32 elements once zero-extended): the replay must
stop with ``RT_ALLOC_LIMIT`` (C's malloc would return NULL), so the checker goes on instead of crashing.
"""

from __future__ import annotations

from loom.interp import run_json
from loom.mlir import parse_text

TEXT = """func.func @f(%n: index) -> index {
  %b = memref.alloc(%n) : memref<?xi32>
  %c0 = arith.constant 0 : index
  %d = memref.dim %b, %c0 : memref<?xi32>
  func.return %d : index
}
"""


def test_huge_allocation_is_a_runtime_error():
    module = parse_text(TEXT)
    small = run_json(module, "f", {"n": 3})
    assert small.status == "completed" and list(small.results) == [3]
    big = run_json(module, "f", {"n": 1 << 32})
    assert big.status == "error" and big.error.code == "RT_ALLOC_LIMIT", big.error
    assert "more than the interpreter holds" in big.error.message
