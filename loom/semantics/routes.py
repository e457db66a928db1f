"""Bounded routes: a ``handshake.buffer`` marked ``loom.route`` is a configured fabric route of ``slots`` places.

A DFG's channels are unbounded (its verdicts hold for any buffering). A route on the fabric is not: its
switch hops and buffered FIFOs hold ``slots`` values between the producer and the consumer, and when they
are all taken the producer stalls (a PE fires only when every output can take its value). The decoded
configuration's rebuilt function (``loom.map.execute``) marks each route buffer so; the token simulator and
the bounded model checker read this one rule and stall a producer whose emit would overfill a route, so the
same checkers that decide a DFG's deadlock also decide whether the routes' depths can deadlock it.

A route is the channel into the marked buffer (its *entry*) plus the channels of the buffer's result (its
*exits*): together they hold at most ``slots`` tokens. Moving a token from the entry through the buffer
keeps the count, so only the entry's producer is held back, and only a consumer popping an exit frees room.
Copying ops (fork, br, buffer) emit to every output at once, as a fabric switch's fan-out does.
"""

from __future__ import annotations

from typing import Callable, Hashable, Iterable, Iterator, Optional

from loom.ir.attributes import IntegerAttr, UnitAttr
from loom.ir.core import Operation

ROUTE_ATTR = "loom.route"


def route_capacity(op: Operation) -> Optional[int]:
    """The places of the route ``op`` stands for (a ``loom.route`` buffer without initial tokens), else None."""
    if op.name != "handshake.buffer" or ROUTE_ATTR not in op.attributes or "initValues" in op.attributes:
        return None
    slots = op.attributes.get("slots")
    return max(1, slots.value) if isinstance(slots, IntegerAttr) else 1


def route_marker() -> UnitAttr:
    """The attribute value that marks a buffer as a route (``op.attributes[ROUTE_ATTR]``)."""
    return UnitAttr()


def route_full(entry_tokens: int, exit_tokens: Iterable[int], places: int) -> bool:
    """Whether a route whose entry channel holds ``entry_tokens`` and whose exits hold ``exit_tokens`` has no room
    for another token (the rule the token simulator and the bounded model checker both apply)."""
    return entry_tokens + sum(exit_tokens) >= places


def bounded_routes(actors: Iterable, key: Callable[[object], Hashable] = lambda ch: ch) -> Iterator[tuple]:
    """(producer, entry, exits, places) of every bounded route among ``actors`` whose entry has a producer: the
    one wiring rule of the token simulator's and the bounded model checker's networks. An actor has ``op``,
    ``inputs`` (a channel per operand) and ``outputs`` (the channels of each result); ``key`` makes a channel a
    dict key (``id`` for channel objects)."""
    actors = list(actors)
    producer = {key(ch): a for a in actors for chans in a.outputs for ch in chans}
    for a in actors:
        cap = route_capacity(a.op)
        entry = a.inputs[0] if cap is not None and a.inputs else None
        if entry is None or key(entry) not in producer:
            continue
        yield producer[key(entry)], entry, tuple(a.outputs[0]), cap
