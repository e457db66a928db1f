"""When does one ``dataflow.stream`` activation end? Preconditions per (step_op, cont_cond) and their proofs.

For every combination the table below states a sufficient precondition
``P(start, step, bound)`` on the latched operands (signed 64-bit, the index
semantics of the tables), and a ranking function ``R`` (read as an unsigned
64-bit number, or a 66-bit one for the exact-hit cases). The lemma
``fsm.stream[<op>,<cond>].terminates`` proves, on the stream's own table:

1. activating with operands satisfying ``P`` puts the machine in a
   configuration whose registers satisfy ``P`` (the invariant);
2. from an active configuration satisfying ``P``, some rule is always enabled
   (the activation never stalls), and every firing that stays active leads to a
   configuration that satisfies ``P`` and has a strictly smaller ``R`` -- unless
   no staying firing is enabled there (the next firing ends the activation).

Hence every activation under ``P`` emits finitely many tokens. What the
preconditions exclude is stated in ``describe_precondition``: a step of the
wrong sign or size (e.g. ``*=`` from 0 or with step 1 never moves), a bound so
close to the type's limit that the index would wrap, and, for ``!=``, a bound
the index sequence jumps over. ``!=`` with a multiplicative step (``*=``, ``/=``,
``<<=``, ``>>=``) has no quantifier-free exact-hit condition: the precondition is
then the zero-trip case only, and a concrete DFG is decided by running the table
on constant operands (``run_concrete``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import z3

from loom.semantics.expr import Apply, Const, In, Reg
from loom.semantics.functions import compile_expr
from loom.semantics.machine import Fail, Machine

W = 64
MAX = (1 << (W - 1)) - 1  # the signed W-bit range, as numbers (z3py makes the term in the operands' context)
MIN = -(1 << (W - 1))

STEP_NAMES = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "div", "<<=": "shl", ">>=": "shr"}


@dataclass(frozen=True)
class Termination:
    """Precondition, progress measure and English statement for one stream variant.

    ``pre(x, t, b, k)`` is the invariant over the latched index ``x``, step ``t``
    and bound ``b`` (``k`` is a ghost trip counter, used only when ``ghost``);
    ``progress(x, x2, t, k, k2)`` must hold across every firing that stays
    active. ``domain`` says whether the terms are 64-bit vectors (``bv``: the
    table's own arithmetic) or mathematical integers (``int``: the table's step
    function read as its exact value, with an explicit in-range obligation on
    every update, which makes it equal to the 64-bit result). ``dfg_pre`` is the
    stronger no-wrap condition a concrete DFG's operands are checked against.
    """

    pre: Callable
    progress: Callable
    text: str
    domain: str = "bv"
    ghost: bool = False
    exact_hit: bool = False
    dfg_pre: Optional[Callable] = None
    dfg_text: Optional[str] = None

    def for_dfg(self, x, t, b) -> z3.BoolRef:
        """The condition checked on a DFG's operands (64-bit terms)."""
        if self.dfg_pre is not None:
            return self.dfg_pre(x, t, b)
        if self.domain == "int":
            return self.pre(z3.BV2Int(x, True), z3.BV2Int(t, True), z3.BV2Int(b, True), None)
        return self.pre(x, t, b, None)


def _up(x, x2, t, k, k2):
    return x2 > x


def _down(x, x2, t, k, k2):
    return x2 < x


def _ghost(x, x2, t, k, k2):
    return z3.ULT(k2, k)


def _no_wrap_hit(sign: int) -> Callable:
    """``!=`` with an additive step, without wrap: (b - x) (or x - b) is a multiple of the step, toward it."""

    def pre(x, t, b):
        w = lambda v: z3.SignExt(2, v)  # noqa: E731
        d = w(b) - w(x) if sign > 0 else w(x) - w(b)
        toward = z3.Or(z3.And(t > 0, d > 0), z3.And(t < 0, d < 0))
        return z3.Or(x == b, z3.And(t != 0, z3.SRem(d, w(t)) == 0, toward))

    return pre


def _bv(pre3: Callable, progress: Callable, text: str) -> Termination:
    return Termination(lambda x, t, b, k: pre3(x, t, b), progress, text)


def _int(pre3: Callable, progress: Callable, text: str) -> Termination:
    return Termination(lambda x, t, b, k: pre3(x, t, b), progress, text, domain="int")


