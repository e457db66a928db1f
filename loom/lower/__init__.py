"""SCF -> DFG lowering (``loom compile``): scf.for/while/if + memref + arith to handshake + dataflow.

The rules, the zero-trip decision and the token count of every channel class
are stated in specs/lowering.md.
"""

from loom.lower.function import lower_function, lower_module, structured_kernel
from loom.lower.legalize import legalize_join_fanin
from loom.lower.options import LowerOptions

__all__ = ["LowerOptions", "legalize_join_fanin", "lower_function", "lower_module", "structured_kernel"]
