"""The instance correspondence of two accesses of one domain: which instance of one must complete before
which instance of the other starts (a fact of the verifier, read by the RTL order monitors of
``loom.hdl.monitors.order`` through ``loom.verify.facts``).

``loom.verify.memory.order`` reads the domain's ctrl-done network back into a tree (seq, par, loop, if) and
identifies each access instance by the iteration numbers of its loops. The required order is the source's program
order (when the SCF source is known: accesses matched by location) or, without it, the order the network itself
gives (race freedom). The correspondence is derivable from the tree when the two accesses are one access against
its own iterations (``self``), or sit in one sequence below the same loops, with no loop and at most one branch
between that sequence and each access (``seq``); otherwise it is not a function of counts (``exclusive``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from loom.ir.core import Operation

if TYPE_CHECKING:
    from loom.verify.memory.structure import Access, Layout


@dataclass(frozen=True)
class OrderShape:
    """How the two accesses' instances correspond: ``kind`` is ``self`` (one access, its own iterations),
    ``seq`` (at most once each per instance of one sequence; ``first`` runs first) or ``exclusive`` (no
    derivable correspondence: mutual exclusion); ``why`` says which in words. ``gates`` maps an access name
    to the branch it is conditional on below the sequence: (the ctrl ``cond_br`` op, 0 for its true side,
    1 for its false side); an access without an entry runs once per instance."""

    kind: str
    first: Optional[str] = None
    why: str = ""
    gates: tuple = ()

    def gate(self, name: str) -> Optional[tuple[Operation, int]]:
        return dict(self.gates).get(name)


def _gate_below(path, i: int) -> tuple[bool, Optional[tuple[Operation, int]]]:
    """(derivable, gate) of the path below the divergence (depth ``i``): no loop and at most one branch
    (the access runs once per instance, or once per instance whose branch token takes its side)."""
    rest = path[i + 1:]
    if any(n.kind == "loop" for n, _ in rest):
        return False, None
    ifs = [(n.op, side) for n, side in rest if n.kind == "if"]
    if len(ifs) > 1:
        return False, None
    return True, (ifs[0] if ifs else None)


def order_shape(layout: "Layout", x: "Access", y: "Access", source=None) -> OrderShape:
    """The instance correspondence of accesses ``x`` and ``y`` (one domain) and the order required of them."""
    from loom.sim.names import value_name_map
    from loom.verify.memory.order import Unrecognized, domain_pairs, source_keys

    if x is y:
        return OrderShape("self", x.name, "one access against its own earlier iterations")
    func = layout.func
    ops = list(func.regions[0].entry.ops)
    values = [v for op in ops for v in list(op.operands) + list(op.results)]
    names = value_name_map(func, list(dict.fromkeys(values)))
    keys = source_keys(source, layout)[0] if source is not None else None
    try:
        dp = domain_pairs(layout, x.domain, names, keys)
    except Unrecognized as e:
        return OrderShape("exclusive", why=f"the ctrl-done network was not recognized ({e})")
    px, py = dp.paths[id(x)], dp.paths[id(y)]
    i = 0
    while i < min(len(px), len(py)) and px[i][0] is py[i][0] and px[i][1] == py[i][1]:
        i += 1
    if i >= min(len(px), len(py)) or px[i][0] is not py[i][0]:
        return OrderShape("exclusive", why="their positions in the ctrl-done tree do not diverge in one node")
    node, cx, cy = px[i][0], px[i][1], py[i][1]
    if node.kind != "seq":
        what = {"loop": "different phases of one loop (N+1 and N instances per activation)",
                "if": "the two sides of one branch", "par": "parallel ctrl tokens"}[node.kind]
        return OrderShape("exclusive", why=f"the accesses are on {what}")
    (ok_x, gx), (ok_y, gy) = _gate_below(px, i), _gate_below(py, i)
    if not (ok_x and ok_y):
        return OrderShape("exclusive",
                          why="a loop or nested branches lie between their common sequence and an access")
    gates = tuple((a.name, g) for a, g in ((x, gx), (y, gy)) if g is not None)
    if keys is not None:
        x_first = keys[id(x)] < keys[id(y)]
        src = "the source's program order"
    else:
        x_first = cx < cy
        src = "the ctrl-done chain's order (no source: race freedom)"
    each = "once each per iteration" if not gates else "at most once each per iteration (a branch decides)"
    return OrderShape("seq", x.name if x_first else y.name, f"{each}; {src}", gates)
