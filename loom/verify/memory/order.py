"""Obligation 4: per-domain memory ordering, proved for every trip count and branch outcome.

For each memory domain, the ctrl-done network is read back into the structure the
serial-recursive algorithm builds (``recover``): a tree of sequences, parallel
groups (a token used several times, rejoined by ``handshake.join``), loops (a
``dataflow.carry`` whose output starts the body and whose feedback is the true side
of the loop's exit ``cond_br``, both reading the same condition stream) and
branches (``cond_br`` of the token, rejoined by a ``mux`` selected by the same
condition). Each access instance is then identified by the iteration numbers of
the loops around it, and the happens-before relation of the network is a formula
over two such vectors: along the common loops, earlier iterations (and the
before-region of an iteration before its after-region) come first; in a
sequence, the earlier item; in a parallel group, nothing; in a branch, the two
sides never both run in one instance.

``mem.<D>.order.<X><<Y>`` (for every pair of accesses of domain D with at least
one store, X = Y for a store across its own iterations) is one Z3 query over the
iteration numbers (symbolic, unbounded, >= 0): "some instances of X and Y that
must be ordered are not ordered by the network". Which order is required:

* with the SCF source (``source``: the func.func the DFG was lowered from,
  accesses matched by location) -- the source's program order;
* without it -- any order: the two instances must simply not race.

The violation formula has a fixed shape (a lexicographic comparison of the
common loops' positions, then one constant at the first structural difference),
so ``pair_violation_possible`` decides its satisfiability exactly without a
solver; a query it shows unsatisfiable is proved without building it (unless
SMT-LIB2 output is requested: then it is built, printed and solved), anything
else is solved by Z3 as before. ``tests/unit/verify/test_verify_memory_structural.py`` checks
the two deciders agree on every pair of the examples, the corpus, broken mutants
and generated kernels.

Loads of one RAR group may overlap (no obligation for two loads). A refutation
names both access instances with their iteration numbers and a schedule that
runs them in the wrong order (or concurrently). A network the recovery does not
understand gives ``mem.<D>.order`` = unknown with the reason, never proved.
The proofs assume the network is balanced (obligation 2): that every carry and
exit branch of one loop, and every branch and its merge, see aligned condition
streams, which ``recover`` checks syntactically (the same SSA stream).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

import z3

from loom.ir.attributes import IntegerAttr
from loom.ir.core import Operation, OpResult, Value
from loom.ir.location import Location
from loom.semantics.handshake_ops import copied_value, is_copy
from loom.verify.ids import oid as obligation_id
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.solve import QuerySession, conjunction, disjunction
from loom.verify.memory.structure import (
    ACCESS_OPS,
    Access,
    Domain,
    Layout,
    done_domains,
    forward_values,
    memory_layout,
)

PAIR_LIMIT = 600  # beyond this many pairs in one domain, pairs are checked in batches


class Unrecognized(Exception):
    """The ctrl-done network of a domain does not have the serial-recursive shape."""


@dataclass(eq=False)
class Node:
    """A node of the recovered structure: seq, par, loop (children [pre, post]), if ([then, else]) or acc."""

    kind: str
    children: list["Node"] = field(default_factory=list)
    access: Optional[Access] = None
    op: Optional[Operation] = None
    label: str = ""


@dataclass
class Stop:
    """Why a walk along the chain stopped."""

    kind: str  # return | join | mux | feedback | exit | dead
    op: Optional[Operation] = None
    idx: int = 0
    loop: Optional[Operation] = None
    post: Optional[list[Node]] = None
    value: Optional[Value] = None

    def describe(self) -> str:
        """Where the walk stopped, in words for a report."""
        return {"return": "the return", "join": "a join", "mux": "a mux", "feedback": "a loop's back edge",
                "exit": "a loop exit", "dead": "a token nothing takes onward"}.get(self.kind, self.kind)




def _const_int(v: Value) -> Optional[int]:
    v = copied_value(v)
    if isinstance(v, OpResult) and v.op.name in ("handshake.constant", "arith.constant"):
        a = v.op.attributes.get("value")
        if isinstance(a, IntegerAttr):
            return a.value
    return None


def selector(sel: Value) -> tuple[Value, bool]:
    """The i1 stream a mux select follows, and whether it is inverted (``select(c, 1, 0)`` follows ``c``)."""
    sel = copied_value(sel)
    if isinstance(sel, OpResult) and sel.op.name == "arith.select":
        c, t, f = sel.op.operands
        tv, fv = _const_int(t), _const_int(f)
        if tv is not None and fv is not None:
            if (tv, fv) == (1, 0):
                return copied_value(c), False
            if (tv, fv) == (0, 1):
                return copied_value(c), True
    if isinstance(sel, OpResult) and sel.op.name == "arith.xori":
        a, b = sel.op.operands
        if _const_int(b) in (1, -1):
            return copied_value(a), True
    return sel, False


class _Network:
    """Recovery's view of the ctrl-done network: which values reach the domain's done tokens, their names,
    their uses through forks, and a control op's outputs (a mixin; the state is Recovery's)."""

    def _reach(self) -> dict[Value, set[str]]:
        """For every ctrl value: the domains with an access whose ctrl is reachable from it."""
        reach: dict[Value, set[str]] = {}
        preds: dict[Value, list[Value]] = {}
        seeds = list(self.layout.done_owner()) + (
            [self.layout.start] if self.layout.start is not None else []
        )
        seen: set[Value] = set()
        stack = list(seeds)
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            for w in forward_values(self.layout, v):
                preds.setdefault(w, []).append(v)
                stack.append(w)
        work = []
        for a in self.layout.accesses:
            if a.domain is not None:
                reach.setdefault(a.ctrl, set()).add(a.domain.name)
                work.append(a.ctrl)
        while work:
            w = work.pop()
            for p in preds.get(w, []):
                before = reach.setdefault(p, set())
                if not reach[w] <= before:
                    before |= reach[w]
                    work.append(p)
        return reach

    def relevant(self, v: Value) -> bool:
        return self.D in self.reach.get(v, ()) or self.D in self.taint.get(v, ())

    def name(self, v: Value) -> str:
        return self.names.get(v, "%?")

    # -- uses along the chain --
    def uses(self, v: Value) -> list[tuple[Value, Operation, int]]:
        """The D-relevant ctrl uses of ``v`` (forks and buffers expanded)."""
        out = []
        for op, i in self.layout.uses.get(v, []):
            if is_copy(op):
                for r in op.results:
                    out += self.uses(r)
                continue
            if op.name == "handshake.return":
                if self.D in self.taint.get(v, ()):
                    out.append((v, op, i))
                continue
            if op.name in ACCESS_OPS and i == len(op.operands) - 1:
                acc = self.layout.by_op[id(op)]
                if acc.domain is self.domain or (acc.done is not None and self.relevant(acc.done)):
                    out.append((v, op, i))
                continue
            outs = self._ctrl_outputs(op, i)
            if any(self.relevant(w) for w in outs):
                out.append((v, op, i))
        return out

    @staticmethod
    def _ctrl_outputs(op: Operation, i: int) -> list[Value]:
        n = op.name
        if n == "handshake.mux":
            return [op.results[0]] if i >= 1 else []
        if n == "handshake.join":
            return [op.results[0]]
        if n == "handshake.cond_br":
            return list(op.results) if i == 1 else []
        if n == "dataflow.carry":
            return [op.results[0]] if i in (1, 2) else []
        if n == "dataflow.invariant":
            return [op.results[0]] if i == 1 else []
        if n in ("handshake.merge", "handshake.control_merge"):
            return [op.results[0]]
        return []

    # -- the walk --


class Recovery(_Network):
    """Reads one domain's ctrl-done network back into a ``Node`` tree (raises ``Unrecognized``): the walk
    over sequences, loops, branches and parallel parts here, the network's reach and uses in ``_Network``."""

    def __init__(
        self,
        layout: Layout,
        domain: Domain,
        names: dict[Value, str],
        taint: Optional[dict[Value, set[str]]] = None,
        reach: Optional[dict[Value, set[str]]] = None,
    ) -> None:
        self.layout = layout
        self.D = domain.name
        self.domain = domain
        self.names = names
        self.taint = taint if taint is not None else done_domains(layout)
        self.reach = reach if reach is not None else self._reach()
        self.steps = 0

    def walk(
        self, v: Value, loops: list[Operation], first: Optional[tuple] = None
    ) -> tuple[list[Node], Stop]:
        items: list[Node] = []
        use = first
        while True:
            self.steps += 1
            if self.steps > 200_000:
                raise Unrecognized("the ctrl-done network is too large to read back")
            if use is None:
                us = self.uses(v)
                if not us:
                    return items, Stop("dead", value=v)
                if len(us) > 1:
                    node, stop = self.par(us, loops)
                    items.append(node)
                    return items, stop
                use = us[0]
            _, op, i = use
            use = None
            n = op.name
            if n in ACCESS_OPS:
                acc = self.layout.by_op[id(op)]
                if acc.domain is self.domain:
                    items.append(Node("acc", access=acc, label=acc.name))
                if acc.done is None:
                    raise Unrecognized(f"{acc.name} has no done token")
                v = acc.done
            elif n == "handshake.return":
                return items, Stop("return", op=op)
            elif n == "handshake.join":
                others = [x for k, x in enumerate(op.operands) if k != i and self.relevant(x)]
                if others:
                    return items, Stop("join", op=op, idx=i)
                v = op.results[0]
            elif n == "handshake.mux":
                return items, Stop("mux", op=op, idx=i)
            elif n == "dataflow.carry":
                if i == 2:
                    if op in loops:
                        return items, Stop("feedback", loop=op)
                    raise Unrecognized(
                        f"{self.name(v)} feeds back into the loop {self.name(op.results[0])} "
                        "without entering it first"
                    )
                if i != 1:
                    raise Unrecognized(f"ctrl token {self.name(v)} is used as a loop condition")
                node, v = self.loop(op, loops)
                items.append(node)
            elif n == "handshake.cond_br":
                node, nxt, stop = self.branch(op, loops)
                if stop is not None:
                    return items, stop
                items.append(node)
                v = nxt
            elif n == "dataflow.invariant":
                raise Unrecognized(
                    f"ctrl token {self.name(v)} is replicated by dataflow.invariant "
                    f"({self.name(op.results[0])}): every iteration's accesses would start at once"
                )
            else:
                raise Unrecognized(
                    f"ctrl token {self.name(v)} goes through {n}, which the serial-recursive "
                    "structure does not use"
                )

    def loop(self, carry: Operation, loops: list[Operation]) -> tuple[Node, Value]:
        pre, stop = self.walk(carry.results[0], loops + [carry])
        if stop.kind != "exit" or stop.loop is not carry:
            raise Unrecognized(
                f"the loop of {self.name(carry.results[0])} has no exit branch "
                f"(its chain ends at {stop.describe()})"
            )
        cb = stop.op
        if copied_value(carry.operands[0]) is not copied_value(cb.operands[0]):
            raise Unrecognized(
                f"the loop carry {self.name(carry.results[0])} reads condition {self.name(carry.operands[0])} but "
                f"its exit branch reads {self.name(cb.operands[0])}: iterations are not aligned"
            )
        label = self.name(carry.results[0])
        return Node(
            "loop", [Node("seq", pre), Node("seq", stop.post or [])], op=carry, label=label
        ), cb.results[1]

    def branch(
        self, cb: Operation, loops: list[Operation]
    ) -> tuple[Optional[Node], Optional[Value], Optional[Stop]]:
        t_items, t_stop = self.walk(cb.results[0], loops)
        if t_stop.kind == "feedback":
            if loops and t_stop.loop is loops[-1]:
                return None, None, Stop("exit", op=cb, loop=loops[-1], post=t_items)
            raise Unrecognized(f"{self.name(cb.results[0])} feeds back into an outer loop (a break)")
        f_items, f_stop = self.walk(cb.results[1], loops)
        if f_stop.kind == "feedback":
            raise Unrecognized(
                f"the loop continues on the false side of the branch on {self.name(cb.operands[0])}"
            )
        if not (t_stop.kind == f_stop.kind == "mux" and t_stop.op is f_stop.op and t_stop.idx != f_stop.idx):
            raise Unrecognized(
                f"the two sides of the branch on {self.name(cb.operands[0])} end at "
                f"{t_stop.kind} and {f_stop.kind}, not in one mux"
            )
        mux = t_stop.op
        if copied_value(mux.operands[0]) is copied_value(cb.operands[0]):
            cond, inverted = copied_value(cb.operands[0]), False
        else:
            cond, inverted = selector(mux.operands[0])
        if cond is not copied_value(cb.operands[0]):
            raise Unrecognized(
                f"the mux {self.name(mux.results[0])} selects on {self.name(mux.operands[0])}, "
                f"not on the branch condition {self.name(cb.operands[0])}"
            )
        want_true = 1 if inverted else 2
        if t_stop.idx != want_true:
            raise Unrecognized(
                f"the mux {self.name(mux.results[0])} takes each branch's token from the other "
                "side (its inputs are swapped)"
            )
        node = Node(
            "if", [Node("seq", t_items), Node("seq", f_items)], op=cb, label=self.name(cb.operands[0])
        )
        return node, mux.results[0], None

    def par(self, uses: list[tuple[Value, Operation, int]], loops: list[Operation]) -> tuple[Node, Stop]:
        pending: list[tuple[Node, Stop]] = []
        dangling: list[
            Node
        ] = []  # branches whose last done token goes nowhere: unordered with all that follows
        for u in uses:
            its, st = self.walk(u[0], loops, first=u)
            (dangling if st.kind == "dead" else pending).append(
                Node("seq", its) if st.kind == "dead" else (Node("seq", its), st)
            )
        if not pending:
            return Node("par", dangling), Stop("dead")
        while len(pending) > 1:
            joins: dict[int, list[int]] = {}
            for k, (_, st) in enumerate(pending):
                if st.kind == "join":
                    joins.setdefault(id(st.op), []).append(k)
            merged = False
            for ks in joins.values():
                j = pending[ks[0]][1].op
                covered = {pending[k][1].idx for k in ks}
                needed = {x for x, w in enumerate(j.operands) if self.relevant(w)}
                if needed <= covered and len(ks) >= 2:
                    group = Node("par", [pending[k][0] for k in ks])
                    rest = [p for k, p in enumerate(pending) if k not in ks]
                    its, st = self.walk(j.results[0], loops)
                    pending = rest + [(Node("seq", [group] + its), st)]
                    merged = True
                    break
            if not merged:
                kinds = ", ".join(sorted({st.kind for _, st in pending}))
                raise Unrecognized(
                    f"parallel uses of one ctrl token do not meet again in one join (they end at {kinds})"
                )
        if dangling:
            node, stop = pending[0]
            if stop.kind in ("feedback", "exit") and any(_accesses(d) for d in dangling):
                # inside a loop body, an access whose done token goes nowhere is ordered before nothing that
                # follows: not before a later iteration (the loop order puts a whole iteration first) nor the
                # code after the loop. The encoding has no form for that, so the order is not decided
                # (done.postdom refutes the drop)
                raise Unrecognized(f"a done token that goes nowhere leaves {', '.join(_accesses(dangling[0]))} "
                                   "unordered with what follows it (a later iteration, the code after its loop)")
            return Node("par", dangling + [node]), stop
        return pending[0]

    def recover(self) -> Node:
        start = self.layout.start
        if start is None or not self.relevant(start):
            raise Unrecognized("the domain's accesses do not take their ctrl from the start token")
        items, stop = self.walk(start, [])
        if stop.kind != "return":
            raise Unrecognized(f"the domain's chain ends at {stop.describe()} instead of the return")
        root = Node("seq", items)
        found = [n.access for n in _access_nodes(root)]
        missing = [a.name for a in self.domain.accesses if a not in found]
        if missing:
            raise Unrecognized(f"accesses {', '.join(missing)} are not on the domain's chain")
        if len(found) != len(set(map(id, found))):
            raise Unrecognized("an access appears twice on the chain")
        return root


