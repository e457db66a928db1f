// Both operands cross one tagged 2x2 switch: a tagged 3, b tagged 6; each is untagged again before the adder.
module {
  fabric.spatial_sw @cross [connectivity_table = ["11", "11"]]
      : (!fabric.tagged<i64, i3>, !fabric.tagged<i64, i3>) -> (!fabric.tagged<i64, i3>, !fabric.tagged<i64, i3>)
  fabric.spatial_pe @add_pe(%p0: i64, %p1: i64) -> (i64) {
    fabric.function_unit @addi_i64(%i0: i64, %i1: i64) -> (i64) [latency = 1, interval = 1] {
      %r0 = arith.addi %i0, %i1 : i64
      fabric.yield %r0 : i64
    }
    fabric.yield
  }
  fabric.module @tagged_cross(%a: i64, %b: i64) -> (i64) {
    %ta = fabric.add_tag %a {tag = 3 : i64} : i64 -> !fabric.tagged<i64, i3>
    %tb = fabric.add_tag %b {tag = 6 : i64} : i64 -> !fabric.tagged<i64, i3>
    %x:2 = fabric.instance @cross(%ta, %tb) {sym_name = "sw_0"}
        : (!fabric.tagged<i64, i3>, !fabric.tagged<i64, i3>) -> (!fabric.tagged<i64, i3>, !fabric.tagged<i64, i3>)
    %u0 = fabric.del_tag %x#0 : !fabric.tagged<i64, i3> -> i64
    %u1 = fabric.del_tag %x#1 : !fabric.tagged<i64, i3> -> i64
    %pe:1 = fabric.instance @add_pe(%u0, %u1) {sym_name = "pe_0"} : (i64, i64) -> (i64)
    fabric.yield %pe#0 : i64
  }
}
