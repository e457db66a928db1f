"""Simulation I/O (../shared/DESIGN.md "Simulation I/O"): inputs JSON -> runtime values, runtime values -> JSON.

Inputs: an object keyed by argument name without ``%``. Scalars are JSON numbers
(i1 also true/false; integers within the type's range: signed or unsigned reading; floats also
"nan"/"inf"/"-inf"); a memref is a list, nested for rank > 1 or flat row-major;
a dynamic dimension takes the list's extent. A key ``"@name"`` supplies the
contents of ``memref.global @name`` when the module gives it no initializer.
Bad inputs raise ``LoomError`` (CLI exit 2) naming the inputs file and key.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Optional, Sequence

from loom.diagnostics import LoomError, warn
from loom.ir.attributes import ArrayAttr, DenseElementsAttr, OpaqueAttr, StridedLayoutAttr, StringAttr, SymbolRefAttr, TypeAttr
from loom.ir.core import Module, Operation
from loom.ir.location import Location
from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType, NoneType, TaggedType, TupleType, Type
from loom.runtime.layout import affine_strides
from loom.runtime.memory import Buffer, MemRefView, row_major_strides
from loom.semantics.expr import TOKEN
from loom.semantics.scalar import mask, normalize, to_signed, unpack_tagged, width_of

INPUT_MISSING = "IO_INPUT_MISSING"
INPUT_EXTRA = "IO_INPUT_EXTRA"
INPUT_TYPE = "IO_INPUT_TYPE"
INPUT_SHAPE = "IO_INPUT_SHAPE"
INPUT_UNSUPPORTED = "IO_INPUT_UNSUPPORTED"
INPUT_UNSIGNED = "IO_INPUT_UNSIGNED"
INPUT_FLOAT_RANGE = "IO_INPUT_FLOAT_RANGE"  # warning: a finite number beyond its float type, read as infinity


# ----------------------------------------------------------------------------- locations


def _key_location(filename: str, key: Optional[str]) -> Location:
    """Where ``"key":`` first appears in the inputs file (1:1 when unknown)."""
    if key is not None:
        try:
            text = Path(filename).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
        if m:
            line = text.count("\n", 0, m.start()) + 1
            col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            return Location(filename, line, col)
    return Location(filename, 1, 1)


class _Ctx:
    """Error reporting context while decoding one input value."""

    def __init__(self, filename: str, key: str) -> None:
        self.filename = filename
        self.key = key
        self.warned = False

    def error(self, message: str, code: str = INPUT_TYPE) -> LoomError:
        return LoomError(f"input '{self.key}': {message}", _key_location(self.filename, self.key), code)


# ----------------------------------------------------------------------------- scalars


def integer_range(t: Type) -> tuple[int, int]:
    """The values an input of integer type ``t`` may take: its signed or its unsigned reading.

    ``siN`` takes the signed range, ``uiN`` the unsigned one; a signless ``iN``/``index`` takes either
    (real inputs give a C ``unsigned`` as i32), i.e. -2**(N-1) .. 2**N-1; ``i1`` also true/false.
    Anything outside would wrap silently (2**64 for i64 would become 0), so it is refused.
    """
    w = width_of(t)
    sign = t.signedness if isinstance(t, IntegerType) else ""
    lo = 0 if sign == "u" else -(1 << (w - 1))
    hi = (1 << (w - 1)) - 1 if sign == "s" else (1 << w) - 1
    return lo, hi


def _decode_scalar(raw: Any, t: Type, ctx: _Ctx, where: str = "") -> Any:
    at = f" at {where}" if where else ""
    if isinstance(t, (IntegerType, IndexType)):
        w = width_of(t)
        if isinstance(raw, bool):
            if w == 1:
                return 1 if raw else 0
            raise ctx.error(f"expected an integer for {t}{at}, got {_json_kind(raw)}")
        if not isinstance(raw, int):
            raise ctx.error(f"expected an integer for {t}{at}, got {_json_kind(raw)}")
        lo, hi = integer_range(t)
        if not lo <= raw <= hi:
            raise ctx.error(f"{raw}{at} is outside the range of {t} ({lo} .. {hi})")
        if w > 1 and raw >= 1 << (w - 1) and not ctx.warned and not (isinstance(t, IntegerType) and t.signedness):
            ctx.warned = True  # accepted as the unsigned reading; say so once per input, it prints back signed
            warn(f"input '{ctx.key}': {raw}{at} is above the signed range of {t}; it is read as the unsigned bit "
                 f"pattern and prints as {raw - (1 << w)}", _key_location(ctx.filename, ctx.key), INPUT_UNSIGNED)
        return mask(raw, w)
    if isinstance(t, FloatType):
        if isinstance(raw, str):
            special = {"nan": math.nan, "inf": math.inf, "+inf": math.inf, "-inf": -math.inf,
                       "-nan": -math.nan}.get(raw.lower())
            if special is None:
                raise ctx.error(f"expected a number or \"nan\"/\"inf\"/\"-inf\" for {t}{at}, got \"{raw}\"")
            return special
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise ctx.error(f"expected a number for {t}{at}, got {_json_kind(raw)}")
        value = normalize(raw, t)
        if math.isinf(value) and math.isfinite(raw):
            warn(f"input '{ctx.key}': {raw}{at} is beyond the range of {t}; it is read as {value} (write "
                 f"\"{'-' if value < 0 else ''}inf\" to mean infinity)", _key_location(ctx.filename, ctx.key),
                 INPUT_FLOAT_RANGE)
        return value
    raise ctx.error(f"arguments of type {t} are not supported", INPUT_UNSUPPORTED)


def _json_kind(raw: Any) -> str:
    if isinstance(raw, bool):
        return "a boolean"
    if isinstance(raw, (int, float)):
        return f"the number {raw}"
    if isinstance(raw, str):
        return "a string"
    if isinstance(raw, list):
        return "a list"
    if isinstance(raw, dict):
        return "an object"
    return "null"


# ----------------------------------------------------------------------------- memrefs


def _nested_shape(raw: Any, rank: int, ctx: _Ctx) -> tuple[list[int], list]:
    """(shape, flat values) of a nested list of depth ``rank``, checking it is rectangular."""
    if rank == 0:
        return [], [raw]
    if not isinstance(raw, list):
        raise ctx.error(f"expected a list nested {rank} deep, found {_json_kind(raw)}", INPUT_SHAPE)
    parts = [_nested_shape(x, rank - 1, ctx) for x in raw]
    inner = parts[0][0] if parts else [0] * (rank - 1)
    flat: list = []
    for i, (shape, values) in enumerate(parts):
        if shape != inner:
            raise ctx.error(f"ragged nested list: row {i} has shape {shape}, row 0 has {inner}", INPUT_SHAPE)
        flat.extend(values)
    return [len(raw)] + inner, flat


def _memref_shape(raw: Any, t: MemRefType, ctx: _Ctx) -> tuple[list[int], list]:
    rank = t.rank
    if rank == 0:
        if isinstance(raw, list):
            if len(raw) != 1:
                raise ctx.error(f"a rank-0 memref takes one value, got a list of {len(raw)}", INPUT_SHAPE)
            raw = raw[0]
        return [], [raw]
    if not isinstance(raw, list):
        raise ctx.error(f"expected a list for {t}, got {_json_kind(raw)}")
    if not raw:  # an empty list: the leading dimension is 0, the others keep their static size (or 0)
        shape = [0] + [s if s is not None else 0 for s in t.shape[1:]]
        if t.shape[0] not in (None, 0):
            raise ctx.error(f"dimension 0 of {t} is {t.shape[0]}, the list is empty", INPUT_SHAPE)
        return shape, []
    flat_given = rank > 1 and all(not isinstance(x, list) for x in raw)
    if not flat_given:
        shape, flat = _nested_shape(raw, rank, ctx)
        for d, (want, got) in enumerate(zip(t.shape, shape)):
            if want is not None and want != got:
                raise ctx.error(f"dimension {d} of {t} is {want}, the list gives {got}", INPUT_SHAPE)
        return shape, flat
    # Flat row-major list for a rank > 1 memref: at most one dynamic dimension, inferred.
    dynamic = [d for d, s in enumerate(t.shape) if s is None]
    static = 1
    for s in t.shape:
        static *= s if s is not None else 1
    if len(dynamic) > 1:
        raise ctx.error(f"a flat list cannot give the shape of {t} (several dynamic dimensions); "
                        "use nested lists", INPUT_SHAPE)
    shape = [s if s is not None else 0 for s in t.shape]
    if dynamic:
        if static == 0 or len(raw) % static:
            raise ctx.error(f"{len(raw)} values do not fill {t}", INPUT_SHAPE)
        shape[dynamic[0]] = len(raw) // static
    elif len(raw) != static:
        raise ctx.error(f"{t} holds {static} values, the list has {len(raw)}", INPUT_SHAPE)
    return shape, list(raw)


def _index_str(flat_pos: int, shape: Sequence[int]) -> str:
    idx = []
    for s in reversed(shape):
        idx.append(flat_pos % s if s else 0)
        flat_pos = flat_pos // s if s else 0
    return "[" + ", ".join(map(str, reversed(idx))) + "]"


def _decode_memref(raw: Any, t: MemRefType, ctx: _Ctx, name: str) -> MemRefView:
    shape, flat = _memref_shape(raw, t, ctx)
    values = [_decode_scalar(v, t.element, ctx, _index_str(i, shape)) for i, v in enumerate(flat)]
    offset, strides = 0, list(row_major_strides(shape))
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        if layout.offset is not None:
            offset = layout.offset
        for d, s in enumerate(layout.strides):
            if s is not None:
                if s < 0:
                    raise ctx.error(f"negative static stride in {t} is not supported", INPUT_UNSUPPORTED)
                strides[d] = s
    elif isinstance(layout, OpaqueAttr) and (strided := affine_strides(layout.text, shape)) is not None:
        offset, strides = strided[0], list(strided[1])
    elif layout is not None:
        raise ctx.error(f"memref layout {layout} is not supported for arguments (strided and "
                        "strided-equivalent affine-map layouts are)", INPUT_UNSUPPORTED)
    if offset == 0 and tuple(strides) == row_major_strides(shape):
        return MemRefView.from_flat(values, t.element, shape, name)
    # Honour a static offset/strides: a buffer large enough to hold every element.
    span = offset + 1 + sum((s - 1) * st for s, st in zip(shape, strides)) if values else offset
    view = MemRefView(Buffer([0.0 if isinstance(t.element, FloatType) else 0] * span, t.element, name),
                      offset, shape, strides)
    for p, v in zip(view.positions(), values):
        view.buffer.data[p] = v
    return view


# ----------------------------------------------------------------------------- entry points


def decode_value(raw: Any, t: Type, filename: str, key: str, warn_unsigned: bool = False) -> Any:
    """One input value of type ``t`` (a scalar or a memref) in runtime form; ``warn_unsigned`` (for JSON
    inputs, not already-decoded values) warns once when a signless integer is taken as its unsigned reading."""
    ctx = _Ctx(filename, key)
    ctx.warned = not warn_unsigned
    if isinstance(t, MemRefType):
        return _decode_memref(raw, t, ctx, key)
    if isinstance(t, TupleType):
        return _decode_tuple(raw, t, ctx, "")
    if isinstance(raw, (list, dict)):
        raise ctx.error(f"expected a scalar for {t}, got {_json_kind(raw)}")
    return _decode_scalar(raw, t, ctx)


def _decode_tuple(raw: Any, t: TupleType, ctx: _Ctx, where: str) -> tuple:
    """A tuple (handshake.pack/unpack) is a JSON list with one entry per element, nested tuples as nested lists
    and a none element as null (``encode_value`` prints it back the same way)."""
    at = f" at {where}" if where else ""
    if not isinstance(raw, (list, tuple)) or len(raw) != len(t.types):
        raise ctx.error(f"expected a list of {len(t.types)} element(s) for {t}{at}, got {_json_kind(raw)}")
    out: list[Any] = []
    for k, (x, et) in enumerate(zip(raw, t.types)):
        here = f"{where}[{k}]"
        if isinstance(et, TupleType):
            out.append(_decode_tuple(x, et, ctx, here))
        elif isinstance(et, NoneType):
            if x is not None:
                raise ctx.error(f"expected null for the none element at {here}, got {_json_kind(x)}")
            out.append(TOKEN)
        else:
            out.append(_decode_scalar(x, et, ctx, here))
    return tuple(out)


def function_arg_names(func: Operation) -> list[str]:
    """Argument names of a func.func (SSA names) or handshake.func (``argNames``), without ``%``."""
    args = func.regions[0].entry.args if func.regions and func.regions[0].blocks else []
    names_attr = func.attributes.get("argNames")
    if isinstance(names_attr, ArrayAttr) and all(isinstance(a, StringAttr) for a in names_attr.elements):
        names = [a.value for a in names_attr.elements]
        if len(names) == len(args):
            return names
        if len(names) == len(args) - 1:  # trailing start token without a name
            return names + [args[-1].name_hint or f"arg{len(args) - 1}"]
    return [a.name_hint or f"arg{i}" for i, a in enumerate(args)]


def global_types(module: Optional[Module]) -> dict[str, Type]:
    """Type of every memref global the module defines or reads through memref.get_global."""
    out: dict[str, Type] = {}
    if module is None:
        return out
    for op in module.walk():
        if op.name == "memref.global":
            sym, ty = op.attributes.get("sym_name"), op.attributes.get("type")
            if isinstance(sym, StringAttr) and isinstance(ty, TypeAttr):
                out[sym.value] = ty.type
        elif op.name == "memref.get_global":
            ref = op.attributes.get("name")
            if isinstance(ref, SymbolRefAttr) and op.results:
                out.setdefault(ref.root, op.results[0].type)
    return out


def decode_inputs(arg_names: Sequence[str], arg_types: Sequence[Type], json_obj: Any, filename: str,
                  module: Optional[Module] = None) -> dict[str, Any]:
    """Decode an inputs object into ``{arg name: runtime value}`` (plus ``"@global"`` entries).

    ``none``-typed arguments (a handshake start token) need no input and map to None.
    Keys ``"@name"`` are decoded against the module's global of that name.
    """
    if not isinstance(json_obj, dict):
        raise LoomError(f"inputs must be a JSON object keyed by argument name, got {_json_kind(json_obj)}",
                        Location(filename, 1, 1), INPUT_TYPE)
    out: dict[str, Any] = {}
    for name, t in zip(arg_names, arg_types):
        if isinstance(t, NoneType):
            out[name] = None
            continue
        if name not in json_obj:
            raise LoomError(f"no value for argument '{name}' of type {t}", Location(filename, 1, 1), INPUT_MISSING)
        out[name] = decode_value(json_obj[name], t, filename, name, warn_unsigned=True)
    globals_ = global_types(module)
    for key in json_obj:
        if key in out:
            continue
        if key.startswith("@"):
            gname = key[1:]
            if module is not None:
                if gname not in globals_:
                    raise LoomError(f"input '{key}' names no memref global of the module",
                                    _key_location(filename, key), INPUT_EXTRA)
                out[key] = decode_value(json_obj[key], globals_[gname], filename, key, warn_unsigned=True)
            else:
                out[key] = json_obj[key]
            continue
        expected = ", ".join(n for n, t in zip(arg_names, arg_types) if not isinstance(t, NoneType))
        raise LoomError(f"input '{key}' is not an argument of the function (arguments: {expected or 'none'})",
                        _key_location(filename, key), INPUT_EXTRA)
    return out


def global_view(module: Optional[Module], name: str, inputs: dict[str, Any], filename: str = "<inputs>",
                loc: Optional[Location] = None) -> MemRefView:
    """A fresh view of ``memref.global @name``: its initializer, else ``inputs["@name"]``.

    The caller keeps one view per name so every get_global aliases the same buffer.
    """
    op = None
    if module is not None:
        for o in module.walk():
            sym = o.attributes.get("sym_name")
            if o.name == "memref.global" and isinstance(sym, StringAttr) and sym.value == name:
                op = o
                break
    t: Optional[Type] = None
    constant = False
    if op is not None:
        ty = op.attributes.get("type")
        t = ty.type if isinstance(ty, TypeAttr) else None
        constant = "constant" in op.attributes
        init = op.attributes.get("initial_value")
        if isinstance(init, DenseElementsAttr) and isinstance(t, MemRefType):
            view = _view_from_dense(init, t, name, loc)
            view.buffer.readonly = constant
            return view
    if t is None:
        t = global_types(module).get(name)
    key = "@" + name
    if key in inputs:
        given = inputs[key]
        if isinstance(given, MemRefView):
            return given
        if not isinstance(t, MemRefType):
            raise LoomError(f"cannot tell the type of global @{name}", loc, INPUT_TYPE)
        return decode_value(given, t, filename, key)
    raise LoomError(f"memref.global @{name} has no initializer: give its contents in the inputs under \"{key}\"",
                    loc, INPUT_MISSING)


def _view_from_dense(init: DenseElementsAttr, t: MemRefType, name: str, loc: Optional[Location]) -> MemRefView:
    if any(s is None for s in t.shape):
        raise LoomError(f"global @{name} has a dynamic shape", loc, INPUT_UNSUPPORTED)
    n = 1
    for s in t.shape:
        n *= s
    raw = list(init.values) * n if init.splat else list(init.values)
    if len(raw) != n:
        raise LoomError(f"global @{name}: initializer has {len(raw)} values for {n} elements", loc, INPUT_SHAPE)
    values = [normalize(int(v) if isinstance(v, bool) else v, t.element) for v in raw]
    return MemRefView.from_flat(values, t.element, list(t.shape), name)


# ----------------------------------------------------------------------------- output


def encode_value(v: Any, t: Type) -> Any:
    """A runtime value as JSON: signed decimal ints, i1 as bool, floats with "nan"/"inf"/"-inf"."""
    if isinstance(v, MemRefView):
        return encode_memref(v)
    if isinstance(t, IntegerType):
        return bool(v & 1) if t.width == 1 else to_signed(v, t.width)
    if isinstance(t, IndexType):
        return to_signed(v, 64)
    if isinstance(t, FloatType):
        return _encode_float(v)
    if isinstance(t, NoneType):
        return None
    if isinstance(t, TaggedType):
        value, tag = unpack_tagged(v, t)
        return {"value": encode_value(value, t.value), "tag": tag}
    if isinstance(t, TupleType) and isinstance(v, tuple) and len(v) == len(t.types):
        return [encode_value(x, et) for x, et in zip(v, t.types)]
    return _encode_untyped(v)


def _encode_float(x: float) -> Any:
    if x != x:
        return "nan"
    if x in (math.inf, -math.inf):
        return "inf" if x > 0 else "-inf"
    return float(x)


def _encode_untyped(v: Any) -> Any:
    if isinstance(v, MemRefView):
        return encode_memref(v)
    if isinstance(v, float):
        return _encode_float(v)
    return v


def encode_memref(view: MemRefView) -> list:
    """Final contents of a view, flat row-major."""
    t = view.element
    return [encode_value(x, t) for x in view.to_flat()]
