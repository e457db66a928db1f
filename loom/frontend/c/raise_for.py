"""SCF stage: lift_cf's scf.while/scf.if, then counted ``scf.while`` loops recognised as ``scf.for``
(loops tested at the top, and do-while loops: ``for %i = init to max(n, init + 1)``).

A while loop is a for loop when its before region only compares one carried value ``i`` with a bound
defined outside the loop (``i < n``, ``i <= n``, ``n > i``; signed, or unsigned with step 1) and forwards
the carried values unchanged, and its body yields ``i + c`` for a constant ``c > 0``. The trip count is then
computable and the loop becomes ``scf.for %i = init to n step c`` (``n + 1`` for ``<=``: C's signed
overflow is undefined, so the C loop never reaches ``INT_MAX + 1``). The value of ``i`` after the loop must
be unused (else the loop stays a while, which is still right).
"""

from __future__ import annotations

from loom.ir.attributes import IntegerAttr, UnitAttr
from loom.ir.core import Block, Operation, Region, Value, replace_all_uses
from loom.lower.clone import clone_op
from loom.semantics.predicates import CMPI_PREDICATES

SWAP = {"sgt": "slt", "sge": "sle", "ugt": "ult", "uge": "ule", "slt": "sgt", "sle": "sge", "ult": "ugt",
        "ule": "uge", "eq": "eq", "ne": "ne"}


def raise_module(module):
    """The module with multi-block functions lifted to scf (lift_cf) and counted while loops made scf.for."""
    from loom.frontend.c.exits import single_exit_loops
    from loom.lower.lift_cf import lift_cfg

    for i, op in enumerate(list(module.body.ops)):
        if op.name == "func.func" and op.regions and op.regions[0].blocks:
            single_exit_loops(op)
            new = lift_cfg(op)
            if new is not op:
                module.body.ops[i] = new
                new.parent = module.body
            raise_loops(new)
            drop_dead(new)
    return module


def raise_loops(func: Operation) -> None:
    """Every counted scf.while under ``func`` (innermost first) replaced by an scf.for."""
    for op in [o for o in func.walk() if o.name == "scf.while"][::-1]:
        _hoist_invariants(op)
        loop = _counted(op)
        if loop is not None:
            _rewrite(func, op, *loop)
            continue
        rotated = _counted_do_while(op)
        if rotated is not None:
            _rewrite_do_while(func, op, *rotated)


def _hoist_invariants(op: Operation) -> None:
    """Move the arith/math ops of a while loop's before region whose operands come from outside the loop
    (``i < n - 1``, ``i < N * M``) to just before it. The before region runs at least once, so this only
    computes them once instead of on every test, and the bound becomes a value defined outside."""
    before = op.regions[0].blocks[0]
    block = op.parent
    inside = set(before.args)
    for o in list(before.ops):
        movable = o.dialect in ("arith", "math") and not o.regions and all(v not in inside for v in o.operands)
        if movable:
            before.remove(o)
            block.insert(block.ops.index(op), o)
        else:
            inside.update(o.results)


def _const_int(v: Value):
    d = v.owner if hasattr(v, "op") or type(v).__name__ == "OpResult" else None
    if d is not None and d.name == "arith.constant":
        a = d.attributes.get("value")
        if isinstance(a, IntegerAttr):
            return a.value
    return None


