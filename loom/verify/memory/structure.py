"""The memory layout of a DFG and the structural obligations of the ctrl-done network.

``memory_layout(func)`` finds every memory domain (one ``handshake.memory`` /
``handshake.extmemory``) and every access (``handshake.load``/``store``) with its
port, its done token and its ctrl input. On top of it, ``check_structure`` gives:

* ``mem.access.<ld3>`` -- the access invariants of spec-dataflow-memory: exactly one
  ctrl input that comes from the ctrl-done network, exactly one memory port fed by
  its address (and data) results, exactly one done token that is consumed, and
  (loads) exactly one data input, the datum of its own port;
* ``mem.indep.<A>|<B>`` -- no access of A takes a ctrl token that depends on a
  done token of B or vice versa (otherwise CPL_HANDSHAKE_CTRL_MULTI_MEM); joining
  domains on the way to the return is allowed;
* ``done.postdom`` -- the return's control postdominates every done token: from
  every token a done token can turn into, the return is reachable, and none ends
  in a sink or a dangling output;
* ``mem.alias.<arg>`` (only when a memref argument has several
  ``handshake.extmemory`` interfaces) -- references that may alias must stay in
  one ordering domain: interfaces of one buffer are refuted when any of them
  stores (their accesses are ordered by no ctrl-done network: a race).

These are graph facts checked exactly over the IR (no SMT query; ``smt2`` is None).
Access names: ``ld<k>``/``st<k>`` number loads and stores separately in op order
over the whole function; domain names are the memref argument's name, the
``loom.global_memref`` symbol, or ``mem<id>``.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Optional

from loom.ir.attributes import IntegerAttr, SymbolRefAttr
from loom.ir.core import BlockArgument, Operation, OpResult, Value
from loom.ir.types import MemRefType, NoneType
from loom.verify.ids import family_of, oid as obligation_id
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.lemmas.operands import arg_name_map

MEMORY_OPS = ("handshake.memory", "handshake.extmemory")
ACCESS_OPS = ("handshake.load", "handshake.store")
MULTI_MEM = "CPL_HANDSHAKE_CTRL_MULTI_MEM"


@dataclass(eq=False)
class Access:
    """One handshake.load/store: its function-wide name, domain, port and done token."""

    op: Operation
    kind: str  # "load" | "store"
    name: str
    domain: Optional["Domain"] = None
    port: Optional[int] = None
    done: Optional[Value] = None
    problems: list[str] = field(default_factory=list)

    @property
    def ctrl(self) -> Value:
        return self.op.operands[-1]

    @property
    def n_addr(self) -> int:
        return len(self.op.operands) - 2


@dataclass(eq=False)
class Domain:
    """One memory interface op and the accesses wired to it."""

    mem: Operation
    name: str
    accesses: list[Access] = field(default_factory=list)

    @property
    def done_values(self) -> list[Value]:
        return [a.done for a in self.accesses if a.done is not None]


@dataclass
class Layout:
    """Domains, accesses, and the function's ops indexed for graph walks."""

    func: Operation
    domains: list[Domain]
    accesses: list[Access]
    uses: dict[Value, list[tuple[Operation, int]]]
    start: Optional[Value]
    ret: Optional[Operation]
    by_op: dict[int, Access] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_op = {id(a.op): a for a in self.accesses}
        self._owner = {a.done: a for a in self.accesses if a.done is not None}

    def access_of(self, op: Operation) -> Optional[Access]:
        return self.by_op.get(id(op))

    def done_owner(self) -> dict[Value, Access]:
        """Done token -> its access (shared; do not modify)."""
        return self._owner


def _counts(mem: Operation) -> tuple[int, int, int]:
    ld = mem.attributes.get("ldCount")
    st = mem.attributes.get("stCount")
    ldn = ld.value if isinstance(ld, IntegerAttr) else 0
    stn = st.value if isinstance(st, IntegerAttr) else 0
    if mem.name == "handshake.extmemory":
        t = mem.operands[0].type if mem.operands else None
    else:
        from loom.ir.attributes import TypeAttr

        ta = mem.attributes.get("memRefType")
        t = ta.type if isinstance(ta, TypeAttr) else None
    rank = t.rank if isinstance(t, MemRefType) else 1
    return ldn, stn, rank


