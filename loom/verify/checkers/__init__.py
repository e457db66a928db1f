"""The checkers of ``loom verify`` as plugins: one ``Checker`` protocol, one module per checker, one registry.

A checker takes the function (a handshake.func), the run's ``VerifyContext`` and the function's shared
``Facts`` and returns its obligations -- the shape of xDSL's ``ModulePass`` and of SymbiYosys's engines. The
driver iterates over ``loom.verify.registry``; a checker module that cannot be imported is an error, never a
verdict.
"""

from loom.verify.checkers.base import Checker, Facts

__all__ = ["Checker", "Facts"]
