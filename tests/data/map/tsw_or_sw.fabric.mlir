// Each tagged operand (a: tag 1, b: tag 2) can reach the adder two ways: across a temporal switch with a single
// route-table slot, or across a spatial switch of tagged ports. Both cannot cross the temporal switch (two tags,
// one slot), so a placement whose routes do that is set aside and another one tried.
module {
  fabric.spatial_pe @adder4(%p0: i64, %p1: i64, %p2: i64, %p3: i64) -> (i64) {
    fabric.function_unit @add_fu(%x: i64, %y: i64) -> (i64) [latency = 1, interval = 1] {
      %s = arith.addi %x, %y : i64
      fabric.yield %s : i64
    }
    fabric.yield
  }
  fabric.spatial_sw @plain2 [connectivity_table = ["11", "11"]]
      : (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>) -> (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>)
  fabric.module @tsw_or_sw(%a: i64, %b: i64) -> (i64) {
    %ta = fabric.add_tag %a {tag = 1 : i64} : i64 -> !fabric.tagged<i64, i2>
    %tb = fabric.add_tag %b {tag = 2 : i64} : i64 -> !fabric.tagged<i64, i2>
    %x:2 = fabric.temporal_sw @narrow [num_route_table = 1] (%ta, %tb)
        : (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>) -> (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>)
    %y:2 = fabric.instance @plain2(%ta, %tb) {sym_name = "wide"}
        : (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>) -> (!fabric.tagged<i64, i2>, !fabric.tagged<i64, i2>)
    %u0 = fabric.del_tag %x#0 : !fabric.tagged<i64, i2> -> i64
    %u1 = fabric.del_tag %x#1 : !fabric.tagged<i64, i2> -> i64
    %v0 = fabric.del_tag %y#0 : !fabric.tagged<i64, i2> -> i64
    %v1 = fabric.del_tag %y#1 : !fabric.tagged<i64, i2> -> i64
    %s:1 = fabric.instance @adder4(%u0, %u1, %v0, %v1) {sym_name = "pe_0"} : (i64, i64, i64, i64) -> (i64)
    fabric.yield %s#0 : i64
  }
}
