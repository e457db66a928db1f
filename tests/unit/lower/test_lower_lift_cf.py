"""CFG functions (cf.br / cf.cond_br) are lifted back to scf and lowered.

The oracle: random SCF kernels (loom.testing.scf_gen) are flattened to a CFG the
way ``mlir-opt --convert-scf-to-cf`` does (``to_cfg`` below); the CFG version
must interpret exactly like the SCF one, and its lowering (lift + lower) must
agree with the interpreter, token for token.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import scaled

from loom.diagnostics import LoomError
from loom.interp import run_json
from loom.ir.attributes import DenseArrayAttr
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.types import IntegerType, i1
from loom.lower import LowerOptions, lower_module
from loom.lower.clone import clone_op
from loom.lower.lift_cf import lift_cfg
from loom.mlir import parse_text, print_module
from loom.testing.differential import check_lowering, same_value
from loom.testing.scf_gen import GenConfig, GeneratedProgram, generate_program, scf_programs

from support.paths import DATA

CMPI = {"slt": 2, "ult": 6}
_I32 = IntegerType(32)


class _ToCfg:
    """scf.for / scf.while / scf.if -> blocks, as --convert-scf-to-cf lowers them."""

    def __init__(self, region: Region) -> None:
        self.region = region
        self.env: dict[Value, Value] = {}

    def new_block(self, types=()) -> Block:
        return self.region.add_block(Block.create(list(types)))

    def br(self, at: Block, target: Block, args) -> None:
        op = Operation.create("cf.br", list(args))
        op.successors = [target]
        at.append(op)

    def cond_br(self, at: Block, cond: Value, t: Block, t_args, f: Block, f_args) -> None:
        op = Operation.create("cf.cond_br", [cond, *t_args, *f_args],
                              attributes={"operandSegmentSizes": DenseArrayAttr(_I32, (1, len(t_args), len(f_args)))})
        op.successors = [t, f]
        at.append(op)

    def m(self, v: Value) -> Value:
        return self.env.get(v, v)

    def ops(self, ops: list[Operation], cur: Block) -> tuple[Block, Operation]:
        """Emit ``ops`` from ``cur``; returns the block where control continues and the region's terminator."""
        for op in ops:
            if op.name in ("scf.yield", "scf.condition", "func.return"):
                return cur, op
            if op.name == "scf.if":
                cur = self.if_(op, cur)
            elif op.name == "scf.for":
                cur = self.for_(op, cur)
            elif op.name == "scf.while":
                cur = self.while_(op, cur)
            else:
                assert not op.regions, op.name
                cur.append(clone_op(op, self.env))
        raise AssertionError("region without terminator")

    def if_(self, op: Operation, cur: Block) -> Block:
        merge = self.new_block([r.type for r in op.results])
        sides = []
        for region in op.regions:
            b = self.new_block()
            sides.append(b)
            if region.blocks:
                end, term = self.ops(region.blocks[0].ops, b)
                self.br(end, merge, [self.m(v) for v in term.operands])
            else:
                self.br(b, merge, [])
        self.cond_br(cur, self.m(op.operands[0]), sides[0], [], sides[1], [])
        for r, a in zip(op.results, merge.args):
            self.env[r] = a
        return merge

    def for_(self, op: Operation, cur: Block) -> Block:
        lb, ub, step, *inits = [self.m(v) for v in op.operands]
        body_src = op.regions[0].blocks[0]
        header = self.new_block([a.type for a in body_src.args])
        body = self.new_block()
        exit_ = self.new_block()
        self.br(cur, header, [lb, *inits])
        pred = CMPI["ult" if "unsignedCmp" in op.attributes else "slt"]
        cmp = Operation.create("arith.cmpi", [header.args[0], ub], [i1],
                               {"predicate": __import__("loom.ir.attributes", fromlist=["x"]).IntegerAttr(pred, __import__("loom.ir.types", fromlist=["x"]).i64)})
        header.append(cmp)
        self.cond_br(header, cmp.results[0], body, [], exit_, [])
        for a, na in zip(body_src.args, header.args):
            self.env[a] = na
        end, term = self.ops(body_src.ops, body)
        nxt = Operation.create("arith.addi", [header.args[0], step], [header.args[0].type])
        end.append(nxt)
        self.br(end, header, [nxt.results[0], *[self.m(v) for v in term.operands]])
        for r, a in zip(op.results, header.args[1:]):
            self.env[r] = a
        return exit_

    def while_(self, op: Operation, cur: Block) -> Block:
        before_src, after_src = op.regions[0].blocks[0], op.regions[1].blocks[0]
        before = self.new_block([a.type for a in before_src.args])
        after = self.new_block([a.type for a in after_src.args])
        exit_ = self.new_block([r.type for r in op.results])
        self.br(cur, before, [self.m(v) for v in op.operands])
        for a, na in zip(before_src.args, before.args):
            self.env[a] = na
        end, cond = self.ops(before_src.ops, before)
        fwd = [self.m(v) for v in cond.operands[1:]]
        self.cond_br(end, self.m(cond.operands[0]), after, fwd, exit_, fwd)
        for a, na in zip(after_src.args, after.args):
            self.env[a] = na
        end, term = self.ops(after_src.ops, after)
        self.br(end, before, [self.m(v) for v in term.operands])
        for r, a in zip(op.results, exit_.args):
            self.env[r] = a
        return exit_


