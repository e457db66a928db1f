"""File metadata ``{-# dialect_resources ... #-}`` and ``dense_resource<key>`` attributes."""

from __future__ import annotations

import pytest

from loom.diagnostics import ParseError
from loom.ir.attributes import DenseElementsAttr
from loom.mlir import parse_text, print_module

GLOBAL = 'memref.global "private" constant @t : memref<{n}x{t}> = dense_resource<{key}>\n'


def section(body: str) -> str:
    return "\n{-#\n  dialect_resources: {\n    builtin: {\n" + body + "\n    }\n  }\n#-}\n"


def initial(text: str):
    m = parse_text(text, "r.mlir")
    (g,) = [op for op in m.ops if op.name == "memref.global"]
    return g.attributes["initial_value"]


@pytest.mark.parametrize(
    ("n", "t", "blob", "want"),
    [
        (3, "i32", "0x04000000" "01000000" "FFFFFFFF" "00000080", (1, -1, -(1 << 31))),
        (2, "f32", "0x04000000" "0000803F" "000020C1", (1.0, -10.0)),
        (2, "i8", "0x01000000" "7F80", (127, -128)),
        (1, "f64", "0x08000000" "000000000000F03F", (1.0,)),
        (2, "ui16", "0x02000000" "FFFF0100", (65535, 1)),
    ],
)
def test_blob_elements_are_decoded_little_endian_after_the_alignment(n, t, blob, want):
    text = GLOBAL.format(n=n, t=t, key="b") + section(f'      b: "{blob}"')
    a = initial(text)
    assert isinstance(a, DenseElementsAttr) and a.values == want


def test_quoted_keys_and_several_blobs_and_other_dialects():
    text = (
        GLOBAL.format(n=1, t="i32", key='"my key"')
        + section('      "my key": "0x0400000007000000",\n      other: "0x0400000001000000"').replace(
            "    }\n  }", "    },\n    mydialect: { x: \"0x00\" }\n  },\n  external_resources: { foo: { a: 1 } }"
        )
    )
    assert initial(text).values == (7,)


def test_printing_gives_a_dense_attribute_that_reparses_equal():
    text = GLOBAL.format(n=2, t="i16", key="b") + section('      b: "0x02000000FEFF0300"')
    printed = print_module(parse_text(text, "r.mlir"))
    assert "dense<[-2, 3]>" in printed and "{-#" not in printed
    assert initial(printed).values == (-2, 3)


def test_metadata_markers_in_comments_and_strings_are_not_sections():
    text = '// mlir-opt prints {-# dialect_resources #-} at the end\nfunc.func @f() attributes {note = "{-#"} {\n  return\n}\n'
    assert [op.name for op in parse_text(text, "r.mlir").ops] == ["func.func"]


def test_locations_after_a_section_are_unchanged():
    text = section('      b: "0x0400000001000000"') + "func.func @f() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n"
    with pytest.raises(Exception) as info:
        parse_text(text, "r.mlir")
    assert str(info.value).startswith("r.mlir:10:19:")


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (GLOBAL.format(n=1, t="i32", key="nope") + section('      b: "0x0400000001000000"'), "1:", "not defined"),
        (GLOBAL.format(n=2, t="i32", key="b") + section('      b: "0x0400000001000000"'), "1:", "needs 2"),
        (GLOBAL.format(n=1, t="i32", key="b") + section("      b: 12"), "6:7", "hex string"),
        (GLOBAL.format(n=1, t="i32", key="b") + section('      b: "0x01"'), "6:10", "alignment"),
        (GLOBAL.format(n=1, t="i32", key="b") + section('      b: "0x04000000",\n      b: "0x04000000"'), "7:7", "twice"),
        (GLOBAL.format(n=1, t="i32", key="b") + "\n{-#\n  dialect_resources: {\n", "3:1", "never closed"),
        (GLOBAL.format(n=1, t="i32", key="b") + "\n{-#\n  weird: {}\n#-}\n", "4:3", "unknown file metadata"),
        (GLOBAL.format(n=1, t="i32", key="b") + "\n{-#\n  dialect_resources: { builtin: { b \"0x00\" } }\n#-}\n", "4:37", "expected ':'"),
    ],
)
def test_bad_metadata_is_one_located_parse_error(text: str, where: str, message: str):
    with pytest.raises(ParseError) as info:
        parse_text(text, "r.mlir")
    assert str(info.value).startswith(f"r.mlir:{where}"), str(info.value)
    assert message in str(info.value)
