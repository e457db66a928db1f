"""DFG-level RTL monitors: one SVA property per ``loom verify`` obligation, labelled with the obligation's ID.

The verifier's facts (``loom.verify.facts.DfgFacts``, the object ``loom verify``'s checkers read; the design's
``facts``, shared with the helper invariants of ``loom.hdl.formal``) say what
each obligation is about: the clock calculus gives the loops, their gates, the
ops with a balance obligation and each value's length class; the memory layout
and the order check give the domains, the accesses, the ordered pairs and their
order shapes. A failure to compute them stops ``loom hdl`` (``HDL_FACTS``): the
RTL is never written without its monitors. Each obligation becomes counters over channel transfers plus one
``LOOM_ASSERT_ALWAYS`` (so both backends of ``loom_props.svh`` render it):

* ``len.<L>.raw``   -- at each end of an activation (the gate takes the raw false token): raw = body + 1;
  once ``done`` is out, the loop opener's input channels and latch are empty;
* ``len.<L>.after_cond`` -- at each activation end: after_cond tokens = after_value tokens (N each); once
  ``done`` is out, the gate's input channels and latch are empty;
* ``balance.<op>``  -- once ``done`` is out, no token remains in the op's input FIFOs or in its FSM latch (a primed
  buffer is also re-armed: its copies' consumers took as many tokens as it took in);
* ``class.<v>``     -- once ``done`` is out, v's token count equals the count its clock denotes, read off the
  condition channels (``loom.hdl.monitors.classes``); an empty class never fires;
* ``mem.<D>.order.<X><<Y>`` -- program order by request/done counts where the instances correspond, else
  mutual exclusion of outstanding requests (``loom.hdl.monitors.order``); read-read pairs have no obligation;
* ``fsm.stream.pre.<idx>`` / ``fsm.stream[..].terminates`` -- the termination precondition on the operands a
  stream takes, and the lemma's progress relation between its index tokens (``loom.hdl.monitors.streams``);
* ``mem.access.<X>`` -- every done token of the access answers an outstanding request;
* ``done.postdom``  -- when ``done`` fires, no access of any domain is outstanding.

"Empty" at the end of the run is the simulator's "not residual": a channel whose value copies a primed buffer
(``initValues``) may keep up to that buffer's initial token count, the tokens that re-arm it for the next run
(``loom.semantics.rest.rearm_allowance``), and no more; end-of-run counts leave those tokens out, as the clock
calculus does. ``_Builder.left`` / ``settled_count`` (``loom.hdl.monitors.base``) are the one place that encodes it.

The monitors sit in the top under ``LOOM_DFG_MONITORS`` (task ``dfg`` of the ``.sby``, a bounded check):
their counters are not related to FIFO occupancy by helper invariants, so k-induction cannot prove them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loom.diagnostics import LoomError
from loom.hdl.monitors.base import (DEFINE, NO_RTL_FORM, WIDTH, Monitor, Monitors, _Builder, add_parts,
                                    label_of)
from loom.hdl.monitors.lengths import length_monitors
from loom.hdl.monitors.memory import memory_monitors
from loom.hdl.monitors.streams import stream_forms
from loom.verify import facts as _facts

if TYPE_CHECKING:
    from loom.hdl.netlist import Design
    from loom.verify.facts import DfgFacts

__all__ = ["DEFINE", "NO_RTL_FORM", "WIDTH", "Monitor", "Monitors", "_Builder", "add_parts", "build_monitors",
           "design_facts", "label_of"]


def design_facts(d: "Design") -> "DfgFacts":
    """The verifier's facts of ``d.func`` (``d.facts``, ``loom.verify.facts``) with every part the monitors read
    computed: a ``LoomError`` of the analyses (bad input) propagates; any other failure is a bug of the
    verifier, reported as ``HDL_FACTS`` at the function -- either way ``loom hdl`` stops and writes nothing."""
    try:
        return d.facts.require(*_facts.MONITOR_PARTS)
    except (LoomError, RecursionError):
        raise  # bad input, or a graph nested too deeply: the CLI reports both
    except Exception as e:  # re-raised as a located error, never swallowed
        raise LoomError(f"the verifier's facts of this function, which the DFG-level monitors state, could "
                        f"not be computed ({type(e).__name__}: {e}); no RTL written", d.func.loc,
                        code="HDL_FACTS") from e


def build_monitors(d: "Design") -> Monitors:
    """The DFG-level monitors of design ``d``, from the verifier's facts of ``d.func``."""
    b = _Builder(d)
    facts = design_facts(d)
    length_monitors(b, facts)
    memory_monitors(b, facts)
    stream_forms(b)
    return b.m