MAXI, MINI = (1 << (W - 1)) - 1, -(1 << (W - 1))


_Table = dict[tuple[str, Optional[str]], Termination]  # (step_op, cont_cond) -> its termination rule


def _add_sub() -> _Table:
    """``+=`` and ``-=``: the index moves by the step in 64-bit arithmetic; the bound is reached without wrap."""
    T: _Table = {}
    # += : x' = x + t
    T[("+=", "<")] = _bv(
        lambda x, t, b: z3.Or(x >= b, z3.And(t > 0, b <= MAX - t + 1)),
        _up,
        "start >= bound (zero trips), or step > 0 and bound - 1 + step <= INT64_MAX (no wrap)",
    )
    T[("+=", "<=")] = _bv(
        lambda x, t, b: z3.Or(x > b, z3.And(t > 0, b <= MAX - t)),
        _up,
        "start > bound, or step > 0 and bound + step <= INT64_MAX (bound = INT64_MAX never ends)",
    )
    T[("+=", ">")] = _bv(
        lambda x, t, b: z3.Or(x <= b, z3.And(t < 0, b >= MIN - t - 1)),
        _down,
        "start <= bound, or step < 0 and bound + 1 + step >= INT64_MIN (no wrap)",
    )
    T[("+=", ">=")] = _bv(
        lambda x, t, b: z3.Or(x < b, z3.And(t < 0, b >= MIN - t)),
        _down,
        "start < bound, or step < 0 and bound + step >= INT64_MIN",
    )
    T[("+=", "!=")] = Termination(
        lambda x, t, b, k: x + k * t == b,
        _ghost,
        "an exact hit: start + k*step == bound for some k >= 0 in 64-bit arithmetic (the activation then has "
        "at most k trips); a DFG is held to the no-wrap form: bound - start is a multiple of step with the "
        "sign of step (otherwise the index wraps around, ~2^64 trips)",
        ghost=True,
        dfg_pre=_no_wrap_hit(+1),
        dfg_text="bound - start is a multiple of step with the sign of step (an exact hit without wrap-around)",
    )
    # -= : x' = x - t
    T[("-=", "<")] = _bv(
        lambda x, t, b: z3.Or(x >= b, z3.And(t < 0, b <= MAX + t + 1)),
        _up,
        "start >= bound, or step < 0 and bound - 1 - step <= INT64_MAX",
    )
    T[("-=", "<=")] = _bv(
        lambda x, t, b: z3.Or(x > b, z3.And(t < 0, b <= MAX + t)),
        _up,
        "start > bound, or step < 0 and bound - step <= INT64_MAX",
    )
    T[("-=", ">")] = _bv(
        lambda x, t, b: z3.Or(x <= b, z3.And(t > 0, b >= MIN + t - 1)),
        _down,
        "start <= bound, or step > 0 and bound + 1 - step >= INT64_MIN",
    )
    T[("-=", ">=")] = _bv(
        lambda x, t, b: z3.Or(x < b, z3.And(t > 0, b >= MIN + t)),
        _down,
        "start < bound, or step > 0 and bound - step >= INT64_MIN",
    )
    T[("-=", "!=")] = Termination(
        lambda x, t, b, k: x - k * t == b,
        _ghost,
        "an exact hit: start - k*step == bound for some k >= 0 in 64-bit arithmetic; a DFG is held to the "
        "no-wrap form: start - bound is a multiple of step with the sign of step",
        ghost=True,
        dfg_pre=_no_wrap_hit(-1),
        dfg_text="start - bound is a multiple of step with the sign of step (an exact hit without wrap-around)",
    )
    return T