def _domain_name(mem: Operation, names: dict[Value, str], taken: set[str]) -> str:
    base = None
    if mem.name == "handshake.extmemory" and mem.operands and isinstance(mem.operands[0], BlockArgument):
        base = names.get(mem.operands[0])
    g = mem.attributes.get("loom.global_memref")
    if base is None and isinstance(g, SymbolRefAttr):
        base = g.root
    ident = mem.attributes.get("id")
    if base is None:
        base = f"mem{ident.value if isinstance(ident, IntegerAttr) else len(taken)}"
    name, k = base, 1
    while name in taken:
        name = f"{base}.{k}"
        k += 1
    taken.add(name)
    return name


def use_map(ops: Iterable[Operation]) -> dict[Value, list[tuple[Operation, int]]]:
    """Every value -> its (user op, operand index) list, in op order."""
    uses: dict[Value, list[tuple[Operation, int]]] = {}
    for op in ops:
        for i, v in enumerate(op.operands):
            uses.setdefault(v, []).append((op, i))
    return uses


def memory_layout(func: Operation) -> Layout:
    """Domains and accesses of ``func``; wiring problems are recorded on the accesses, never raised."""
    ops = list(func.regions[0].entry.ops)
    uses = use_map(ops)
    names = arg_name_map(func)
    accesses: list[Access] = []
    counters = {"load": 0, "store": 0}
    for op in ops:
        if op.name in ACCESS_OPS:
            kind = op.name.split(".")[1]
            prefix = "ld" if kind == "load" else "st"
            accesses.append(Access(op, kind, f"{prefix}{counters[kind]}"))
            counters[kind] += 1
    by_op = {id(a.op): a for a in accesses}
    domains: list[Domain] = []
    taken: set[str] = set()
    for mem in (op for op in ops if op.name in MEMORY_OPS):
        dom = Domain(mem, _domain_name(mem, names, taken))
        domains.append(dom)
        ld, st, rank = _counts(mem)
        ports = list(mem.operands[1:] if mem.name == "handshake.extmemory" else mem.operands)
        pos = 0
        for j in range(st):
            group = ports[pos : pos + 1 + rank]
            pos += 1 + rank
            _attach(dom, "store", j, group, mem.results[ld + j] if ld + j < len(mem.results) else None, by_op)
        for j in range(ld):
            group = ports[pos : pos + rank]
            pos += rank
            done_i = ld + st + j
            _attach(dom, "load", j, group, mem.results[done_i] if done_i < len(mem.results) else None, by_op)
    start = None
    args = func.regions[0].entry.args
    if args and isinstance(args[-1].type, NoneType):
        start = args[-1]
    ret = next((op for op in ops if op.name == "handshake.return"), None)
    return Layout(func, domains, accesses, uses, start, ret)


def _attach(dom: Domain, kind: str, j: int, group: list[Value], done: Optional[Value], by_op: dict) -> None:
    owners = {id(v.op) for v in group if isinstance(v, OpResult) and id(v.op) in by_op}
    if len(owners) != 1:
        return  # a port not fed by exactly one access: reported on the accesses involved (or none)
    acc: Access = by_op[owners.pop()]
    if acc.kind != kind:
        acc.problems.append(f"its results feed a {kind} port of {dom.name}")
        return
    if acc.domain is not None:
        acc.problems.append(f"feeds two memory ports ({acc.domain.name} and {dom.name})")
        return
    # the port's operands must be exactly this access's data (stores) and address results, in order
    want = list(acc.op.results if kind == "store" else acc.op.results[1:])
    if list(group) != want:
        acc.problems.append(f"port {kind[:2]}{j} of {dom.name} does not receive exactly its results in order")
    acc.domain, acc.port, acc.done = dom, j, done
    dom.accesses.append(acc)


# ----------------------------------------------------------------------------- the ctrl-done graph

