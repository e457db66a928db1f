"""File-wide fabric rules (upstream's fabric specs) and the line between "valid" and "mappable by loom".

``read_adg`` flattens one ``fabric.module`` into the mapper's ADG and checks what the
mapper relies on. Upstream fabrics also use ops the mapper cannot place yet
(the tag boundary ops, temporal PEs and switches; FIFOs and FU-internal ``fabric.mux`` are read and mapped around).
``verify_fabric`` checks the specs' rules for every op of the file, so that
``loom adg verify`` accepts a valid upstream fabric and refuses an invalid one with
a located, coded error; ``unmappable_op`` names the first op in the module that the
mapper cannot use, so that ``loom map`` refuses it with one clear line instead of
a traceback or a mapping that ignores it.

Rules (spec-fabric-fifo, -tag, -temporal_pe, -temporal_sw, -function_unit(-ops)):

* definition names are unique in their scope (the top-level module, a
  ``fabric.module``, a PE body); loom resolves ``fabric.instance`` targets in one
  namespace, so a top-level and a module-local definition may not share a name
  either (``CPL_FABRIC_DUPLICATE_DEF``);
* inline instantiations and the tag ops sit directly in a ``fabric.module``;
  ``fabric.mux`` sits directly in a ``fabric.function_unit``
  (``CPL_FABRIC_PLACEMENT``);
* FIFO: one input, one output of the same type, ``depth >= 1``, ``bypassed`` a
  boolean and only with ``bypassable`` (``CPL_FABRIC_FIFO``);
* mux: N inputs and one output, or one input and N outputs, all of one type;
  ``sel`` in ``0..N-1``; ``discard`` / ``disconnect`` booleans (``CPL_FABRIC_MUX``);
* tags: ``add_tag`` takes an untagged value to ``!fabric.tagged<V, iK>`` of the
  same payload width with ``0 <= tag < 2^K``; ``del_tag`` the reverse;
  ``map_tag`` keeps the payload, has ``table_size >= 1`` and a ``table`` of at
  most that many ``[valid, src_tag, dst_tag]`` entries whose tags fit their
  widths, or of plain ``dst_tag`` integers indexed by the source tag (``CPL_FABRIC_TAG``);
* temporal switch: 1..32 inputs and outputs, all of one tagged type,
  ``num_route_table >= 1``, a well-shaped ``connectivity_table``, at most
  ``num_route_table`` ``route_table`` entries with tags and ports in range
  (``CPL_FABRIC_TEMPORAL_SW``);
* temporal PE: tagged ports, ``num_instruction >= 1``, ``num_register >= 0``,
  ``reg_fifo_depth >= 0`` (``>= 1`` with registers), ``operand_buffer_size`` in
  ``1..8192`` exactly when ``enable_share_operand_buffer = true``, a body of function units (or instances of them) and
  ``fabric.yield`` only, at least one function unit (``CPL_FABRIC_TEMPORAL_PE``);
* a spatial switch with tagged ports is not decomposable (``CPL_FABRIC_SW_DECOMPOSABLE``);
* every ``fabric.function_unit`` obeys the function-unit rules of ``read_fu``,
  with ``fabric.mux`` allowed in its body.
"""

from __future__ import annotations

import re
from typing import Optional

from loom.diagnostics import VerifyError
from loom.dialects.fabric import symbol_target
from loom.ir.attributes import ArrayAttr, Attribute, BoolAttr, DictAttr, IntegerAttr, StringAttr, TypeAttr, UnitAttr
from loom.ir.core import Module, Operation
from loom.ir.types import FunctionType, Type
from loom.map.adg.model import bits_width, value_width

DUPLICATE_DEF = "CPL_FABRIC_DUPLICATE_DEF"
PLACEMENT = "CPL_FABRIC_PLACEMENT"
FIFO = "CPL_FABRIC_FIFO"
MUX = "CPL_FABRIC_MUX"
TAG = "CPL_FABRIC_TAG"
TEMPORAL_SW = "CPL_FABRIC_TEMPORAL_SW"
TEMPORAL_PE = "CPL_FABRIC_TEMPORAL_PE"
NOT_MAPPABLE = "CPL_FABRIC_NOT_MAPPABLE"
SW_DECOMPOSABLE = "CPL_FABRIC_SW_DECOMPOSABLE"