def _mul_div() -> _Table:
    """``*=`` and ``/=``: proved over the integers (monotonicity of 64-bit products is out of bit-blasting's
    reach); every update carries the obligation that the exact product is in range."""
    T: _Table = {}
    # *= : x' = x * t
    T[("*=", "<")] = _int(
        lambda x, t, b: z3.Or(x >= b, z3.And(x >= 1, t >= 2, (b - 1) * t <= MAXI)),
        _up,
        "start >= bound, or start >= 1 and step >= 2 and (bound - 1) * step <= INT64_MAX "
        "(from 0 or with step 1 it never ends)",
    )
    T[("*=", "<=")] = _int(
        lambda x, t, b: z3.Or(x > b, z3.And(x >= 1, t >= 2, b * t <= MAXI)),
        _up,
        "start > bound, or start >= 1 and step >= 2 and bound * step <= INT64_MAX",
    )
    T[("*=", ">")] = _int(
        lambda x, t, b: z3.Or(x <= b, z3.And(x <= -1, t >= 2, (b + 1) * t >= MINI)),
        _down,
        "start <= bound, or start <= -1 and step >= 2 and (bound + 1) * step >= INT64_MIN",
    )
    T[("*=", ">=")] = _int(
        lambda x, t, b: z3.Or(x < b, z3.And(x <= -1, t >= 2, b * t >= MINI)),
        _down,
        "start < bound, or start <= -1 and step >= 2 and bound * step >= INT64_MIN",
    )
    # /= : x' = x / t (truncating; the magnitude shrinks to 0 for t >= 2)
    T[("/=", "<")] = _int(
        lambda x, t, b: z3.Or(x >= b, z3.And(t >= 2, b <= 0, x < 0)),
        _up,
        "start >= bound, or step >= 2 and bound <= 0 (a negative index rises to 0)",
    )
    T[("/=", "<=")] = _int(
        lambda x, t, b: z3.Or(x > b, z3.And(t >= 2, b < 0, x < 0)),
        _up,
        "start > bound, or step >= 2 and bound < 0",
    )
    T[("/=", ">")] = _int(
        lambda x, t, b: z3.Or(x <= b, z3.And(t >= 2, b >= 0, x > 0)),
        _down,
        "start <= bound, or step >= 2 and bound >= 0 (a positive index falls to 0)",
    )
    T[("/=", ">=")] = _int(
        lambda x, t, b: z3.Or(x < b, z3.And(t >= 2, b > 0, x > 0)),
        _down,
        "start < bound, or step >= 2 and bound > 0",
    )
    return T


def _shifts() -> _Table:
    """``<<=`` and ``>>=``: shifts move the index by doubling, or toward 0 / -1."""
    T: _Table = {}
    # <<= : x' = x << t
    sh_ok = lambda t: z3.And(z3.UGE(t, 1), z3.ULE(t, 62))  # noqa: E731
    T[("<<=", "<")] = _bv(
        lambda x, t, b: z3.Or(x >= b, z3.And(x >= 1, sh_ok(t), b - 1 <= (MAX >> t))),
        _up,
        "start >= bound, or start >= 1, 1 <= step <= 62 and (bound - 1) << step does not overflow",
    )
    T[("<<=", "<=")] = _bv(
        lambda x, t, b: z3.Or(x > b, z3.And(x >= 1, sh_ok(t), b <= (MAX >> t))),
        _up,
        "start > bound, or start >= 1, 1 <= step <= 62 and bound << step does not overflow",
    )
    T[("<<=", ">")] = _bv(
        lambda x, t, b: z3.Or(x <= b, z3.And(x <= -1, sh_ok(t), b != MAX, b + 1 >= (MIN >> t))),
        _down,
        "start <= bound, or start <= -1, 1 <= step <= 62 and (bound + 1) << step does not overflow",
    )
    T[("<<=", ">=")] = _bv(
        lambda x, t, b: z3.Or(x < b, z3.And(x <= -1, sh_ok(t), b >= (MIN >> t))),
        _down,
        "start < bound, or start <= -1, 1 <= step <= 62 and bound << step does not overflow",
    )
    # >>= : x' = x >> t (arithmetic; moves toward 0 or -1)
    T[(">>=", "<")] = _bv(
        lambda x, t, b: z3.Or(x >= b, z3.And(t != 0, b <= -1, x < 0)),
        _up,
        "start >= bound, or step != 0 and bound <= -1 (a negative index rises to -1)",
    )
    T[(">>=", "<=")] = _bv(
        lambda x, t, b: z3.Or(x > b, z3.And(t != 0, b <= -2, x < 0)),
        _up,
        "start > bound, or step != 0 and bound <= -2",
    )
    T[(">>=", ">")] = _bv(
        lambda x, t, b: z3.Or(x <= b, z3.And(t != 0, b >= 0, x > 0)),
        _down,
        "start <= bound, or step != 0 and bound >= 0 (a positive index falls to 0)",
    )
    T[(">>=", ">=")] = _bv(
        lambda x, t, b: z3.Or(x < b, z3.And(t != 0, b >= 1, x > 0)),
        _down,
        "start < bound, or step != 0 and bound >= 1",
    )
    return T


