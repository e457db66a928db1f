"""Control in the CF stage: blocks, a phi as its block's argument(s), ``br`` as ``cf.br``/``cf.cond_br`` with
the values the target's phis take, ``ret`` as ``func.return`` -- the control half of
``to_cf.FunctionTranslator`` (it provides ``em``, ``fn``, ``value``, ``instruction``, ``ptr_phi_value``, ...)."""

from __future__ import annotations

from loom.frontend.c.emitter import mlir_type
from loom.frontend.c.vectors import struct_fields, vector_type


class ControlRules:
    """The control half of ``to_cf.FunctionTranslator``: its state is ``block_names``, ``phis`` and ``phi_args``."""

    def block_arguments(self, blocks: list) -> None:
        """Name every block and give every phi its block argument(s) first: a block argument is used before
        its block is printed (a moving pointer: its last index; a vector: one argument per lane)."""
        em = self.em
        for k, b in enumerate(blocks):
            self.block_names[b.name] = f"^bb{k}"
            self.phis[b.name] = [i for i in b.instructions if i.opcode == "phi"]
        for b in blocks:
            for phi in self.phis[b.name]:
                if str(phi.type) == "ptr":  # a pointer that moves: its last index is the block argument
                    name = em.fresh(phi.name + "_ix")
                    em.types[name] = "index"
                    self.phi_args[phi.name] = (name, "index")
                    continue
                vt = vector_type(str(phi.type))
                if vt is not None:  # one block argument per lane
                    lanes = [em.fresh(f"{phi.name}_{k}") for k in range(vt[0])]
                    for lane in lanes:
                        em.types[lane] = vt[1]
                    em.vectors[phi.name] = lanes
                    self.phi_args[phi.name] = (", ".join(f"{x}: {vt[1]}" for x in lanes), "vector")
                    continue
                name = em.fresh(phi.name)
                em.names[phi.name] = name
                em.types[name] = mlir_type(str(phi.type), em)
                self.phi_args[phi.name] = (name, em.types[name])

    def block_lines(self, blocks: list) -> list[str]:
        """The body's lines: each block's label with its arguments, then its instructions' ops in order."""
        em = self.em
        body: list[str] = self.body
        at = 0  # the instruction's position in the function (its entry in em.locs is at + 1)
        for k, b in enumerate(blocks):
            em.out = []
            if k:
                args = ", ".join(self.phi_args[p.name][0] if self.phi_args[p.name][1] == "vector" else
                                 f"{self.phi_args[p.name][0]}: {self.phi_args[p.name][1]}" for p in self.phis[b.name])
                body.append(f"  ^bb{k}({args}):" if args else f"  ^bb{k}:")
            self.cur_block, self.extra_blocks = k, 0
            for ins in b.instructions:
                at += 1
                em.loc = em.loc_of(em.locs[at] if at < len(em.locs) else None)
                self.instruction(ins)
            body.extend(em.out)
        return body

    def ret(self, ops) -> None:
        """``func.return`` of the value (or a returned struct's members), a swapped parameter's mirror first."""
        em = self.em
        self.mirror_out()  # a parameter swapped with a scratch buffer gets its mirror back (mirrors.py)
        if ops and self.ret_fields is not None:
            vals = struct_fields(self, ops[0], *self.ret_fields)
            em.emit(f"func.return {', '.join(vals)} : {', '.join(em.types[v] for v in vals)}")
        elif ops:
            v = self.value(ops[0])
            em.emit(f"func.return {v} : {em.types[v]}")
        else:
            em.emit("func.return")

    def branch_args(self, src, dst) -> str:
        """``^bbK(%a, %b : T, U)``: the target with the values its phis take when coming from ``src``."""
        label = self.block_names[dst.name]
        vals, types = [], []
        for phi in self.phis[dst.name]:
            for v, blk in zip(phi.operands, phi.incoming_blocks):
                if blk.name == src.name:
                    if phi.name in self.phi_args and self.phi_args[phi.name][1] == "index" and \
                            str(phi.type) == "ptr":
                        vals.append(self.ptr_phi_value(phi, v))
                    elif self.phi_args[phi.name][1] == "vector":
                        lanes = self.lanes(v)
                        vals.extend(lanes)
                        types.extend(self.em.types[x] for x in self.em.vectors[phi.name])
                        break
                    else:
                        vals.append(self.value(v))
                    types.append(self.phi_args[phi.name][1])
                    break
            else:
                raise self.em.error(f"phi without a value for block {src.name}")
        return f"{label}({', '.join(vals)} : {', '.join(types)})" if vals else label

    def branch(self, ins, ops) -> None:
        """``br`` as ``cf.br`` or ``cf.cond_br``, each target with its phis' values."""
        src = ins.block
        if len(ops) == 1:
            self.em.emit(f"cf.br {self.branch_args(src, ops[0])}")
            return
        cond = self.value(ops[0])
        # llvmlite lists a conditional branch's operands as (cond, false dest, true dest), as LLVM stores them
        f, t = ops[1], ops[2]
        self.em.emit(f"cf.cond_br {cond}, {self.branch_args(src, t)}, {self.branch_args(src, f)}")
