// Both operands of a 64-bit adder cross one temporal switch: a is tagged 1 and b tagged 2 (two tag bits), the
// 2x2 switch has two route-table slots, so each operand's tag selects its own slot; del_tags strip the tags
// before the adder. With num_route_table = 1 the two tags cannot share the switch (the mapper refuses).
module {
  fabric.spatial_pe @adder(%p0: i64, %p1: i64) -> (i64) {
    fabric.function_unit @add_fu(%x: i64, %y: i64) -> (i64) [latency = 1, interval = 1] {
      %s = arith.addi %x, %y : i64
      fabric.yield %s : i64
    }
    fabric.yield
  }
  fabric.module @tsw_two_tags(%a: i64, %b: i64) -> (i64) {
    %ta = fabric.add_tag %a {tag = 1 : i64} : i64 -> !fabric.tagged<i64, i2>
    %tb = fabric.add_tag %b {tag = 2 : i64} : i64 -> !fabric.tagged<i64, i2>
    %x:2 = fabric.temporal_sw @cross [num_route_table = 2] (%ta, %tb)
        : (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>) -> (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>)
    %u = fabric.del_tag %x#0 : !fabric.tagged<i64, i2> -> i64
    %v = fabric.del_tag %x#1 : !fabric.tagged<i64, i2> -> i64
    %s:1 = fabric.instance @adder(%u, %v) {sym_name = "pe_0"} : (i64, i64) -> (i64)
    fabric.yield %s#0 : i64
  }
}
