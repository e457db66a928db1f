"""The registry of ``loom verify``'s checkers: their names, in report order, and the module of each.

``load`` imports a checker's module and takes its ``CHECKER``; a module that cannot be imported (or has no
checker) is a ``LoomError`` with code ``VERIFY_CHECKER_IMPORT`` -- a broken installation must fail loudly, not
read as an ``unknown`` verdict. The order here is the order of a report's obligations.
"""

from __future__ import annotations

import importlib
from typing import Optional, Sequence

from loom.diagnostics import LoomError
from loom.ir.location import Location
from loom.verify.checkers.base import Checker

ENTRIES: tuple[tuple[str, str], ...] = (
    ("lemmas", "loom.verify.checkers.lemmas"),
    ("lengths", "loom.verify.checkers.lengths"),
    ("structure", "loom.verify.checkers.structure"),
    ("memory", "loom.verify.checkers.memory"),
    ("refine", "loom.verify.checkers.refine"),
    ("safety", "loom.verify.checkers.safety"),
    ("bmc", "loom.verify.checkers.bmc"),
)
IMPORT_ERROR = "VERIFY_CHECKER_IMPORT"


def names() -> tuple[str, ...]:
    """Every checker's name, in report order."""
    return tuple(n for n, _ in ENTRIES)


def load(name: str, module: str, loc: Optional[Location] = None) -> Checker:
    """The checker ``name`` that ``module`` defines (its ``CHECKER``), or a ``LoomError`` located at ``loc``
    (the function being verified)."""
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        raise LoomError(f"checker '{name}' cannot be loaded: {type(e).__name__}: {e}", loc, IMPORT_ERROR) from None
    checker = getattr(mod, "CHECKER", None)
    if checker is None or getattr(checker, "name", None) != name:
        raise LoomError(f"checker '{name}' cannot be loaded: {module} defines no CHECKER named '{name}'", loc,
                        IMPORT_ERROR)
    return checker


def checkers(wanted: Optional[Sequence[str]] = None, loc: Optional[Location] = None) -> list[Checker]:
    """The registered checkers (those named in ``wanted``, when given), loaded, in report order."""
    if wanted is not None:
        unknown = sorted(set(wanted) - set(names()))
        if unknown:
            raise ValueError(f"no checker named {', '.join(unknown)} (checkers: {', '.join(names())})")
    return [load(n, m, loc) for n, m in ENTRIES if wanted is None or n in wanted]
