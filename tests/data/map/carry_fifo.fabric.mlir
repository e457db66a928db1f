// A carry whose loop-carried operand arrives through a bypassable 4-slot FIFO the fabric sets bypassed, and an
// adder whose second operand does too, one switch further away: the bufferization pass may buffer the adder's
// FIFO (its route is the longest), never the carry's.
module {
  fabric.spatial_pe @carry_pe(%q: !fabric.bits<1>, %first: !fabric.bits<64>, %again: !fabric.bits<64>) -> (!fabric.bits<64>) {
    fabric.function_unit @fu_carry(%k: i1, %i: i64, %n: i64) -> (i64) [latency = -1, interval = -1] {
      %r = dataflow.carry %k, %i, %n : i1, i64, i64 -> i64
      fabric.yield %r : i64
    }
    fabric.yield
  }
  fabric.spatial_pe @add_pe(%l: !fabric.bits<64>, %r: !fabric.bits<64>) -> (!fabric.bits<64>) {
    fabric.function_unit @fu_add(%x: i64, %y: i64) -> (i64) [latency = 1, interval = 1] {
      %s = arith.addi %x, %y : i64
      fabric.yield %s : i64
    }
    fabric.yield
  }
  fabric.spatial_sw @hop [connectivity_table = ["1"]] : (!fabric.bits<64>) -> (!fabric.bits<64>)
  fabric.module @loopy(%c: !fabric.bits<1>, %init: !fabric.bits<64>, %next: !fabric.bits<64>, %a: !fabric.bits<64>)
      -> (!fabric.bits<64>) {
    %back = fabric.fifo @loop_fifo [depth = 4, bypassable] (%next) attributes {bypassed = true}
        : (!fabric.bits<64>) -> (!fabric.bits<64>)
    %cv:1 = fabric.instance @carry_pe(%c, %init, %back) {sym_name = "pe_carry"}
        : (!fabric.bits<1>, !fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>)
    %far:1 = fabric.instance @hop(%a) {sym_name = "sw_side"} : (!fabric.bits<64>) -> (!fabric.bits<64>)
    %late = fabric.fifo @side_fifo [depth = 4, bypassable] (%far#0) attributes {bypassed = true}
        : (!fabric.bits<64>) -> (!fabric.bits<64>)
    %sum:1 = fabric.instance @add_pe(%cv#0, %late) {sym_name = "pe_add"}
        : (!fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>)
    fabric.yield %sum#0 : !fabric.bits<64>
  }
}
