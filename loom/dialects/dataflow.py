"""LOOM dataflow dialect: stream, gate, carry, invariant (spec-dataflow.txt) and the tagged type.

Each op is defined once here: its syntax, its verifier and its table builder (``OpDef.machine``, which
``loom.semantics.machine_for`` calls after the verifier). Error codes are those of
spec-dataflow-error-legacy.md. Where the spec allows a value type T, ``!dataflow.tagged<T, iK>`` is
accepted as well; a stream may run on tagged index values, which the verifier accepts and the token
semantics do not model yet (``CPL_DATAFLOW_TAGGED_STREAM``).
"""

from __future__ import annotations

from loom.diagnostics import warn
from loom.dialects.checks import RESULT_TYPE, VerifyContext, counts, fail, tagged_value
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import ArrowSig, AttrDict, FnSig, Format, Lit, Opd
from loom.ir.attributes import StringAttr
from loom.ir.core import Operation
from loom.ir.types import (
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    TaggedType,
    TensorType,
    Type,
    VectorType,
    i1,
    index,
)
from loom.semantics import dataflow_ops
from loom.semantics.functions import CONT_CONDS, STEP_OPS
from loom.semantics.machine import Machine

STREAM_OPERAND_TYPE = "CPL_DATAFLOW_STREAM_OPERAND_TYPE"
STREAM_INVALID_STEP_OP = "CPL_DATAFLOW_STREAM_INVALID_STEP_OP"
STREAM_INVALID_CONT_COND = "CPL_DATAFLOW_STREAM_INVALID_CONT_COND"
GATE_COND_TYPE = "CPL_DATAFLOW_GATE_COND_TYPE"
GATE_TYPE_MISMATCH = "CPL_DATAFLOW_GATE_TYPE_MISMATCH"
CARRY_CTRL_TYPE = "CPL_DATAFLOW_CARRY_CTRL_TYPE"
CARRY_TYPE_MISMATCH = "CPL_DATAFLOW_CARRY_TYPE_MISMATCH"
INVARIANT_CTRL_TYPE = "CPL_DATAFLOW_INVARIANT_CTRL_TYPE"
INVARIANT_TYPE_MISMATCH = "CPL_DATAFLOW_INVARIANT_TYPE_MISMATCH"
TAGGED_VALUE_TYPE = "CPL_DATAFLOW_TAGGED_VALUE_TYPE"
TAGGED_TAG_TYPE = "CPL_DATAFLOW_TAGGED_TAG_TYPE"
VALUE_TYPE = "CPL_DATAFLOW_VALUE_TYPE"
TAGGED_STREAM = "CPL_DATAFLOW_TAGGED_STREAM"

TAGGED_VALUE_TYPES = (
    IntegerType(1), IntegerType(8), IntegerType(16), IntegerType(32), IntegerType(64),
    FloatType("bf16"), FloatType("f16"), FloatType("f32"), FloatType("f64"), IndexType(),
)


def tagged_problem(t: TaggedType) -> tuple[str, str] | None:
    """(code, message) if ``t`` breaks the tagged type's ranges, else None."""
    if t.value not in TAGGED_VALUE_TYPES:
        allowed = ", ".join(map(str, TAGGED_VALUE_TYPES))
        return TAGGED_VALUE_TYPE, f"tagged value type must be one of {allowed}; found {t.value}"
    if not (isinstance(t.tag, IntegerType) and t.tag.signedness == "" and 1 <= t.tag.width <= 16):
        return TAGGED_TAG_TYPE, f"tag type must be a signless integer i1..i16; found {t.tag}"
    return None


def _value_type_ok(t: Type) -> bool:
    """T of a dataflow op: a scalar (or none token, or tagged scalar); never a memref/tensor/vector."""
    return not isinstance(t, (MemRefType, TensorType, VectorType, FunctionType))


def _check_values(op: Operation) -> None:
    for v in [*op.operands, *op.results]:
        if not _value_type_ok(v.type):
            fail(op, VALUE_TYPE, f"carries values of type {v.type}; dataflow values must be scalars")


def normalize_stream(op: Operation) -> None:
    """Rename the legacy ``stop_cond`` attribute to ``cont_cond`` (with a warning)."""
    if "stop_cond" not in op.attributes:
        return
    if "cont_cond" in op.attributes:
        warn("dataflow.stream has both 'stop_cond' and 'cont_cond'; the legacy 'stop_cond' is ignored", op.loc)
        del op.attributes["stop_cond"]
        return
    warn("legacy attribute 'stop_cond' of dataflow.stream is renamed to 'cont_cond'", op.loc)
    op.attributes = {("cont_cond" if k == "stop_cond" else k): v for k, v in op.attributes.items()}