def to_cfg(module: Module, name: str) -> Module:
    """A copy of ``module`` whose function ``name`` is a CFG (globals kept)."""
    out = Module.empty(module.filename)
    for op in module.ops:
        if op.name == "func.func" and op.attributes["sym_name"].value == name:
            src = op.regions[0].blocks[0]
            region = Region()
            conv = _ToCfg(region)
            entry = conv.new_block([a.type for a in src.args])
            for a, na in zip(src.args, entry.args):
                entry.args[a.index].name_hint = a.name_hint
                conv.env[a] = na
            end, term = conv.ops(src.ops, entry)
            end.append(Operation.create("func.return", [conv.m(v) for v in term.operands]))
            out.body.append(Operation.create("func.func", [], [], dict(op.attributes), [region], loc=op.loc))
        else:
            out.body.append(clone_op(op, {}))
    return parse_text(print_module(out), "cfg.mlir")  # through text: the printed CFG is what loom reads


CFG_SAFE = GenConfig(max_ops=45, two_result_ops=False)


def _check(prog: GeneratedProgram) -> None:
    cfg = to_cfg(prog.module, prog.func_name)
    assert len(cfg.functions()[0].regions[0].blocks) >= 1
    ref = run_json(prog.module, prog.func_name, prog.inputs)
    got = run_json(cfg, prog.func_name, prog.inputs)
    assert ref.status == got.status
    assert len(ref.results) == len(got.results) and all(same_value(a, b) for a, b in zip(ref.results, got.results))
    c = check_lowering(cfg, prog.func_name, prog.inputs)
    assert c.ok, c.detail


@settings(max_examples=scaled(12), deadline=None)
@given(prog=scf_programs(CFG_SAFE))
def test_lifted_cfg_kernels_agree_with_the_interpreter(prog: GeneratedProgram):
    _check(prog)


@pytest.mark.parametrize("seed", [7, 42, 99991])
def test_bigger_lifted_kernels(seed: int):
    _check(generate_program(random.Random(seed), GenConfig(max_ops=120, max_depth=4, two_result_ops=False)))


def lift_text(text: str) -> str:
    m = parse_text(text, "l.mlir")
    out = Module.empty("l.mlir")
    out.body.append(lift_cfg(m.functions()[0]))
    printed = print_module(out)
    parse_text(printed, "lifted.mlir")  # the lifted function verifies
    return printed


