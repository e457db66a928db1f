"""Formal checking of an emitted design with SymbiYosys: the projects (``sby``), the bounded depths
(``depth``), the reference environment of whole runs (``refenv``), the whole-run monitor (``liveness``), the
helper invariants that make the monitors k-inductive (``invariants``), and ``loom verify --rtl`` (``verify``).
"""
