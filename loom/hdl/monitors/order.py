"""The RTL form of ``mem.<D>.order.<X><<Y>``: which access instance must complete before which one starts.

``loom.verify.memory.order`` reads the domain's ctrl-done network back into a tree (seq, par, loop, if) and
identifies each access instance by the iteration numbers of its loops. The required order of two instances is
the source's program order (when the SCF source is known: accesses matched by location) or, without it, the
order the network itself gives (race freedom). The RTL observes requests (the access op's address transfer)
and completions (its done token), counted from reset. Where the instance correspondence is derivable from the
tree, the form is program order by counts:

* ``X = Y`` (a store against its own later iterations): a request fires only when every earlier request of it
  has completed (done count = request count; done count >= request count where a memory may answer a request in
  the cycle it is made, the done then being that request's own);
* ``X`` and ``Y`` in one sequence, below the same loops in the same phase and branch sides, with no loop and
  at most one branch between that sequence and each access: each runs once per instance of the sequence, or,
  under a branch, once per instance whose branch token (the ctrl ``cond_br`` of the network) takes its side.
  The instance an access's request belongs to is then a count: its request count (unconditional) or its
  branch's firing count (conditional). With F the one the required order runs first and S the other, at S's
  request in instance i, F's instances of instances 0..i have completed (F's done count >= i+1, or, F
  conditional, its branch has fired exactly i+1 times and F's done count >= the tokens that branch sent to F's
  side); at F's request in instance k, S's instances of instances 0..k-1 have completed (the back edge; the
  same with k).

Otherwise (different loop phases or nesting, branch sides, accesses under parallel ctrl tokens with no
required order) the correspondence of instances is not a function of the counts, and the form is mutual
exclusion: a request of one fires only when no request of the other is outstanding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from loom.hdl.monitors.base import WIDTH, _Builder, add_parts

if TYPE_CHECKING:
    from loom.verify.memory.shape import OrderShape


def order_monitor(b: _Builder, oid: str, xa, ya, x: tuple[str, str, str], y: tuple[str, str, str],
                  shape: "OrderShape") -> None:
    """``mem.<D>.order.<X><<Y>``: program order by request/done counts where the instance correspondence is
    derivable (``loom.verify.memory.shape``), else mutual exclusion of outstanding requests."""
    if shape.kind == "self":
        n_req, n_done = b.count(xa.op.results[-1]), b.upto_now(xa.done)
        # with transparent channels a memory that answers at once completes the request in the cycle it is made:
        # then the done counted up to now may be that request's own, one more than its earlier requests
        rel = ">=" if b.same_cycle else "=="
        add_parts(b, oid, [f"!{x[1]} || {n_done} {rel} {n_req}"], xa.op,
             f"program order ({shape.why}): a request of {xa.name} fires only when all its earlier requests "
             "have completed")
        return
    if shape.kind == "seq":
        f, s = (xa, ya) if shape.first == xa.name else (ya, xa)
        conds = [_before(b, s, shape.gate(s.name), f, shape.gate(f.name), True),
                 _before(b, f, shape.gate(f.name), s, shape.gate(s.name), False)]
        if None not in conds:
            add_parts(b, oid, conds, ya.op,
                 f"program order ({shape.why}): a request of {s.name} fires only after the instance of {f.name} "
                 f"of the same iteration (if any) completed, and a request of {f.name} only after the instances of "
                 f"{s.name} of the earlier iterations completed")
            return
    why = shape.why if shape.kind != "seq" else "a branch output of the ctrl chain has no signal to count"
    conds = [f"!{y[1]} || {b.still_out(x[0], x[2])} == '0", f"!{x[1]} || {b.still_out(y[0], y[2])} == '0"]
    if b.same_cycle and xa is not ya:  # two requests in one cycle: neither waited for the other (a race)
        conds.append(f"!({x[1]} && {y[1]})")
    add_parts(b, oid, conds, ya.op,
         f"mutual exclusion, since the instance correspondence is not derivable ({why}): a request of "
         f"{ya.name} fires only when no request of {xa.name} is outstanding, and vice versa")


def _branch_counts(b: _Builder, gate) -> Optional[tuple[str, str]]:
    """(firings, tokens sent to the side) of a ctrl cond_br (None: an output has no signal to count)."""
    cb, side = gate
    if any(r not in b.sig for r in cb.results):
        return None
    fired = f"({b.upto_now(cb.results[0])} + {b.upto_now(cb.results[1])})"
    return fired, b.upto_now(cb.results[side])


def _before(b: _Builder, a, ga, p, gp, same: bool) -> Optional[str]:
    """At a request of access ``a`` (conditional on branch ``ga``, or not), every instance of ``p`` (on ``gp``)
    of the earlier iterations -- and of the same one when ``same`` (``p`` runs first) -- has completed."""
    req = b.fire(a.op.results[-1])
    if ga is None:
        n = b.count(a.op.results[-1])
        upto = f"({n} + {WIDTH}'d1)" if same else n  # instances of p that must be complete
    else:
        counts = _branch_counts(b, ga)
        if counts is None:
            return None
        upto = counts[0] if same else f"({counts[0]} - {WIDTH}'d1)"
    done = b.upto_now(p.done)
    if gp is None:
        return f"!{req} || {done} >= {upto}"
    counts = _branch_counts(b, gp)
    if counts is None:
        return None
    return f"!{req} || ({counts[0]} == {upto} && {done} >= {counts[1]})"