def _access_nodes(n: Node) -> list[Node]:
    if n.kind == "acc":
        return [n]
    return [x for c in n.children for x in _access_nodes(c)]


def paths(root: Node) -> dict[int, list[tuple[Node, int]]]:
    """For every access node (by id of its Access): the (node, child position) entries from the root."""
    out: dict[int, list[tuple[Node, int]]] = {}

    def rec(n: Node, prefix: list[tuple[Node, int]]) -> None:
        if n.kind == "acc":
            out[id(n.access)] = prefix
            return
        for k, c in enumerate(n.children):
            rec(c, prefix + [(n, k)])

    rec(root, [])
    return out


# ----------------------------------------------------------------------------- the order formulas


def _order(
    px, py, vx, vy, i: int, mode: str, keys: Optional[dict], data_first: bool = False
) -> tuple[z3.BoolRef, z3.BoolRef]:
    """(X-instance before Y-instance, the two are the two sides of one branch instance) below depth ``i``.

    ``mode`` ``hb``: the network's order (par = unordered, unless ``data_first``:
    Y's request consumes a value computed from X's loaded datum of the same
    instance); ``po``: program order (par and seq ordered by the source position
    ``keys`` of their children).
    """
    if i >= len(px) or i >= len(py):
        return z3.BoolVal(False), z3.BoolVal(False)
    (nx, cx), (ny, cy) = px[i], py[i]
    if nx is not ny:
        raise ValueError("paths diverge without a common node")
    if nx.kind == "loop":
        kx, ky = vx[id(nx)], vy[id(nx)]
        pos_x, pos_y = 2 * kx + cx, 2 * ky + cy
        if cx == cy:
            rest, excl = _order(px, py, vx, vy, i + 1, mode, keys, data_first)
        else:
            rest, excl = z3.BoolVal(False), z3.BoolVal(False)
        same = pos_x == pos_y
        return disjunction([pos_x < pos_y, conjunction([same, rest])]), conjunction([same, excl])
    if cx == cy:
        return _order(px, py, vx, vy, i + 1, mode, keys, data_first)
    if nx.kind == "if":
        return z3.BoolVal(False), z3.BoolVal(True)
    if nx.kind == "par" and mode == "hb":
        loop_free = all(n.kind != "loop" for n, _ in px[i + 1 :] + py[i + 1 :])
        return z3.BoolVal(data_first and loop_free), z3.BoolVal(False)
    if mode == "po" and keys is not None:
        return z3.BoolVal(keys[id(nx.children[cx])] < keys[id(nx.children[cy])]), z3.BoolVal(False)
    return z3.BoolVal(cx < cy), z3.BoolVal(False)


