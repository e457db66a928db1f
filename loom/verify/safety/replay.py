"""Replaying a satisfiable safety query: inputs from its model, run in the interpreter, a refutation only when the run
stops with the site's runtime error at the site's op (the witness half of ``loom.verify.safety.check``).

``Replays`` is a part of ``SafetyCheck``, kept apart by concern: it reads what the check's constructor sets (the
function's argument names and types, its dimension terms, its model and context) and asks queries through the
check's ``_query``; ``DfgSafetyCheck`` replays in the token simulator instead (its own ``_run``).
"""

from __future__ import annotations

import itertools
from typing import Any, Optional

import z3

from loom.diagnostics import LoomError
from loom.ir.attributes import FloatAttr
from loom.ir.core import Module, OpResult, Value
from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType
from loom.runtime import function_arg_names
from loom.semantics.expr import ScalarInfo
from loom.semantics.float_ops import as_fp, float_op, sort_of
from loom.semantics.layout import width_of
from loom.semantics.undefined import ub_rules
from loom.verify.assume import admits
from loom.verify.inputs import flatten, nested, shape_of
from loom.verify.lengths.inference import py_value
from loom.verify.refine.model import Unsupported, source_position
from loom.verify.safety.sites import Site
from loom.verify.terms import term_ids

REPLAY_STEPS = 200_000
REPLAY_ELEMENTS = 1 << 16  # the largest memref a replay allocates
GROWN = 64  # a dimension the failing op does not read, grown to this in a second round of replays
INT_MIN_MARK = -(1 << 200)  # stands for the element type's INT_MIN
EXTREMES = (INT_MIN_MARK, -1, 1 << 62, 1)  # fills tried for faults of accumulated values (clamped to the type)
EXTREME_RUNS = 27  # at most this many such runs per obligation
EXACT_DEPTH = 8  # float ops a cast's operand is followed through for its exact IEEE witness (``_exact_cast``)
# preferences tried for a replayable witness, smallest first (each only narrows the inputs asked for)
SMALL = ((8, 64), (64, None))
# tried last, when no small witness replays: an input profile may assume buffers longer than 64 elements
# (``dim(x, 0) >= 256``), under which a real fault (a zero-length table, a division by a size) needs longer ones
LARGE = ((4096, None),)


