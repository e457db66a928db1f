module {
  fabric.temporal_pe @tp(%p0: !fabric.tagged<!fabric.bits<32>, i1>, %p1: !fabric.tagged<!fabric.bits<32>, i1>, %p2: !fabric.tagged<!fabric.bits<32>, i1>, %p3: !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>) [num_register = 2 : i64, num_instruction = 2 : i64, reg_fifo_depth = 2 : i64] {
    fabric.function_unit @fu_add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.addi %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.function_unit @fu_mul(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %r = arith.muli %a, %b : i32
      fabric.yield %r : i32
    }
    fabric.yield
  }
  fabric.spatial_sw @sw [connectivity_table = ["11111", "11111", "11111", "11111", "11111", "11111"]] : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
  fabric.module @t(%a: !fabric.bits<32>, %b: !fabric.bits<32>, %c: !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>) {
    %s:6 = fabric.instance @sw(%a, %b, %c, %o0, %o1) {sym_name = "sw0"} : (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>, !fabric.bits<32>)
    %t0 = fabric.add_tag %s#0 {tag = 0 : i64} : !fabric.bits<32> -> !fabric.tagged<!fabric.bits<32>, i1>
    %t1 = fabric.add_tag %s#1 {tag = 0 : i64} : !fabric.bits<32> -> !fabric.tagged<!fabric.bits<32>, i1>
    %t2 = fabric.add_tag %s#2 {tag = 1 : i64} : !fabric.bits<32> -> !fabric.tagged<!fabric.bits<32>, i1>
    %t3 = fabric.add_tag %s#3 {tag = 1 : i64} : !fabric.bits<32> -> !fabric.tagged<!fabric.bits<32>, i1>
    %q:2 = fabric.instance @tp(%t0, %t1, %t2, %t3) {sym_name = "tpe0"} : (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>)
    %o0 = fabric.del_tag %q#0 : !fabric.tagged<!fabric.bits<32>, i1> -> !fabric.bits<32>
    %o1 = fabric.del_tag %q#1 : !fabric.tagged<!fabric.bits<32>, i1> -> !fabric.bits<32>
    fabric.yield %s#4, %s#5 : !fabric.bits<32>, !fabric.bits<32>
  }
}