def _exact_hits() -> _Table:
    """``!=`` with a multiplicative or shifting step: only an exact hit of the bound ends an activation."""
    T: _Table = {}
    for op in ("*=", "/=", "<<=", ">>="):
        T[(op, "!=")] = _bv(
            lambda x, t, b: x == b,
            _up,
            "start == bound (zero trips); any other activation ends only on an exact hit of bound, "
            "decided per DFG by running the table on constant operands",
        )
        T[(op, "!=")] = Termination(T[(op, "!=")].pre, _up, T[(op, "!=")].text, exact_hit=True)
    return T


def _by_sign_of_step(T: _Table) -> _Table:
    """No ``cont_cond``: ``<`` for a positive step and ``>`` for a negative one, from ``T``'s entries."""
    out: _Table = {}
    # no cont_cond: '<' for a positive step, '>' for a negative one (a zero step is a runtime error)
    for op in STEP_NAMES:
        up, down = T[(op, "<")], T[(op, ">")]
        dom = up.domain
        if op in ("+=", "<<=", ">>="):
            pos, neg = up.pre, down.pre
            text = f"step > 0: {up.text}; step < 0: {down.text}"
            if op == "<<=":  # a negative step is a shift by >= 64: the index becomes 0 at once
                neg = lambda x, t, b, k: z3.Or(x <= b, b >= 0)  # noqa: E731
                text = f"step > 0: {up.text}; step < 0: start <= bound or bound >= 0 (the index becomes 0)"
        elif op == "-=":
            pos = lambda x, t, b, k: x >= b  # noqa: E731
            neg = lambda x, t, b, k: x <= b  # noqa: E731
            text = "zero trips only (start >= bound for step > 0, start <= bound for step < 0): -= moves away"
        else:  # *=, /=: a negative step flips the sign each time
            pos = up.pre
            neg = lambda x, t, b, k: x <= b  # noqa: E731
            text = f"step > 0: {up.text}; step < 0: start <= bound (zero trips)"

        def pre(x, t, b, k, pos=pos, neg=neg):
            return z3.Or(t == 0, z3.And(t > 0, pos(x, t, b, k)), z3.And(t < 0, neg(x, t, b, k)))

        def progress(x, x2, t, k, k2):
            return z3.If(t > 0, x2 > x, x2 < x)

        out[(op, None)] = Termination(pre, progress, text, domain=dom)
    return out


def _table() -> _Table:
    """Every (step_op, cont_cond)'s termination precondition and progress measure, in one table."""
    T: _Table = {}
    for part in (_add_sub, _mul_div, _shifts, _exact_hits):
        T.update(part())
    T.update(_by_sign_of_step(T))
    return T


TERMINATION = _table()


def stream_variant(m: Machine) -> tuple[str, Optional[str]]:
    """(step_op, cont_cond) read back from a stream table: the ``next`` update and the continue guard."""
    step_op = "?"
    cond: Optional[str] = None
    for r in m.rules:
        for reg, e in r.updates:
            if reg == "next" and isinstance(e, Apply) and e.fn.startswith("step."):
                step_op = e.fn[len("step.") :]
        if any(p == "cont" and isinstance(e, Const) and e.value == 1 for p, e in r.emits):
            g = r.guard
            if (
                isinstance(g, Apply)
                and g.fn.startswith("cmp.")
                and len(g.args) == 2
                and isinstance(g.args[0], Reg)
            ):
                cond = g.fn[len("cmp.") :]
    return step_op, cond


def variant_name(step_op: str, cond: Optional[str]) -> str:
    return f"{step_op},{cond if cond is not None else 'sign'}"


def describe_precondition(step_op: str, cond: Optional[str], dfg: bool = False) -> str:
    """The precondition in words (``dfg``: the form a DFG's operands are held to)."""
    t = TERMINATION.get((step_op, cond))
    if t is None:
        return "no precondition known for this combination"
    return (t.dfg_text or t.text) if dfg else t.text