def _counted(op: Operation):
    """(iv position, bound value, inclusive, unsigned, step value) if ``op`` is a counted loop, else None."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    cond = before.terminator
    if cond is None or cond.name != "scf.condition":
        return None
    others = [o for o in before.ops if o is not cond]
    cmps = [o for o in others if o.name == "arith.cmpi"]
    if len(cmps) != 1 or any(o.name != "arith.constant" for o in others if o is not cmps[0]):
        return None
    cmp = cmps[0]
    if cond.operands[0] is not cmp.results[0]:
        return None
    pred = CMPI_PREDICATES[cmp.attributes["predicate"].value]
    lhs, rhs = cmp.operands
    if lhs in before.args and rhs not in before.args:
        iv, bound = lhs, rhs
    elif rhs in before.args and lhs not in before.args:
        iv, bound, pred = rhs, lhs, SWAP[pred]
    else:
        return None
    if pred not in ("slt", "sle", "ult"):
        return None
    if bound.owner.parent is before if type(bound).__name__ == "OpResult" else False:
        if bound.owner.name != "arith.constant":
            return None
    k = before.args.index(iv)
    forwarded = list(cond.operands[1:])
    if forwarded.count(iv) != 1:
        return None
    for v in forwarded:  # each forwarded value: a carried value, or a constant of the before region
        if v not in before.args and not (type(v).__name__ == "OpResult" and v.owner.name == "arith.constant"):
            return None
    p = forwarded.index(iv)
    y = after.terminator
    if y is None or y.name != "scf.yield":
        return None
    nxt = y.operands[k]
    if type(nxt).__name__ != "OpResult" or nxt.owner.name != "arith.addi":
        return None
    a, b = nxt.owner.operands
    step = b if a is after.args[p] else a if b is after.args[p] else None
    c = _const_int(step) if step is not None else None
    if c is None or c <= 0 or (pred == "ult" and c != 1):
        return None
    if any(_used(op.results[p], op.parent)):
        return None
    return k, p, bound, pred == "sle", pred == "ult", step


def _used(v: Value, block: Block):
    for o in block.ops:
        for inner in o.walk():
            if v in inner.operands:
                yield inner


def _rewrite(func: Operation, op: Operation, k: int, p: int, bound: Value, inclusive: bool, unsigned: bool,
             step: Value) -> None:
    """Replace while ``op`` by the scf.for it counts (see the module docstring)."""
    block = op.parent
    at = block.ops.index(op)
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    cond = before.terminator
    t = op.operands[k].type
    outside: dict[Value, Value] = {}

    def hoist(v: Value) -> Value:
        """``v`` usable before the loop (a constant of the before/after region is copied out)."""
        nonlocal at
        if type(v).__name__ == "OpResult" and v.owner.name == "arith.constant" and \
                (v.owner.parent is before or v.owner.parent is after):
            if v not in outside:
                c = clone_op(v.owner, {})
                block.insert(at, c)
                at += 1
                outside[v] = c.results[0]
            return outside[v]
        return v

    ub = hoist(bound)
    st = hoist(step)
    if inclusive:
        one = Operation.create("arith.constant", [], [t], {"value": IntegerAttr(1, t)}, loc=op.loc)
        add = Operation.create("arith.addi", [ub, one.results[0]], [t], loc=op.loc)
        block.insert(at, one)
        block.insert(at + 1, add)
        at += 2
        ub = add.results[0]
    carried, body, env = _for_body(before, k, t)
    for o in before.ops:
        if o is not cond and o.name == "arith.constant":
            body.append(clone_op(o, env))
    for b_arg, f in zip(after.args, cond.operands[1:]):
        env[b_arg] = env.get(f, f)
    y = after.terminator
    for o in after.ops:
        if o is not y:
            body.append(clone_op(o, env))
    body.append(Operation.create("scf.yield", [env.get(y.operands[i], y.operands[i]) for i in carried],
                                 loc=y.loc))
    attrs = {"unsignedCmp": UnitAttr()} if unsigned else {}
    new = Operation.create("scf.for", [op.operands[k], ub, st] + [op.operands[i] for i in carried],
                           [before.args[i].type for i in carried], attrs, [Region.of(body)], loc=op.loc)
    block.insert(at, new)
    result_of = {i: new.results[j] for j, i in enumerate(carried)}
    for r, f in zip(op.results, cond.operands[1:]):
        if f in before.args:
            i = before.args.index(f)
            if i != k:
                replace_all_uses(func, r, result_of[i])
        else:  # a constant of the before region, forwarded
            replace_all_uses(func, r, hoist(f))
    block.remove(op)


def drop_dead(func: Operation) -> None:
    """Remove arith/math ops whose results nothing uses (the counters scf.for replaced, repeated constants)."""
    while True:
        used = {id(v) for o in func.walk() for v in o.operands}
        dead = [o for o in func.walk() if o.dialect in ("arith", "math") and o.results
                and not any(id(r) in used for r in o.results)]
        if not dead:
            return
        for o in dead:
            o.parent.remove(o)


def _counted_do_while(op: Operation):
    """A do-while counting loop (``do { ... i += c; } while (i < n)``): its before region is the whole body
    and ends testing ``i + c < n`` with ``n`` from outside; the after region only passes the values back.
    Returns (k: the counter's position, next value, bound, unsigned, step) or None."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    cond, y = before.terminator, after.terminator
    if cond is None or cond.name != "scf.condition" or y is None or y.name != "scf.yield" or len(after.ops) != 1:
        return None
    forwarded = list(cond.operands[1:])
    # the after region passes forwarded value f back as carried value j: yield[j] = after.args[p], f = fwd[p]
    back = []
    for v in y.operands:
        if v not in after.args:
            return None
        back.append(forwarded[after.args.index(v)])
    c = cond.operands[0]
    if type(c).__name__ != "OpResult" or c.owner.name != "arith.cmpi" or c.owner.parent is not before:
        return None
    cmp = c.owner
    if sum(1 for o in before.ops for x in o.walk() if c in x.operands) != 1:
        return None
    pred = CMPI_PREDICATES[cmp.attributes["predicate"].value]
    nxt, bound = cmp.operands
    if pred not in ("slt", "ult") or type(nxt).__name__ != "OpResult" or nxt.owner.name != "arith.addi":
        return None
    if type(bound).__name__ == "OpResult" and any(bound.owner is o for o in before.walk()) or bound in before.args:
        return None
    if nxt not in back or any(f not in back for f in forwarded):
        return None  # a value forwarded only to the code after the loop: not raised
    k = back.index(nxt)
    a, b = nxt.owner.operands
    step = b if a is before.args[k] else a if b is before.args[k] else None
    st = _const_int(step) if step is not None else None
    if st is None or st <= 0 or (pred == "ult" and st != 1):
        return None
    if any(_used(op.results[forwarded.index(nxt)], op.parent)) or forwarded.count(nxt) != 1:
        return None
    return k, back, bound, pred == "ult", step


def _rewrite_do_while(func: Operation, op: Operation, k: int, back: list, bound: Value, unsigned: bool,
                      step: Value) -> None:
    """``for %i = init to max(n, init + 1) step c``: the body runs for ``init`` and then while ``i + c < n``."""
    block = op.parent
    at = block.ops.index(op)
    before = op.regions[0].blocks[0]
    cond = before.terminator
    init = op.operands[k]
    t = init.type
    loc = op.loc

    def put(o: Operation) -> Value:
        nonlocal at
        block.insert(at, o)
        at += 1
        return o.results[0]

    st = step
    if type(step).__name__ == "OpResult" and step.owner.parent is not block:
        st = put(clone_op(step.owner, {}))
    one = put(Operation.create("arith.constant", [], [t], {"value": IntegerAttr(1, t)}, loc=loc))
    first_end = put(Operation.create("arith.addi", [init, one], [t], loc=loc))
    ub = put(Operation.create("arith.maxui" if unsigned else "arith.maxsi", [bound, first_end], [t], loc=loc))
    carried, body, env = _for_body(before, k, t)
    for o in before.ops:
        if o is not cond and o is not cond.operands[0].owner:
            body.append(clone_op(o, env))
    body.append(Operation.create("scf.yield", [env.get(back[j], back[j]) for j in carried], loc=loc))
    attrs = {"unsignedCmp": UnitAttr()} if unsigned else {}
    new = Operation.create("scf.for", [init, ub, st] + [op.operands[j] for j in carried],
                           [before.args[j].type for j in carried], attrs, [Region.of(body)], loc=loc)
    block.insert(at, new)
    forwarded = list(cond.operands[1:])
    for r, f in zip(op.results, forwarded):
        if f in back and back.index(f) != k:
            replace_all_uses(func, r, new.results[carried.index(back.index(f))])
        # else the counter after the loop: unused (checked by _counted_do_while)
    block.remove(op)


def _for_body(before: Block, k: int, t) -> tuple[list[int], Block, dict[Value, Value]]:
    """The scf.for body that replaces a while loop's before-region: the induction (argument ``k``, of type
    ``t``) first, then the other carried arguments; and the map from the before-region's arguments to them."""
    carried = [i for i in range(len(before.args)) if i != k]
    body = Block.create([t] + [before.args[i].type for i in carried],
                        [before.args[k].name_hint] + [before.args[i].name_hint for i in carried])
    env: dict[Value, Value] = {before.args[k]: body.args[0]}
    for j, i in enumerate(carried):
        env[before.args[i]] = body.args[1 + j]
    return carried, body, env
