"""loom's canonical SMT-LIB2 printer: equivalent to the query, read back by z3 and cvc5, and canonical."""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.verify.smtlib import script, symbol

W = 8
_x, _y = z3.BitVecs("x y", W)
_b = z3.Bool("b")
_n = z3.Int("n")
_f = z3.Function("f", z3.BitVecSort(W), z3.BitVecSort(W))
_Color, (_red, _green) = z3.EnumSort("Color", ["red", "green"])
_c = z3.Const("c", _Color)
_odd = z3.BitVec("odd name|with\\bars", W)


def _bv_terms():
    leaves = st.sampled_from([_x, _y, z3.BitVecVal(0, W), z3.BitVecVal(255, W), z3.BitVecVal(7, W)])

    def extend(inner):
        return st.one_of(
            st.tuples(inner, inner).map(lambda p: p[0] + p[1]),
            st.tuples(inner, inner).map(lambda p: p[0] * p[1]),
            st.tuples(inner, inner).map(lambda p: p[0] & p[1]),
            st.tuples(inner, inner).map(lambda p: z3.UDiv(p[0], p[1])),
            st.tuples(inner, inner).map(lambda p: p[0] >> p[1]),
            inner.map(lambda a: _f(a)),
            inner.map(lambda a: z3.ZeroExt(W, a)).map(lambda a: z3.Extract(W - 1, 0, a)),
            st.tuples(inner, inner).map(lambda p: z3.If(_b, p[0], p[1])),
        )

    return st.recursive(leaves, extend, max_leaves=8)


def _bool_terms():
    atoms = st.one_of(
        st.tuples(_bv_terms(), _bv_terms()).map(lambda p: p[0] == p[1]),
        st.tuples(_bv_terms(), _bv_terms()).map(lambda p: z3.ULT(p[0], p[1])),
        st.sampled_from([_b, _c == _red, z3.Or(_n > 3, _n < -2), z3.is_true(z3.BoolVal(True)) == _b]),
    )
    return st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.lists(inner, min_size=1, max_size=3).map(lambda xs: z3.And(*xs)),
            st.lists(inner, min_size=1, max_size=3).map(lambda xs: z3.Or(*xs)),
            inner.map(z3.Not),
            st.tuples(inner, inner).map(lambda p: z3.Implies(*p)),
        ),
        max_leaves=6,
    )


def _equivalent(assertions, text: str) -> bool:
    back = z3.parse_smt2_string(text)
    s = z3.Solver()
    s.add(z3.Xor(z3.And(*assertions), z3.And(*back)))
    return s.check() == z3.unsat


@settings(max_examples=120, deadline=None)
@given(st.lists(_bool_terms(), min_size=1, max_size=3))
def test_the_script_means_the_query(assertions):
    text = script(assertions)
    assert _equivalent(assertions, text), text


@settings(max_examples=60, deadline=None)
@given(st.lists(_bool_terms(), min_size=1, max_size=3), st.randoms(use_true_random=False))
def test_order_of_commutative_arguments_and_of_assertions_does_not_matter(assertions, rnd):
    def shuffled(e):
        if z3.is_app(e) and e.num_args() > 0:
            kids = [shuffled(c) for c in e.children()]
            k = e.decl().kind()
            if k in (z3.Z3_OP_AND, z3.Z3_OP_OR):
                rnd.shuffle(kids)
                return z3.And(*kids) if k == z3.Z3_OP_AND else z3.Or(*kids)
            if k == z3.Z3_OP_BADD:
                rnd.shuffle(kids)
                return kids[0] + kids[1] if len(kids) == 2 else e
            return e.decl()(*kids)
        return e

    other = [shuffled(a) for a in assertions]
    rnd.shuffle(other)
    assert script(assertions) == script(other)


def test_declarations_are_sorted_and_datatypes_declared():
    text = script([z3.And(_c == _green, _y == _x, _f(_x) == _odd)])
    lines = text.splitlines()
    assert lines[0] == "(set-logic ALL)"
    decls = [line for line in lines if line.startswith("(declare-fun")]
    assert decls == sorted(decls)
    assert any(line.startswith("(declare-datatypes ((Color 0))") for line in lines)
    assert lines[-1] == "(check-sat)"


def test_shared_terms_are_named_once():
    big = _x * _y + _x
    text = script([z3.ULT(big, _y), z3.UGT(big, _x)])
    assert text.count("(bvmul") == 1 and "(define-fun _t1 () (_ BitVec 8)" in text


def test_a_rewritten_name_never_takes_another_declared_name():
    clash = z3.BitVec("odd name_bar_with_bs_bars", W)
    text = script([_odd != clash])
    decls = [line for line in text.splitlines() if line.startswith("(declare-fun")]
    assert len(decls) == 2 and len(set(decls)) == 2
    assert z3.Solver().check(*z3.parse_smt2_string(text)) == z3.sat  # two distinct constants


def test_symbols_are_quoted_or_made_simple():
    assert symbol("abc.d") == "abc.d"
    assert symbol("arg:n") == "|arg:n|"
    assert symbol("1x") == "|1x|"
    assert symbol("let") == "|let|"
    assert "|" not in symbol("a|b")[1:-1] and "\\" not in symbol("a\\b")


def test_cvc5_reads_the_script():
    import cvc5

    text = script([z3.And(_c == _green, z3.ULT(_f(_odd), _x), z3.If(_b, _n, _n + 1) > 2)])
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "q")
    answers = []
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        answers.append(cmd.invoke(solver, sm).strip())
    assert answers[-1] == "sat"
