"""MLIR text front end: parse MLIR files into loom IR, print loom IR back as MLIR.

    parse_text(text, filename="<string>", verify=True) -> Module
    parse_file(path, verify=True) -> Module
    parse_splits(text, filename, verify=True) -> list[Module]     # on `// -----` lines
    print_module(module) -> str
    print_op(op) -> str
    value_names(func_op) -> dict[Value, str]
"""

from loom.mlir.api import parse_file, parse_splits, parse_text
from loom.mlir.names import value_names
from loom.mlir.printer import print_module, print_op

__all__ = ["parse_file", "parse_splits", "parse_text", "print_module", "print_op", "value_names"]