CTRL_INPUTS = {
    "handshake.join": None,  # every operand
    "handshake.fork": (0,),
    "handshake.buffer": (0,),
    "handshake.br": (0,),
    "handshake.lazy_fork": (0,),
    "handshake.merge": None,
    "handshake.control_merge": None,
    "dataflow.carry": (1, 2),
    "dataflow.invariant": (1,),
    "handshake.cond_br": (1,),
}


def ctrl_successors(layout: Layout, v: Value) -> list[tuple[str, object]]:
    """Where a token on ``v`` can go in the ctrl-done network.

    Each entry is ``("value", w)`` (the token becomes one on ``w``), ``("return", op)``,
    or ``("access", acc)`` (the token is an access's ctrl; the access's done follows).
    Uses by data consumers (constants, arith, selects, conditions) are not ctrl edges.
    """
    out: list[tuple[str, object]] = []
    owners = layout.by_op
    for op, i in layout.uses.get(v, []):
        if op.name == "handshake.return":
            out.append(("return", op))
        elif op.name in ACCESS_OPS and i == len(op.operands) - 1:
            out.append(("access", owners[id(op)]))
        elif op.name == "handshake.mux" and i >= 1:
            out.append(("value", op.results[0]))
        elif op.name in CTRL_INPUTS:
            allowed = CTRL_INPUTS[op.name]
            if allowed is None or i in allowed:
                outs = op.results if op.name != "handshake.control_merge" else op.results[:1]
                out += [("value", r) for r in outs]
    return out


def forward_values(layout: Layout, v: Value) -> list[Value]:
    """The ctrl values a token on ``v`` can become in one step (through accesses to their done)."""
    out = []
    for kind, x in ctrl_successors(layout, v):
        if kind == "value":
            out.append(x)
        elif kind == "access" and x.done is not None:
            out.append(x.done)
    return out


def done_domains(layout: Layout) -> dict[Value, set[str]]:
    """For every ctrl value: the domains whose done tokens it depends on (backward closure)."""
    owner = layout.done_owner()
    dep: dict[Value, set[str]] = {}
    work = deque()
    for d, acc in owner.items():
        dep.setdefault(d, set()).add(acc.domain.name)
        work.append(d)
    while work:
        v = work.popleft()
        for w in forward_values_no_access(layout, v):
            before = dep.setdefault(w, set())
            if not dep[v] <= before:
                before |= dep[v]
                work.append(w)
    return dep


def forward_values_no_access(layout: Layout, v: Value) -> list[Value]:
    """Like ``forward_values`` but stopping at accesses (a done depends on its access's ctrl)."""
    return [x for kind, x in ctrl_successors(layout, v) if kind == "value"]


# ----------------------------------------------------------------------------- obligations


def _ctrl_roots(layout: Layout, v: Value, limit: int = 10000) -> tuple[bool, Optional[Value]]:
    """Does ``v`` come from the ctrl-done network (an entry token or a done token)? (ok, offending value).

    Entry tokens are the function's ``none`` arguments -- the start token and any other ctrl argument
    alike: the rule may not depend on which argument happens to come last (it did: of two loads each
    taking ctrl from its own argument, the one on the last argument passed and the other failed)."""
    owner = layout.done_owner()
    seen: set[Value] = set()
    stack = [v]
    while stack and len(seen) < limit:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if x in owner or (isinstance(x, BlockArgument) and isinstance(x.type, NoneType)):
            continue  # a done token, or an entry token: the start token or any other none argument alike
        if isinstance(x, BlockArgument) or not isinstance(x, OpResult):
            return False, x
        op = x.op
        if op.name == "handshake.mux":
            stack += op.operands[1:]
        elif op.name == "handshake.control_merge" and x.index == 0:
            stack += op.operands
        elif op.name in CTRL_INPUTS and not (op.name == "handshake.control_merge"):
            allowed = CTRL_INPUTS[op.name]
            stack += [op.operands[i] for i in (allowed if allowed is not None else range(len(op.operands)))]
        else:
            return False, x
    return True, None


