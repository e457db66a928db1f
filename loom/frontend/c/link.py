"""Several C files as one program: each file's external definitions, and a name two files define refused.

LLVM's linker (llvmlite's ``link_in``, in ``passes.py``) resolves a call of one file to another file's
function and renames clashing ``static`` names; a name with external linkage defined in two files would be
its "symbol multiply defined" failure without a location, so it is refused first, at the second definition,
naming both (C's one-definition rule, as the system linker would). The one exception is ``main`` when
several files define it (upstream's kernel files each carry a test ``main``): each is its own file's driver,
never a kernel of the program, so each becomes file-local (``static``) before linking and is dropped.
"""

from __future__ import annotations

import re
from pathlib import Path

from loom.diagnostics import LoomError
from loom.frontend.c import llvm_text as lt
from loom.ir.location import Location

DUPLICATE = "CPL_C_DUPLICATE"
# a definition with external linkage: no internal/private/linkonce/weak/available_externally keyword
_DEFINE = re.compile(r"^define (?!(?:internal|private|linkonce|linkonce_odr|weak|weak_odr|available_externally)\b)"
                     r"[^@\n]*@(\"[^\"]+\"|[\w.$]+)\(", re.M)
_GLOBAL = re.compile(r"^@(\"[^\"]+\"|[\w.$]+) = (?:dso_local )?(?:local_unnamed_addr |unnamed_addr )*"
                     r"(?:addrspace\(\d+\) )?(?:constant|global) ", re.M)
_DBG = re.compile(r"!dbg !(\d+)")


def external_definitions(text: str, given: str) -> dict[str, Location]:
    """The functions and variables ``text`` (one file's LLVM IR) defines with external linkage -> where."""
    lines = lt.debug_lines(text, (given,))
    out: dict[str, Location] = {}
    for pattern in (_DEFINE, _GLOBAL):
        for m in pattern.finditer(text):
            d = _DBG.search(text, m.end(), text.find("\n", m.end()) % (len(text) + 1))
            at = lines.get(int(d[1])) if d else None
            loc = Location(at[2] or given, at[0], at[1]) if at and at[0] > 0 else Location(given, 1, 1)
            out.setdefault(m[1].strip('"'), loc)
    return out


_MAIN = re.compile(r"^define (?:dso_local )?(?=[^@\n]*@main\()", re.M)


def local_mains(texts: list[str]) -> list[str]:
    """``texts`` with ``main`` made internal in each when two or more of them define it."""
    if sum(1 for t in texts if _MAIN.search(t)) < 2:
        return texts
    return [_MAIN.sub("define internal ", t) for t in texts]


def check_one_definition(paths: list[Path], texts: list[str]) -> None:
    """CPL_C_DUPLICATE at the second definition of an external name two of the files define."""
    first: dict[str, Location] = {}
    for path, text in zip(paths, texts):
        for name, loc in external_definitions(text, str(path)).items():
            if name in first:
                was = first[name]
                raise LoomError(f"'{name}' is defined in two files, here and at {was.file}:{was.line}:{was.col} "
                                "(a program defines each external name once: make one `static` or drop one)",
                                loc=loc, code=DUPLICATE)
            first[name] = loc