def _loops_on(p: list[tuple[Node, int]]) -> list[Node]:
    return [n for n, _ in p if n.kind == "loop"]


def _subtree_keys(root: Node, key_of: dict[int, tuple]) -> dict[int, tuple]:
    """Source position of every node: the smallest key of the accesses below it."""
    out: dict[int, tuple] = {}

    def rec(n: Node) -> Optional[tuple]:
        if n.kind == "acc":
            k = key_of.get(id(n.access))
        else:
            ks = [x for x in (rec(c) for c in n.children) if x is not None]
            k = min(ks) if ks else None
        if k is not None:
            out[id(n)] = k
        return k

    rec(root)
    big = (float("inf"),)
    for n in _all_nodes(root):
        out.setdefault(id(n), big)
    return out


def _all_nodes(n: Node) -> list[Node]:
    return [n] + [x for c in n.children for x in _all_nodes(c)]


@dataclass
class PairQuery:
    """The violation formula of one pair of accesses, with the variables needed to explain a model."""

    first: Access
    second: Access
    violation: z3.BoolRef
    vars_first: dict[int, z3.ArithRef]
    vars_second: dict[int, z3.ArithRef]
    loops_first: list[Node]
    loops_second: list[Node]


def pair_query(
    x: Access, y: Access, px, py, keys: Optional[dict], tag: str, data_deps: frozenset = frozenset()
) -> PairQuery:
    """Instances of ``x`` and ``y`` that must be ordered (program order, or race-freedom) but are not."""
    lx, ly = _loops_on(px), _loops_on(py)
    vx = {id(n): z3.Int(f"{tag}.first.{x.name}.k{j}") for j, n in enumerate(lx)}
    vy = {id(n): z3.Int(f"{tag}.second.{y.name}.k{j}") for j, n in enumerate(ly)}
    valid = conjunction([v >= 0 for v in list(vx.values()) + list(vy.values())])
    hb_xy, excl = _order(px, py, vx, vy, 0, "hb", None, (id(x), id(y)) in data_deps)
    hb_yx, _ = _order(py, px, vy, vx, 0, "hb", None, (id(y), id(x)) in data_deps)
    distinct = z3.BoolVal(True)
    if x is y:
        distinct = disjunction([vx[k] != vy[k] for k in vx]) if vx else z3.BoolVal(False)
    if keys is not None:
        po_xy, _ = _order(px, py, vx, vy, 0, "po", keys)
        po_yx, _ = _order(py, px, vy, vx, 0, "po", keys)
        bad = disjunction([conjunction([po_xy, z3.Not(hb_xy)]), conjunction([po_yx, z3.Not(hb_yx)])])
    else:
        bad = conjunction([z3.Not(hb_xy), z3.Not(hb_yx)])
    return PairQuery(x, y, conjunction([valid, distinct, z3.Not(excl), bad]), vx, vy, lx, ly)