# ops that have a definition form (no operands, no results) besides an inline one
DEFINITION_OPS = ("fabric.module", "fabric.spatial_pe", "fabric.temporal_pe", "fabric.spatial_sw", "fabric.temporal_sw",
                  "fabric.function_unit", "fabric.memory", "fabric.extmemory", "fabric.fifo")
INLINE_OPS = ("fabric.spatial_pe", "fabric.spatial_sw", "fabric.temporal_sw", "fabric.temporal_pe", "fabric.fifo", "fabric.memory",
              "fabric.extmemory", "fabric.add_tag", "fabric.del_tag", "fabric.map_tag")
# ops loom's mapper cannot place, route or configure yet
NOT_MAPPABLE_OPS: tuple[str, ...] = ()  # tag ops are routed through (loom/map/tags.py), temporal_sw too (loom/map/tsw.py)

_TAGGED = re.compile(r"^!fabric\.tagged<\s*(.+?)\s*,\s*i([0-9]+)\s*>$")
_NATIVE = re.compile(r"^(?:i|f|bf)([0-9]+)$")


def _err(msg: str, op: Operation, code: str) -> VerifyError:
    return VerifyError(msg, op.loc, code)


def _sym(op: Operation) -> str:
    a = op.attributes.get("sym_name")
    return a.value if isinstance(a, StringAttr) else ""


def _is_definition(op: Operation) -> bool:
    return op.name in DEFINITION_OPS and not op.operands and not op.results


def tagged(t: Type) -> Optional[tuple[int, int]]:
    """(payload width, tag width) of ``!fabric.tagged<V, iK>``; None for any other type or an unknown payload."""
    m = _TAGGED.match(str(t))
    if not m:
        return None
    return _payload_width(m.group(1)), int(m.group(2))  # type: ignore[return-value]


def _payload_width(text: str) -> Optional[int]:
    """Width of a tagged type's payload text: ``!fabric.bits<N>``, ``iN``, ``fN``, ``index`` or ``none``."""
    b = re.match(r"^!fabric\.bits<\s*([0-9]+)\s*>$", text)
    if b:
        return int(b.group(1))
    if text == "none":
        return 0
    if text == "index":
        return 64
    n = _NATIVE.match(text)
    return int(n.group(1)) if n else None


def _untagged_width(t: Type) -> Optional[int]:
    """Width of an untagged fabric value: ``!fabric.bits<N>`` or a native scalar."""
    w = bits_width(t)
    return w if w is not None else value_width(t)


def _port_types(op: Operation) -> FunctionType:
    """An op's port types: its operands and results when inline, its ``function_type`` when a definition."""
    if op.operands or op.results:
        return FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    a = op.attributes.get("function_type")
    if isinstance(a, TypeAttr) and isinstance(a.type, FunctionType):
        return a.type
    raise _err(f"'{op.name}' @{_sym(op)} has no port types", op, PLACEMENT)


def _int(op: Operation, key: str, code: str, default: Optional[int] = None) -> int:
    a = op.attributes.get(key)
    if a is None and default is not None:
        return default
    if not isinstance(a, IntegerAttr) or isinstance(a, BoolAttr):
        raise _err(f"'{op.name}' needs an integer parameter '{key}'", op, code)
    return a.value


def _count(op: Operation, key: str, code: str, who: str) -> int:
    """A required parameter ``[key = N]`` of at least 1 (a depth, a table size, a slot count)."""
    if key not in op.attributes:
        raise _err(f"{who} needs [{key} = N]", op, code)
    n = _int(op, key, code)
    if n < 1:
        raise _err(f"{who} {key} must be at least 1 (found {n})", op, code)
    return n


def _bool(op: Operation, key: str, code: str) -> Optional[bool]:
    a = op.attributes.get(key)
    if a is None:
        return None
    if isinstance(a, BoolAttr):
        return a.value
    if isinstance(a, IntegerAttr) and a.value in (0, 1):
        return bool(a.value)
    raise _err(f"'{op.name}' attribute '{key}' must be true or false", op, code)


# ----------------------------------------------------------------------------- per op


