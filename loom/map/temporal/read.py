"""Read ``fabric.temporal_pe`` and the tag adapters at its ports into the mapper's ADG (after ``verify_fabric``)."""

from __future__ import annotations

from loom.diagnostics import VerifyError
from loom.dialects.fabric import symbol_target
from loom.ir.attributes import IntegerAttr
from loom.ir.core import OpResult, Operation
from loom.ir.types import FunctionType
from loom.map.adg.verify import tagged
from loom.map.temporal.model import TagDef, TemporalPEDef

TEMPORAL_PE = "CPL_FABRIC_TEMPORAL_PE"


def _int(op: Operation, key: str, default: int) -> int:
    a = op.attributes.get(key)
    return a.value if isinstance(a, IntegerAttr) else default


def read_tpe(op: Operation, ft: FunctionType, fu_defs: dict[str, Operation], read_fu, sym: str) -> TemporalPEDef:
    """One temporal PE definition (or inline one, whose ports are ``ft``); ``read_fu`` reads each function unit."""
    fus = []
    for inner in op.regions[0].blocks[0].ops:
        if inner.name == "fabric.function_unit":
            fus.append(read_fu(inner, len(fus), allow_mux=True))
        elif inner.name == "fabric.instance":
            fus.append(read_fu(fu_defs[symbol_target(inner) or ""], len(fus), allow_mux=True))
    ins = [tagged(t) for t in ft.inputs]
    outs = [tagged(t) for t in ft.results]
    if any(x is None for x in ins + outs):
        raise VerifyError(f"temporal_pe @{sym} ports must be !fabric.tagged<...>", op.loc, TEMPORAL_PE)
    tag_width = max(x[1] for x in ins + outs)  # type: ignore[index]
    return TemporalPEDef(sym, [x[0] for x in ins], [x[0] for x in outs], fus, op.loc,  # type: ignore[index]
                         num_instruction=_int(op, "num_instruction", 1), num_register=_int(op, "num_register", 0),
                         tag_width=tag_width)


def read_tag(op: Operation, sym: str) -> TagDef:
    """An add_tag or del_tag (its types already verified): payload width, tag width and (add_tag) tag."""
    src, dst = op.operands[0].type, op.results[0].type
    t = tagged(dst) if op.name == "fabric.add_tag" else tagged(src)
    assert t is not None
    return TagDef(sym, _int(op, "tag", 0), t[1], [t[0]], [t[0]])


def is_adapter(op: Operation, fmod: Operation, defs: dict[str, Operation]) -> bool:
    """Whether ``op`` (an add_tag or del_tag in ``fmod``) only joins one temporal PE port to the untagged network:
    an add_tag whose one reader is a temporal PE, a del_tag fed by one. loom maps tags only there."""
    def is_tpe(user: Operation) -> bool:
        target = defs.get(symbol_target(user) or "") if user.name == "fabric.instance" else user
        return target is not None and target.name == "fabric.temporal_pe"

    if op.name == "fabric.add_tag":
        users = [u for u in fmod.regions[0].blocks[0].ops if any(v is op.results[0] for v in u.operands)]
        return len(users) == 1 and sum(v is op.results[0] for v in users[0].operands) == 1 and is_tpe(users[0])
    if op.name == "fabric.del_tag":
        v = op.operands[0]
        return isinstance(v, OpResult) and is_tpe(v.owner)
    return False
