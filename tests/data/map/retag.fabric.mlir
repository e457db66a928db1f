// Operand a travels tagged: an add_tag gives it tag 1 (two tag bits), a map_tag widens the tag to three bits
// through a two-entry table (1 -> 5, 0 -> 2), a del_tag strips it before the adder. Operand b and the sum
// travel plain. No names on the tag ops: they are add_tag_0, map_tag_0 and del_tag_0, as upstream names them.
module {
  fabric.spatial_pe @add_pe(%p0: i64, %p1: i64) -> (i64) {
    fabric.function_unit @addi_i64(%i0: i64, %i1: i64) -> (i64) [latency = 1, interval = 1] {
      %r0 = arith.addi %i0, %i1 : i64
      fabric.yield %r0 : i64
    }
    fabric.yield
  }
  fabric.module @retag(%a: i64, %b: i64) -> (i64) {
    %t = fabric.add_tag %a {tag = 1 : i64} : i64 -> !fabric.tagged<i64, i2>
    %w = fabric.map_tag %t [table_size = 2 : i64]
        attributes {table = [[1 : i64, 1 : i64, 5 : i64], [1 : i64, 0 : i64, 2 : i64]]}
        : !fabric.tagged<i64, i2> -> !fabric.tagged<i64, i3>
    %u = fabric.del_tag %w : !fabric.tagged<i64, i3> -> i64
    %pe:1 = fabric.instance @add_pe(%u, %b) {sym_name = "pe_0"} : (i64, i64) -> (i64)
    fabric.yield %pe#0 : i64
  }
}