def _check_fifo(op: Operation) -> None:
    ft = _port_types(op)
    if len(ft.inputs) != 1 or len(ft.results) != 1:
        raise _err(f"fabric.fifo has exactly one input and one output (found {len(ft.inputs)} and {len(ft.results)})", op, FIFO)
    if ft.inputs[0] != ft.results[0]:
        raise _err(f"fabric.fifo input type {ft.inputs[0]} differs from its output type {ft.results[0]}", op, FIFO)
    _count(op, "depth", FIFO, "fabric.fifo")
    flag = op.attributes.get("bypassable")
    if flag is not None and not isinstance(flag, (UnitAttr, BoolAttr)):
        raise _err("fabric.fifo 'bypassable' is a flag", op, FIFO)
    bypassable = isinstance(flag, UnitAttr) or (isinstance(flag, BoolAttr) and flag.value)
    if _bool(op, "bypassed", FIFO) is not None and not bypassable:
        raise _err("fabric.fifo: bypassed requires bypassable", op, FIFO)


def _check_mux(op: Operation) -> None:
    n_in, n_out = len(op.operands), len(op.results)
    if not ((n_in >= 1 and n_out == 1) or (n_in == 1 and n_out >= 1)):
        raise _err(f"fabric.mux selects among N inputs for one output or one input for N outputs "
                   f"(found {n_in} inputs and {n_out} outputs)", op, MUX)
    types = {str(v.type) for v in op.operands} | {str(r.type) for r in op.results}
    if len(types) != 1:
        raise _err(f"fabric.mux ports must all have one type (found {', '.join(sorted(types))})", op, MUX)
    n = max(n_in, n_out)
    sel = _int(op, "sel", MUX, default=0)
    if not 0 <= sel < n:
        raise _err(f"fabric.mux sel = {sel} is out of range 0..{n - 1}", op, MUX)
    for k in ("discard", "disconnect"):
        _bool(op, k, MUX)


def _fits(tag: int, width: int) -> bool:
    return 0 <= tag < (1 << width)


def _check_tag(op: Operation) -> None:
    src, dst = op.operands[0].type, op.results[0].type
    ts, td = tagged(src), tagged(dst)
    if op.name == "fabric.add_tag":
        if ts is not None or td is None or td[0] is None:
            raise _err(f"fabric.add_tag takes an untagged value to a !fabric.tagged type (found {src} -> {dst})", op, TAG)
        if _untagged_width(src) is None:
            raise _err(f"fabric.add_tag: {src} is not a value a fabric port carries", op, TAG)
        if td[1] < 1:
            raise _err(f"fabric.add_tag: tag width must be at least 1 (found i{td[1]})", op, TAG)
        if "tag" not in op.attributes:
            raise _err("fabric.add_tag needs {tag = N}", op, TAG)
        tag = _int(op, "tag", TAG)
        if not _fits(tag, td[1]):
            raise _err(f"fabric.add_tag: tag {tag} does not fit i{td[1]}", op, TAG)
    elif op.name == "fabric.del_tag":
        if ts is None or td is not None or ts[0] is None:
            raise _err(f"fabric.del_tag takes a !fabric.tagged value to an untagged one (found {src} -> {dst})", op, TAG)
        if _untagged_width(dst) is None:
            raise _err(f"fabric.del_tag: {dst} is not a value a fabric port carries", op, TAG)
    else:
        _check_map_tag(op, ts, td)


def _check_map_tag(op: Operation, ts: Optional[tuple[int, int]], td: Optional[tuple[int, int]]) -> None:
    src, dst = op.operands[0].type, op.results[0].type
    if ts is None or td is None:
        raise _err(f"fabric.map_tag maps a !fabric.tagged value to a !fabric.tagged value (found {src} -> {dst})", op, TAG)
    ps, pd = _TAGGED.match(str(src)), _TAGGED.match(str(dst))
    if ps.group(1).replace(" ", "") != pd.group(1).replace(" ", ""):  # type: ignore[union-attr]
        raise _err(f"fabric.map_tag may change the tag width but not the payload ({src} -> {dst})", op, TAG)
    size = _count(op, "table_size", TAG, "fabric.map_tag")
    table = op.attributes.get("table")
    if table is None:
        return
    if not isinstance(table, ArrayAttr) or len(table.elements) > size:
        raise _err(f"fabric.map_tag table must be an array of at most table_size = {size} entries", op, TAG)
    for i, e in enumerate(table.elements):
        if isinstance(e, IntegerAttr):  # the short form: entry i maps src_tag i to this dst_tag
            if not _fits(e.value, td[1]) or not _fits(i, ts[1]):
                raise _err(f"fabric.map_tag table entry {i} -> {e.value} does not fit i{ts[1]} -> i{td[1]}", op, TAG)
            continue
        vals = [x.value for x in e.elements if isinstance(x, IntegerAttr)] if isinstance(e, ArrayAttr) else []
        if not isinstance(e, ArrayAttr) or len(vals) != 3 or len(e.elements) != 3:
            raise _err(f"fabric.map_tag table entry {i} must be [valid, src_tag, dst_tag] or a dst_tag", op, TAG)
        valid, s, d = vals
        if valid not in (0, 1) or not _fits(s, ts[1]) or not _fits(d, td[1]):
            raise _err(f"fabric.map_tag table entry {i} [{valid}, {s}, {d}] is out of range "
                       f"(valid 0/1, src_tag < 2^{ts[1]}, dst_tag < 2^{td[1]})", op, TAG)


