"""A pointer parameter to a struct with pointer or mixed members (``const csr_graph_t *g``) as its members.

Each member the kernel reads becomes a parameter of its own, named ``<param>_<member>`` after C's
``g->member`` (``g_row_ptr``; a ``.`` would read back in MLIR but is no identifier in SystemVerilog): a pointer member a memref (shaped by how the kernel indexes it, as a pointer parameter is), a
scalar member a scalar. A struct GEP ``&g->member`` is a field position; a load of a pointer member is that
memref at its start, a load of a scalar member the member's parameter. Storing into a member, a member that
is itself a struct or array, and a struct pointer that moves are ``CPL_C_UNSUPPORTED``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loom.frontend.c import llvm_text as lt
from loom.frontend.c.pointers import Ptr

_META = re.compile(r"^!(\d+) = (.*)$", re.M)


@dataclass
class Record:
    """A struct parameter split into members: member k's MLIR parameter (a name, or a Ptr for a pointer)."""

    arg: str
    type_name: str
    members: dict[int, object]


def member_names(module_text: str, fn_text: str, arg_index: int, count: int) -> list[str]:
    """The C names of the members of the struct parameter ``arg_index`` points to (from the debug info), or
    ``f0``, ``f1``, ... when it does not say."""
    fallback = [f"f{k}" for k in range(count)]
    sub = re.search(r"!dbg !(\d+) \{", fn_text.split("\n", 2)[1] if fn_text.startswith(";") else fn_text)
    if not sub:
        return fallback
    meta = {int(m[1]): m[2] for m in _META.finditer(module_text)}
    var = next((t for t in meta.values() if t.startswith("!DILocalVariable(") and f"arg: {arg_index + 1}," in t
                and f"scope: !{sub[1]}," in t), None)
    ty = re.search(r"type: !(\d+)", var or "")
    node = meta.get(int(ty[1])) if ty else None
    while node is not None and node.startswith("!DIDerivedType(") and "DW_TAG_member" not in node:
        base = re.search(r"baseType: !(\d+)", node)
        node = meta.get(int(base[1])) if base else None
    elems = re.search(r"elements: !(\d+)", node or "")
    if not elems or not (node or "").startswith(("!DICompositeType(", "distinct !DICompositeType(")):
        return fallback
    ids = [int(x) for x in re.findall(r"!(\d+)", meta.get(int(elems[1]), ""))]
    names = [re.search(r'name: "([^"]*)"', meta.get(i, "")) for i in ids]
    if len(names) != count or not all(names):
        return fallback
    return [m[1] for m in names]  # type: ignore[index]


