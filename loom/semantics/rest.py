"""Which tokens a finished run may leave: those that re-arm a primed buffer for the next invocation.

A CIRCT circuit keeps loop state in buffers with ``initValues``; when its loop exits it hands the buffer
(and so the forks and channels behind it) a token again, ready for the next run, exactly as in its
reset state. Such a token is not left over. ``rearm_allowance(v)`` is how many tokens a channel carrying
``v`` may hold at the end without being residual: the initial token count (from the table) of the
primed buffer that ``v`` copies through forks/br/plain buffers, else 0. The simulator and both BMCs
subtract it, so they agree; everything else left is residual as before.
"""

from __future__ import annotations

from loom.ir.core import OpResult, Value
from loom.semantics.build import machine_for
from loom.semantics.handshake_ops import copied_value, initial_tokens


def rearm_allowance(v: Value) -> int:
    """Tokens a channel of ``v`` may keep at the end of a run: a copied primed buffer's initial count."""
    root = copied_value(v)
    if not isinstance(root, OpResult) or root.op.name != "handshake.buffer":
        return 0
    return initial_tokens(machine_for(root.op))