def _check_temporal_sw(op: Operation) -> None:
    ft = _port_types(op)
    name = _sym(op)
    for what, n in (("inputs", len(ft.inputs)), ("outputs", len(ft.results))):
        if not 1 <= n <= 32:
            raise _err(f"temporal_sw @{name} has {n} {what}; 1..32 are allowed", op, TEMPORAL_SW)
    ports = [*ft.inputs, *ft.results]
    if any(tagged(t) is None for t in ports):
        bad = next(t for t in ports if tagged(t) is None)
        raise _err(f"temporal_sw @{name} port type {bad} is not !fabric.tagged<...>", op, TEMPORAL_SW)
    if len({str(t).replace(" ", "") for t in ports}) != 1:
        raise _err(f"temporal_sw @{name} ports must all have exactly the same tagged type", op, TEMPORAL_SW)
    slots = _count(op, "num_route_table", TEMPORAL_SW, f"temporal_sw @{name}")
    a = op.attributes.get("connectivity_table")
    if a is not None:
        rows = a.elements if isinstance(a, ArrayAttr) else None
        if rows is None or len(rows) != len(ft.results) or not all(
                isinstance(r, StringAttr) and len(r.value) == len(ft.inputs) and not set(r.value) - {"0", "1"} for r in rows):
            raise _err(f"temporal_sw @{name} connectivity_table needs one 0/1 string of {len(ft.inputs)} characters "
                       f"per output ({len(ft.results)})", op, TEMPORAL_SW)
    routes = op.attributes.get("route_table")
    if routes is None:
        return
    if not isinstance(routes, ArrayAttr) or len(routes.elements) > slots:
        raise _err(f"temporal_sw @{name} route_table must be an array of at most num_route_table = {slots} entries",
                   op, TEMPORAL_SW)
    tag_width = tagged(ports[0])[1]  # type: ignore[index]
    for i, e in enumerate(routes.elements):
        fields = _dict_ints(e)
        if fields is None or not {"tag", "input", "output"} <= set(fields):
            raise _err(f"temporal_sw @{name} route_table entry {i} must be {{tag, input, output}}", op, TEMPORAL_SW)
        if (not _fits(fields["tag"], tag_width) or not 0 <= fields["input"] < len(ft.inputs)
                or not 0 <= fields["output"] < len(ft.results)):
            raise _err(f"temporal_sw @{name} route_table entry {i} has a tag or port out of range", op, TEMPORAL_SW)


def _dict_ints(a: Attribute) -> Optional[dict[str, int]]:
    if not isinstance(a, DictAttr):
        return None
    out = {}
    for k, v in a.entries:
        if not isinstance(v, IntegerAttr):
            return None
        out[k] = v.value
    return out