def access_obligations(layout: Layout, names: dict[Value, str]) -> list[Obligation]:
    """``mem.access.<name>`` for every load/store."""
    out = []
    for a in layout.accesses:
        t0 = time.perf_counter()
        problems = list(a.problems)
        if a.domain is None:
            problems.append("is not connected to any memory interface port")
        for r in a.op.results if a.kind == "store" else a.op.results[1:]:
            n = len(layout.uses.get(r, []))
            if n != 1:
                problems.append(f"result {names.get(r, '?')} has {n} uses (a memory port needs exactly one)")
        if a.kind == "load":
            md = a.op.operands[a.n_addr]
            want = a.domain.mem.results[a.port] if a.domain is not None else None
            if want is None or md is not want:
                problems.append(f"data input {names.get(md, '?')} is not the datum of its own memory port")
        if a.done is None and a.domain is not None:
            problems.append("its memory port has no done token")
        elif a.done is not None and not layout.uses.get(a.done):
            problems.append(f"its done token {names.get(a.done, '?')} is never consumed")
        if not isinstance(a.ctrl.type, NoneType):
            problems.append(f"ctrl input {names.get(a.ctrl, '?')} is a {a.ctrl.type} value, not a none token")
        else:
            ok, bad = _ctrl_roots(layout, a.ctrl)
            if not ok:
                problems.append(
                    f"ctrl input {names.get(a.ctrl, '?')} does not come from the ctrl-done network "
                    f"(it derives from {names.get(bad, '?')})"
                )
        dom = a.domain.name if a.domain is not None else "-"
        oid = obligation_id("mem.access", a.name)
        if problems:
            out.append(
                Obligation(
                    oid,
                    "structure",
                    "refuted",
                    time.perf_counter() - t0,
                    f"{a.kind} {a.name} ({dom}): " + "; ".join(problems),
                    {"op": a.op.name, "access": a.name, "domain": dom, "problems": problems},
                    a.op.loc,
                )
            )
        else:
            out.append(
                Obligation(
                    oid,
                    "structure",
                    "proved",
                    time.perf_counter() - t0,
                    f"{a.kind} {a.name} ({dom}) has one ctrl from the ctrl-done network, one port, "
                    "one consumed done token" + (", one data input" if a.kind == "load" else ""),
                    None,
                    a.op.loc,
                )
            )
    return out


def independence_obligations(layout: Layout, names: dict[Value, str]) -> list[Obligation]:
    """``mem.indep.<A>|<B>`` for every pair of domains (per domain ``mem.indep.<A>|*`` beyond 12 domains)."""
    t0 = time.perf_counter()
    dep = done_domains(layout)
    crossings: dict[tuple[str, str], list[str]] = {}
    for a in layout.accesses:
        if a.domain is None:
            continue
        for other in sorted(dep.get(a.ctrl, set()) - {a.domain.name}):
            key = tuple(sorted((a.domain.name, other)))
            crossings.setdefault(key, []).append(
                f"{a.name} of {a.domain.name} takes ctrl {names.get(a.ctrl, '?')}, which waits for a done token "
                f"of {other}"
            )
    doms = [d.name for d in layout.domains if d.accesses]
    seconds = time.perf_counter() - t0
    out = []
    if len(doms) <= 12:
        pairs = [(x, y) for i, x in enumerate(doms) for y in doms[i + 1 :]]
        for x, y in pairs:
            key = tuple(sorted((x, y)))
            out.append(
                _indep(obligation_id("mem.indep", x, None, y), crossings.get(key), x, y,
                       seconds / max(1, len(pairs)), layout)
            )
    else:
        for x in doms:
            found = [m for k, ms in crossings.items() if x in k for m in ms]
            out.append(_indep(obligation_id("mem.indep", x, None, "*"), found or None, x, "*", seconds / len(doms),
                              layout))
    return out


def _indep(
    oid: str, found: Optional[list[str]], x: str, y: str, seconds: float, layout: Layout
) -> Obligation:
    if not found:
        return Obligation(
            oid,
            "memory",
            "proved",
            seconds,
            f"no access of {x} or {y} waits for a done token of the other domain",
            None,
            layout.func.loc,
        )
    return Obligation(
        oid,
        "memory",
        "refuted",
        seconds,
        f"[{MULTI_MEM}] " + "; ".join(found),
        {"code": MULTI_MEM, "crossings": found},
        layout.func.loc,
    )


