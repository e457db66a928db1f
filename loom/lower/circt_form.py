"""Put a lowered DFG in the form CIRCT's handshake passes accept (``loom compile --circt``).

CIRCT's ``handshake-materialize-forks-sinks`` and ``lower-handshake-to-hw`` expect a graph in which
every value has exactly one use (explicit ``fork``s and ``sink``s), every memref argument is wrapped by
an ``extmemory`` (its first user, by CIRCT's verifier), no ``memref.dim`` reads a memref argument, and
every ``handshake.memory`` is 1-D with a static size. ``circt_form`` returns a copy so rewritten:

* ``memref.dim %m, k`` of a memref argument becomes a new ``index`` argument ``<m>_dim<k>`` (before the
  trailing start token; hardware cannot ask a memref port its size). It is only done for a dim read once
  per invocation (its index is a constant fired by the start token); otherwise the rate would change,
  which is ``CPL_CIRCT_FORM``.
* a memref argument without an extmemory gets a port-less one (as CIRCT emits for an unused memref).
* a value with several uses gets a ``fork``, one without uses a ``sink``.
* a ``handshake.memory`` that is not 1-D and static is ``CPL_CIRCT_FORM``.

The dataflow ops stay: CIRCT passes treat them as unregistered ops. ``lower-handshake-to-hw`` cannot
lower them (nor can ``lower-handshake-to-firrtl`` or the DC flow); they need LOOM's own back end.
"""

from __future__ import annotations

from loom.diagnostics import LoomError
from loom.ir.attributes import ArrayAttr, IntegerAttr, StringAttr, TypeAttr
from loom.ir.core import BlockArgument, Module, Operation, OpResult, Value, replace_all_uses
from loom.ir.types import FunctionType, IndexType, MemRefType, NoneType, i32
from loom.lower.clone import clone_op
from loom.semantics.handshake_ops import copied_value

CIRCT_FORM = "CPL_CIRCT_FORM"


def circt_form(module: Module) -> Module:
    """A copy of ``module`` whose handshake.funcs are in CIRCT's accepted form (see the module docstring)."""
    out = Module.empty(module.filename)
    out.explicit = module.explicit
    for op in module.body.ops:
        copy = clone_op(op, {})
        out.body.append(copy)
        if copy.name == "handshake.func" and copy.regions and copy.regions[0].blocks:
            _rewrite(copy)
    return out


def _rewrite(func: Operation) -> None:
    _dims_to_arguments(func)
    _check_memories(func)
    _extmemory_for_every_memref(func)
    _forks_and_sinks(func)


def _arg_names(func: Operation) -> list[str]:
    a = func.attributes.get("argNames")
    if isinstance(a, ArrayAttr) and all(isinstance(x, StringAttr) for x in a.elements):
        return [x.value for x in a.elements]  # type: ignore[union-attr]
    return [arg.name_hint or f"arg{k}" for k, arg in enumerate(func.regions[0].entry.args)]


def _insert_argument(func: Operation, name: str) -> BlockArgument:
    """A new index argument just before the trailing start token (or last), with type and argNames updated."""
    block = func.regions[0].entry
    names = _arg_names(func)
    pos = len(block.args) - 1 if block.args and isinstance(block.args[-1].type, NoneType) else len(block.args)
    arg = BlockArgument(block, pos, IndexType(), name)
    block.args.insert(pos, arg)
    for k, a in enumerate(block.args):
        a.index = k
    names.insert(pos, name)
    ft = func.attributes["function_type"]
    assert isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType)
    inputs = list(ft.type.inputs)
    inputs.insert(pos, IndexType())
    func.attributes["function_type"] = TypeAttr(FunctionType(tuple(inputs), ft.type.results))
    func.attributes["argNames"] = ArrayAttr(tuple(StringAttr(n) for n in names))
    return arg


