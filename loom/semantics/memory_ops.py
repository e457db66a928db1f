"""Tables of handshake.memory and handshake.extmemory.

Port packing (spec-dataflow-memory, specs/ir-conventions.md): operands are, per
store, ``(data, *address)`` then, per load, ``(*address)``; results are the
load data, then one done token per store, then one done token per load. Each
store port and each load port is one independent rule; when several are ready
the order is a nondeterministic choice (the simulator takes stores first, then
loads, each by port number) -- the ctrl-done network is what orders accesses.
"""

from __future__ import annotations

from typing import Optional

from loom.ir.types import MemRefType, Type, index, none
from loom.semantics.expr import TOKEN, Const, In, app
from loom.semantics.functions import MEMORY_DIM, MEMORY_READ
from loom.semantics.machine import Machine, MemoryBinding, Port, Rule, Write


def memory(
    mem_type: MemRefType,
    ld_count: int,
    st_count: int,
    *,
    external: bool,
    global_name: Optional[str] = None,
    addr_type: Type = index,
) -> Machine:
    """The machine of one memory interface with ``st_count`` store and ``ld_count`` load ports."""
    rank = mem_type.rank
    elem = mem_type.element
    ins: list[Port] = [Port("memref", mem_type, kind="memref")] if external else []
    rules: list[Rule] = []
    for j in range(st_count):
        addrs = [f"st{j}.addr{k}" for k in range(rank)]
        ins += [Port(f"st{j}.data", elem)] + [Port(a, addr_type) for a in addrs]
        rules.append(
            Rule(
                f"store{j}",
                "ready",
                (f"st{j}.data", *addrs),
                "ready",
                emits=((f"st{j}.done", Const(TOKEN)),),
                effect=Write(tuple(In(a) for a in addrs), In(f"st{j}.data")),
            )
        )
    for j in range(ld_count):
        addrs = [f"ld{j}.addr{k}" for k in range(rank)]
        ins += [Port(a, addr_type) for a in addrs]
        rules.append(
            Rule(
                f"load{j}",
                "ready",
                tuple(addrs),
                "ready",
                emits=(
                    (f"ld{j}.data", app(MEMORY_READ, *(In(a) for a in addrs))),
                    (f"ld{j}.done", Const(TOKEN)),
                ),
            )
        )
    outs = (
        [Port(f"ld{j}.data", elem) for j in range(ld_count)]
        + [Port(f"st{j}.done", none) for j in range(st_count)]
        + [Port(f"ld{j}.done", none) for j in range(ld_count)]
    )
    binding = MemoryBinding("operand" if external else "fresh", mem_type, global_name)
    name = "handshake.extmemory" if external else "handshake.memory"
    m = Machine(
        name,
        tuple(ins),
        tuple(outs),
        ("ready",),
        "ready",
        tuple(rules),
        choice="arbitrary",
        memory=binding,
        summary=f"{st_count} store port(s), {ld_count} load port(s) on {mem_type}",
    )
    m.check()
    return m


def dim(mem_type: MemRefType) -> Machine:
    """``memref.dim %m, %i`` on a memref argument: each index token becomes the runtime size of dimension i."""
    rule = Rule("size", "ready", ("index",), "ready", emits=(("result", app(MEMORY_DIM, In("index"))),))
    m = Machine(
        "memref.dim",
        (Port("memref", mem_type, kind="memref"), Port("index", index)),
        (Port("result", index),),
        ("ready",),
        "ready",
        (rule,),
        memory=MemoryBinding("operand", mem_type),
        summary=f"runtime size of a dimension of {mem_type}",
    )
    m.check()
    return m