def _check_temporal_pe(op: Operation, fu_defs: dict[str, Operation]) -> None:
    ft = _port_types(op)
    name = _sym(op)
    for t in (*ft.inputs, *ft.results):
        if tagged(t) is None:
            raise _err(f"temporal_pe @{name} port type {t} is not !fabric.tagged<...>", op, TEMPORAL_PE)
    for key, low in (("num_instruction", 1), ("num_register", 0), ("reg_fifo_depth", 0)):
        if key not in op.attributes:
            raise _err(f"temporal_pe @{name} needs [{key} = N]", op, TEMPORAL_PE)
        v = _int(op, key, TEMPORAL_PE)
        if v < low:
            raise _err(f"temporal_pe @{name} {key} must be at least {low} (found {v})", op, TEMPORAL_PE)
    if _int(op, "num_register", TEMPORAL_PE) > 0 and _int(op, "reg_fifo_depth", TEMPORAL_PE) < 1:
        raise _err(f"temporal_pe @{name} reg_fifo_depth must be at least 1 when num_register is greater than 0",
                   op, TEMPORAL_PE)
    shared = op.attributes.get("enable_share_operand_buffer")
    if shared is not None and not isinstance(shared, BoolAttr):
        raise _err(f"temporal_pe @{name} enable_share_operand_buffer must be true or false", op, TEMPORAL_PE)
    if isinstance(shared, BoolAttr) and shared.value:
        if "operand_buffer_size" not in op.attributes:
            raise _err(f"temporal_pe @{name} operand_buffer_size must be present when enable_share_operand_buffer "
                       f"is true", op, TEMPORAL_PE)
        size = _int(op, "operand_buffer_size", TEMPORAL_PE)
        if not 1 <= size <= 8192:
            raise _err(f"temporal_pe @{name} operand_buffer_size must be in range [1, 8192] (found {size})", op, TEMPORAL_PE)
    elif "operand_buffer_size" in op.attributes:
        raise _err(f"temporal_pe @{name} operand_buffer_size must be absent when enable_share_operand_buffer is "
                   f"false", op, TEMPORAL_PE)
    fus = 0
    for inner in op.regions[0].blocks[0].ops if op.regions and op.regions[0].blocks else []:
        if inner.name == "fabric.function_unit":
            fus += 1
        elif inner.name == "fabric.instance":
            target = fu_defs.get(symbol_target(inner) or "")
            if target is None or inner.operands or inner.results:
                raise _err(f"an instance inside temporal_pe @{name} must name a function_unit and have no ports",
                           inner, TEMPORAL_PE)
            fus += 1
        elif inner.name != "fabric.yield":
            raise _err(f"'{inner.name}' cannot appear directly in a temporal_pe", inner, TEMPORAL_PE)
    if not fus:
        raise _err(f"temporal_pe @{name} holds no function_unit", op, TEMPORAL_PE)


# ----------------------------------------------------------------------------- the file


def _check_duplicates(module: Module) -> None:
    """Definition names are unique per scope, and loom's single instance namespace (top level plus fabric.module)."""
    seen_global: dict[str, Operation] = {}
    for scope_op in [None, *[op for op in module.walk() if op.name in ("fabric.module", "fabric.spatial_pe",
                                                                          "fabric.temporal_pe")]]:
        ops = module.body.ops if scope_op is None else (
            scope_op.regions[0].blocks[0].ops if scope_op.regions and scope_op.regions[0].blocks else [])
        seen: dict[str, Operation] = {}
        for op in ops:
            if not _is_definition(op) or op.name == "fabric.module" and scope_op is not None:
                continue
            n = _sym(op)
            if not n:
                continue
            if n in seen:
                raise _err(f"duplicate definition name '{n}' ({seen[n].name} and {op.name} in one scope)", op, DUPLICATE_DEF)
            seen[n] = op
            if scope_op is None or scope_op.name == "fabric.module":
                if n in seen_global and seen_global[n] is not op:
                    raise _err(f"duplicate definition name '{n}': defined at top level and in a fabric.module "
                               f"(loom resolves instances in one namespace)", op, DUPLICATE_DEF)
                seen_global[n] = op


