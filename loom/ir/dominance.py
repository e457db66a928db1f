"""Dominator (and, over reversed edges, post-dominator) sets of a control-flow graph: one fixed-point rule that
the structural verifier, the CF-to-SCF lifting and the C front end's buffer-swap analysis all read."""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, TypeVar

K = TypeVar("K", bound=Hashable)


def dominator_sets(nodes: list[K], edges_in: Callable[[K], Iterable[K]], roots: Iterable[K]) -> dict[K, set[K]]:
    """Each node's dominators, itself included: a root has only itself; any other node, itself and what every
    predecessor (``edges_in``, those among ``nodes``) has, iterated from "every node" down to the greatest fixed
    point. Pass successors as ``edges_in`` and the exits as ``roots`` for post-dominators."""
    first = set(roots)
    sets = {n: ({n} if n in first else set(nodes)) for n in nodes}
    changed = True
    while changed:
        changed = False
        for n in nodes:
            if n in first:
                continue
            ins = [sets[p] for p in edges_in(n) if p in sets]
            new = (set.intersection(*ins) if ins else set()) | {n}
            if new != sets[n]:
                sets[n], changed = new, True
    return sets
