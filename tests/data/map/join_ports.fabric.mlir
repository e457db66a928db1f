// A mixed-type join (none, i32, none, i1) on its own PE, and a subtractor behind a 2x2 switch whose two i32
// inputs are interchangeable: a join of (none, i32, none) uses the first three join inputs (join_mask 0b0111),
// and the subtractor's operands u and v each take their own module input, in4 and in5.
module {
  fabric.spatial_pe @jpe(%c: none, %a: i32, %d: none, %g: i1) -> (none) {
    fabric.function_unit @fu_join(%x: none, %y: i32, %z: none, %w: i1) -> (none) [latency = 1, interval = 1] {
      %0 = handshake.join %x, %y, %z, %w : none, i32, none, i1
      fabric.yield %0 : none
    }
    fabric.yield
  }
  fabric.spatial_pe @spe(%p: i32, %q: i32) -> (i32) {
    fabric.function_unit @fu_sub(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {
      %0 = arith.subi %x, %y : i32
      fabric.yield %0 : i32
    }
    fabric.yield
  }
  fabric.spatial_sw @xbar [connectivity_table = ["11", "11"]] : (i32, i32) -> (i32, i32)
  fabric.module @jp(%c: none, %a: i32, %d: none, %g: i1, %u: i32, %v: i32) -> (none, i32) {
    %j = fabric.instance @jpe(%c, %a, %d, %g) {sym_name = "pe_join"} : (none, i32, none, i1) -> (none)
    %s:2 = fabric.instance @xbar(%u, %v) {sym_name = "sw_0"} : (i32, i32) -> (i32, i32)
    %r = fabric.instance @spe(%s#0, %s#1) {sym_name = "pe_sub"} : (i32, i32) -> (i32)
    fabric.yield %j, %r : none, i32
  }
}
