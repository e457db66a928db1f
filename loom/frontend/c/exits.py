"""CF -> CF: a loop with several exits (``break``, ``return`` in a loop, ``&&`` tests) gets one exit.

lift_cf raises a loop whose exits leave from one block. For a loop with several exit edges
``B_k -> T_k(args_k)`` (the header's own test is one of them), every exit edge and every back edge is
redirected to one new latch ``L(sel, header values, payload_1, ..., payload_K)``: a back edge passes
``sel = 0`` and the header's values, exit ``k`` passes ``sel = k`` and its target's arguments as
``payload_k`` (the other slots get zero constants, never read). ``L`` continues to the header when
``sel == 0``, else leaves to a chain of blocks that branches to ``T_k(payload_k)`` when ``sel == k``. So
the loop is a do-while whose only exiting block is ``L``: lift_cf makes it an ``scf.while``, and the
branches to ``L`` inside the body are ``scf.if``s yielding ``sel``. Loops are handled innermost first,
so an exit that leaves two loops goes through both latches. Values defined in a loop are only used
outside it through its exit blocks' arguments: loom's LLVM pipeline ends with LCSSA.
"""

from __future__ import annotations

from loom.dialects.cf import successor_operands
from loom.ir.attributes import DenseArrayAttr, FloatAttr, IntegerAttr
from loom.ir.core import Block, Operation, Value
from loom.ir.location import UNKNOWN
from loom.ir.types import FloatType, IntegerType, Type, i1

_I32 = IntegerType(32)
_I64 = IntegerType(64)
_LOC = [UNKNOWN]  # the location of the ops of new blocks: the loop header's (set per loop)


def _const(block: Block, at: int, t: Type, v: int) -> Value:
    attr = FloatAttr(float(v), t) if isinstance(t, FloatType) else IntegerAttr(v, t)
    loc = block.ops[min(at, len(block.ops) - 1)].loc if block.ops else _LOC[0]
    op = Operation.create("arith.constant", [], [t], {"value": attr}, loc=loc)
    block.insert(at, op)
    return op.results[0]


def _br(target: Block, args: list[Value], loc) -> Operation:
    op = Operation.create("cf.br", list(args), loc=loc)
    op.successors = [target]
    return op


def _cond_br(cond: Value, t: Block, t_args: list[Value], f: Block, f_args: list[Value], loc) -> Operation:
    op = Operation.create("cf.cond_br", [cond, *t_args, *f_args],
                          attributes={"operandSegmentSizes": DenseArrayAttr(_I32, (1, len(t_args), len(f_args)))},
                          loc=loc)
    op.successors = [t, f]
    return op


def _natural_loops(blocks: list[Block]) -> list[tuple[Block, set[int]]]:
    """(header, ids of the loop's blocks) of every natural loop, innermost (smallest) first."""
    from loom.lower.lift_cf import _Cfg

    g = _Cfg.build(blocks)
    loops: dict[int, tuple[Block, set[int]]] = {}
    for b in g.blocks:
        for s in g.succ[id(b)]:
            if g.dominates(s, b):  # a back edge b -> s
                header, body = loops.setdefault(id(s), (s, {id(s)}))
                work = [b]
                while work:
                    x = work.pop()
                    if id(x) not in body:
                        body.add(id(x))
                        work.extend(g.preds[id(x)])
    return sorted(loops.values(), key=lambda hb: len(hb[1]))


def single_exit_loops(func: Operation) -> None:
    """Give every loop of ``func``'s CFG with several exit edges a single exiting latch (in place)."""
    region = func.regions[0]
    done: set[int] = set()
    while True:
        for header, body in _natural_loops(region.blocks):
            if id(header) in done:
                continue
            done.add(id(header))
            if _rewrite(region, header, body):
                break  # the CFG changed: find the loops again
        else:
            return


def _exits(region, body: set[int]) -> list[tuple[Block, int]]:
    """(block, successor position) of every edge from the loop to outside it."""
    out = []
    for b in region.blocks:
        if id(b) in body and b.terminator is not None:
            for k, s in enumerate(b.terminator.successors):
                if id(s) not in body:
                    out.append((b, k))
    return out


def _rewrite(region, header: Block, body: set[int]) -> bool:
    exits = _exits(region, body)
    if len({id(b) for b, _ in exits}) <= 1:
        return False  # one exiting block: lift_cf raises it as it is
    head_types = [a.type for a in header.args]
    targets = [b.terminator.successors[k] for b, k in exits]
    payload_types = [[a.type for a in t.args] for t in targets]
    latch = Block.create([_I32, *head_types, *(t for ts in payload_types for t in ts)])
    region.add_block(latch)
    sel, head_vals = latch.args[0], latch.args[1:1 + len(head_types)]
    slots, pos = [], 1 + len(head_types)
    for ts in payload_types:
        slots.append(latch.args[pos:pos + len(ts)])
        pos += len(ts)

    def redirect(block: Block, k: int, code: int, head: list[Value] | None, which: int | None) -> None:
        """Point successor ``k`` of ``block``'s terminator at the latch with the given selector and values."""
        term = block.terminator
        assert term is not None
        old = successor_operands(term, k)
        at = len(block.ops) - 1
        vals = [_const(block, at, _I32, code)]
        at += 1
        for t, v in zip(head_types, head if head is not None else [None] * len(head_types)):
            if v is None:
                v = _const(block, at, t, 0)
                at += 1
            vals.append(v)
        for j, ts in enumerate(payload_types):
            for n, t in enumerate(ts):
                if j == which:
                    vals.append(old[n])
                else:
                    vals.append(_const(block, at, t, 0))
                    at += 1
        term = block.terminator
        groups = [successor_operands(term, i) for i in range(len(term.successors))]
        groups[k] = vals
        succs = list(term.successors)
        succs[k] = latch
        block.remove(term)
        if term.name == "cf.br":
            block.append(_br(latch, vals, term.loc))
        else:
            block.append(_cond_br(term.operands[0], succs[0], groups[0], succs[1], groups[1], term.loc))

    for j, (b, k) in enumerate(exits):
        redirect(b, k, j + 1, None, j)
    for b in list(region.blocks):  # back edges
        if id(b) in body and b.terminator is not None:
            for k, s in enumerate(list(b.terminator.successors)):
                if s is header:
                    redirect(b, k, 0, successor_operands(b.terminator, k), None)
    loc = header.ops[0].loc if header.ops else UNKNOWN
    _LOC[0] = loc
    # the dispatch chain after the latch: sel == j + 1 -> targets[j](payload_j)
    chain = [Block.create() for _ in exits[1:]]
    for c in chain:
        region.add_block(c)
    zero = _const(latch, 0, _I32, 0)
    stay = Operation.create("arith.cmpi", [sel, zero], [i1], {"predicate": IntegerAttr(0, _I64)}, loc=loc)
    latch.append(stay)
    first = chain[0] if chain else targets[0]
    latch.append(_cond_br(stay.results[0], header, list(head_vals), first,
                          [] if chain else list(slots[0]), loc))
    for j, c in enumerate(chain):
        code = _const(c, 0, _I32, j + 1)
        eq = Operation.create("arith.cmpi", [sel, code], [i1], {"predicate": IntegerAttr(0, _I64)}, loc=loc)
        c.append(eq)
        nxt = chain[j + 1] if j + 1 < len(chain) else targets[j + 1]
        nxt_args = [] if j + 1 < len(chain) else list(slots[j + 1])
        c.append(_cond_br(eq.results[0], targets[j], list(slots[j]), nxt, nxt_args, loc))
    return True
