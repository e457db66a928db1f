"""config_mem layout and encoding: decode(encode(c)) == c for arbitrary configurations; layout facts."""

from __future__ import annotations

import functools

from hypothesis import given, settings, strategies as st

from loom.map.adg.mesh import MeshParams, mesh
from loom.map.adg.read import read_adg
from loom.map.config import Config, MuxField, PEConfig, choice_width, decode, encode, from_bytes, layout, pe_layout, to_bytes
from loom.mlir import parse_file, parse_text

from support.map import corpus_file


@functools.lru_cache(maxsize=None)
def fabrics():
    return [read_adg(parse_file(corpus_file("sw2-pe1-extmem1.fabric.mlir"))),
            read_adg(parse_text(mesh(MeshParams(rows=2, cols=3, extmem=1))))]


def test_choice_width() -> None:
    assert [choice_width(n) for n in (0, 1, 2, 3, 4, 5, 8, 9, 134)] == [0, 0, 1, 2, 2, 3, 3, 4, 8]


def test_layout_puts_switches_and_memories_first_then_pes() -> None:
    for adg in fabrics():
        slices = layout(adg)
        kinds = [s.kind for s in slices]
        first_pe = kinds.index("spatial_pe")
        assert all(k != "spatial_pe" for k in kinds[:first_pe]) and all(k == "spatial_pe" for k in kinds[first_pe:])
        offs = 0
        for s in slices:
            assert s.word_offset == offs and s.word_count == (s.bits + 31) // 32
            offs += s.word_count
    small = fabrics()[0]
    pe = pe_layout(small.node("pe_0").defn)
    # 1 enable + 0 opcode + 3 x (2 sel + 2) + 2 x (1 sel + 2) + 0 payload
    assert (pe.opcode_bits, pe.in_sel, pe.out_sel, pe.n_in, pe.n_out, pe.payload, pe.bits) == (0, 2, 1, 3, 2, 0, 19)
    assert [s.word_count for s in layout(small)] == [5, 2, 2, 1]


@st.composite
def configs(draw, adg):
    cfg = Config()
    for n in adg.switches():
        conn = n.defn.connected()
        cfg.switches[n.name] = set(draw(st.lists(st.sampled_from(conn), max_size=6))) if conn else set()
    for n in adg.pes():
        lay = pe_layout(n.defn)
        field = lambda ports: st.builds(MuxField, st.integers(0, ports - 1), st.booleans(), st.booleans())  # noqa: E731
        cfg.pes[n.name] = PEConfig(
            draw(st.booleans()), draw(st.integers(0, len(n.defn.fus) - 1)),
            [draw(field(len(n.defn.in_widths))) for _ in range(lay.n_in)],
            [draw(field(len(n.defn.out_widths))) for _ in range(lay.n_out)],
            draw(st.integers(0, (1 << lay.payload) - 1)))
    for n in adg.memories():
        cfg.regions[n.name] = draw(st.lists(st.integers(0, 2**32 - 1), min_size=5 * n.defn.num_region, max_size=5 * n.defn.num_region))
    return cfg


@settings(max_examples=30, deadline=None)
@given(data=st.data(), which=st.integers(0, 1))
def test_decode_inverts_encode(data, which: int) -> None:
    adg = fabrics()[which]
    cfg = data.draw(configs(adg))
    words = encode(adg, cfg)
    assert from_bytes(to_bytes(words)) == words
    back = decode(adg, words)
    assert back.switches == cfg.switches and back.pes == cfg.pes and back.regions == cfg.regions


def test_out_of_range_selectors_do_not_decode() -> None:
    import pytest

    from loom.map.config import DecodeError

    adg = fabrics()[0]  # pe_0: 3 inputs (2 sel bits), so sel = 3 names no input
    cfg = Config(pes={"pe_0": PEConfig(True, 0, [MuxField(3, False, False)], [])})
    with pytest.raises(DecodeError, match="selects PE input 3"):
        decode(adg, encode(adg, cfg))