def pair_violation_possible(
    x: Access, y: Access, px, py, keys: Optional[dict], data_deps: frozenset = frozenset()
) -> Optional[bool]:
    """Whether ``pair_query(x, y, ...).violation`` is satisfiable, decided on the formula's shape.

    Both happens-before formulas (and both program-order formulas) compare the
    position vectors 2k + phase of the common loops lexicographically, then fall
    back to one constant at the first structural difference. Iteration numbers
    are free non-negative integers, so the instance pairs split into three
    relations: X's vector first or Y's first -- both orders then agree with the
    loops and no violation exists --, or equal vectors, possible exactly when no
    common loop separates the two by phase (before/after part) and, for a store
    against itself, impossible since the instances must be distinct. Only the
    equal case can violate, through the constants at the divergence. ``None``:
    the paths do not have the shape ``_order`` expects (the caller runs the query).
    """
    i = 0
    c_xy = c_yx = p_xy = p_yx = excl = False
    while i < len(px) and i < len(py):
        (nx, cx), (ny, cy) = px[i], py[i]
        if nx is not ny:
            return None
        if nx.kind == "loop":
            if cx != cy:
                return False  # one instance in the before part, one in the after part: always ordered
            i += 1
            continue
        if cx == cy:
            i += 1
            continue
        if nx.kind == "if":
            excl = True
        elif nx.kind == "par":
            loop_free = all(n.kind != "loop" for n, _ in px[i + 1 :] + py[i + 1 :])
            c_xy = (id(x), id(y)) in data_deps and loop_free
            c_yx = (id(y), id(x)) in data_deps and loop_free
        else:
            c_xy, c_yx = cx < cy, cy < cx
        if keys is not None and nx.kind != "if":
            kx, ky = keys[id(nx.children[cx])], keys[id(nx.children[cy])]
            p_xy, p_yx = kx < ky, ky < kx
        break
    else:
        if x is y:
            return False  # equal vectors over all of its loops: the same instance
    if excl:
        return False
    if keys is not None:
        return (p_xy and not c_xy) or (p_yx and not c_yx)
    return not c_xy and not c_yx