def test_two_returns_become_one_if_and_one_return():
    text = """
func.func @pick(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : i32
^bb2:
  %d = arith.addi %b, %b : i32
  return %d : i32
}
"""
    lifted = lift_text(text)
    assert "scf.if" in lifted and lifted.count("func.return") == 1 and "cf.br" not in lifted and "cf.cond_br" not in lifted
    m = parse_text(text, "l.mlir")
    for c, want in ((1, 5), (0, 14)):
        assert check_lowering(m, "pick", {"c": c, "a": 5, "b": 7}).interp.results == [want]
        assert check_lowering(m, "pick", {"c": c, "a": 5, "b": 7}).ok


def test_loop_staying_on_the_false_side_negates_the_condition():
    text = """
func.func @count(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^head(%c0 : i32)
^head(%i: i32):
  %done = arith.cmpi sge, %i, %n : i32
  cf.cond_br %done, ^out, ^body
^body:
  %j = arith.addi %i, %c1 : i32
  cf.br ^head(%j : i32)
^out:
  return %i : i32
}
"""
    assert "arith.xori" in lift_text(text)
    m = parse_text(text, "l.mlir")
    for n in (-2, 0, 3):
        c = check_lowering(m, "count", {"n": n})
        assert c.ok and c.interp.results == [max(n, 0)]


def test_do_while_loop_with_the_exit_at_the_latch():
    text = """
func.func @dw(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  cf.br ^body(%c0 : index)
^body(%i: index):
  %j = arith.addi %i, %c1 : index
  %more = arith.cmpi ult, %j, %n : index
  cf.cond_br %more, ^body(%j : index), ^out(%j : index)
^out(%r: index):
  return %r : index
}
"""
    lift_text(text)
    m = parse_text(text, "l.mlir")
    for n in (0, 1, 5):
        c = check_lowering(m, "dw", {"n": n})
        assert c.ok and c.interp.results == [max(n, 1)]


@pytest.mark.parametrize(
    ("text", "line", "message", "inputs"),
    [
        # break: the branch inside the body leaves the loop
        ("""func.func @f(%n: index, %k: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^h(%c0 : index)
^h(%i: index):
  %lt = arith.cmpi ult, %i, %n : index
  cf.cond_br %lt, ^b, ^out(%i : index)
^b:
  %hit = arith.cmpi eq, %i, %k : index
  %j = arith.addi %i, %c1 : index
  cf.cond_br %hit, ^out(%i : index), ^h(%j : index)
^out(%r: index):
  return %r : index
}""", 7, "exiting blocks", {"n": 3, "k": 1}),
        # irreducible: two entries into a cycle
        ("""func.func @f(%c: i1, %d: i1) -> i32 {
  %z = arith.constant 0 : i32
  cf.cond_br %c, ^a, ^b
^a:
  cf.cond_br %d, ^b, ^out
^b:
  cf.br ^a
^out:
  return %z : i32
}""", 7, "irreducible", {"c": 0, "d": 0}),
        # a return inside a loop body
        ("""func.func @f(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^h(%c0 : index)
^h(%i: index):
  %lt = arith.cmpi ult, %i, %n : index
  cf.cond_br %lt, ^b, ^out
^b:
  %j = arith.addi %i, %c1 : index
  %big = arith.cmpi ugt, %j, %c1 : index
  cf.cond_br %big, ^ret, ^h(%j : index)
^ret:
  return %j : index
^out:
  return %i : index
}""", 7, "exiting blocks", {"n": 3}),
    ],
)
def test_unstructured_cfgs_are_refused_with_a_location(text: str, line: int, message: str, inputs: dict):
    m = parse_text(text, "u.mlir")
    with pytest.raises(LoomError) as info:
        lower_module(m, "f", LowerOptions())
    assert info.value.code == "CPL_LOWER_UNSUPPORTED"
    assert str(info.value).startswith(f"u.mlir:{line}:"), str(info.value)
    assert message in str(info.value)
    assert run_json(m, "f", inputs, max_steps=10_000).status == "completed"  # the interpreter runs any CFG


