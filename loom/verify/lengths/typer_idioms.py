"""The clock inference's CIRCT idioms (``loom.verify.lengths.inference``): primed selects proved to be carries
(their lemma), control_merge loop headers and token rings, and the carry view of a carry-like op."""

from __future__ import annotations

from typing import Optional


from loom.ir.core import Operation, Value
from loom.verify.lengths.idioms import (
    carry_operands,
    find_cmerge_loops,
    find_primed_selects,
    find_token_rings,
    operand_uses,
    prove_carry,
)

from loom.verify.lengths.typer_base import TyperBase


class TyperIdioms(TyperBase):
    """Finding the idioms before the rules run, and reading a carry or a proved idiom as one."""

    def _find_idioms(self) -> None:
        """Primed selects (CIRCT loop state): typed as carries only where the composite's lemma is proved."""
        cache: dict = {}
        ops = list(self.body.ops)
        uses = operand_uses(ops)  # one use map for the three finders
        for ps in find_primed_selects(ops, uses):
            prove_carry(ps, self.logic.limit(), cache, self.logic.rlimit)
            self.idioms.append(ps)
            if not ps.proved:
                self.unknown_op(ps.buffer, ps.why)
                continue
            self.primed[ps.buffer] = ps
            for mux in ps.muxes:
                self.carry_of[mux] = carry_operands(ps, mux)
        lemma: Optional[str] = None
        checked = any(ps.proved for ps in self.idioms)
        for cl in find_cmerge_loops(ops, uses):
            if not cl.why and cl.muxes and not checked:
                # the index muxes of a cmerge loop are primed-select carries: that lemma must hold for them too
                lemma, checked = self._primed_select_lemma(cache), True
            if not cl.why and cl.muxes and lemma is not None:
                cl.why = lemma
            if cl.why:
                self.unknown_op(cl.cmerge, cl.why)
                continue
            self.cmerge_loops[cl.cmerge] = cl
            op = cl.cmerge
            one = cl.backs[0] if len(cl.backs) == 1 else None
            self.carry_of[op] = (cl.condition, op.operands[cl.entry], op.operands[one] if one is not None else None)
            for mux in cl.muxes:
                self.carry_of[mux] = (cl.condition, mux.operands[1 + cl.entry],
                                      mux.operands[1 + one] if one is not None else None)
                if one is None:
                    self.header_of[mux] = cl
        selects = {id(ps.buffer) for ps in self.idioms if not ps.why or ps.muxes}
        primed_i1 = {id(ps.buffer) for ps in self.idioms}
        for ring in find_token_rings(ops, selects, uses):
            if not ring.why:
                self.rings[ring.buffer] = ring
            elif id(ring.buffer) in primed_i1:
                self.unknown_op(ring.buffer, ring.why)
            else:
                self.delays[ring.buffer] = ring.why
        for op in self.body.ops:  # any other primed buffer (k initial tokens) is typed as a delay line
            if (op.name == "handshake.buffer" and len(op.results) == 1 and id(op) not in primed_i1
                    and op not in self.rings and op not in self.delays
                    and getattr(op.attributes.get("initValues"), "elements", None)):
                self.delays[op] = "its initial tokens circulate through it"

    def _primed_select_lemma(self, cache: dict) -> Optional[str]:
        """Why the primed-select carry lemma (buffer [1] {0} -> i1 mux) does not hold (None: proved)."""
        from loom.ir.types import IntegerType
        from loom.semantics.handshake_ops import buffer, mux
        from loom.verify.lengths.idioms import composite
        from loom.verify.lemmas.contracts import carry_contract
        from loom.verify.lemmas.induction import prove

        i1 = IntegerType(1)
        m = composite(buffer(i1, 1, (0,)), mux(i1, i1, 2))
        r = prove(m, carry_contract(m), "Pcmerge_index", timeout=self.logic.limit(), use_spacer=False,
                  rlimit=self.logic.rlimit)
        return None if r.status == "proved" else f"the primed-select carry lemma is {r.status}: {r.detail}"

    def carry_view(self, op: Operation) -> tuple[Value, Value, Optional[Value]]:
        """(d, a, b) of a carry, an invariant (b None) or a primed-select mux standing for a carry (b None
        for a loop header with several back edges and its index muxes: see ``_several_backs``)."""
        got = self.carry_of.get(op)
        if got is not None:
            return got
        return op.operands[0], op.operands[1], op.operands[2] if op.name == "dataflow.carry" else None

    def is_carry(self, op: Operation) -> bool:
        return op.name == "dataflow.carry" or (op in self.carry_of and self.carry_of[op][2] is not None)
