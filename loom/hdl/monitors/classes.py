"""The RTL form of ``class.<v>``: v's token count at the end of the run equals the count its clock denotes
(the clock its loop-structure consumers require, when it has such consumers; else the clock inferred for it).

A clock (``loom.verify.lengths.clock``) is a loop nest plus a conjunction of conditions. Its token count is
read off channels the RTL has, never off the clock's text: the conditions are the terms of i1 channels (a
loop's raw condition ``j < N``, a gate's ``after_cond`` ``j < N-1``, a branch condition ``%c``), so a clock
``K and c`` has as many tokens as the channel whose term is ``c`` (or ``!c``) and whose clock is ``K`` carries
tokens of that polarity; ``N_L >= 1`` counts the activations of L whose raw condition opened with a
true token;
a clock equal to a loop's raw clock counts that raw condition's tokens; the unconditioned run clock is 1.
Why totals: two clocks with the same key denote the same coordinate set, so equal totals are what the class
obligation implies at the end of the run; a per-activation form would need the correspondence of activations.
Counts are read at the end of the run through ``_Builder.settled_count``: a value copied from a primed buffer
does not count the tokens it keeps to re-arm that buffer (``loom.semantics.rest``), as the clock calculus does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Optional

import z3

from loom.ir.core import Value

if TYPE_CHECKING:
    from loom.hdl.monitors import _Builder

WIDTH = 16


@dataclass(frozen=True)
class Reference:
    """How a class's token count is observed: ``kind`` is ``one`` (1 per run), ``all`` (every token of
    ``channel``), ``pol`` (tokens of ``channel`` whose bit is ``polarity``) or ``opened`` (activations of the
    loop whose raw condition ``channel`` ended after at least one true token)."""

    kind: str
    channel: Optional[Value] = None
    polarity: int = 1
    text: str = ""


def _key(levels, conds) -> tuple:
    from loom.verify.lengths.clock import Clock

    return Clock(tuple(levels), list(conds)).key


def _conditions(a, b: "_Builder") -> Iterator[tuple[Value, z3.BoolRef, object]]:
    """(channel, term, clock) of every i1 channel of the design whose term is a condition, in op order."""
    from loom.verify.lengths.clock import AnyClock

    for v, name in a.names.items():
        t = a.typing.types.get(v)
        if t is None or isinstance(t.clock, AnyClock) or v not in b.sig or not z3.is_bool(t.term):
            continue
        if getattr(v.type, "width", None) != 1:
            continue
        yield v, t.term, t.clock


def reference(a, b: "_Builder", v: Value, clock) -> Optional[Reference]:
    """The observable channel whose count ``clock`` denotes (None: no channel of the design denotes it)."""
    from loom.verify.lengths.clock import AnyClock

    if clock is None or isinstance(clock, AnyClock) or clock.is_empty:
        return None
    if not clock.levels and not clock.conds:
        return Reference("one", text="one token per run")
    names = a.names
    conds = list(_conditions(a, b))
    for w, term, wc in conds:  # a loop's raw condition (or any condition channel) with exactly v's clock
        is_raw = any(term.get_id() == lp.cont.get_id() for lp in a.typing.loops)
        if w is not v and wc.key == clock.key and is_raw:
            return Reference("all", w, text=f"as many tokens as the loop condition {names[w]}")
    for lp in a.typing.loops:  # v is itself a raw condition: the other results of its loop opener
        for w in lp.op.results:
            wc = a.clock(w)
            if w is not v and w in b.sig and wc is not None and getattr(wc, "key", None) == clock.key:
                return Reference("all", w, text=f"as many tokens as {names.get(w, '?')} of the loop opener")
    for w, term, wc in conds:
        if w is v or wc.levels != clock.levels:
            continue
        for pol, c in ((1, term), (0, z3.Not(term))):
            if _key(wc.levels, list(wc.conds) + [c]) == clock.key:
                what = "true" if pol else "false"
                return Reference("pol", w, pol, f"as many tokens as {names[w]} carries {what}")
    for lp in a.typing.loops:
        act = lp.activation
        if act.levels != clock.levels:
            continue
        opened = lp.n_at(lp.outer_js) >= 1
        if _key(act.levels, list(act.conds) + [opened]) != clock.key:
            continue
        raw = next((w for w, term, wc in conds if term.get_id() == lp.cont.get_id()
                    and wc.levels and wc.levels[-1] is lp), None)
        if raw is not None and raw is not v:
            return Reference("opened", raw, text=f"one token per activation of {lp.name} with at least one "
                             f"iteration (a false token of {names[raw]} after a true one)")
    return None


def count(b: "_Builder", r: Reference) -> str:
    """The SV expression of reference ``r``'s count so far (counters declared once on ``b``)."""
    if r.kind == "one":
        return f"{WIDTH}'d1"
    if r.kind == "all":
        return b.settled_count(r.channel)
    s = b.sig[r.channel]
    if r.kind == "pol":
        return b.count(r.channel, f"p{r.polarity}", f"{s}_data[0]" if r.polarity else f"!{s}_data[0]")
    prev = f"lm_prev_{s}"
    if prev not in b.counters:  # the last token of the raw condition; 0 at each activation's start
        b.counters[prev] = prev
        b.m.decls.append(f"  logic {prev};")
        b.m.logic.append(f"  always @(posedge clk) if (rst) {prev} <= 1'b0; else if ({b.fire(r.channel)}) "
                         f"{prev} <= {s}_data[0];")
    return b.count(r.channel, "o", f"!{s}_data[0] && {prev}")


def class_form(a, b: "_Builder", v: Value) -> Optional[tuple[str, str]]:
    """(condition, statement) of ``class.<v>``, or None when no channel of the design denotes v's count."""
    from loom.verify.lengths.check import describe

    # the obligation's clock: what v's loop-structure consumers require of it (a refuted class is one whose
    # inferred clock differs from that), else the clock inferred for v
    wanted = [c.expected for c in a.typing.checks if c.family == "class" and c.channel is v]
    clock = wanted[0] if wanted else a.clock(v)
    if clock is None or v not in b.sig or not hasattr(clock, "is_empty"):
        return None
    cls, _ = describe(clock, a.typing.cond_names, a.logic.free)
    if clock.is_empty:
        return f"!{b.fire(v)}", "the channel never carries a token"
    r = reference(a, b, v, clock)
    if r is None:
        return None
    if r.kind in ("pol", "opened") and b.rearm(r.channel) is not None:
        return None  # its re-arm tokens' values are not counted by value: no honest form reads their bits
    return (f"!lm_end || {b.settled_count(v)} == {count(b, r)}",
            f"{cls} class: at the end of the run, {r.text}")  # not describe()'s text: ordered by Z3 ids
