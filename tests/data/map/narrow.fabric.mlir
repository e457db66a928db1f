// A fabric with one 32-bit detour: sw_split sends the adder's 64-bit result either through its 32-bit
// output 0 or its 64-bit output 1, and sw_merge brings both back to the 64-bit module output. An i64
// value may only take the wide path (C2); tests/test_map_narrow.py breaks a mapping to take the other.
module {
  fabric.spatial_pe @add_pe(%p0: !fabric.bits<64>, %p1: !fabric.bits<64>) -> (!fabric.bits<64>) {
    fabric.function_unit @addi_i64(%i0: i64, %i1: i64) -> (i64) [latency = 1, interval = 1] {
      %r0 = arith.addi %i0, %i1 : i64
      fabric.yield %r0 : i64
    }
    fabric.yield
  }
  fabric.spatial_sw @split [connectivity_table = ["1", "1"]] : (!fabric.bits<64>) -> (!fabric.bits<32>, !fabric.bits<64>)
  fabric.spatial_sw @merge [connectivity_table = ["11"]] : (!fabric.bits<32>, !fabric.bits<64>) -> (!fabric.bits<64>)
  fabric.module @narrow(%a: !fabric.bits<64>, %b: !fabric.bits<64>) -> (!fabric.bits<64>) {
    %pe:1 = fabric.instance @add_pe(%a, %b) {sym_name = "pe_0"} : (!fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>)
    %s:2 = fabric.instance @split(%pe#0) {sym_name = "sw_split"} : (!fabric.bits<64>) -> (!fabric.bits<32>, !fabric.bits<64>)
    %m:1 = fabric.instance @merge(%s#0, %s#1) {sym_name = "sw_merge"} : (!fabric.bits<32>, !fabric.bits<64>) -> (!fabric.bits<64>)
    fabric.yield %m#0 : !fabric.bits<64>
  }
}