def data_dependences(layout: Layout, domain: Domain) -> frozenset:
    """(load, access) pairs where the access's address or data is computed from the load's datum, token by token.

    Only combinational paths count (arith/math ops, forks, buffers): they map the
    k-th loaded token to the k-th operand token, so the access's k-th request
    cannot be issued before the load's k-th execution.
    """
    found = set()
    targets = {}
    for a in domain.accesses:
        n_in = a.n_addr + (1 if a.kind == "store" else 0)
        for v in a.op.operands[:n_in]:
            targets.setdefault(v, []).append(a)
    for a in domain.accesses:
        if a.kind != "load":
            continue
        seen: set = set()
        stack = [a.op.results[0]]
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            for b in targets.get(v, []):
                if b is not a:
                    found.add((id(a), id(b)))
            for op, _ in layout.uses.get(v, []):
                if op.dialect in ("arith", "math") or is_copy(op):
                    stack += list(op.results)
    return frozenset(found)


# ----------------------------------------------------------------------------- source order


def source_keys(source: Operation, layout: Layout) -> tuple[Optional[dict[int, tuple]], str]:
    """Program-order position of every DFG access, matched to the source's memref ops by location."""
    order: dict[Location, int] = {}
    dup: set[Location] = set()
    from loom.verify.refine.model import source_position  # a DFG printed with debug info: its loc(...)

    for k, op in enumerate(o for o in source.walk() if o.name in ("memref.load", "memref.store")):
        pos = source_position(op.loc)
        if pos in order:
            dup.add(pos)
        order[pos] = k
    keys: dict[int, tuple] = {}
    for a in layout.accesses:
        pos = source_position(a.op.loc)
        if pos in dup or pos not in order:
            return None, f"access {a.name} has no unique source location ({a.op.loc})"
        keys[id(a)] = (order[pos],)
    return keys, ""


