"""Memory interface ops: one handshake.extmemory / handshake.memory per root domain.

Port packing (spec-dataflow-memory, specs/ir-conventions.md): per store
``(data, *address)`` first, then per load ``(*address)``; results are the load
data, then one done token per store, then one done token per load. Creating an
interface resolves the placeholders every access left for its data and done.
"""

from __future__ import annotations

from typing import Sequence

from loom.ir.attributes import Attribute, SymbolRefAttr
from loom.ir.core import Value
from loom.ir.types import Type, none
from loom.lower.builder import DfgBuilder
from loom.lower.memrefs import Domain
from loom.lower.regions import Access


def build_interfaces(
    b: DfgBuilder, domains: Sequence[Domain], accesses: Sequence[Access], arg_map: dict[Value, Value]
) -> None:
    """Create the interface of every domain (in ``ident`` order) and wire its results back."""
    for d in domains:
        mine = [a for a in accesses if a.domain is d]
        stores = [a for a in mine if a.kind == "store"]
        loads = [a for a in mine if a.kind == "load"]
        ports: list[Value] = []
        for a in stores:
            ports.extend(a.op.results)  # data_to_mem, *addresses_to_mem
        for a in loads:
            ports.extend(a.op.results[1:])  # *addresses_to_mem
        elem = d.type.element
        types: list[Type] = [elem] * len(loads) + [none] * (len(stores) + len(loads))
        names = (
            [f"{d.name}_data"] * len(loads)
            + [f"{d.name}_stdone"] * len(stores)
            + [f"{d.name}_lddone"] * len(loads)
        )
        loc = d.loc or (mine[0].op.loc if mine else None)
        assert loc is not None
        if d.kind == "arg":
            assert d.value is not None
            iface = b.extmemory(arg_map[d.value], ports, types, len(loads), len(stores), d.ident, loc, names)
        else:
            extra: dict[str, Attribute] = {}
            if d.kind == "global":
                assert d.symbol is not None
                extra["loom.global_memref"] = SymbolRefAttr(d.symbol)
            iface = b.memory(ports, types, len(loads), len(stores), d.ident, d.type, extra, loc, names)
        res = iface.results
        nl, ns = len(loads), len(stores)
        for i, a in enumerate(loads):
            assert a.data is not None
            a.data.resolve(res[i])
            a.done.resolve(res[nl + ns + i])
        for j, a in enumerate(stores):
            a.done.resolve(res[nl + j])
