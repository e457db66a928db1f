// An adder between FIFOs: operand a passes a bypassable 2-slot FIFO the fabric leaves buffered, operand b a
// bypassable one the fabric sets bypassed, and the sum a plain 3-slot FIFO (no config bit) on its way out.
module {
  fabric.spatial_pe @add_pe(%p0: !fabric.bits<64>, %p1: !fabric.bits<64>) -> (!fabric.bits<64>) {
    fabric.function_unit @addi_i64(%i0: i64, %i1: i64) -> (i64) [latency = 1, interval = 1] {
      %r0 = arith.addi %i0, %i1 : i64
      fabric.yield %r0 : i64
    }
    fabric.yield
  }
  fabric.fifo @slow [depth = 3] : (!fabric.bits<64>) -> (!fabric.bits<64>)
  fabric.module @fifos(%a: !fabric.bits<64>, %b: !fabric.bits<64>) -> (!fabric.bits<64>) {
    %fa = fabric.fifo @fifo_a [depth = 2, bypassable] (%a) : (!fabric.bits<64>) -> (!fabric.bits<64>)
    %fb = fabric.fifo @fifo_b [depth = 2, bypassable] (%b) attributes {bypassed = true} : (!fabric.bits<64>) -> (!fabric.bits<64>)
    %pe:1 = fabric.instance @add_pe(%fa, %fb) {sym_name = "pe_0"} : (!fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>)
    %out:1 = fabric.instance @slow(%pe#0) {sym_name = "fifo_out"} : (!fabric.bits<64>) -> (!fabric.bits<64>)
    fabric.yield %out#0 : !fabric.bits<64>
  }
}
