"""Lift a multi-block ``func.func`` (cf.br / cf.cond_br) back to structured control flow.

What ``mlir-opt --convert-scf-to-cf`` (or a front end) prints as a CFG becomes
scf.while / scf.if again, so the lowering sees one block:

* a two-way branch becomes ``scf.if`` whose regions run up to the branch's
  immediate post-dominator (the merge block); the merge block's arguments are
  the if's results. Two branches that both end in ``func.return`` become an if
  yielding the returned values, followed by one return.
* a loop (header H, reached again by back edges) becomes ``scf.while``: the
  before region runs from H to the loop's single exiting block X and ends in
  ``scf.condition`` (negated when X stays in the loop on its false side); the
  after region runs from X's in-loop successor back to H. Values of the before
  part that are used later are forwarded through the condition.

Unstructured shapes (irreducible loops, several exits from one loop, a
``break`` out of a branch, a ``return`` inside a loop) are CPL_LOWER_UNSUPPORTED
at the branch that makes them so. The result is a new function; the source is
not changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from loom.dialects.cf import successor_operands
from loom.ir.attributes import BoolAttr
from loom.ir.core import Block, Operation, Region, Value
from loom.ir.dominance import dominator_sets
from loom.ir.types import Type, i1
from loom.lower.clone import clone_op
from loom.lower.memrefs import unsupported


class _Exit:
    """The virtual block after every ``func.return``."""


EXIT = _Exit()
Stop = Block | _Exit | None  # None: the function's top level (a return is emitted there)


@dataclass
class _Cfg:
    """Successors, dominators and post-dominators of a function body's blocks."""

    blocks: list[Block]
    succ: dict[int, list[Block]] = field(default_factory=dict)
    preds: dict[int, list[Block]] = field(default_factory=dict)
    dom: dict[int, set[int]] = field(default_factory=dict)
    pdom: dict[int, set[int]] = field(default_factory=dict)

    @staticmethod
    def build(all_blocks: list[Block]) -> _Cfg:
        """The CFG of the blocks reachable from the entry (unreachable ones never run and are dropped)."""
        seen: set[int] = set()
        work = [all_blocks[0]]
        while work:
            b = work.pop()
            if id(b) not in seen:
                seen.add(id(b))
                work.extend(b.terminator.successors if b.terminator is not None else [])
        blocks = [b for b in all_blocks if id(b) in seen]
        g = _Cfg(blocks)
        for b in blocks:
            g.succ[id(b)] = list(b.terminator.successors) if b.terminator is not None else []
            g.preds.setdefault(id(b), [])
        for b in blocks:
            for s in g.succ[id(b)]:
                g.preds.setdefault(id(s), []).append(b)
        g.dom = dominator_sets([id(b) for b in blocks], lambda b: [id(p) for p in g.preds[b]], [id(blocks[0])])
        exits = [b for b in blocks if not g.succ[id(b)]]
        g.pdom = dominator_sets([id(b) for b in blocks], lambda b: [id(x) for x in g.succ[b]],
                               [id(b) for b in exits])
        return g

    def dominates(self, a: Block, b: Block) -> bool:
        return id(a) in self.dom.get(id(b), set())

    def ipdom(self, b: Block) -> Block | _Exit:
        """The nearest block every path from ``b`` to a return passes (EXIT if none)."""
        strict = self.pdom.get(id(b), set()) - {id(b)}
        for c in self.blocks:  # the nearest strict post-dominator is post-dominated by all the others
            if id(c) in strict and strict - {id(c)} <= self.pdom.get(id(c), set()):
                return c
        return EXIT


@dataclass
class _Loop:
    header: Block
    blocks: set[int]


@dataclass
class _LoopExit:
    """Where a natural loop leaves: its exiting block's ``cf.cond_br``, the side that stays in the loop, and
    the loop's blocks before the exit condition and after it."""

    block: Block
    term: Operation
    k_in: int  # the successor index that stays in the loop
    s_in: Block
    s_out: Block
    before: set[int]
    after: set[int]


