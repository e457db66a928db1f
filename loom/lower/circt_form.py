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
* a function result that is an ``extmemory`` result (a done token) goes through a one-input ``join``:
  CIRCT's ``handshake-lower-extmem-to-hw`` cannot rewrite a return operand it replaces by a port.
* a value with several uses gets a ``fork``, one without uses a ``sink``.
* a multi-dimensional static ``handshake.memory`` is flattened to 1-D: each port's address tuple
  becomes the row-major linear index (``arith.muli``/``addi`` by stride constants that a
  ``handshake.source`` fires, CIRCT's idiom for a constant without control). A dynamic one is
  ``CPL_CIRCT_FORM``.

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
    for op in [o for o in func.regions[0].entry.ops if o.name == "handshake.memory"]:
        _flatten(func, op)
    _extmemory_for_every_memref(func)
    _memory_results_through_join(func)
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
        if not isinstance(t, MemRefType) or t.rank < 1 or any(d is None for d in t.shape):
            raise LoomError(f"--circt: CIRCT's handshake.memory must have a static size, this one is {t}",
                            op.loc, CIRCT_FORM)


def _flatten(func: Operation, mem: Operation) -> None:
    """Make a multi-dimensional memory 1-D: each port's addresses become one row-major linear index."""
    mt = mem.attributes["memRefType"].type  # type: ignore[union-attr]
    rank = mt.rank
    if rank == 1:
        return
    block = func.regions[0].entry
    ld, st = mem.attributes["ldCount"].value, mem.attributes["stCount"].value  # type: ignore[union-attr]
    strides, acc = [], 1
    for d in reversed(mt.shape):
        strides.append(acc)
        acc *= d
    strides.reverse()
    at = block.ops.index(mem)
    made: list[Operation] = []

    def emit(name: str, operands: list[Value], attrs=None) -> Value:
        op = Operation.create(name, operands, [IndexType()], attrs or {}, loc=mem.loc)
        made.append(op)
        return op.results[0]

    source = None

    def const(k: int) -> Value:
        nonlocal source
        if source is None:
            source = Operation.create("handshake.source", [], [NoneType()], loc=mem.loc)
            made.append(source)
        return emit("handshake.constant", [source.results[0]], {"value": IntegerAttr(k, IndexType())})

    def linear(addrs: list[Value]) -> Value:
        total = None
        for a, s in zip(addrs, strides):
            term = a if s == 1 else emit("arith.muli", [a, const(s)])
            total = term if total is None else emit("arith.addi", [total, term])
        assert total is not None
        return total

    ports = list(mem.operands)
    new_ports: list[Value] = []
    for k in range(st):
        chunk = ports[k * (1 + rank): (k + 1) * (1 + rank)]
        new_ports += _relinked(block, chunk[0], chunk[1:], linear, True)
    base = st * (1 + rank)
    for k in range(ld):
        new_ports += _relinked(block, None, ports[base + k * rank: base + (k + 1) * rank], linear, False)
    mem.operands = new_ports
    mem.attributes["memRefType"] = TypeAttr(MemRefType((acc,), mt.element))
    for op in made:
        block.insert(at, op)
        at += 1


def _relinked(block, data: Value | None, addrs: list[Value], linear, store: bool) -> list[Value]:
    """The port operands after flattening. When the port is fed by one handshake.load/store (the lowering's
    shape), that op is rebuilt to take the linear index itself, so its address result still goes straight
    to the port (what loom's memory checks expect); otherwise the linear index is computed at the port."""
    owner = addrs[0].op if isinstance(addrs[0], OpResult) else None
    direct = (owner is not None and owner.name in ("handshake.load", "handshake.store")
              and list(owner.results[1:]) == addrs and (not store or owner.results[0] is data))
    if not direct:
        return ([data] if store else []) + [linear(addrs)]
    assert owner is not None
    n = len(addrs)
    lin = linear(list(owner.operands[:n]))
    new = Operation.create(owner.name, [lin] + list(owner.operands[n:]), [owner.results[0].type, IndexType()],
                           dict(owner.attributes), loc=owner.loc,
                           result_names=[owner.results[0].name_hint, owner.results[1].name_hint])
    block.insert(block.ops.index(owner), new)
    block.remove(owner)
    func = block.parent_op
    replace_all_uses(func, owner.results[0], new.results[0])
    return ([new.results[0]] if store else []) + [new.results[1]]


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


def _memory_results_through_join(func: Operation) -> None:
    """A function result taken straight from an ``extmemory`` goes through a one-input ``join`` (the same
    tokens): CIRCT's ``handshake-lower-extmem-to-hw`` replaces the extmemory's results by new ports and
    leaves such a return operand without a type (its verifier then fails, CIRCT wheel 1.62)."""
    block = func.regions[0].entry
    term = block.terminator
    if term is None:
        return
    for i, v in enumerate(term.operands):
        if isinstance(v, OpResult) and v.op.name == "handshake.extmemory":
            join = Operation.create("handshake.join", [v], [v.type], loc=v.op.loc,
                                    result_names=[f"{v.name_hint}_out" if v.name_hint else None])
            block.insert(block.ops.index(term), join)
            term.operands[i] = join.results[0]


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
