"""loom: a verified compiler from MLIR SCF loop kernels to dataflow graphs."""

__version__ = "0.1.0"