class _LoopLifting:
    """_Lifter's loops: a natural loop as an scf.while, carrying the values live across its back edge and out
    of it (a mixin; the CFG, ``env`` and the sequence emission are _Lifter's)."""

    def emit_loop(self, h: Block, out: Block) -> Block:
        """``scf.while`` for the loop headed by ``h``; returns the block the loop exits to (its args bound)."""
        loop = self.loop_of(h)
        loc = h.terminator.loc if h.terminator is not None else self.func.loc
        ex = self._loop_exit(h, loop, loc)
        live = self._live_out(ex.before, ex.after | (set(map(id, self.g.blocks)) - loop.blocks))
        inits = [self.env.get(a, a) for a in h.args]
        before, term, n_in, n_out, types = self._while_before(h, loop, ex, live)
        after = self._while_after(h, loop, ex, live, types, n_in, n_out, term)
        op = Operation.create("scf.while", inits, types, None, [Region.of(before), Region.of(after)], loc=loc)
        if any(a.type != v.type for a, v in zip(h.args, inits)):  # pragma: no cover - verified branch types
            raise unsupported("loop entry passes the wrong types", loc)
        out.append(op)
        res = list(op.results)
        for a, v in zip(ex.s_out.args, res[n_in : n_in + n_out]):
            self.env[a] = v
        for v, r in zip(live, res[n_in + n_out :]):
            self.env[v] = r
        return ex.s_out

    def _loop_exit(self, h: Block, loop: _Loop, loc) -> _LoopExit:
        """The loop's one exit: a ``cf.cond_br`` staying in the loop on one side, evaluated before the body."""
        exiting = [b for b in self.g.blocks if id(b) in loop.blocks
                   and any(id(s) not in loop.blocks for s in self.g.succ[id(b)])]
        if len(exiting) != 1:
            raise unsupported(f"a loop with {len(exiting)} exiting blocks is not supported (one exit condition "
                              "is)", loc)
        x = exiting[0]
        xt = x.terminator
        assert xt is not None
        if xt.name != "cf.cond_br":
            raise unsupported("a loop must leave through a cf.cond_br", xt.loc)
        inside = [k for k in (0, 1) if id(xt.successors[k]) in loop.blocks]
        if len(inside) != 1:
            raise unsupported("a loop's exit branch must stay in the loop on exactly one side", xt.loc)
        k_in = inside[0]
        s_in, s_out = xt.successors[k_in], xt.successors[1 - k_in]
        after_part = self._reach(s_in, loop) if s_in is not h else set()
        before_part = loop.blocks - after_part
        if id(x) not in before_part:
            raise unsupported("a loop's exit condition must be evaluated before its body", xt.loc)
        return _LoopExit(x, xt, k_in, s_in, s_out, before_part, after_part)

    def _while_before(self, h: Block, loop: _Loop, ex: _LoopExit,
                      live: list[Value]) -> tuple[Block, Operation, int, int, list[Type]]:
        """The ``before`` region: header to exit condition, then ``scf.condition`` forwarding the values the
        body takes, those the exit takes and those live after the loop; (block, the exit's cond_br, counts of
        the first two, forwarded types)."""
        before = Block.create([a.type for a in h.args], [a.name_hint for a in h.args])
        for a, na in zip(h.args, before.args):
            self.env[a] = na
        if h is ex.block:
            term = self._copy_body(h, before)
        else:
            got = self.emit_seq(h, ex.block, loop, before)
            assert got is not None
            for a, v in zip(ex.block.args, got):
                self.env[a] = v
            term = self._copy_body(ex.block, before)
        cond = self.env.get(term.operands[0], term.operands[0])
        if ex.k_in == 1:  # stays in the loop on the false side: continue while the condition is false
            true = Operation.create("arith.constant", [], [i1], {"value": BoolAttr(True)}, loc=term.loc)
            before.append(true)
            neg = Operation.create("arith.xori", [cond, true.results[0]], [i1], None, loc=term.loc)
            before.append(neg)
            cond = neg.results[0]
        in_vals = [self.env.get(v, v) for v in successor_operands(term, ex.k_in)]
        out_vals = [self.env.get(v, v) for v in successor_operands(term, 1 - ex.k_in)]
        live_vals = [self.env.get(v, v) for v in live]
        forwarded = in_vals + out_vals + live_vals
        before.append(Operation.create("scf.condition", [cond, *forwarded], [], None, loc=term.loc))
        types: list[Type] = [v.type for v in forwarded]
        return before, term, len(in_vals), len(out_vals), types

    def _while_after(self, h: Block, loop: _Loop, ex: _LoopExit, live: list[Value], types: list[Type],
                     n_in: int, n_out: int, term: Operation) -> Block:
        """The ``after`` region: the body from the side that stays back to the header, yielding its arguments."""
        after = Block.create(types)
        for v, na in zip(live, after.args[n_in + n_out :]):
            self.env[v] = na
        if ex.s_in is h:
            nxt = list(after.args[:n_in])
        else:
            for a, na in zip(ex.s_in.args, after.args[:n_in]):
                self.env[a] = na
            got = self.emit_seq(ex.s_in, h, loop, after)
            assert got is not None
            nxt = got
        after.append(Operation.create("scf.yield", nxt, [], None, loc=term.loc))
        return after

    def _reach(self, start: Block, loop: _Loop) -> set[int]:
        """Loop blocks reachable from ``start`` without passing the header."""
        seen: set[int] = set()
        work = [start]
        while work:
            b = work.pop()
            if id(b) in seen or b is loop.header or id(b) not in loop.blocks:
                continue
            seen.add(id(b))
            work.extend(self.g.succ[id(b)])
        return seen

    def _live_out(self, defs: set[int], users: set[int]) -> list[Value]:
        """Values defined in blocks ``defs`` and used (also in nested regions) by ops of blocks ``users``."""
        defined: list[Value] = []
        for b in self.g.blocks:
            if id(b) in defs:
                defined.extend(b.args)
                for op in b.ops:
                    defined.extend(op.results)
        wanted = {id(v) for v in defined}
        used: set[int] = set()
        for b in self.g.blocks:
            if id(b) in users:
                for top in b.ops:
                    for op in top.walk():
                        used.update(id(v) for v in op.operands if id(v) in wanted)
        return [v for v in defined if id(v) in used]


