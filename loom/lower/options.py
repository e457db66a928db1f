"""User-facing knobs of ``loom compile`` (SCF -> DFG lowering)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class LowerOptions:
    """Options of the lowering.

    ``rar``: issue consecutive loads of one memory domain in parallel (fork the
    control token, join the done tokens); ``False`` keeps every access serial.
    ``max_join_fanin``: when set, every ``handshake.join`` wider than this is
    rewritten into a tree of joins no wider than it (see ``legalize_join_fanin``).
    """

    rar: bool = True
    max_join_fanin: Optional[int] = None
