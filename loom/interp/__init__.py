"""The SCF reference interpreter: source semantics of func/scf/arith/math/memref, the oracle for the DFG."""

from loom.interp import cfg, ops_core, ops_memref, ops_scf  # noqa: F401  (register the op handlers)
from loom.interp.compiler import HANDLERS  # noqa: F401
from loom.interp.interpreter import DEFAULT_MAX_STEPS, InterpResult, find_function, interpret, run_json  # noqa: F401
