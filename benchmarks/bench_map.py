"""Mapping quality and speed on the default mesh: per example, time to map and to prove, PEs used,
switch hops per edge, and the ratio of routed hops to the placement's lower bound.

Run: ``python benchmarks/bench_map.py [--seed N]``. Each example is lowered with the
mesh's join fan-in, mapped (``loom.map.mapper.map_dfg``) and proved
(``loom.map.check.check``). The lower bound of an edge is the hop distance
between its endpoints' components under the final placement, so the ratio shows
how much routing had to detour around congestion (1.00 = every edge on a
shortest path). Prints numbers; not a timed test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.lower import LowerOptions, lower_module  # noqa: E402
from loom.map.adg.mesh import MeshParams, mesh  # noqa: E402
from loom.map.adg.read import read_adg  # noqa: E402
from loom.map.artifacts import map_json  # noqa: E402
from loom.map.check import check  # noqa: E402
from loom.map.config import encode  # noqa: E402
from loom.map.dfg import read_dfg  # noqa: E402
from loom.map.mapper import map_dfg  # noqa: E402
from loom.map.place import hop_distances  # noqa: E402
from loom.mlir import parse_file, parse_text  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    adg = read_adg(parse_text(mesh(MeshParams())))
    dist = hop_distances(adg)
    print(f"{'example':<14}{'nodes':>6}{'edges':>6}{'PEs':>5}{'map s':>8}{'check s':>9}{'hops/edge':>10}{'vs bound':>9}")
    for path in sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.scf.mlir")):
        module = lower_module(parse_file(path), None, LowerOptions(max_join_fanin=adg.max_join_fanin()))
        dfg = read_dfg([f for f in module.functions() if f.name == "handshake.func"][0])
        t0 = time.perf_counter()
        m = map_dfg(dfg, adg, seed=args.seed)
        t1 = time.perf_counter()
        rep = check(dfg, adg, encode(adg, m.config), json.loads(json.dumps(map_json(m, path.name, "mesh"))))
        t2 = time.perf_counter()
        assert rep.ok, rep.violations[:3]
        hops = bound = 0
        for k, e in enumerate(m.dfg.edges):  # the routed edges (compound units contracted)
            p = m.paths[k]
            hops += sum(1 for a, b in zip(p, p[1:]) if a[0] == b[0])  # switch transitions taken
            sa, sb = _comp(m.place[e.src[0]]), _comp(m.place[e.dst[0]])
            bound += max(dist.get(sa, {}).get(sb, 1) - 1, 0)
        pes = sum(1 for t in m.place.values() if t[0] == "fu")  # a compound unit is one placed node
        name = path.name.split(".")[0]
        print(f"{name:<14}{len(dfg.nodes):>6}{len(dfg.edges):>6}{pes:>5}{t1 - t0:>8.2f}{t2 - t1:>9.3f}"
              f"{hops / len(m.dfg.edges):>10.2f}{hops / max(bound, 1):>9.2f}")


def _comp(t: tuple) -> str:
    return t[1] if t[0] in ("fu", "mem") else f"${t[0]}{t[1]}"


if __name__ == "__main__":
    main()