class Replays:
    """The replay of a safety query's model (see the module docstring)."""

    def _replay(self, site: Site, facts: list[z3.BoolRef],
                sat_checked: bool = False) -> Optional[tuple[dict, str, dict]]:
        """Inputs from a model of the error condition on which the interpreter stops at the site (``sat_checked``:
        models of the first slice will do, see ``_ask``)."""
        tried: list[dict] = []
        last = None
        exact = self._exact_cast(site)
        for dim_cap, arg_cap in SMALL if exact else ():  # a cast's witness in IEEE arithmetic first
            found, _ = self._replay_within(site, [*facts, *exact], sat_checked, tried, dim_cap, arg_cap)
            if found is not None:
                return found
        for dim_cap, arg_cap in SMALL:
            found, model = self._replay_within(site, facts, sat_checked, tried, dim_cap, arg_cap)
            if found is not None:
                return found
            last = model if model is not None else last
        extra = []
        if site.what == "bounds" and last is not None:
            extra = self._past_the_buffer(last, site) + self._steered(tried[0] if tried else None, site) + \
                (self._extremes(tried[0]) if tried else [])  # a negative loaded index (a sample's remainder)
        elif site.what in ("overflow", "wrap", "divzero") and tried:
            extra = self._extremes(tried[-1])
        for inputs in extra:
            if inputs in tried:
                continue
            tried.append(inputs)
            err = self._run(inputs, site)
            if err is not None:
                return inputs, err, {}
        for dim_cap, arg_cap in LARGE:
            found, _ = self._replay_within(site, facts, sat_checked, tried, dim_cap, arg_cap)
            if found is not None:
                return found
        return None

    def _replay_within(self, site: Site, facts: list[z3.BoolRef], sat_checked: bool, tried: list[dict],
                       dim_cap: int, arg_cap: Optional[int]) -> tuple[Optional[tuple[dict, str, dict]],
                                                                      Optional[z3.ModelRef]]:
        """A model of the error condition with every dimension in ``[1, dim_cap]`` (``[0, dim_cap]`` when
        ``arg_cap`` is None) and every wide integer argument in ``[-arg_cap, arg_cap]``, and the first of its
        inputs on which the interpreter stops at the site (None when none does; ``tried`` grows by the inputs
        run)."""
        # small sizes, at least 1 first (an empty inner dimension has no nested-list form to replay)
        narrow = [z3.And(d >= (1 if arg_cap is not None else 0), d <= dim_cap) for d in self.dims.values()]
        if arg_cap is not None:
            for n, t in zip(self.names, self.types):
                a = self._arg(n)
                if a is not None and z3.is_bv(a) and a.size() > 1:
                    narrow.append(z3.And(a >= -arg_cap, a <= arg_cap) if a.size() > 13 else z3.BoolVal(True))
        res = self._query([*facts, site.bad, *narrow], smt2=False, sat_checked=sat_checked, witness=True)
        if res.status != "sat" or res.model is None:
            return None, None
        for inputs in self._inputs(res.model, site):
            if inputs is None or inputs in tried:
                continue
            tried.append(inputs)
            err = self._run(inputs, site)
            if err is not None:
                return (inputs, err, {k: _value(res.model, v) for k, v in site.show.items()}), res.model
        return None, res.model

    def _exact_cast(self, site: Site) -> list[z3.BoolRef]:
        """An fptosi/fptoui site's out-of-range condition on its operand computed in exact IEEE arithmetic (the
        semantics table's float terms), when float ops build the operand from integer values and constants: the
        model keeps floats uninterpreted, so its witness says nothing of which integer converts out of range
        (``(int)(float)y`` faults for the int ``y`` near INT_MAX, which rounds to 2^31); this condition picks
        one. [] for any other site or operand. It only steers the witness: the replay still decides."""
        op = site.op
        if site.what != "cast" or op.name not in ("arith.fptosi", "arith.fptoui"):
            return []
        bits = self._ieee(op.operands[0], 0)
        if bits is None:
            return []
        rules, sig = ub_rules(op.name, op.attributes, [v.type for v in op.operands], [r.type for r in op.results])
        return [rule.term([as_fp(bits, op.operands[0].type)], sig) for rule in rules if rule.what == "cast"]

    def _ieee(self, v: Value, depth: int) -> Optional[z3.ExprRef]:
        """Float value ``v``'s IEEE encoding as an exact term over the model's integer terms (None when some leaf
        is not an integer or a float constant, or the chain is deeper than ``EXACT_DEPTH``)."""
        if not isinstance(v.type, FloatType):
            dfg = getattr(self.model, "dfg", None)  # a DFG's model (``DfgSafetyModel``) or the SCF source's
            try:
                x = dfg._need(v) if dfg is not None else self.model.term(v)
            except Unsupported:
                return None
            return x if x is not None and z3.is_bv(x) else None
        op = v.owner if isinstance(v, OpResult) else None
        if op is None or depth > EXACT_DEPTH:
            return None
        if op.name == "arith.constant":
            a = op.attributes.get("value")
            return z3.fpToIEEEBV(z3.FPVal(a.value, sort_of(v.type))) if isinstance(a, FloatAttr) else None
        fop = float_op(op.name)
        if fop is None or fop.z3 is None or fop.result != "float":
            return None
        args = [self._ieee(a, depth + 1) for a in op.operands]
        if any(a is None for a in args):
            return None
        info = ScalarInfo(tuple(op.attributes.items()), tuple(a.type for a in op.operands),
                          tuple(r.type for r in op.results), v.index)
        return z3.fpToIEEEBV(fop.z3(args, info))

    def _past_the_buffer(self, model: z3.ModelRef, site: Site) -> list[dict]:
        """The model's state may be a generic iteration no run reaches with its arguments: every integer argument
        reaching one past the buffer the site indexes (a loop bound beyond its size), the other buffers grown."""
        past = int(_value(model, site.show.get("dim0", z3.BitVecVal(0, 64))))
        variants = self._inputs(model, site)
        out = []
        for inputs in variants[len(variants) // 2:]:  # the grown half
            if inputs is None:
                continue
            for n, t in zip(self.names, self.types):
                if isinstance(t, (IntegerType, IndexType)) and not (isinstance(t, IntegerType) and t.width == 1):
                    inputs = {**inputs, n: min(past + 1, (1 << (width_of(t) - 1)) - 1)}
            out.append(inputs)
        return out

    def _steered(self, base: Optional[dict], site: Site) -> list[dict]:
        """A loaded value compared with an argument steers the path (a search moves up while ``a[mid] < key``):
        every integer buffer of ``base`` filled just below, then just above, each integer argument, with the
        index arguments as given and then at the length of the buffer the site indexes (a search over all of
        it runs to its end)."""
        if base is None:
            return []
        types = dict(zip(self.names, self.types))
        ints = [n for n, t in types.items()
                if isinstance(t, MemRefType) and not isinstance(t.element, FloatType) and base.get(n)]
        keys = [n for n, t in types.items() if isinstance(t, IntegerType) and t.width > 1
                and isinstance(base.get(n), int)]
        length = None
        view = getattr(self.model, "view", None)  # the SCF model's views (a DFG's accesses name their memory)
        if view is not None and site.op.name in ("memref.load", "memref.store"):
            try:
                root = view(site.op.operands[0] if site.op.name == "memref.load" else site.op.operands[1]).root
                if root.startswith("arg:") and isinstance(base.get(root[4:]), list):
                    length = len(base[root[4:]])
            except Unsupported:
                pass
        out = []
        for key in keys:
            for delta in (-1, 1):
                filled = dict(base)
                for n in ints:
                    w = width_of(types[n].element)
                    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
                    filled[n] = nested(shape_of(base[n]), max(lo, min(base[key] + delta, hi)))
                out.append(filled)
                if length is not None:
                    out.append({**filled, **{n: length for n, t in types.items() if isinstance(t, IndexType)}})
        return out

    def _extremes(self, base: dict) -> list[dict]:
        """Values that only accumulation reaches (INT_MIN / -1, a sum that wraps): the integer buffers of ``base``
        filled with extreme values, each buffer independently, in a fixed order (at most ``EXTREME_RUNS``)."""
        types = dict(zip(self.names, self.types))
        ints = [n for n, t in types.items()
                if isinstance(t, MemRefType) and not isinstance(t.element, FloatType) and base.get(n)]
        out = []
        for combo in itertools.islice(itertools.product(EXTREMES, repeat=len(ints)), EXTREME_RUNS):
            inputs = dict(base)
            for n, fill in zip(ints, combo):
                w = width_of(types[n].element)
                lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
                inputs[n] = nested(shape_of(base[n]), lo if fill == INT_MIN_MARK else max(lo, min(fill, hi)))
            out.append(inputs)
        return out

    def _inputs(self, model: z3.ModelRef, site: Site) -> list[Optional[dict]]:
        """Concrete inputs from a model: scalars as given, memref sizes as given, memory filled with the value
        the model's loads of that buffer read (then with a float that no integer type holds, for casts)."""
        fills = {}
        named = {d.name() for d in model.decls()}  # a load the model does not name evaluates to itself: no fill
        for sym, root in self._loads():
            if root.startswith("arg:") and root[4:] not in fills and sym in named:
                v = model.eval(z3.Const(sym, self._sort_of(sym)), model_completion=False)
                if z3.is_bv_value(v):
                    fills[root[4:]] = v.as_signed_long()
                elif z3.is_true(v) or z3.is_false(v):
                    fills[root[4:]] = 1 if z3.is_true(v) else 0
        out = []
        floats = (1.5, 1e30, float("nan")) if site.what == "cast" else (1.5,)
        in_site = term_ids(site.bad)
        # a buffer the model reads nothing of: 0 (a valid index wherever there is an element), then 1 (a
        # valid divisor); then buffers the site does not index grown (another access must not fail first)
        for grow, fv, other in [(g, f, o) for g in (False, True) for o in (0, 1) for f in floats]:
            v: dict[str, Any] = {}
            for n, t in zip(self.names, self.types):
                if isinstance(t, MemRefType):
                    sizes = []
                    for k, s in enumerate(t.shape):
                        if s is not None:
                            sizes.append(s)
                            continue
                        d = model.eval(self.dims[(n, k)], model_completion=True)
                        size = d.as_signed_long() if z3.is_bv_value(d) else 4
                        if grow and self.dims[(n, k)].get_id() not in in_site:
                            size = max(size, GROWN)
                        sizes.append(size)
                    total = 1
                    for s in sizes:
                        total *= max(s, 0)
                    if total > REPLAY_ELEMENTS or any(s < 0 for s in sizes):
                        return out or [None]
                    fill = fv if isinstance(t.element, FloatType) else fills.get(n, other)
                    v[n] = nested(sizes, fill)
                elif isinstance(t, (IntegerType, IndexType)):
                    a = self._arg(n)
                    x = model.eval(a, model_completion=True)
                    v[n] = (1 if z3.is_true(x) else 0) if z3.is_bool(x) else x.as_signed_long()
                elif isinstance(t, FloatType):
                    v[n] = fv
                else:
                    v[n] = None
            v.update(self._globals())
            if v not in out:
                out.append(v)
        return out

    def _loads(self) -> list[tuple[str, str]]:
        """The model's loads (symbol, root buffer) in name order, sorted once (every set of replay inputs reads
        them)."""
        got = getattr(self, "_loads_cache", None)
        if got is None:
            got = self._loads_cache = sorted(self.model.load_roots.items())
        return got

    def _globals(self) -> dict[str, Any]:
        """Contents for the module's memref.globals without an initializer (zeros): a run needs them."""
        if self.zero_globals is None:  # one walk of the module per function, not one per set of inputs
            self.zero_globals = self._uninitialized_globals()
        return {name: nested(list(shape), zero) for name, shape, zero in self.zero_globals}

    def _uninitialized_globals(self) -> list[tuple[str, tuple, Any]]:
        """The module's memref.globals without an initializer, in walk order: name, shape, zero element."""
        from loom.ir.attributes import DenseElementsAttr, StringAttr, TypeAttr

        parent = self.original.parent_op
        out: list[tuple[str, tuple, Any]] = []
        for op in parent.walk() if parent is not None else ():
            if op.name != "memref.global" or isinstance(op.attributes.get("initial_value"), DenseElementsAttr):
                continue
            sym, ty = op.attributes.get("sym_name"), op.attributes.get("type")
            t = ty.type if isinstance(ty, TypeAttr) else None
            if isinstance(sym, StringAttr) and isinstance(t, MemRefType) and all(d is not None for d in t.shape):
                out.append(("@" + sym.value, tuple(t.shape), 0.0 if isinstance(t.element, FloatType) else 0))
        return out

    def _sort_of(self, sym: str) -> z3.SortRef:
        return self.model.load_terms[sym].sort()

    def _admitted(self, inputs: dict) -> bool:
        """Do replay inputs satisfy the assumptions (arguments, sizes, every element)? A refutation must be on
        inputs the user calls legal."""
        scalars, shapes, elements = {}, {}, {}
        for n, t in zip(self.names, self.types):
            v = inputs.get(n)
            if isinstance(t, MemRefType) and isinstance(v, list):
                shapes[n] = shape_of(v) if v else [0]
                if not isinstance(t.element, FloatType):
                    elements[n] = [int(x) for x in flatten(v)]
            elif isinstance(t, (IntegerType, IndexType)) and isinstance(v, int):
                scalars[n] = v
        return admits(self.ctx.assumptions, scalars, shapes, elements)

    def _run(self, inputs: dict, site: Site) -> Optional[str]:
        """The interpreter's error on ``inputs`` when it is the site's error at the site's op, else None."""
        from loom.interp import run_json

        if not self._admitted(inputs):
            return None
        parent = self.original.parent_op
        if parent is None:
            return None
        own = set(function_arg_names(self.original))  # a buffer the host allocates is the original's own alloc
        inputs = {k: v for k, v in inputs.items() if k in own or k.startswith("@")}
        try:
            ref = run_json(Module(parent), self.original.attributes["sym_name"].value, inputs, max_steps=REPLAY_STEPS)
        except LoomError:
            return None
        err = ref.error
        if ref.status != "error" or err is None or err.code != site.code:
            return None
        here, at = source_position(site.op.loc), err.loc
        if at is None or (at.line, at.col) != (site.op.loc.line, site.op.loc.col) and (at.line, at.col) != (
                here.line, here.col):
            return None
        return f"{err.code} {err.message}"


def _value(model: z3.ModelRef, term: z3.ExprRef) -> Any:
    return py_value(model.eval(term, model_completion=True))
