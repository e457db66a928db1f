"""Which function of a module is the kernel: one rule for compile, sim, verify, hdl, map and the lowering.

``--func NAME`` picks the function of that name; without it, the one public function with a body of the
kind the command needs is the kernel (private helpers and declarations are not candidates unless nothing
else is). Every miss is one coded error: ``CPL_FUNC_NOT_FOUND``, ``CPL_FUNC_AMBIGUOUS`` or
``CPL_FUNC_DECLARATION`` (a declaration has nothing to run).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from loom.diagnostics import LoomError
from loom.ir.core import Module, Operation, is_declaration
from loom.ir.location import Location

NOT_FOUND = "CPL_FUNC_NOT_FOUND"
AMBIGUOUS = "CPL_FUNC_AMBIGUOUS"
DECLARATION = "CPL_FUNC_DECLARATION"


def sym_name(func: Operation) -> str:
    """A function's symbol name ("" when it has none)."""
    a = func.attributes.get("sym_name")
    return getattr(a, "value", "") or ""


def _private(func: Operation) -> bool:
    return getattr(func.attributes.get("sym_visibility"), "value", "public") == "private"


def candidates(module: Module, kinds: Sequence[str]) -> list[Operation]:
    """The functions of ``kinds`` that may be the kernel: public ones with a body, else every one of ``kinds``."""
    funcs = [f for f in module.functions() if f.name in kinds]
    public = [f for f in funcs if not is_declaration(f) and not _private(f)]
    return public or funcs


def require_body(func: Operation) -> Operation:
    """``func`` itself, or ``CPL_FUNC_DECLARATION`` when it is an external declaration (valid, nothing to run)."""
    if is_declaration(func):
        raise LoomError(f"'@{sym_name(func)}' is an external declaration without a body: nothing to run",
                        loc=func.loc, code=DECLARATION)
    return func


def choose_function(module: Module, name: Optional[str], kinds: Sequence[str], loc: Location) -> Operation:
    """The kernel of ``module``: the function of ``kinds`` named ``name``, or the single candidate; errors at ``loc``."""
    if name is not None:
        for f in module.functions():
            if f.name in kinds and sym_name(f) == name:
                return require_body(f)
        names = ", ".join(sym_name(f) for f in module.functions() if f.name in kinds) or "none"
        raise LoomError(f"no function named '{name}' in the file ({' or '.join(kinds)}: {names})", loc=loc,
                        code=NOT_FOUND)
    funcs = candidates(module, kinds)
    if len(funcs) == 1:
        return require_body(funcs[0])
    if not funcs:
        raise LoomError(f"no {' or '.join(kinds)} in the file", loc=loc, code=NOT_FOUND)
    names = ", ".join(sym_name(f) for f in funcs)
    raise LoomError(f"several candidate functions ({names}); choose one with --func", loc=loc, code=AMBIGUOUS)