# ----------------------------------------------------------------------------- obligations


def _explain(model: z3.ModelRef, q: PairQuery, names_of_loops) -> dict:
    def iters(vs, loops):
        return {names_of_loops(n): model.eval(vs[id(n)], model_completion=True).as_long() for n in loops}

    return {
        "first": {"access": q.first.name, "iterations": iters(q.vars_first, q.loops_first)},
        "second": {"access": q.second.name, "iterations": iters(q.vars_second, q.loops_second)},
    }


def _fmt_iters(it: dict) -> str:
    """``(iteration 2 of %loop)`` -- the loops are named after their ctrl carry."""
    if not it:
        return "(outside loops)"
    return "(" + ", ".join(f"iteration {v} of {k}" for k, v in it.items()) + ")"


def _trip_counts(cex: dict) -> dict:
    """The smallest trip count of each loop that has both instances (iteration k needs k+1 trips)."""
    out: dict = {}
    for side in ("first", "second"):
        for loop, k in cex[side]["iterations"].items():
            out[loop] = max(out.get(loop, 0), k + 1)
    return out


@dataclass
class DomainPairs:
    """One domain's recovered structure and the access pairs its order obligations cover, in obligation order."""

    root: Node
    paths: dict[int, list[tuple[Node, int]]]
    node_keys: Optional[dict[int, tuple]]
    pairs: list[tuple[Access, Access]]
    deps: frozenset

    def query(self, x: Access, y: Access, tag: str) -> PairQuery:
        """The Z3 violation formula of one pair."""
        return pair_query(x, y, self.paths[id(x)], self.paths[id(y)], self.node_keys, tag, self.deps)

    def violation_possible(self, x: Access, y: Access) -> Optional[bool]:
        """``pair_violation_possible`` of one pair (False: its query is unsatisfiable)."""
        return pair_violation_possible(x, y, self.paths[id(x)], self.paths[id(y)], self.node_keys, self.deps)


def domain_pairs(
    layout: Layout,
    domain: Domain,
    names: dict[Value, str],
    keys: Optional[dict[int, tuple]],
    shared: Optional[tuple[dict, dict]] = None,
) -> DomainPairs:
    """Recover ``domain``'s ctrl-done structure and list its access pairs (raises ``Unrecognized``)."""
    root = Recovery(layout, domain, names, *(shared or (None, None))).recover()
    ps = paths(root)
    node_keys = _subtree_keys(root, keys) if keys is not None else None
    accs = sorted(
        domain.accesses,
        key=(lambda a: keys[id(a)]) if keys is not None else (lambda a: [(c,) for _, c in ps[id(a)]]),
    )
    pairs = [
        (x, y)
        for i, x in enumerate(accs)
        for y in accs[i:]
        if "store" in (x.kind, y.kind) and not (x is y and not _loops_on(ps[id(x)]))
    ]
    return DomainPairs(root, ps, node_keys, pairs, data_dependences(layout, domain))


