// A two-slot temporal PE whose inputs come through a tagged 2x2 switch, not straight from add_tags: both operands
// are tagged 1, so only slot 1 can read them; the sum leaves through a del_tag.
module {
  fabric.spatial_sw @cross [connectivity_table = ["11", "11"]]
      : (!fabric.tagged<i64, i1>, !fabric.tagged<i64, i1>) -> (!fabric.tagged<i64, i1>, !fabric.tagged<i64, i1>)
  fabric.temporal_pe @tadd(%x: !fabric.tagged<i64, i1>, %y: !fabric.tagged<i64, i1>) -> (!fabric.tagged<i64, i1>)
      [num_register = 0 : i64, num_instruction = 2 : i64, reg_fifo_depth = 0 : i64] {
    fabric.function_unit @addi_i64(%i0: i64, %i1: i64) -> (i64) [latency = 1, interval = 1] {
      %r0 = arith.addi %i0, %i1 : i64
      fabric.yield %r0 : i64
    }
    fabric.yield
  }
  fabric.module @tpe_behind_switch(%a: i64, %b: i64) -> (i64) {
    %ta = fabric.add_tag %a {tag = 1 : i64} : i64 -> !fabric.tagged<i64, i1>
    %tb = fabric.add_tag %b {tag = 1 : i64} : i64 -> !fabric.tagged<i64, i1>
    %x:2 = fabric.instance @cross(%ta, %tb) {sym_name = "sw_0"}
        : (!fabric.tagged<i64, i1>, !fabric.tagged<i64, i1>) -> (!fabric.tagged<i64, i1>, !fabric.tagged<i64, i1>)
    %s = fabric.instance @tadd(%x#0, %x#1) {sym_name = "tpe_0"}
        : (!fabric.tagged<i64, i1>, !fabric.tagged<i64, i1>) -> (!fabric.tagged<i64, i1>)
    %y = fabric.del_tag %s : !fabric.tagged<i64, i1> -> i64
    fabric.yield %y : i64
  }
}
