"""Mapping time and routed wire length of loom's mapper against a greedy first-fit baseline, per example and mesh.

Run: ``python benchmarks/bench_map.py [--seed N] [--budget S] [--sizes 6,8,10] [--quick]``.
Every example (``examples/*.scf.mlir``) is lowered with the mesh's join fan-in and mapped onto the
default mesh shape at 6x6, 8x8 and 10x10 tiles, by loom (``loom.map.mapper.map_dfg``: placement with
annealing, PathFinder routing) and by the baseline (``loom.map.greedy.greedy_map``: first free compatible
FU, BFS routes through free ports, no negotiation), in the same run. Both results are proved by the
independent checker (``loom.map.check.check``); a refuted mapping aborts the run. Wire length is the
number of switch transitions the configuration enables (each is one switch hop of one value's route
tree). Ratios are loom / baseline, given only where both fit; a mapper that cannot fit an example on a
mesh gets "does not fit". The last line is the geometric mean of each ratio. ``--quick`` maps only the
smallest example on 6x6 (the smoke test). Prints numbers; not a timed test.

``--placers`` compares loom's two placers instead, side by side on the same meshes: simulated annealing
(``--placer sa``, the default) and OR-tools CP-SAT (``--placer cpsat``, ``loom/map/place_cpsat.py``), each followed
by the same PathFinder routing and proved by the checker: seconds, switch hops routed, and whether it fits.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.lower import LowerOptions, lower_module  # noqa: E402
from loom.map.adg.mesh import MeshParams, mesh  # noqa: E402
from loom.map.adg.model import ADG  # noqa: E402
from loom.map.adg.read import read_adg  # noqa: E402
from loom.map.artifacts import map_json  # noqa: E402
from loom.map.check import check  # noqa: E402
from loom.map.config import encode  # noqa: E402
from loom.map.dfg import DFG, read_dfg  # noqa: E402
from loom.map.greedy import greedy_map  # noqa: E402
from loom.map.mapper import MapFailure, Mapping, map_dfg  # noqa: E402
from loom.mlir import parse_file, parse_text  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SIZES = (6, 8, 10)


@dataclass
class Cell:
    """One mapper on one (example, mesh): seconds to map, and switch hops routed; ``wire`` None = does not fit."""

    seconds: float
    wire: Optional[int]
    why: str = ""


@dataclass
class Row:
    example: str
    size: int
    ops: int  # DFG op nodes, each needing a PE (before compound units are formed)
    loom: Cell
    greedy: Cell

    def ratios(self) -> Optional[tuple[float, float]]:
        """(time, wire) of loom over the baseline, when both fit."""
        if self.loom.wire is None or self.greedy.wire is None:
            return None
        return self.loom.seconds / self.greedy.seconds, self.loom.wire / max(self.greedy.wire, 1)


class Refuted(Exception):
    """The checker refutes a mapping one of the mappers returned: the comparison would be meaningless."""


def mesh_adg(size: int) -> ADG:
    return read_adg(parse_text(mesh(MeshParams(rows=size, cols=size)), f"mesh{size}.fabric.mlir"))


def example_dfg(path: Path, adg: ADG) -> DFG:
    module = lower_module(parse_file(path), None, LowerOptions(max_join_fanin=adg.max_join_fanin()))
    return read_dfg([f for f in module.functions() if f.name == "handshake.func"][0])


def wire_length(m: Mapping) -> int:
    """Switch transitions the configuration enables."""
    return sum(len(pairs) for pairs in m.config.switches.values())


def run(mapper: Callable[[DFG, ADG], Mapping], dfg: DFG, adg: ADG, label: str) -> Cell:
    """Map, time the mapping alone, then prove the result (Refuted if the checker disagrees)."""
    t0 = time.perf_counter()
    try:
        m = mapper(dfg, adg)
    except MapFailure as e:
        return Cell(time.perf_counter() - t0, None, str(e))
    seconds = time.perf_counter() - t0
    doc = json.loads(json.dumps(map_json(m, "bench.dfg.mlir", "mesh.fabric.mlir")))
    rep = check(dfg, adg, encode(adg, m.config), doc)
    if not rep.ok:
        raise Refuted(f"{label}: the checker refutes the mapping: {rep.violations[:3]}")
    return Cell(seconds, wire_length(m))


def measure(path: Path, adg: ADG, size: int, seed: int, budget: float) -> Row:
    dfg = example_dfg(path, adg)
    name = path.name.split(".")[0]
    loom = run(lambda d, a: map_dfg(d, a, seed=seed, budget=budget), dfg, adg, f"loom on {name} {size}x{size}")
    base = run(greedy_map, dfg, adg, f"baseline on {name} {size}x{size}")
    return Row(name, size, sum(1 for n in dfg.nodes if n.kind == "op"), loom, base)


def _cell(c: Cell) -> str:
    return f"{c.seconds:>8.2f}{c.wire:>7}" if c.wire is not None else f"{c.seconds:>8.2f}{'-':>7}"


def table(rows: list[Row]) -> list[str]:
    """The printed report: one line per (example, mesh), then the geometric means."""
    out = [f"{'example':<14}{'mesh':>6}{'ops':>6} | {'loom s':>7}{'wire':>7} | {'base s':>7}{'wire':>7} | "
           f"{'time x':>7}{'wire x':>7}"]
    for r in rows:
        rat = r.ratios()
        tail = f"{rat[0]:>7.2f}{rat[1]:>7.2f}" if rat else ""
        fit = "" if rat else "  " + ", ".join(f"{who} does not fit" for who, c in (("loom", r.loom), ("baseline", r.greedy))
                                              if c.wire is None)
        out.append(f"{r.example:<14}{f'{r.size}x{r.size}':>6}{r.ops:>6} |{_cell(r.loom)} |{_cell(r.greedy)} | {tail}{fit}")
    both = [x for x in (r.ratios() for r in rows) if x]
    fits = (sum(r.loom.wire is not None for r in rows), sum(r.greedy.wire is not None for r in rows))
    out.append(_geomean_line(both, "wire", "loom / baseline",
                             f"loom fits {fits[0]}/{len(rows)}, baseline fits {fits[1]}/{len(rows)}"))
    return out


def _geomean_line(both: list[tuple[float, float]], quality: str, ratio: str, counts: str) -> str:
    """A table's last line: geometric means of the (time, quality) ratios over the cells where both fit."""
    if not both:
        return f"no cell where both fit; {counts}"
    gt = math.exp(sum(math.log(t) for t, _ in both) / len(both))
    gw = math.exp(sum(math.log(w) for _, w in both) / len(both))
    return f"geomean over {len(both)} cells where both fit: time x {gt:.2f}, {quality} x {gw:.2f} ({ratio}); {counts}"


