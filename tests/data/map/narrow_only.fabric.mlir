// The adder's 64-bit result can reach the module output only through sw_squeeze's 32-bit output:
// an i64 result cannot be routed (C2), so loom map must report the edge and exit 1.
module {
  fabric.spatial_pe @add_pe(%p0: !fabric.bits<64>, %p1: !fabric.bits<64>) -> (!fabric.bits<64>) {
    fabric.function_unit @addi_i64(%i0: i64, %i1: i64) -> (i64) [latency = 1, interval = 1] {
      %r0 = arith.addi %i0, %i1 : i64
      fabric.yield %r0 : i64
    }
    fabric.yield
  }
  fabric.spatial_sw @squeeze [connectivity_table = ["1"]] : (!fabric.bits<64>) -> (!fabric.bits<32>)
  fabric.spatial_sw @widen [connectivity_table = ["1"]] : (!fabric.bits<32>) -> (!fabric.bits<64>)
  fabric.module @narrow_only(%a: !fabric.bits<64>, %b: !fabric.bits<64>) -> (!fabric.bits<64>) {
    %pe:1 = fabric.instance @add_pe(%a, %b) {sym_name = "pe_0"} : (!fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>)
    %s:1 = fabric.instance @squeeze(%pe#0) {sym_name = "sw_squeeze"} : (!fabric.bits<64>) -> (!fabric.bits<32>)
    %w:1 = fabric.instance @widen(%s#0) {sym_name = "sw_widen"} : (!fabric.bits<32>) -> (!fabric.bits<64>)
    fabric.yield %w#0 : !fabric.bits<64>
  }
}
