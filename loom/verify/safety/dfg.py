"""Safety obligations of a DFG verified without its source, through the DFG's own model of addresses.

The refinement check's symbolic evaluation of a handshake.func
(``loom.verify.refine.dfg.DfgModel``: loops from streams and carry groups, each
token's term, loop context and path condition) gives each memory port's address
per dimension and each arith op's operands; their sites are the SCF side's
(``bounds`` at every load/store port against the memory's dimensions, the rules of
``loom.semantics.undefined`` at every arith op), with the same ids
(``safe.<op>@<line>:<col>.<what>``, the line and column of the op's source location when
the DFG carries one). A refutation is replayed in the token simulator, which must stop
with the site's runtime error.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Optional

import z3

from loom.diagnostics import LoomError
from loom.dialects.dataflow import stream_params
from loom.ir.core import Operation
from loom.mlir.names import value_names
from loom.semantics.undefined import ub_rules
from loom.verify.collector import collector_paused
from loom.verify.memory.structure import Layout, memory_layout
from loom.verify.refine.dfg import DfgModel
from loom.verify.refine.model import Unsupported, bv64, dim_term, true
from loom.verify.safety.check import SafetyCheck
from loom.verify.safety.replay import REPLAY_STEPS
from loom.verify.safety.sites import OOB, ForLoop, Site, any_of

if TYPE_CHECKING:
    from loom.sim.engine import Prepared


class DfgSafetyModel:
    """The sites, loop facts and loads of a ``DfgModel`` (the shape ``SafetyCheck`` reads)."""

    def __init__(self, func: Operation, values, layout: Optional[Layout] = None) -> None:
        self.func = func
        layout = layout if layout is not None else memory_layout(func)  # the run's facts give it (one walk)
        self.dfg = DfgModel(func, values, layout, value_names(func))
        self.frames = self.dfg.frames
        self.sites: list[Site] = []
        self.for_loops: dict = {}
        self.load_roots: dict[str, str] = {}
        self.load_terms: dict[str, z3.ExprRef] = {}
        for a in self.dfg.layout.accesses:
            self._access(a)
        for op in self.dfg.ops:
            if op.dialect in ("arith", "math"):
                self._scalar(op)
        for f in self.frames:
            self._stream_facts(f)

    def _access(self, a) -> None:
        op = a.op
        addrs = op.operands[:-2]
        site = Site(op, "bounds", OOB, "an address is not below its memory's dimension", (), true())
        try:
            root, t = self.dfg._root(a)
            if a.domain is not None and a.domain.mem is not None:
                site.also_at = (a.domain.mem.loc,)  # the simulator checks addresses at the memory port
            nodes = [self.dfg.ev(v) for v in addrs]
            known = next((n for n in nodes if n.ctx is not None), None)
            site.ctx = known.ctx if known is not None else ()
            site.pc = known.pc if known is not None and known.pc is not None else true()
            if len(nodes) != t.rank:
                raise Unsupported(f"{len(nodes)} address(es) for a rank-{t.rank} memory", op)
            out = []
            for k, n in enumerate(nodes):
                it = bv64(self.dfg.values, n.term)
                dim = dim_term(self.dfg.values, root, t, k)
                site.show[f"index{k}"], site.show[f"dim{k}"] = it, dim
                out.append(z3.UGE(it, dim))
            site.bad = any_of(out)
            if a.kind == "load" and op.results:
                d = self.dfg.ev(op.results[0]).term
                if d is not None and z3.is_const(d):
                    self.load_roots[d.decl().name()] = root
                    self.load_terms[d.decl().name()] = d
        except Unsupported as e:
            site.why_not = e.reason
        self.sites.append(site)

    def _scalar(self, op: Operation) -> None:
        rules, sig = ub_rules(op.name, op.attributes, [v.type for v in op.operands], [r.type for r in op.results])
        for rule in rules:
            site = Site(op, rule.what, rule.code, rule.message, (), true())
            try:
                node = self.dfg.ev(op.results[0])
                site.ctx = node.ctx or ()
                site.pc = node.pc if node.pc is not None else true()
                args = [self.dfg._need(v) for v in op.operands]
                site.bad = rule.term(args, sig)
                site.show = {f"operand{k}": x for k, x in enumerate(args) if z3.is_bv(x) or z3.is_bool(x)}
            except Unsupported as e:
                site.why_not = e.reason
            self.sites.append(site)

    def _stream_facts(self, f) -> None:
        """A ``+=`` stream continuing while ``<`` its bound is a for loop, its positive step a premise."""
        op = f.op
        if f.kind != "for" or op.name != "dataflow.stream" or not f.state:
            return
        step_op, cont = stream_params(op)
        if step_op != "+=" or cont not in ("<", "!="):
            return
        try:
            start, step, bound = (self.dfg._need(v) for v in op.operands)
        except Unsupported:
            return
        if not all(z3.is_bv(x) and x.size() == 64 for x in (start, step, bound)):
            return
        if cont == "<":
            self.for_loops[f] = ForLoop(f, start, bound, step, unsigned=False, step_checked=False)


# what the replays of one DFG may simulate, in ops x runs (the network is built once per function, each run resets
# every op: a run still costs about its ops; kept as it was so that verdicts do not move): deterministic, far above what a hand-written DFG's replays use (a few hundred ops, tens of runs), and what
# keeps a generated DFG of thousands of ops with many satisfiable generic-iteration sites from replaying for hours;
# a site whose witness would need more is unknown, saying so
REPLAY_OPS = 500_000


class DfgSafetyCheck(SafetyCheck):
    """``SafetyCheck`` over a DFG's own model; refutations replay in the token simulator."""

    replayed_by = "token simulator"

    def __init__(self, func: Operation, ctx, layout: Optional[Layout] = None) -> None:
        self.layout = layout  # read by build_model, which SafetyCheck's constructor calls
        self.runs: dict[str, Optional[tuple]] = {}  # replay inputs (as JSON) -> the simulator's status and error
        self.replay_left = REPLAY_OPS  # op-runs the replays of this function may still simulate
        self.network: Optional["Prepared"] = None  # the simulator's network of this function, built once for its replays
        super().__init__(func, ctx)

    def build_model(self):
        return DfgSafetyModel(self.source, self.values, self.layout)

    def start_part(self, parts: int) -> None:
        """Each of ``parts`` parts of the sites replays with an equal share of the function's budget and no runs
        remembered from another part: what a part may replay does not depend on whether the parts before it ran
        in this process, and the parts together simulate no more than the whole function did."""
        super().start_part(parts)
        self.runs = {}
        self.replay_left = REPLAY_OPS // parts
        self.replays_cut = False

    def _passed(self, site: Site) -> list[z3.BoolRef]:
        return []  # a graph has no program order to pass through

    def _replay(self, site: Site, facts: list[z3.BoolRef], sat_checked: bool = False):
        """No witness search once this part cannot afford another run: its queries (a few per site, each asked of
        the slices and the whole query) would find inputs that never run -- at 50,009 ops, after the part's five
        runs, the sites that the solver could not prove spent most of the part's CPU on them. Such a site is
        unknown, naming the replay budget (a witness whose inputs some earlier run of this part had would have
        replayed from its cache: that is the one verdict this can move, from refuted to unknown)."""
        if len(self.source.regions[0].entry.ops) > self.replay_left:
            self.replays_cut = True
            return None
        return super()._replay(site, facts, sat_checked)

    def _run(self, inputs: dict, site: Site) -> Optional[str]:
        from loom.sim import prepare

        if not self._admitted(inputs):
            return None
        key = json.dumps(inputs, sort_keys=True, default=repr)
        if key not in self.runs:  # the simulator is deterministic: sites often replay the same inputs
            cost = len(self.source.regions[0].entry.ops)  # a run builds the whole network first: its ops
            if cost > self.replay_left:
                self.replays_cut = True
                return None
            self.replay_left -= cost
            try:
                if self.network is None:  # built on the first replay, reset by each run
                    with collector_paused():  # millions of objects that live on: 11.8 -> 4.0 s CPU at 50,009 ops
                        self.network = prepare(self.source)
                got = self.network.run(inputs, max_steps=REPLAY_STEPS * 4)
                self.runs[key] = (got.status, got.error)
            except LoomError:
                self.runs[key] = None
        ran = self.runs[key]
        if ran is None:
            return None
        status, err = ran
        if status != "error" or err is None or err.code != site.code or err.loc is None:
            return None
        if all((err.loc.line, err.loc.col) != (at.line, at.col) for at in (site.op.loc, *site.also_at)):
            return None
        return f"{err.code} {err.message}"


def check_dfg_safety(func: Operation, ctx, layout: Optional[Layout] = None, parts: int = 1,
                     only: Optional[int] = None) -> list:
    """The safety obligations of a handshake.func verified without its source (``layout``: its memory layout,
    when the caller has it): of every one of ``parts`` parts of its sites in order, or of part ``only``."""
    check = DfgSafetyCheck(func, ctx, layout)
    return [o for k in (range(parts) if only is None else (only,)) for o in check.obligations((k, parts))]