@dataclass
class _DomainRun:
    """What every batch of one domain's order obligations shares: the domain's name, recovered pairs, the
    solver session, the ordering mode in words and how a counterexample names loops and values."""

    D: str
    dp: DomainPairs
    ctx: VerifyContext
    session: QuerySession
    mode: str
    what: str
    keys: Optional[dict[int, tuple]]
    names: dict[Value, str]
    loop_name: dict[int, str]


def _batches(pairs: list[tuple[Access, Access]]) -> list[list[tuple[Access, Access]]]:
    """One obligation per pair, or batches of 50 pairs when the domain has more than ``PAIR_LIMIT``."""
    if len(pairs) <= PAIR_LIMIT:
        return [pairs[k : k + 1] for k in range(len(pairs))]
    return [pairs[k : k + 50] for k in range(0, len(pairs), 50)]


def _decide_batch(run: _DomainRun, batch: list[tuple[Access, Access]]) -> Obligation:
    """The obligation of one batch of pairs: proved by the queries' shape, by Z3, unknown, or refuted."""
    t_batch = time.perf_counter()
    D, dp, ctx, mode, what = run.D, run.dp, run.ctx, run.mode, run.what
    x, y = batch[0]
    oid = (
        obligation_id("mem.order.pair", D, None, x.name, y.name)
        if len(batch) == 1
        else obligation_id("mem.order.batch", D, None, x.name, y.name, batch[-1][0].name, batch[-1][1].name)
    )
    if ctx.progress is not None:
        ctx.progress(oid)
    loc = y.op.loc
    no_time = (lim := ctx.limit()) is not None and lim < 0.001  # "no time at all": unknown, as for a query
    if not ctx.want_smt2 and not no_time and all(dp.violation_possible(a, b) is False for a, b in batch):
        # the query is unsatisfiable by its shape (see pair_violation_possible); with --emit-smt2
        # the query is built, printed and solved instead
        return Obligation(
            oid,
            "memory",
            "proved",
            time.perf_counter() - t_batch,
            f"{x.name} and {y.name} in {D} ({mode}): {what}, for all trip counts "
            "(decided on the query's structure)",
            None,
            loc,
            method="typing rule",
            rule=_SHAPE_RULE,
        )
    queries = [dp.query(a, b, f"q{j}") for j, (a, b) in enumerate(batch)]
    res = run.session.check([z3.Or(*[q.violation for q in queries])])
    if res.status == "unsat":
        return Obligation(
            oid,
            "memory",
            "proved",
            res.seconds,
            f"{x.name} and {y.name} in {D} ({mode}): {what}, for all trip counts",
            None,
            loc,
            res.smt2 or None,
            method=res.method,
            rule=_SHAPE_RULE if res.trivial else "",
        )
    if res.status == "unknown":
        return Obligation(oid, "memory", "unknown", res.seconds, f"{res.reason}", None, loc, res.smt2 or None)
    return _refuted(run, oid, queries, res)


def _refuted(run: _DomainRun, oid: str, queries: list[PairQuery], res) -> Obligation:
    """A refuted batch: the pair the model violates, its instances, schedule and reason."""
    mdl = res.model
    q = next(q for q in queries if z3.is_true(mdl.eval(q.violation, model_completion=True)))
    cex = _explain(mdl, q, lambda n: run.loop_name.get(id(n), "loop"))
    cex.update(
        {
            "domain": run.D,
            "op": q.second.op.name,
            "channel": run.names.get(q.second.ctrl, "%?"),
            "trip_counts": _trip_counts(cex),
        }
    )
    why, schedule = _why(q, run.dp.paths, run.keys, cex, run.names)
    cex["schedule"] = schedule
    cex["reason"] = why
    return Obligation(
        oid,
        "memory",
        "refuted",
        res.seconds,
        f"{q.first.name}{_fmt_iters(cex['first']['iterations'])} and "
        f"{q.second.name}{_fmt_iters(cex['second']['iterations'])} in {run.D}: {why}",
        cex,
        q.second.op.loc,
        res.smt2 or None,
        nature="behaviour",
    )