def run_concrete(m: Machine, start: int, step: int, bound: int, cap: int) -> Optional[int]:
    """Run one activation of a stream table on constant operands: the trip count N, or None after ``cap`` firings.

    A zero step (the table's runtime error) gives -1: an error, not a hang.
    """
    mask = (1 << W) - 1
    ports = {"start": 0, "step": 1, "bound": 2}
    heads = [start & mask, step & mask, bound & mask]
    compiled = {}

    def ev(e, h, r):
        f = compiled.get(id(e))
        if f is None:
            f = compiled[id(e)] = compile_expr(e, ports)
        return f(h, r, None)

    regs = {r.name: r.init for r in m.registers}
    state = m.initial
    for r in m.rules_in(state):
        if r.reads and (r.guard is None or ev(r.guard, heads, regs)):
            if isinstance(r.effect, Fail):
                return -1
            regs = {**regs, **{n: ev(e, heads, regs) for n, e in r.updates}}
            state = r.next
            break
    else:
        return None
    trips = 0
    silent = {s: [r for r in m.rules_in(s) if not r.reads] for s in m.states}
    seen: set = set()
    for _ in range(cap):
        key = (state, tuple(sorted(regs.items())))
        if key in seen:  # a deterministic table back in a configuration it was in: it never ends
            return None
        seen.add(key)
        fired = next((r for r in silent[state] if r.guard is None or ev(r.guard, heads, regs)), None)
        if fired is None:
            return None
        cont = dict(fired.emits).get("cont")
        cont_v = ev(cont, heads, regs) if cont is not None else 0
        regs = {**regs, **{n: ev(e, heads, regs) for n, e in fired.updates}}
        state = fired.next
        if state == m.initial:
            return trips
        if cont_v == 1:
            trips += 1
    return None


def termination_query(model, term: Termination) -> z3.Solver:
    """The termination query of a stream table (see the module doc): unsat iff all checks hold.

    ``model`` is a ``MachineModel`` of the stream table; the invariant is
    ``term.pre`` over its registers ``next``/``step``/``bound``. For
    ``domain == "int"`` the table's guards and updates are read over the
    integers by ``_IntReading``.
    """
    if term.domain == "int":
        return _IntReading(model.machine).query(term)
    m: Machine = model.machine
    active = set(m.residual_states)

    def inv(s, k) -> z3.BoolRef:
        return term.pre(s.regs["next"], s.regs["step"], s.regs["bound"], k)

    bad = []
    s0, s1, h0 = model.new_state("a0"), model.new_state("a1"), model.new_heads("a0")
    k0 = z3.BitVec("ghost.k0", W)
    for f in model.firings(s0, h0):
        if f.rule.state == m.initial and f.rule.next in active:
            pre = term.pre(h0["start"], h0["step"], h0["bound"], k0)
            bad.append(z3.And(pre, f.enabled, model.goes_to(f, s1), z3.Not(inv(s1, k0))))
    s, s2, h = model.new_state("r0"), model.new_state("r1"), model.new_heads("r0")
    k, k2 = z3.BitVec("ghost.k", W), z3.BitVec("ghost.k1", W)
    in_active = model.in_state(s, *sorted(active))
    silent = [f for f in model.firings(s, h) if f.rule.state in active and not f.rule.reads]
    bad.append(z3.And(in_active, inv(s, k), z3.Not(z3.Or(*[f.enabled for f in silent]))))
    stay_next = [f.enabled for f in model.firings(s2, h) if f.rule.state in active and f.rule.next in active]
    for f in model.firings(s, h):
        if f.rule.state in active and f.rule.next in active:
            x, t = s.regs["next"], s.regs["step"]
            ok = z3.Or(
                z3.And(inv(s2, k2), term.progress(x, s2.regs["next"], t, k, k2)), z3.Not(z3.Or(*stay_next))
            )
            ghost = k2 == k - 1 if term.ghost else z3.BoolVal(True)
            bad.append(z3.And(in_active, inv(s, k), f.enabled, model.goes_to(f, s2), ghost, z3.Not(ok)))
    solver = z3.Solver()
    solver.add(z3.Or(*bad))
    return solver