@dataclass
class PlacerRow:
    example: str
    size: int
    ops: int
    sa: Cell
    cpsat: Cell


def measure_placers(path: Path, adg: ADG, size: int, seed: int, budget: float) -> PlacerRow:
    dfg = example_dfg(path, adg)
    name = path.name.split(".")[0]
    cells = [run(lambda d, a, p=p: map_dfg(d, a, seed=seed, budget=budget, placer=p), dfg, adg, f"{p} on {name} {size}x{size}")
             for p in ("sa", "cpsat")]
    return PlacerRow(name, size, sum(1 for n in dfg.nodes if n.kind == "op"), *cells)


def placer_table(rows: list[PlacerRow]) -> list[str]:
    """SA against CP-SAT: one line per (example, mesh), then the geometric means where both fit."""
    out = [f"{'example':<14}{'mesh':>6}{'ops':>6} | {'sa s':>7}{'hops':>7} | {'cpsat s':>7}{'hops':>7} | "
           f"{'time x':>7}{'hops x':>7}"]
    both = []
    for r in rows:
        fit = r.sa.wire is not None and r.cpsat.wire is not None
        tail = ""
        if fit:
            rat = (r.cpsat.seconds / r.sa.seconds, r.cpsat.wire / max(r.sa.wire, 1))  # type: ignore[operator]
            both.append(rat)
            tail = f"{rat[0]:>7.2f}{rat[1]:>7.2f}"
        else:
            tail = "  " + ", ".join(f"{who} does not fit" for who, c in (("sa", r.sa), ("cpsat", r.cpsat)) if c.wire is None)
        out.append(f"{r.example:<14}{f'{r.size}x{r.size}':>6}{r.ops:>6} |{_cell(r.sa)} |{_cell(r.cpsat)} | {tail}")
    fits = (sum(r.sa.wire is not None for r in rows), sum(r.cpsat.wire is not None for r in rows))
    out.append(_geomean_line(both, "hops", "cpsat / sa",
                             f"sa fits {fits[0]}/{len(rows)}, cpsat fits {fits[1]}/{len(rows)}"))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=float, default=20.0, help="loom's mapping budget per cell, seconds")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="mesh sizes (rows = cols), comma separated")
    ap.add_argument("--quick", action="store_true", help="only the smallest example on 6x6")
    ap.add_argument("--placers", action="store_true", help="compare the SA and CP-SAT placers instead of the baseline")
    args = ap.parse_args(argv)
    sizes = [6] if args.quick else [int(s) for s in args.sizes.split(",")]
    paths = sorted(EXAMPLES.glob("*.scf.mlir"))
    rows: list[Row] = []
    try:
        for size in sizes:
            adg = mesh_adg(size)
            todo = paths
            if args.quick:
                todo = [min(paths, key=lambda p: (len(example_dfg(p, adg).nodes), p.name))]  # the smallest DFG
            for path in todo:
                if args.placers:
                    rows.append(measure_placers(path, adg, size, args.seed, args.budget))  # type: ignore[arg-type]
                    print(placer_table(rows[-1:])[1], flush=True)  # type: ignore[arg-type]
                else:
                    rows.append(measure(path, adg, size, args.seed, args.budget))
                    print(table(rows[-1:])[1], flush=True)
    except Refuted as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print()
    print("\n".join(placer_table(rows) if args.placers else table(rows)))  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