def domain_order(
    layout: Layout,
    domain: Domain,
    names: dict[Value, str],
    ctx: VerifyContext,
    keys: Optional[dict[int, tuple]],
    keys_note: str,
    shared: Optional[tuple[dict, dict]] = None,
) -> list[Obligation]:
    """The order obligations of one domain (``shared``: the layout's taint and reach maps, computed once)."""
    t0 = time.perf_counter()
    D = domain.name
    if not any(a.kind == "store" for a in domain.accesses):
        return []
    try:
        dp = domain_pairs(layout, domain, names, keys, shared)
    except Unrecognized as e:
        return [
            Obligation(
                obligation_id("mem.order", D),
                "memory",
                "unknown",
                time.perf_counter() - t0,
                f"ctrl-done network of {D} not recognized: {e}",
                None,
                domain.mem.loc,
                method="none",
            )
        ]
    mode = (
        "program order (source)"
        if keys is not None
        else "race freedom (no source order available" + (f": {keys_note}" if keys_note else "") + ")"
    )
    loop_name = {id(n): n.label for n in _all_nodes(dp.root) if n.kind == "loop"}
    session = QuerySession(ctx.limit, ctx.want_smt2, rlimit=ctx.rlimit)
    what = (
        "every instance pair is ordered as the source orders it"
        if keys is not None
        else "no two instances can run concurrently"
    )
    run = _DomainRun(D, dp, ctx, session, mode, what, keys, names, loop_name)
    return [_decide_batch(run, batch) for batch in _batches(dp.pairs)]


_SHAPE_RULE = "iteration-vector order (the violation is false by the shape of the two instances' positions)"


def _why(q: PairQuery, ps, keys, cex, names) -> tuple[str, list[str]]:
    a, b = q.first, q.second
    ia, ib = _fmt_iters(cex["first"]["iterations"]), _fmt_iters(cex["second"]["iterations"])
    pa, pb = ps[id(a)], ps[id(b)]
    common = 0
    while common < min(len(pa), len(pb)) and pa[common] == pb[common]:
        common += 1
    div = pa[common][0] if common < len(pa) else None
    if div is not None and div.kind == "par":
        why = (
            "their ctrl tokens are copies of one token that nothing orders (parallel branches joined "
            "later), so the memory may execute either first"
        )
        sched = [
            f"{b.name}{ib} receives its ctrl {names.get(b.ctrl, '%?')} and issues",
            f"{a.name}{ia} receives its ctrl {names.get(a.ctrl, '%?')} and issues",
            "both requests reach the memory with no done token between them",
        ]
        return why, sched
    if keys is not None:
        first_src, second_src = (a, ia), (b, ib)
        if keys[id(a)] > keys[id(b)]:
            first_src, second_src = second_src, first_src
        why = (
            f"they run out of order: the source runs {first_src[0].name}{first_src[1]} first, but the ctrl-done "
            f"chain makes it wait for {second_src[0].name}{second_src[1]}"
        )
        sched = [
            f"{second_src[0].name}{second_src[1]} gets its ctrl {names.get(second_src[0].ctrl, '%?')} and "
            "executes",
            f"its done token releases {first_src[0].name}{first_src[1]}, which executes after it",
        ]
        return why, sched
    why = "the ctrl-done network does not order these two instances"
    return why, [f"{a.name}{ia} and {b.name}{ib} execute in either order"]


def check_memory_order(
    func: Operation, ctx: VerifyContext, source: Optional[Operation] = None, layout: Optional[Layout] = None
) -> list[Obligation]:
    """Obligation 4 for ``func``: ``mem.<D>.order.*`` for every domain with a store.

    ``source`` is the SCF ``func.func`` the DFG was lowered from (accesses matched
    by location); without it the obligations require race freedom only.
    """
    from loom.sim.names import value_name_map

    layout = layout or memory_layout(func)
    ops = list(func.regions[0].entry.ops)
    values = [v for op in ops for v in list(op.operands) + list(op.results)]
    names = value_name_map(func, list(dict.fromkeys(values)))
    keys, note = (None, "")
    if source is not None:
        keys, note = source_keys(source, layout)
    out: list[Obligation] = []
    shared = None
    for d in layout.domains:
        if d.accesses and any(a.kind == "store" for a in d.accesses):
            try:
                if shared is None:
                    probe = Recovery(layout, d, names)
                    shared = (probe.taint, probe.reach)
                out += domain_order(layout, d, names, ctx, keys, note, shared)
            except Exception as e:  # noqa: BLE001 - one domain's crash must not hide the other domains
                out.append(Obligation(obligation_id("mem.order", d.name), "memory", "unknown", 0.0,
                                      f"not decided: the check crashed: {type(e).__name__}: {e}", None,
                                      d.mem.loc, method="none"))
    return out


def _accesses(node: "Node") -> list[str]:
    """The names of the accesses in a recovered subtree."""
    if node.kind == "acc":
        return [node.label]
    return [x for k in node.children for x in _accesses(k)]
