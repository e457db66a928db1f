"""The C front end: ``kernel.c`` -> LLVM IR -> CF MLIR -> SCF MLIR, each stage an artifact loom reads back.

clang (the pinned PyPI ``ziglang`` wheel) gives C its semantics; llvmlite reads and transforms the LLVM IR;
``to_cf`` builds loom's CF stage, ``lift_cf`` raises it to scf.while/scf.if and ``raise_for`` recognises
counted loops as scf.for. specs/frontend-c.md has the rules.
"""

from loom.frontend.c.driver import CArtifacts, compile_c, is_c_file

__all__ = ["CArtifacts", "compile_c", "is_c_file"]
