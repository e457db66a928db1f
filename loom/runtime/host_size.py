"""The buffers a DFG's host allocates, read from the ``loom.host_size`` attribute of their arguments.

A kernel's dynamically sized ``malloc``/``calloc``/VLA becomes a trailing memref argument of its DFG
(``loom/lower/host_alloc.py``), and the argument records how big the host makes it: ``{loom.host_size =
"func.func @tmp_size(%n: i32) -> index { ... }"}``, the kernel's own size ops as a function of the arguments
they read, one ``index`` result per dynamic dimension. ``loom sim`` (token and ``--rtl``) allocates such a
buffer when the inputs omit it, and ``loom verify`` assumes its length is exactly that size.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Any, Optional

from loom.diagnostics import LoomError
from loom.ir.attributes import ArrayAttr, DictAttr, StringAttr
from loom.ir.core import Module, Operation
from loom.ir.types import FloatType, MemRefType

SIZE_ATTR = "loom.host_size"
ATTRIBUTE = "CPL_IR_ATTRIBUTE"


@dataclass(frozen=True)
class HostSize:
    """One host-allocated argument: its name, type, the size function's text, and that function parsed."""

    name: str
    type: MemRefType
    text: str
    module: Module
    params: tuple[str, ...]

    @property
    def func(self) -> Operation:
        """The ``func.func`` computing the dynamic sizes."""
        return self.module.functions()[0]

    def sizes(self, scalars: dict[str, Any]) -> Optional[list[int]]:
        """The buffer's shape for argument values ``scalars`` (JSON values by name), or None when a parameter it
        reads has no value or the size ops fault (a division by zero: a path the kernel does not take)."""
        from loom.interp import run_json

        if any(p not in scalars for p in self.params):
            return None
        try:
            r = run_json(self.module, self.func.attributes["sym_name"].value, {p: scalars[p] for p in self.params})
        except LoomError:
            return None
        if r.status != "completed":
            return None
        got = iter(_signed64(int(v)) for v in r.results)
        return [next(got) if d is None else d for d in self.type.shape]


def host_sizes(func: Operation) -> list[HostSize]:
    """The arguments of ``func`` (a handshake.func or func.func) that carry ``loom.host_size``, in order; a
    malformed one is a located ``CPL_IR_ATTRIBUTE`` error."""
    from loom.mlir import parse_text
    from loom.runtime.io import function_arg_names

    attrs = func.attributes.get("arg_attrs")
    if not isinstance(attrs, ArrayAttr) or not func.regions or not func.regions[0].blocks:
        return []
    out = []
    names = function_arg_names(func)
    for name, arg, d in zip(names, func.regions[0].entry.args, attrs.elements):
        a = d.get(SIZE_ATTR) if isinstance(d, DictAttr) else None
        if a is None:
            continue
        if not isinstance(a, StringAttr) or not isinstance(arg.type, MemRefType):
            raise LoomError(f"{SIZE_ATTR} of %{name} must be a string on a memref argument", func.loc, ATTRIBUTE)
        try:
            module = parse_text(a.value, f"<{SIZE_ATTR} of %{name}>")
        except LoomError as e:
            raise LoomError(f"{SIZE_ATTR} of %{name} is not a size function: {e.message}", func.loc,
                            ATTRIBUTE) from None
        fs = module.functions()
        dyn = sum(d is None for d in arg.type.shape)
        ftype = fs[0].attributes.get("function_type") if len(fs) == 1 else None
        if ftype is None or len(ftype.type.results) != dyn or any(str(t) != "index" for t in ftype.type.results):
            raise LoomError(f"{SIZE_ATTR} of %{name} must be one func.func returning one index per dynamic "
                            f"dimension of {arg.type}", func.loc, ATTRIBUTE)
        params = tuple(function_arg_names(fs[0]))
        known = dict(zip(names, (x.type for x in func.regions[0].entry.args)))
        for p, t in zip(params, ftype.type.inputs):
            if known.get(p) != t:
                raise LoomError(f"{SIZE_ATTR} of %{name} reads %{p}: {t}, which is no argument of the function",
                                func.loc, ATTRIBUTE)
        out.append(HostSize(name, arg.type, a.value, module, params))
    return out


def allocate_missing(func: Operation, raw: Any) -> tuple[Any, list[str]]:
    """``raw`` (an inputs JSON object) with every host buffer it omits allocated: zeros of the size its
    ``loom.host_size`` gives on these inputs (a size that cannot be computed, or is negative, is 0 elements).
    Zeros for a ``malloc`` too: its contents are indeterminate, so a defined kernel never reads them before it
    writes (any contents are right), and ``calloc``'s zeros are stores of the kernel itself. A size beyond
    ``loom.interp.ops_memref.MAX_ALLOC``, the most one allocation of a loom run holds (``malloc((size_t)n * 4)``
    with ``n < 0`` asks for about 2^62), is one no host allocates: ``malloc`` returns NULL, so the buffer is
    empty and any access faults as C's would. Also the names added."""
    from loom.interp.ops_memref import MAX_ALLOC

    if not isinstance(raw, dict):
        return raw, []
    missing = [h for h in host_sizes(func) if h.name not in raw]
    if not missing:
        return raw, []
    out = dict(raw)
    for h in missing:
        shape = [max(s, 0) for s in (h.sizes(raw) or [0 if d is None else d for d in h.type.shape])]
        if prod(shape) > MAX_ALLOC:
            shape = [0 if d is None else d for d in h.type.shape]
        out[h.name] = _zeros(shape, 0.0 if isinstance(h.type.element, FloatType) else 0)
    return out, [h.name for h in missing]


def _zeros(shape: list[int], zero: Any) -> Any:
    if not shape:
        return zero
    return [_zeros(shape[1:], zero) for _ in range(shape[0])] if len(shape) > 1 else [zero] * shape[0]


def _signed64(v: int) -> int:
    """An ``index`` result read as signed (the interpreter's own sizes are: a negative one is no size)."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v