def return_reach(layout: Layout, owner: dict) -> tuple[set[Value], dict[Value, list[Value]], set[Value]]:
    """``done.postdom``'s first phase, from the done tokens ``owner`` (``layout.done_owner()``) and the start token:
    (the ctrl values from which the return is reachable, each value's ctrl predecessors, every ctrl value reached)."""
    good: set[Value] = set()
    preds: dict[Value, list[Value]] = {}
    ctrl_vals: set[Value] = set()
    frontier = deque()
    seen: set[Value] = set()
    stack = list(owner) + ([layout.start] if layout.start is not None else [])
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        ctrl_vals.add(v)
        for kind, x in ctrl_successors(layout, v):
            if kind == "return":
                if v not in good:
                    good.add(v)
                    frontier.append(v)
            else:
                w = x if kind == "value" else x.done
                if w is None:
                    continue
                preds.setdefault(w, []).append(v)
                stack.append(w)
    while frontier:  # backward closure from the values the return reads
        w = frontier.popleft()
        for p in preds.get(w, []):
            if p not in good:
                good.add(p)
                frontier.append(p)
    return good, preds, ctrl_vals


def postdom_obligation(layout: Layout, names: dict[Value, str]) -> Obligation:
    """``done.postdom``: every done token eventually reaches the return's control."""
    t0 = time.perf_counter()
    owner = layout.done_owner()
    good, preds, ctrl_vals = return_reach(layout, owner)
    problems = []
    leaks = _may_leak(layout, ctrl_vals - good, preds, good)
    for d, acc in owner.items():
        bad = _first_bad(layout, d, good) if d in leaks else None
        if bad is not None:
            problems.append((acc, bad))
    seconds = time.perf_counter() - t0
    if not problems:
        return Obligation(
            obligation_id("done.postdom"),
            "structure",
            "proved",
            seconds,
            f"the return's control waits for every done token ({len(owner)} done token(s))",
            None,
            layout.ret.loc if layout.ret is not None else layout.func.loc,
        )
    acc, (path, why) = problems[0]
    msgs = [
        f"done of {a.name} ({a.domain.name}) can reach {names.get(p[-1], '?')}, {w}" for a, (p, w) in problems
    ]
    return Obligation(
        obligation_id("done.postdom"),
        "structure",
        "refuted",
        seconds,
        "; ".join(msgs),
        {
            "op": acc.op.name,
            "access": acc.name,
            "channel_path": [names.get(v, "?") for v in path],
            "reason": why,
        },
        acc.op.loc,
    )


def _may_leak(layout: Layout, bad: set[Value], preds: dict[Value, list[Value]], good: set[Value]) -> set[Value]:
    """The values from which ``_first_bad``'s search reaches a value of ``bad`` (one backward pass over the
    network): only a done token among them needs its search, so a graph with every done proved is checked in
    linear time (a search per done token made the check quadratic in the accesses)."""
    out = set(bad)
    todo = deque(bad)
    while todo:
        w = todo.popleft()
        if _data_copy(layout, w, good):  # the search never enters w, so w leads nowhere for its predecessors
            continue
        for p in preds.get(w, []):
            if p not in out:
                out.add(p)
                todo.append(p)
    return out


def _first_bad(layout: Layout, d: Value, good: set[Value]) -> Optional[tuple[list[Value], str]]:
    """A path from done ``d`` to a value from which the return is unreachable, with the reason."""
    parent: dict[Value, Optional[Value]] = {d: None}
    queue = deque([d])
    while queue:
        v = queue.popleft()
        if v not in good:
            path = [v]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            path.reverse()
            users = [op.name for op, _ in layout.uses.get(v, [])]
            if not users:
                why = "a token no op consumes"
            elif all(u == "handshake.sink" for u in users):
                why = "which is dropped by handshake.sink"
            else:
                why = (
                    "from which no path leads to the return (consumed by "
                    + ", ".join(sorted(set(users)))
                    + ")"
                )
            return path, why
        for w in forward_values(layout, v):
            if w not in parent and not _data_copy(layout, w, good):
                parent[w] = v
                queue.append(w)
    return None


