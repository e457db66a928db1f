"""Op definitions (custom syntax + verifier) for func, arith, math, ub, scf, memref, handshake, dataflow.

    verify_module(module) -> None   # raises VerifyError with location and code
"""

from loom.dialects.verify import verify_module

__all__ = ["verify_module"]