def verify_fabric(module: Module) -> None:
    """Check the fabric rules above for every fabric op of ``module``; raises a located ``VerifyError``."""
    from loom.map.adg.read import read_fu

    _check_duplicates(module)
    defs = {_sym(op): op for op in module.walk() if _is_definition(op) and op.name != "fabric.module"
            and (op.parent_op is None or op.parent_op.name in ("builtin.module", "fabric.module"))}
    fu_defs = {_sym(op): op for op in module.walk() if op.name == "fabric.function_unit"
               and (op.parent_op is None or op.parent_op.name in ("builtin.module", "fabric.module"))}
    ops = list(module.walk())
    for op in ops:
        parent = op.parent_op
        pname = parent.name if parent is not None else "builtin.module"
        if op.name in INLINE_OPS and (op.operands or op.results) and pname != "fabric.module":
            raise _err(f"inline {op.name} must appear directly inside fabric.module (found in {pname})", op, PLACEMENT)
        if op.name == "fabric.mux" and pname != "fabric.function_unit":
            raise _err(f"fabric.mux must appear directly inside fabric.function_unit (found in {pname})", op, PLACEMENT)
        if op.name == "fabric.fifo":
            _check_fifo(op)
        elif op.name == "fabric.mux":
            _check_mux(op)
        elif op.name in ("fabric.add_tag", "fabric.del_tag", "fabric.map_tag"):
            _check_tag(op)
        elif op.name == "fabric.temporal_sw":
            _check_temporal_sw(op)
        elif op.name == "fabric.temporal_pe":
            _check_temporal_pe(op, fu_defs)
        elif op.name == "fabric.spatial_sw":
            ft = _port_types(op)
            if (any(tagged(t) is not None for t in (*ft.inputs, *ft.results))
                    and _int(op, "decomposable_bits", SW_DECOMPOSABLE, default=-1) >= 0):
                raise _err(f"tagged spatial_sw @{_sym(op)} cannot be decomposable", op, SW_DECOMPOSABLE)
        elif op.name == "fabric.instance" and pname == "fabric.module":
            _check_instance(op, defs)
    for op in ops:  # function units last: a container's own rules are reported before its units' bodies
        if op.name == "fabric.function_unit":
            read_fu(op, 0, allow_mux=True)


def _check_instance(op: Operation, defs: dict[str, Operation]) -> None:
    """A module-level instance names a definition and has its port types (the mapper's reader checks more)."""
    from loom.map.adg.read import INSTANCE_PORTS, UNKNOWN_SYMBOL

    target = defs.get(symbol_target(op) or "")
    if target is None:
        raise _err(f"fabric.instance names unknown component @{symbol_target(op)}", op, UNKNOWN_SYMBOL)
    a = target.attributes.get("function_type")
    if isinstance(a, TypeAttr) and isinstance(a.type, FunctionType):
        ft = a.type
        if [v.type for v in op.operands] != list(ft.inputs) or [r.type for r in op.results] != list(ft.results):
            raise _err(f"instance port types do not match its definition @{_sym(target)} {ft}", op, INSTANCE_PORTS)


def unmappable_op(fmod: Operation, defs: dict[str, Operation]) -> Optional[tuple[Operation, str]]:
    """The first op in ``fmod`` (in order) that loom's mapper cannot use, with the op kind it is; None if none.

    An inline op of a kind in ``NOT_MAPPABLE_OPS`` (but an add_tag/del_tag adapter of one temporal PE port) or an
    instance of such a definition. (A function unit holding
    ``fabric.mux`` is read, but no op is placed on it.) Definitions nobody instantiates do not matter."""
    from loom.map.temporal.read import is_adapter

    for op in fmod.regions[0].blocks[0].ops:
        if op.name in NOT_MAPPABLE_OPS and (op.operands or op.results) and not is_adapter(op, fmod, defs):
            return op, op.name
        if op.name == "fabric.spatial_pe":
            target: Optional[Operation] = op  # an inline spatial PE
        elif op.name != "fabric.instance":
            continue
        else:
            target = defs.get(symbol_target(op) or "")
        if target is None:
            continue
        if target.name in NOT_MAPPABLE_OPS:
            return op, target.name
    return None


class NotMappable(VerifyError):
    """A valid fabric whose module uses ``what``, which the mapper cannot place yet (``CPL_FABRIC_NOT_MAPPABLE``)."""

    def __init__(self, what: str, op: Operation) -> None:
        super().__init__(f"the fabric is valid, but loom map cannot map onto {what} yet; `loom adg verify` accepts it",
                         op.loc, NOT_MAPPABLE)
        self.what = what


def not_mappable_error(op: Operation, kind: str) -> NotMappable:
    """The one-line refusal ``loom map`` gives for a valid fabric it cannot map onto yet."""
    what = {"fabric.mux": "a function unit with fabric.mux (configurable FU shape)",
            "fabric.fifo": "fabric.fifo", "fabric.temporal_pe": "fabric.temporal_pe",
            "fabric.temporal_sw": "fabric.temporal_sw"}.get(kind, f"{kind} (tagged routing)")
    return NotMappable(what, op)