def _data_copy(layout: Layout, w: Value, good: set[Value]) -> bool:
    """``w`` is a fork's copy that only data consumers read (a constant's trigger, as CIRCT writes it) while
    another copy of the same fork reaches the return: the return waits for the token through that copy, exactly
    as when one value has both uses (an implicit fork), so the data copy is no path out of the network."""
    op = getattr(w, "op", None)
    if op is None or op.name not in ("handshake.fork", "handshake.lazy_fork"):
        return False
    users = [u.name for u, _ in layout.uses.get(w, [])]
    if not users or "handshake.sink" in users or ctrl_successors(layout, w):
        return False
    return any(r in good for r in op.results if r is not w)


def check_structure(func: Operation, ctx: VerifyContext, layout: Optional[Layout] = None) -> list[Obligation]:
    """``mem.access.*``, ``mem.indep.*`` and ``done.postdom`` for ``func`` (a handshake.func)."""
    from loom.sim.names import value_name_map

    layout = layout or memory_layout(func)
    ops = list(func.regions[0].entry.ops)
    values = [v for op in ops for v in list(op.operands) + list(op.results)]
    names = value_name_map(func, list(dict.fromkeys(values)))
    if ctx.progress is not None:
        ctx.progress("structure")
    out = access_obligations(layout, names)
    out += independence_obligations(layout, names)
    if layout.accesses:
        out.append(postdom_obligation(layout, names))
    out += alias_obligations(layout)
    for o in out:
        o.method, o.rule = "graph", _check_name(o.id)
        if o.status == "refuted":  # a race is a behaviour; the other checks are rules of the memory spec
            o.nature = "behaviour" if family_of(o.id) == "mem.alias" else "spec rule"
    return out


_CHECK_NAMES = {"mem.access": "access invariants", "mem.indep": "domain independence",
                "mem.alias": "one ctrl-done network per buffer", "done.postdom": "done postdominance"}


def _check_name(oid: str) -> str:
    """The graph check behind a structural obligation id."""
    name = _CHECK_NAMES.get(family_of(oid) or "")
    if name is not None:
        return name
    return "ctrl-done structure"


def alias_obligations(layout: Layout) -> list[Obligation]:
    """``mem.alias.<arg>`` for each memref argument behind several extmemory interfaces (domains).

    Distinct domains are assumed not to alias (spec-dataflow-memory's alias-free model); two interfaces of
    one buffer certainly do, and nothing orders their accesses, so any store among them can race.
    """
    t0 = time.perf_counter()
    by_buffer: dict[Value, list[Domain]] = {}
    for d in layout.domains:
        buf = d.mem.operands[0] if d.mem.name == "handshake.extmemory" and d.mem.operands else None
        if isinstance(buf, BlockArgument) and d.accesses:
            by_buffer.setdefault(buf, []).append(d)
    out = []
    for buf, doms in by_buffer.items():
        if len(doms) < 2:
            continue
        names = [d.name for d in doms]
        stores = [f"{a.name} of {d.name}" for d in doms for a in d.accesses if a.kind == "store"]
        oid = obligation_id("mem.alias", names[0])
        seconds = time.perf_counter() - t0
        where = " and ".join(names)
        if not stores:
            out.append(Obligation(oid, "memory", "proved", seconds, f"domains {where} share one buffer but "
                                  "only load from it (reads need no order)", None, layout.func.loc))
            continue
        accesses = [f"{a.name} of {d.name}" for d in doms for a in d.accesses]
        out.append(Obligation(
            oid, "memory", "refuted", seconds,
            f"domains {where} are interfaces of one memref argument: they alias, but each has its own "
            f"ctrl-done network, so {', '.join(stores)} may race with the other interface's accesses "
            "(references that may alias must stay in one ordering domain)",
            {"memref": names[0], "domains": names, "accesses": accesses, "stores": stores},
            doms[1].mem.loc))
    return out
