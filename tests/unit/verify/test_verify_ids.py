"""ObligationId: one printer and one parser for every obligation ID (issue 28, item 2).

The printed form is the report format, so parse-then-print must give back every ID the examples produce byte
for byte (the archived proofs' manifest lists them), and print-then-parse must give back every ID value.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loom.verify import expected
from loom.verify.ids import SHAPES, ObligationId, family_of

from support.paths import ROOT


# families the examples do not produce, in the form their checkers print them
MORE = ["bmc.K4.livelock", "bmc.K12.residual", "mem.A.order", "mem.A.order[st1<ld2..st3<ld4]", "mem.alias.A",
        "mem.indep.A|*", "internal.lengths", "refine", "map.C1", "refine.loop@3:5", "len.L3.terminates",
        "fsm.stream[+=,<].terminates", "safe.divsi@4:9.divzero", "done.postdom", "refine.result0", "map.fifo.bmc.K4.deadlock",
        # hand-written DFGs' (tests/data/handwritten): an idiom's carry or ring, a domain whose name holds a dot
        "idiom.%sel.carry", "idiom.%ctl.carry", "idiom.%tok.ring", "mem.indep.a|a.1", "mem.indep.a.1|*"]


def _example_ids() -> list[str]:
    return [e["id"] for e in json.loads((ROOT / "proofs" / "manifest.json").read_text())]


def test_every_example_id_parses_and_prints_back_byte_for_byte():
    ids = _example_ids() + MORE
    assert len(ids) > 500
    for text in ids:
        oid = ObligationId.parse(text)
        assert str(oid) == text
        assert ObligationId.parse(str(oid)) == oid


def test_the_fields_are_what_the_id_names():
    assert ObligationId.parse("len.L0.after_cond") == ObligationId("len.after_cond", "L0")
    assert ObligationId.parse("mem.A.order.st3<ld5") == ObligationId("mem.order.pair", "A", None, ("st3", "ld5"))
    assert ObligationId.parse("safe.load@12:7.bounds") == ObligationId("safe", "load", (12, 7), ("bounds",))
    assert ObligationId.parse("fsm.stream.pre.%3") == ObligationId("fsm.stream.pre", "%3")
    assert ObligationId.parse("fsm.arith.addi[i32,i32->i32].balance") == ObligationId(
        "fsm", "arith.addi[i32,i32->i32]", None, ("balance",))
    assert ObligationId.parse("bmc.K4.deadlock").params == ("4",)
    assert ObligationId.parse("refine.loop@10:5.cond") == ObligationId("refine.loop", "", (10, 5), ("cond",))
    assert family_of("done.postdom") == "done.postdom"
    assert ObligationId.parse("map.fifo.bmc.K4.deadlock") == ObligationId("map.fifo", "bmc.K4.deadlock")


@pytest.mark.parametrize("text", ["", "len", "bogus.x", "bmc.Kx.deadlock", "safe.load.bounds", "mem.indep.A"])
def test_text_that_is_no_id_is_rejected(text):
    assert ObligationId.try_parse(text) is None
    with pytest.raises(ValueError):
        ObligationId.parse(text)


def test_a_value_with_the_wrong_fields_is_rejected():
    with pytest.raises(ValueError):
        ObligationId("len.raw")  # no subject
    with pytest.raises(ValueError):
        ObligationId("nope", "x")
    with pytest.raises(ValueError):
        ObligationId("bmc.deadlock", params=())


def test_expected_ids_are_printed_by_the_one_printer():
    assert expected.bmc_ids(7) == ["bmc.K7.deadlock", "bmc.K7.residual"]


_WORD = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,6}", fullmatch=True)
_NAME = st.from_regex(r"[%A-Za-z0-9_]{1,8}", fullmatch=True)
_SUBJECT = st.from_regex(r"[%A-Za-z0-9_\[\],<>=;?.-]{0,10}[A-Za-z0-9_\]]", fullmatch=True)
_DOMAIN = st.one_of(_NAME, st.just("*"), st.tuples(_NAME, _NAME).map(".".join))
_PARAM = {"word": _WORD, "int": st.integers(0, 999).map(str), "name": _NAME, "any": _WORD, "domain": _DOMAIN}


@st.composite
def obligation_ids(draw) -> ObligationId:
    shape = draw(st.sampled_from(SHAPES))
    subject = draw(_SUBJECT if shape.family.startswith(("fsm", "class", "balance")) else _NAME) \
        if shape.has_subject else ""
    loc = (draw(st.integers(1, 9999)), draw(st.integers(1, 999))) if shape.has_location else None
    params = tuple(draw(_PARAM[p]) for p in shape.params)
    return ObligationId(shape.family, subject, loc, params)


@given(obligation_ids())
def test_print_then_parse_round_trips(oid):
    got = ObligationId.parse(str(oid))
    assert str(got) == str(oid)
    # the text is the identity: a value the printer makes is the value the parser reads, unless an earlier,
    # more specific shape claims the same text (then that one is what the checkers print)
    earlier = [s.family for s in SHAPES[:[s.family for s in SHAPES].index(oid.family)]]
    assert got == oid or got.family in earlier