def verify_stream(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=3, results=2)
    for name, v in zip(("start", "step", "bound"), op.operands):
        if not isinstance(tagged_value(v.type), IndexType):
            fail(op, STREAM_OPERAND_TYPE, f"operand %{name} must be index, found {v.type}")
    idx, cont = op.results
    if not isinstance(tagged_value(idx.type), IndexType):
        fail(op, RESULT_TYPE, f"index result must be index, found {idx.type}")
    if tagged_value(cont.type) != i1:
        fail(op, RESULT_TYPE, f"continue result must be i1, found {cont.type}")
    step_op = op.attributes.get("step_op")
    if step_op is not None and not (isinstance(step_op, StringAttr) and step_op.value in STEP_OPS):
        fail(op, STREAM_INVALID_STEP_OP, f"step_op must be one of {', '.join(repr(s) for s in STEP_OPS)}; found {step_op}")
    cont_cond = op.attributes.get("cont_cond")
    if cont_cond is not None and not (isinstance(cont_cond, StringAttr) and cont_cond.value in CONT_CONDS):
        fail(op, STREAM_INVALID_CONT_COND, f"cont_cond must be one of {', '.join(repr(s) for s in CONT_CONDS)}; found {cont_cond}")


def stream_params(op: Operation) -> tuple[str, str | None]:
    """(step_op, cont_cond) of a verified stream: ``+=`` by default; no cont_cond means by the step's sign."""
    step_op, cont_cond = op.attributes.get("step_op"), op.attributes.get("cont_cond")
    return (step_op.value if isinstance(step_op, StringAttr) else "+=",
            cont_cond.value if isinstance(cont_cond, StringAttr) else None)


def stream_machine(op: Operation) -> Machine:
    """The stream's table; a stream on tagged indices (one stream per tag) has none yet."""
    if any(isinstance(v.type, TaggedType) for v in [*op.operands, *op.results]):
        fail(op, TAGGED_STREAM, "on tagged index values has no token semantics in loom yet (one stream per tag)")
    return dataflow_ops.stream(*stream_params(op))


def verify_gate(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=2, results=2)
    before_value, before_cond = op.operands
    after_value, after_cond = op.results
    if before_cond.type != i1:
        fail(op, GATE_COND_TYPE, f"operand %before_cond must be i1, found {before_cond.type}")
    if after_cond.type != i1:
        fail(op, GATE_COND_TYPE, f"result %after_cond must be i1, found {after_cond.type}")
    if before_value.type != after_value.type:
        fail(op, GATE_TYPE_MISMATCH, f"%before_value has type {before_value.type} but %after_value has {after_value.type}")
    _check_values(op)


def verify_carry(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=3, results=1)
    d, a, b = op.operands
    o = op.results[0]
    if d.type != i1:
        fail(op, CARRY_CTRL_TYPE, f"operand %d must be i1, found {d.type}")
    if not (a.type == b.type == o.type):
        fail(op, CARRY_TYPE_MISMATCH, f"%a, %b and %o must have one type, found {a.type}, {b.type} and {o.type}")
    _check_values(op)


def verify_invariant(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=2, results=1)
    d, a = op.operands
    o = op.results[0]
    if d.type != i1:
        fail(op, INVARIANT_CTRL_TYPE, f"operand %d must be i1, found {d.type}")
    if a.type != o.type:
        fail(op, INVARIANT_TYPE_MISMATCH, f"%a has type {a.type} but %o has {o.type}")
    _check_values(op)


_STREAM_DEFAULT = ((None, None, None), (index, i1))

OPS = [
    OpDef(
        "dataflow.stream",
        Format(
            Opd("start"), Lit(",", space=False), Opd("step"), Lit(",", space=False), Opd("bound"),
            AttrDict(), FnSig(optional_default=_STREAM_DEFAULT),
        ),
        verify_stream,
        normalize=normalize_stream,
        machine=stream_machine,
    ),
    OpDef(
        "dataflow.gate",
        Format(Opd("before_value"), Lit(",", space=False), Opd("before_cond"), AttrDict(), ArrowSig(2, 2, "dataflow.gate")),
        verify_gate,
        machine=lambda op: dataflow_ops.gate(op.operands[0].type),
    ),
    OpDef(
        "dataflow.carry",
        Format(Opd("d"), Lit(",", space=False), Opd("a"), Lit(",", space=False), Opd("b"), AttrDict(), ArrowSig(3, 1, "dataflow.carry")),
        verify_carry,
        machine=lambda op: dataflow_ops.carry(op.results[0].type),
    ),
    OpDef(
        "dataflow.invariant",
        Format(Opd("d"), Lit(",", space=False), Opd("a"), AttrDict(), ArrowSig(2, 1, "dataflow.invariant")),
        verify_invariant,
        machine=lambda op: dataflow_ops.invariant(op.results[0].type),
    ),
]

