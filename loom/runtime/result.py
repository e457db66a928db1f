"""The ``loom sim --json`` document, built one way for the interpreter and the simulator.

Key order and encodings are fixed here so both engines print byte-identical JSON
for the same program run (../shared/DESIGN.md "Simulation I/O").
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from loom.diagnostics import LoomError
from loom.ir.core import Operation
from loom.ir.types import FunctionType, MemRefType, NoneType, Type
from loom.runtime.io import encode_memref, encode_value, function_arg_names, _encode_untyped
from loom.runtime.memory import MemRefView

STATUSES = ("completed", "deadlock", "error")


def format_error(error: Any) -> Optional[str]:
    """``"CODE message (at file:line:col)"`` for a LoomError, the text itself for a string, else None."""
    if error is None:
        return None
    if isinstance(error, LoomError):
        msg = " ".join(error.message.split())
        text = f"{error.code} {msg}" if error.code else msg
        if error.loc is not None and error.loc.line > 0:
            text += f" (at {error.loc})"
        return text
    return " ".join(str(error).split())


def _result_types(func: Optional[Operation], n: int) -> Optional[list[Type]]:
    if func is None:
        return None
    ft = func.attributes.get("function_type")
    ftype = getattr(ft, "type", None)
    if not isinstance(ftype, FunctionType):
        return None
    types = list(ftype.results)
    if len(types) == n:
        return types
    data = [t for t in types if not isinstance(t, NoneType)]
    return data if len(data) == n else None


def _arg_types(func: Optional[Operation]) -> dict[str, Type]:
    if func is None or not func.regions or not func.regions[0].blocks:
        return {}
    args = func.regions[0].entry.args
    return {name: a.type for name, a in zip(function_arg_names(func), args)}


def run_result_json(status: str, results: Sequence[Any], memrefs: Mapping[str, Any],
                    residual_tokens: Optional[int], channels: Optional[Mapping[str, int]], error: Any,
                    *, func: Optional[Operation] = None,
                    result_types: Optional[Sequence[Type]] = None) -> dict:
    """The ../shared/DESIGN.md run document with keys in fixed order.

    ``results`` and ``memrefs`` hold runtime values (memrefs as MemRefView or a flat
    list of elements); ``func`` (or ``result_types``) gives the types used to encode them.
    A result list longer than the function's data results has its none tokens dropped.
    ``residual_tokens``/``channels`` are None for the interpreter (printed 0 and {}).
    """
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
    results = list(results)
    types = list(result_types) if result_types is not None else _result_types(func, len(results))
    if types is not None and len(types) == len(results):
        pairs = [(v, t) for v, t in zip(results, types) if not isinstance(t, NoneType)]
        enc_results = [encode_value(v, t) for v, t in pairs]
    else:
        enc_results = [_encode_untyped(v) for v in results if v is not None]
    arg_types = _arg_types(func)
    enc_memrefs: dict[str, list] = {}
    for name, m in memrefs.items():
        if isinstance(m, MemRefView):
            enc_memrefs[name] = encode_memref(m)
        else:
            t = arg_types.get(name)
            elem = t.element if isinstance(t, MemRefType) else None
            enc_memrefs[name] = [encode_value(x, elem) if elem is not None else _encode_untyped(x) for x in m]
    return {
        "status": status,
        "results": enc_results,
        "memrefs": enc_memrefs,
        "residual_tokens": int(residual_tokens or 0),
        "channels": dict(channels or {}),
        "error": format_error(error),
    }