class _Lifter(_LoopLifting):
    """Emits structured ops for a CFG, mapping CFG values to the new ones in ``env``: sequences and branches
    here, loops by ``_LoopLifting``."""

    def __init__(self, func: Operation) -> None:
        self.func = func
        self.g = _Cfg.build(func.regions[0].blocks)
        self.env: dict[Value, Value] = {}
        self.budget = 8 * sum(len(b.ops) for b in self.g.blocks) + 64  # guards against duplication blow-up
        self._check_reducible()

    # ------------------------------------------------------------------ analysis
    def _check_reducible(self) -> None:
        """Every edge to a block still on the DFS stack must go to a dominator (a back edge)."""
        on_stack: set[int] = set()
        seen: set[int] = set()

        def dfs(b: Block) -> None:
            seen.add(id(b))
            on_stack.add(id(b))
            for s in self.g.succ[id(b)]:
                if id(s) in on_stack and not self.g.dominates(s, b):
                    raise unsupported("irreducible control flow (a loop with several entries) is not supported",
                                      b.terminator.loc if b.terminator else self.func.loc)
                if id(s) not in seen:
                    dfs(s)
            on_stack.discard(id(b))

        dfs(self.g.blocks[0])

    def is_header(self, b: Block) -> bool:
        return any(self.g.dominates(b, p) for p in self.g.preds[id(b)])

    def loop_of(self, h: Block) -> _Loop:
        """The natural loop of ``h``: the blocks that reach a back edge to ``h`` without passing ``h``."""
        body = {id(h)}
        work = [p for p in self.g.preds[id(h)] if self.g.dominates(h, p)]
        while work:
            b = work.pop()
            if id(b) not in body:
                body.add(id(b))
                work.extend(self.g.preds[id(b)])
        return _Loop(h, body)

    # ------------------------------------------------------------------ emission
    def emit_seq(self, b: Block, stop: Stop, loop: _Loop | None, out: Block) -> list[Value] | None:
        """Emit from ``b`` until a branch to ``stop``; returns the values passed to ``stop`` (None: returned)."""
        while True:
            if self.is_header(b) and (loop is None or b is not loop.header):
                nxt = self.emit_loop(b, out)
                if nxt is stop:  # the loop exits right into the block this sequence stops at
                    return [self.env[a] for a in nxt.args]
                if loop is not None and id(nxt) not in loop.blocks:
                    raise unsupported("a loop that exits out of its enclosing loop (break) is not supported",
                                      b.terminator.loc if b.terminator else self.func.loc)
                b = nxt
                continue
            term = self._copy_body(b, out)
            if term.name == "func.return":
                vals = [self.env.get(v, v) for v in term.operands]
                if stop is EXIT:
                    return vals
                if stop is not None or loop is not None:
                    raise unsupported("a return inside a loop or a branch that does not rejoin is not supported",
                                      term.loc)
                out.append(Operation.create("func.return", vals, [], dict(term.attributes), loc=term.loc))
                return None
            if term.name == "cf.br":
                target = term.successors[0]
                args = [self.env.get(v, v) for v in term.operands]
                if target is stop:
                    return args
                self._bind(target, args, loop, term)
                b = target
                continue
            if term.name != "cf.cond_br":
                raise unsupported(f"block terminator '{term.name}' is not supported", term.loc)
            merge = self.g.ipdom(b)
            if merge is EXIT and stop is not EXIT and (stop is not None or loop is not None):
                raise unsupported("branches that leave through separate returns inside a loop are not supported",
                                  term.loc)
            if isinstance(merge, Block) and merge is not stop and loop is not None and id(merge) not in loop.blocks:
                raise unsupported("a branch out of a loop body (break) is not supported", term.loc)
            until: Stop = EXIT if merge is EXIT else merge
            values = self.emit_if(term, until, loop, out)
            if merge is EXIT:
                if stop is EXIT:
                    return values
                out.append(Operation.create("func.return", values, [], None, loc=term.loc))
                return None
            assert isinstance(merge, Block)
            if merge is stop:
                return values
            self._bind(merge, values, loop, term)
            b = merge

    def _copy_body(self, b: Block, out: Block) -> Operation:
        term = b.terminator
        if term is None:  # pragma: no cover - the verifier rejects empty blocks
            raise unsupported("empty block", self.func.loc)
        self.budget -= len(b.ops)
        if self.budget < 0:
            raise unsupported("control flow too tangled to structure without duplicating code", term.loc)
        for op in b.ops[:-1]:
            out.append(clone_op(op, self.env))
        return term

    def _bind(self, target: Block, args: list[Value], loop: _Loop | None, at: Operation) -> None:
        if loop is not None and id(target) not in loop.blocks:
            raise unsupported("a branch out of a loop body (break) is not supported", at.loc)
        for a, v in zip(target.args, args):
            self.env[a] = v

    def emit_if(self, term: Operation, until: Stop, loop: _Loop | None, out: Block) -> list[Value]:
        """``scf.if`` over the two successors of ``term``, each emitted until ``until``."""
        cond = self.env.get(term.operands[0], term.operands[0])
        sides: list[tuple[Block, list[Value]]] = []
        for k in (0, 1):
            target = term.successors[k]
            region_block = Block()
            args = [self.env.get(v, v) for v in successor_operands(term, k)]
            if target is until:
                vals = args
            else:
                if isinstance(until, Block) and loop is not None and id(target) not in loop.blocks:
                    raise unsupported("a branch out of a loop body (break) is not supported", term.loc)
                for a, v in zip(target.args, args):
                    self.env[a] = v
                got = self.emit_seq(target, until, loop, region_block)
                assert got is not None
                vals = got
            sides.append((region_block, vals))
        types = [v.type for v in sides[0][1]]
        if types != [v.type for v in sides[1][1]]:  # pragma: no cover - the verifier checks branch operand types
            raise unsupported("branches pass different types to their merge block", term.loc)
        for region_block, vals in sides:
            region_block.append(Operation.create("scf.yield", vals, [], None, loc=term.loc))
        op = Operation.create("scf.if", [cond], types, None, [Region.of(sides[0][0]), Region.of(sides[1][0])],
                              loc=term.loc)
        out.append(op)
        return list(op.results)

def lift_cfg(func: Operation) -> Operation:
    """A single-block copy of multi-block ``func`` in scf form (``func`` itself if it has one block)."""
    body = func.regions[0]
    if len(body.blocks) <= 1:
        return func
    lifter = _Lifter(func)
    entry = body.blocks[0]
    new_entry = Block.create([a.type for a in entry.args], [a.name_hint for a in entry.args])
    for a, na in zip(entry.args, new_entry.args):
        lifter.env[a] = na
    lifter.emit_seq(entry, None, None, new_entry)
    return Operation.create(func.name, [], [], dict(func.attributes), [Region.of(new_entry)], loc=func.loc)