class _IntReading:
    """A stream table's guards and updates read over the mathematical integers.

    ``step.<op>`` becomes the exact integer operation (``/=`` truncating toward
    zero) and every update also yields the obligation that its exact result lies
    in [INT64_MIN, INT64_MAX], in which case it equals the 64-bit result of the
    table; ``cmp.<c>`` becomes the integer comparison (the table compares signed).
    """

    def __init__(self, machine: Machine) -> None:
        self.m = machine

    def expr(self, e, env: dict, side: list) -> z3.ExprRef:
        if isinstance(e, Reg):
            return env[e.name]
        if isinstance(e, In):
            return env["in." + e.port]
        if isinstance(e, Const):
            v = e.value
            return z3.IntVal(v - (1 << W) if isinstance(v, int) and v >> (W - 1) else v)
        assert isinstance(e, Apply)
        args = [self.expr(a, env, side) for a in e.args]
        fn = e.fn
        if fn.startswith("cmp."):
            a, b = args
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "!=": a != b, "==": a == b}[fn[4:]]
        if fn in ("eq", "ne"):
            a, b = (as_int(x) for x in args)
            return a == b if fn == "eq" else a != b
        if fn == "not":
            return z3.Not(as_boolean(args[0]))
        if fn in ("and", "or"):
            bs = [as_boolean(a) for a in args]
            return z3.And(*bs) if fn == "and" else z3.Or(*bs)
        if fn.startswith("step."):
            a, b = args
            op = fn[5:]
            if op == "+=":
                r = a + b
            elif op == "-=":
                r = a - b
            elif op == "*=":
                r = a * b
            elif op == "/=":
                r = z3.If(a >= 0, z3.If(b > 0, a / b, -(a / -b)), z3.If(b > 0, -((-a) / b), (-a) / (-b)))
            else:
                raise ValueError(f"{fn} has no integer reading")
            side.append(z3.And(r >= MINI, r <= MAXI))
            return r
        raise ValueError(f"{fn} has no integer reading")

    def query(self, term: Termination) -> z3.Solver:
        m = self.m
        active = set(m.residual_states)
        rng = lambda v: z3.And(v >= MINI, v <= MAXI)  # noqa: E731
        bad = []
        h = {f"in.{p}": z3.Int(f"int.in.{p}") for p in ("start", "step", "bound")}
        for r in m.rules:
            if r.state == m.initial and r.next in active:
                side: list = []
                g = as_boolean(self.expr(r.guard, h, side)) if r.guard is not None else z3.BoolVal(True)
                regs = {n: self.expr(e, h, side) for n, e in r.updates}
                pre = term.pre(h["in.start"], h["in.step"], h["in.bound"], None)
                inv = term.pre(regs["next"], regs["step"], regs["bound"], None)
                bad.append(z3.And(*[rng(v) for v in h.values()], pre, g, z3.Not(z3.And(inv, *side))))
        regs0 = {n: z3.Int(f"int.{n}") for n in ("next", "step", "bound")}
        inv0 = z3.And(
            *[rng(v) for v in regs0.values()], term.pre(regs0["next"], regs0["step"], regs0["bound"], None)
        )
        silent = [r for r in m.rules if r.state in active and not r.reads]
        guards = [
            as_boolean(self.expr(r.guard, regs0, [])) if r.guard is not None else z3.BoolVal(True)
            for r in silent
        ]
        bad.append(z3.And(inv0, z3.Not(z3.Or(*guards))))
        for r in silent:
            if r.next not in active:
                continue
            side = []
            g = as_boolean(self.expr(r.guard, regs0, side)) if r.guard is not None else z3.BoolVal(True)
            regs1 = dict(regs0)
            regs1.update({n: self.expr(e, regs0, side) for n, e in r.updates})
            stay1 = [
                as_boolean(self.expr(q.guard, regs1, [])) if q.guard is not None else z3.BoolVal(True)
                for q in silent
                if q.next in active
            ]
            inv1 = term.pre(regs1["next"], regs1["step"], regs1["bound"], None)
            ok = z3.And(
                *side,
                z3.Or(
                    z3.And(inv1, term.progress(regs0["next"], regs1["next"], regs0["step"], None, None)),
                    z3.Not(z3.Or(*stay1)),
                ),
            )
            bad.append(z3.And(inv0, g, z3.Not(ok)))
        solver = z3.Solver()
        solver.add(z3.Or(*bad))
        return solver


def as_int(x: z3.ExprRef) -> z3.ExprRef:
    return z3.If(x, 1, 0) if z3.is_bool(x) else x


def as_boolean(x: z3.ExprRef) -> z3.BoolRef:
    return x if z3.is_bool(x) else x != 0
