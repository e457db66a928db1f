"""One verification unit's solver state, independent of what the process did before it.

Z3's search (hence what its resource limit counts, which verdicts a limit cuts and which model a satisfiable
query returns) depends on its terms' internal ids, and those depend on every term the context made before --
other functions, other checkers, other files -- and on when Python's collector freed terms (freed ids are
reused). So every checker run (``driver.run_checker``: one unit of ``loom verify``, or one checker of a
``verify_function`` call) runs in ``fresh_solver_state``: a new Z3 context serves as z3py's default context for
the block, and Python's cycle collector is off inside it (the heap frozen first, the block's garbage collected
after it). The collector's passes free terms, and when they run depends on how many objects the process allocated
-- e.g. whether a module the checker imports on first use was imported by an earlier one: ``orb_descriptor_tiled``'s
safety witnesses changed after another kernel's lengths, refine or safety run -- so inside the block only
reference counts free anything, in the order the block's own work drops them. A unit's verdicts, details and
witnesses are then the same in a fresh ``loom verify`` process, a ``--jobs`` worker and a library call after any
other work.

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
    """The block with a new Z3 context as z3py's default (``z3.main_ctx()``) and the cycle collector off; after
    it, the block's cyclic garbage is collected and the previous default context, collector and freeze state come
    back."""
    previous = z3core._main_ctx
    frozen_before, enabled = gc.get_freeze_count(), gc.isenabled()
    gc.freeze()  # what the process holds from before (its garbage too) is not the block's: the collection after
    # the block scans only what the block made (a collection of everything cost ~7 ms a checker in a small process)
    gc.disable()
    ctx = z3.Context()
    z3core._main_ctx = ctx
    try:
        yield ctx
    finally:
        z3core._main_ctx = previous
        gc.collect()  # the block's cyclic garbage, while the rest is still frozen
        if enabled:
            gc.enable()
        if frozen_before == 0:  # frozen here: back to the collector (an outer freeze, e.g. a --jobs parent's, stays)
            gc.unfreeze()
