"""The public parse entry points: whole texts, files and ``// -----`` splits."""

from __future__ import annotations

import re
from pathlib import Path

from loom.diagnostics import LoomError, ParseError
from loom.dialects.verify import verify_module
from loom.ir.core import Module
from loom.mlir.parser import parse_module_text

_SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)


def parse_text(text: str, filename: str = "<string>", verify: bool = True) -> Module:
    """Parse ``text`` as one module; raises ParseError/VerifyError (never anything else)."""
    module = parse_module_text(text, filename)
    if verify:
        verify_module(module)
    return module


def parse_file(path: str | Path, verify: bool = True) -> Module:
    """Parse the file at ``path`` (its name is used in locations; ``-`` is standard input, ``<stdin>``)."""
    from loom.sourcefile import read_text
    from loom.stdin import display_name

    try:
        text = read_text(Path(path))
    except LoomError as e:
        raise ParseError(e.message, e.loc, e.code) from None
    return parse_text(text, display_name(path), verify)


def parse_splits(text: str, filename: str, verify: bool = True) -> list[Module]:
    """One module per chunk between ``// -----`` lines; line numbers stay those of the file."""
    modules = []
    start = 0
    line = 1
    for m in _SPLIT.finditer(text):
        chunk = text[start : m.start()]
        modules.append(parse_text("\n" * (line - 1) + chunk, filename, verify))
        line += text.count("\n", start, m.end())
        start = m.end()
    modules.append(parse_text("\n" * (line - 1) + text[start:], filename, verify))
    return modules
