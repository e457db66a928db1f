"""Test support shared by loom's test suites and benchmarks.

* ``scf_builder.ScfBuilder``: build SCF functions (func/arith/memref/scf) in loom IR from Python.
* ``scf_gen.generate_program`` / ``scf_gen.scf_programs``: random, terminating, well-defined SCF
  kernels with inputs (a hypothesis strategy for the latter).
* ``differential.check_lowering`` / ``differential.token_counts``: SCF interpreter vs DFG simulation.
"""