def _fires_once(v: Value, start: Value) -> int | None:
    """The constant index ``v`` holds when it is a handshake.constant fired by (a copy of) the start token."""
    if not isinstance(v, OpResult) or v.op.name != "handshake.constant":
        return None
    value = v.op.attributes.get("value")
    if not isinstance(value, IntegerAttr) or copied_value(v.op.operands[0]) is not start:
        return None
    return value.value


def _dims_to_arguments(func: Operation) -> None:
    block = func.regions[0].entry
    start = block.args[-1] if block.args and isinstance(block.args[-1].type, NoneType) else None
    made: dict[tuple[int, int], BlockArgument] = {}
    for op in [o for o in block.ops if o.name == "memref.dim"]:
        mem = op.operands[0]
        if not (isinstance(mem, BlockArgument) and mem.block is block):
            continue
        k = _fires_once(op.operands[1], start) if start is not None else None
        if k is None:
            raise LoomError("--circt: this memref.dim is not read once per invocation (its index is not a constant "
                            "fired by the start token), so it cannot become an argument", op.loc, CIRCT_FORM)
        key = (id(mem), k)
        if key not in made:
            made[key] = _insert_argument(func, f"{_arg_names(func)[mem.index]}_dim{k}")
        replace_all_uses(func, op.results[0], made[key])
        block.remove(op)


def _check_memories(func: Operation) -> None:
    for op in func.regions[0].entry.ops:
        if op.name != "handshake.memory":
            continue
        mt = op.attributes.get("memRefType")
        t = mt.type if isinstance(mt, TypeAttr) else None
        if not isinstance(t, MemRefType) or t.rank != 1 or t.shape[0] is None:
            raise LoomError(f"--circt: CIRCT's handshake.memory must be 1-D with a static size, this one is {t}",
                            op.loc, CIRCT_FORM)


def _extmemory_for_every_memref(func: Operation) -> None:
    block = func.regions[0].entry
    for arg in block.args:
        if not isinstance(arg.type, MemRefType):
            continue
        users = [o for o in block.ops if any(v is arg for v in o.operands)]
        if any(u.name == "handshake.extmemory" for u in users):
            ext = next(u for u in users if u.name == "handshake.extmemory")
            block.remove(ext)  # CIRCT's verifier looks at the first user
            block.insert(0, ext)
            continue
        attrs = {"ldCount": IntegerAttr(0, i32), "stCount": IntegerAttr(0, i32), "id": IntegerAttr(len(block.ops), i32)}
        block.insert(0, Operation.create("handshake.extmemory", [arg], [], attrs, loc=func.loc))


def _forks_and_sinks(func: Operation) -> None:
    block = func.regions[0].entry
    uses: dict[int, list[tuple[Operation, int]]] = {}
    for op in block.ops:
        for i, v in enumerate(op.operands):
            uses.setdefault(id(v), []).append((op, i))
    values: list[Value] = list(block.args) + [r for op in list(block.ops) for r in op.results]
    term = block.terminator
    for v in values:
        if isinstance(v.type, MemRefType):
            continue
        here = uses.get(id(v), [])
        if len(here) == 1:
            continue
        at = _after(block, v)
        if not here:
            sink = Operation.create("handshake.sink", [v], [], loc=_loc(func, v))
            block.insert(len(block.ops) - 1 if term is not None else len(block.ops), sink)
            continue
        hint = v.name_hint
        fork = Operation.create("handshake.fork", [v], [v.type] * len(here), loc=_loc(func, v),
                                result_names=[f"{hint}_{j}" if hint else None for j in range(len(here))])
        block.insert(at, fork)
        for (op, i), r in zip(here, fork.results):
            op.operands[i] = r


def _after(block, v: Value) -> int:
    """Where a fork of ``v`` goes: right after its definition (arguments: at the top, after extmemories)."""
    if isinstance(v, OpResult):
        return block.ops.index(v.op) + 1
    k = 0
    while k < len(block.ops) and block.ops[k].name == "handshake.extmemory":
        k += 1
    return k


def _loc(func: Operation, v: Value):
    return v.op.loc if isinstance(v, OpResult) else func.loc