def test_structured_kernel_is_what_gets_lowered():
    from loom.lower import structured_kernel

    m = parse_text((DATA / "mlir_real" / "cf_loop.mlir").read_text(), "cf.mlir")
    k = structured_kernel(m, None)
    assert len(k.regions[0].blocks) == 1
    assert {op.name for op in k.walk()} >= {"scf.while", "memref.load"}
    assert not any(op.name.startswith("cf.") for op in k.walk())
    assert len(m.functions()[0].regions[0].blocks) == 4  # the source keeps its CFG


def test_unreachable_blocks_are_ignored():
    text = """
func.func @f(%a: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb2:
  %one = arith.constant 1 : i32
  cf.br ^bb1(%one : i32)
^dead1:
  %z = arith.constant 9 : i32
  cf.br ^dead2(%z : i32)
^dead2(%y: i32):
  cf.cond_br %c, ^dead1, ^bb1(%y : i32)
^bb1(%x: i32):
  return %x : i32
}
"""
    m = parse_text(text, "d.mlir")
    assert "dead" not in lift_text(text)
    for c, want in ((1, 5), (0, 1)):
        r = check_lowering(m, "f", {"a": 5, "c": c})
        assert r.ok and r.interp.results == [want]


@st.composite
def random_cfgs(draw) -> str:
    """A random CFG over one i32 accumulator: every block adds a constant, then returns or branches."""
    n = draw(st.integers(2, 6))
    lines = ["func.func @r(%x: i32, %k: i32) -> i32 {", "  cf.br ^b0(%x, %k : i32, i32)"]
    for b in range(n):
        lines.append(f"^b{b}(%a{b}: i32, %n{b}: i32):")
        lines.append(f"  %c{b} = arith.constant {draw(st.integers(-3, 5))} : i32")
        lines.append(f"  %s{b} = arith.addi %a{b}, %c{b} : i32")
        lines.append(f"  %one{b} = arith.constant 1 : i32")
        lines.append(f"  %m{b} = arith.subi %n{b}, %one{b} : i32")  # a fuel counter: every path ends
        lines.append(f"  %z{b} = arith.constant 0 : i32")
        lines.append(f"  %live{b} = arith.cmpi sgt, %m{b}, %z{b} : i32")
        kind = draw(st.sampled_from(["ret", "br", "cond", "cond"]))
        t1, t2 = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if kind == "ret":
            lines.append(f"  return %s{b} : i32")
        elif kind == "br":
            lines.append(f"  cf.cond_br %live{b}, ^b{t1}(%s{b}, %m{b} : i32, i32), ^out(%s{b} : i32)")
        else:
            lines.append(f"  %two{b} = arith.constant 2 : i32")
            lines.append(f"  %r{b} = arith.remsi %s{b}, %two{b} : i32")
            lines.append(f"  %p{b} = arith.cmpi eq, %r{b}, %z{b} : i32")
            lines.append(f"  %q{b} = arith.andi %p{b}, %live{b} : i1")
            lines.append(f"  cf.cond_br %q{b}, ^b{t1}(%s{b}, %m{b} : i32, i32), ^b{t2}(%a{b}, %m{b} : i32, i32)")
            # the false side may loop without fuel: guard it through a block that checks the counter
    lines += ["^out(%o: i32):", "  return %o : i32", "}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(text=random_cfgs(), x=st.integers(-4, 4), k=st.integers(0, 6))
def test_random_cfgs_lift_and_agree_or_are_refused(text: str, x: int, k: int):
    m = parse_text(text, "r.mlir")
    try:
        lower_module(m, "r", LowerOptions())
    except LoomError as e:
        assert e.code == "CPL_LOWER_UNSUPPORTED" and str(e).startswith("r.mlir:")
        return
    c = check_lowering(m, "r", {"x": x, "k": k}, max_steps=20_000)
    assert c.ok, c.detail
