"""Token-level simulator of handshake.func dataflow graphs, driven only by the operator tables."""

from loom.sim.engine import Prepared, prepare, simulate
from loom.sim.result import SimResult

__all__ = ["Prepared", "SimResult", "prepare", "simulate"]
