"""The certificate-free isomorphism (loom/map/iso.py): the decoded configuration of a real mapping is isomorphic
to the DFG without map.json's node list, and a changed constant, a swapped operand or a missing connection is not;
networkx VF2++ and Z3 answer each question independently and must agree."""

from __future__ import annotations

import copy
import functools
from dataclasses import replace

from loom.map.check import CheckReport, decode_mapping
from loom.map.iso import decoded_graph, dfg_graph, isomorphic, z3_isomorphic

from support.map import EXAMPLES, default_mesh, dfg_of_file, map_and_check


@functools.lru_cache(maxsize=None)
def decoded(name: str):
    adg = default_mesh()
    dfg = dfg_of_file(next(p for p in EXAMPLES if p.name.startswith(f"{name}.")), adg.max_join_fanin())
    m, words, doc, rep = map_and_check(dfg, adg)
    assert rep.ok, rep.violations
    d = decode_mapping(dfg, adg, words, doc, CheckReport())
    assert d is not None
    return adg, d


def test_a_proved_mapping_is_isomorphic_without_its_certificate() -> None:
    adg, d = decoded("histogram")
    assert isomorphic(decoded_graph(adg, d.cfg, d.fus, d.walk), dfg_graph(d.work))
    assert z3_isomorphic(dfg_graph(d.work), decoded_graph(adg, d.cfg, d.fus, d.walk)) is True


def test_a_changed_constant_is_not_isomorphic() -> None:
    adg, d = decoded("histogram")
    fus = dict(d.fus)
    pe = next(p for p, (fu, c) in sorted(fus.items()) if fu.op is not None and fu.op.name == "handshake.constant")
    fu, c = fus[pe]
    fus[pe] = (fu, replace(c, payload=c.payload ^ 1))
    assert not isomorphic(decoded_graph(adg, d.cfg, fus, d.walk), dfg_graph(d.work))
    assert z3_isomorphic(dfg_graph(d.work), decoded_graph(adg, d.cfg, fus, d.walk)) is False


def test_swapped_operands_of_a_non_commutative_op_are_not_isomorphic() -> None:
    adg, d = decoded("histogram")
    walk = copy.deepcopy(d.walk)
    cons = walk.connections
    # two connections into FU inputs 1 and 2 of one select (the two alternatives): swap which value goes where
    sel = next(p for p, (fu, c) in sorted(d.fus.items()) if fu.op is not None and fu.op.name in ("arith.select", "handshake.mux"))
    i1 = next(k for k, c in enumerate(cons) if c.dst == ("fu_in", sel, 1))
    i2 = next(k for k, c in enumerate(cons) if c.dst == ("fu_in", sel, 2))
    if cons[i1].src == cons[i2].src:  # the same value on both sides: swap with the condition instead
        i2 = next(k for k, c in enumerate(cons) if c.dst == ("fu_in", sel, 0))
    cons[i1], cons[i2] = replace(cons[i1], dst=cons[i2].dst), replace(cons[i2], dst=cons[i1].dst)
    assert not isomorphic(decoded_graph(adg, d.cfg, d.fus, walk), dfg_graph(d.work))
    assert z3_isomorphic(dfg_graph(d.work), decoded_graph(adg, d.cfg, d.fus, walk)) is False


def test_a_missing_connection_is_not_isomorphic() -> None:
    adg, d = decoded("histogram")
    walk = copy.deepcopy(d.walk)
    del walk.connections[len(walk.connections) // 2]
    assert not isomorphic(decoded_graph(adg, d.cfg, d.fus, walk), dfg_graph(d.work))
    assert z3_isomorphic(dfg_graph(d.work), decoded_graph(adg, d.cfg, d.fus, walk)) is False
