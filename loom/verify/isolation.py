"""One verification unit's solver state, independent of what the process did before it.

Z3's search (hence what its resource limit counts, which verdicts a limit cuts and which model a satisfiable
query returns) depends on its terms' internal ids, and those depend on every term the context made before --
other functions, other checkers, other files -- and on when Python's collector freed terms (freed ids are
reused). So every checker run (``driver.run_checker``: one unit of ``loom verify``, or one checker of a
``verify_function`` call) runs in ``fresh_solver_state``: a new Z3 context serves as z3py's default context for
the block, and the heap is frozen first (its counters reset), so the collector's passes inside the block see only
what the block allocated. A unit's verdicts, details and witnesses are then the same in a fresh
``loom verify`` process, a ``--jobs`` worker and a library call after any other work.

What a unit makes must not outlive it as a solver term that another unit reads: terms belong to the context they
were made in (no module-level terms; caches of terms, like ``solve.ScopedChecks``'s solver or
``z3model.enum_sort``'s sorts, are per context).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

import z3
import z3.z3 as z3core


@contextmanager
def fresh_solver_state() -> Iterator[z3.Context]:
    """The block with a new Z3 context as z3py's default (``z3.main_ctx()``) and the collector's count started
    from a collected, frozen heap; the previous default context and freeze state come back after it."""
    previous = z3core._main_ctx
    frozen_before = gc.get_freeze_count()
    gc.freeze()  # what the process holds from before (its garbage too) is not the block's: never scanned in it
    gc.collect()  # the collector's counters (and its estimate of the old generation) start from nothing: quick
    ctx = z3.Context()
    z3core._main_ctx = ctx
    try:
        yield ctx
    finally:
        z3core._main_ctx = previous
        gc.collect()  # the block's garbage, while the rest is still frozen (a collection of everything costs ~7 ms
        # a checker in a small process, seconds in a large DFG's)
        if frozen_before == 0:  # frozen here: back to the collector (an outer freeze, e.g. a --jobs parent's, stays)
            gc.unfreeze()
