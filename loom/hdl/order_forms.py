"""The RTL form of ``mem.<D>.order.<X><<Y>``: which access instance must complete before which one starts.

``loom.verify.memory.order`` reads the domain's ctrl-done network back into a tree (seq, par, loop, if) and
identifies each access instance by the iteration numbers of its loops. The required order of two instances is
the source's program order (when the SCF source is known: accesses matched by location) or, without it, the
order the network itself gives (race freedom). The RTL observes requests (the access op's address transfer)
and completions (its done token), counted from reset. Where the instance correspondence is derivable from the
tree, the form is program order by counts:

* ``X = Y`` (a store against its own later iterations): a request fires only when every earlier request of it
  has completed (done count = request count);
* ``X`` and ``Y`` in one sequence, below the same loops in the same phase and branch sides, with no loop or
  branch between that sequence and either access: both run exactly once per instance of the sequence, so the
  k-th request of one and the k-th of the other are the same iteration. With F the one the required order runs
  first and S the other: S's request fires only when F's done count exceeds S's request count (F's instance of
  this iteration has completed), and F's request fires only when S's done count has reached F's request count
  (S's instance of the previous iteration has completed: the back edge).

Otherwise (different loop phases or nesting, branch sides, accesses under parallel ctrl tokens with no
required order) the correspondence of instances is not a function of the counts, and the form is mutual
exclusion: a request of one fires only when no request of the other is outstanding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from loom.verify.memory.structure import Access, Layout


@dataclass(frozen=True)
class OrderShape:
    """How the two accesses' instances correspond: ``kind`` is ``self`` (one access, its own iterations),
    ``seq`` (once each per instance of one sequence; ``first`` runs first) or ``exclusive`` (no derivable
    correspondence: mutual exclusion); ``why`` says which in words."""

    kind: str
    first: Optional[str] = None
    why: str = ""


def _once_below(path, i: int) -> bool:
    """No loop or branch between the divergence (depth ``i``) and the access: one execution per instance."""
    return all(n.kind not in ("loop", "if") for n, _ in path[i + 1:])


def order_shape(layout: "Layout", x: "Access", y: "Access", source=None) -> OrderShape:
    """The instance correspondence of accesses ``x`` and ``y`` (same domain) and the order required of them."""
    from loom.sim.names import value_name_map
    from loom.verify.memory.order import Unrecognized, domain_pairs, source_keys

    if x is y:
        return OrderShape("self", x.name, "one access against its own earlier iterations")
    func = layout.func
    ops = list(func.regions[0].entry.ops)
    names = value_name_map(func, list(dict.fromkeys(v for op in ops for v in list(op.operands) + list(op.results))))
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
        return OrderShape("exclusive", why="the accesses' positions in the ctrl-done tree do not diverge in one node")
    node, cx, cy = px[i][0], px[i][1], py[i][1]
    if node.kind != "seq":
        what = {"loop": "different phases of one loop (N+1 and N instances per activation)",
                "if": "the two sides of one branch", "par": "parallel ctrl tokens"}[node.kind]
        return OrderShape("exclusive", why=f"the accesses are on {what}")
    if not (_once_below(px, i) and _once_below(py, i)):
        return OrderShape("exclusive", why="a loop or branch lies between their common sequence and an access")
    if keys is not None:
        x_first = keys[id(x)] < keys[id(y)]
        src = "the source's program order"
    else:
        x_first = cx < cy
        src = "the ctrl-done chain's order (no source: race freedom)"
    return OrderShape("seq", x.name if x_first else y.name, f"once each per iteration; {src}")
