module {
  fabric.temporal_pe @tsub(%p0: !fabric.tagged<!fabric.bits<32>, i1>, %p1: !fabric.tagged<!fabric.bits<32>, i1>, %p2: !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>) [num_register = 0 : i64, num_instruction = 1 : i64, reg_fifo_depth = 0 : i64] {
    fabric.function_unit @sub_or_idle(%x: i32, %y: i32, %z: i32) -> (i32) [latency = 1, interval = 1] {
      %d = arith.subi %x, %y : i32
      %idle = arith.andi %z, %z : i32
      fabric.yield %d : i32
    }
    fabric.yield
  }
  fabric.module @dead_op(%a: i32, %b: i32, %c: i32) -> (i32) {
    %ta = fabric.add_tag %a {tag = 0 : i64} : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %tb = fabric.add_tag %b {tag = 0 : i64} : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %tc = fabric.add_tag %c {tag = 0 : i64} : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %r = fabric.instance @tsub(%ta, %tb, %tc) {sym_name = "t0"} : (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>)
    %o = fabric.del_tag %r : !fabric.tagged<!fabric.bits<32>, i1> -> i32
    fabric.yield %o : i32
  }
}
