"""Token-level simulator of handshake.func dataflow graphs, driven only by the operator tables."""

from loom.sim.engine import simulate
from loom.sim.result import SimResult

__all__ = ["SimResult", "simulate"]