class RecordRules:
    """The struct-parameter half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``fn``, ``param_ptr``)."""

    records: dict[str, Record]
    fields: dict[str, tuple[str, int]]  # LLVM value (a member's address) -> (struct parameter, member)

    def record_type(self, arg) -> str | None:
        """The named struct (not one of equal scalars) that ``arg``'s GEPs index as a struct, if any."""
        for b in self.fn.blocks:
            for ins in b.instructions:
                ops = list(ins.operands)
                if ins.opcode == "getelementptr" and ops and ops[0].value_kind.name == "argument" and \
                        ops[0].name == arg.name:
                    src = lt.gep_source_type(str(ins)).text
                    if src.startswith("%") and src in _struct_bodies(self):
                        return src
        return None

    def record_params(self, arg, index: int, type_name: str) -> list[str]:
        """Split struct parameter ``arg`` into one parameter per member it reads; their declarations."""
        em = self.em
        body = _struct_bodies(self)[type_name]
        names = member_names(_module_text(self), str(self.fn), index, len(body))
        used: dict[int, list] = {}
        for b in self.fn.blocks:
            for ins in b.instructions:
                ops = list(ins.operands)
                if ins.opcode == "getelementptr" and _is_arg(ops[0], arg):
                    k = _field_of(ins, ops, type_name)
                    if k is None:
                        raise em.error(f"parameter '{arg.name}' is indexed as an array of structs (a pointer to "
                                       "one struct whose members are used is supported)")
                    used.setdefault(k, []).append(ins.name)
                elif ins.opcode == "load" and _is_arg(ops[0], arg):
                    used.setdefault(0, []).append(arg.name)
                elif ins.opcode == "icmp" and any(o.value_kind.name == "constant_pointer_null" for o in ops):
                    continue  # `if (!g) return`: a struct parameter is never null (heap.null_compare)
                elif any(_is_arg(o, arg) for o in ops):
                    raise em.error(f"parameter '{arg.name}' (a struct) is used other than by reading its members")
        rec = Record(arg.name, type_name, {})
        decls = []
        for k in sorted(used):
            mtype = body[k]
            pname = em.fresh(f"{arg.name}_{names[k]}")
            for addr in used[k]:
                self.fields[addr] = (arg.name, k)
            if mtype == "ptr":
                loads = _member_loads(self.fn, set(used[k]))
                holder = _Seeds(f"{arg.name}->{names[k]}", loads)
                p = self.param_ptr(holder, pname)
                rec.members[k] = p
                decls.append(f"{pname}: {p.memref()}")
            elif mtype in lt.SCALARS:
                em.types[pname] = lt.SCALARS[mtype]
                rec.members[k] = pname
                decls.append(f"{pname}: {lt.SCALARS[mtype]}")
            else:
                raise em.error(f"member '{names[k]}' of parameter '{arg.name}' has type '{mtype}' (pointer and "
                               "scalar members are supported)")
        self.records[arg.name] = rec
        return decls

    def record_gep(self, ins) -> bool:
        """A member address ``&g->m`` was noted by ``record_params``: nothing to emit."""
        return ins.name in self.fields and list(ins.operands)[0].value_kind.name == "argument"

    def record_access(self, ins, op: str, ops) -> bool:
        """A load of a member (its parameter) or a store into one (an error); False if not a member."""
        fields = self.fields
        addr = ops[0] if op == "load" else ops[1]
        if addr.value_kind.name not in ("argument", "instruction") or addr.name not in fields:
            return False
        if op == "store":
            raise self.em.error("storing into a member of a struct parameter is not supported")
        rec_name, k = fields[addr.name]
        member = self.records[rec_name].members[k]
        if isinstance(member, Ptr):
            if str(ins.type) != "ptr":
                raise self.em.error("a pointer member is read as a scalar (type punning is not supported)")
            self.em.ptrs[ins.name] = member
        else:
            if str(ins.type) == "ptr" or lt.SCALARS.get(str(ins.type)) != self.em.types[member]:
                raise self.em.error("a scalar member is read as another type (type punning is not supported)")
            self.em.names[ins.name] = member
        return True


@dataclass
class _Seeds:
    """What ``param_ptr`` needs of a parameter: a name, and the values that are the pointer (its loads)."""

    name: str
    seeds: set


def _is_arg(v, arg) -> bool:
    return v.value_kind.name == "argument" and v.name == arg.name


def _field_of(ins, ops, type_name: str) -> int | None:
    """Member k of a ``gep %struct.T, ptr %g, i32 0, i32 k``; None for anything else."""
    if lt.gep_source_type(str(ins)).text != type_name or len(ops) != 3:
        return None
    first, second = ops[1], ops[2]
    if first.value_kind.name != "constant_int" or second.value_kind.name != "constant_int":
        return None
    if int(str(first).split()[-1]) != 0:
        return None
    return int(str(second).split()[-1])


def _member_loads(fn, addrs: set) -> set:
    """The keys of the loads of a pointer member from any of its addresses."""
    out = set()
    for b in fn.blocks:
        for ins in b.instructions:
            ops = list(ins.operands)
            if ins.opcode == "load" and str(ins.type) == "ptr" and ops[0].value_kind.name in \
                    ("argument", "instruction") and ops[0].name in addrs:
                out.add(("instruction", ins.name))
    return out


def _module_text(self) -> str:
    cache = self.__dict__.setdefault("_module_text_cache", [])
    if not cache:
        cache.append(str(self.fn.module))
    return cache[0]


def _struct_bodies(self) -> dict[str, list[str]]:
    """Named struct types with a pointer or with members of different types -> their member types."""
    cache = self.__dict__.setdefault("_struct_cache", {})
    if not cache:
        for m in re.finditer(r"^(%[\w.$\"]+) = type \{ ([^{}]*) \}$", _module_text(self), re.M):
            if m[1] not in lt.STRUCT_ARRAYS:
                cache[m[1]] = [t.strip() for t in m[2].split(",")]
        cache.setdefault("", [])
    return cache
