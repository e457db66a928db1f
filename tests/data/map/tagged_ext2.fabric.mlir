// One tagged external memory interface (two load lanes, two regions) that two software memrefs share:
// each load PE's address gets its own tag, a temporal switch merges them onto the interface's one address
// port, and two temporal switches send each tagged response back to the PE (or module output) it answers.
module {
  fabric.spatial_pe @ld(%a: index, %d: i32, %c: none) -> (i32, index) {
    fabric.function_unit @ld_fu(%x: index, %y: i32, %z: none) -> (i32, index) [latency = 1, interval = 1] {
      %v, %p = handshake.load [%x] %y, %z : index, i32
      fabric.yield %v, %p : i32, index
    }
    fabric.yield
  }
  fabric.temporal_sw @merge [num_route_table = 2, connectivity_table = ["11"]]
      : (!fabric.tagged<!fabric.bits<57>, i1>, !fabric.tagged<!fabric.bits<57>, i1>)
        -> (!fabric.tagged<!fabric.bits<57>, i1>)
  fabric.temporal_sw @split32 [num_route_table = 2, connectivity_table = ["1", "1"]]
      : (!fabric.tagged<!fabric.bits<32>, i1>)
        -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>)
  fabric.temporal_sw @split0 [num_route_table = 2, connectivity_table = ["1", "1"]]
      : (!fabric.tagged<none, i1>) -> (!fabric.tagged<none, i1>, !fabric.tagged<none, i1>)
  fabric.module @shared(%host: memref<?xi32>, %i: index, %j: index, %go: none, %go2: none)
      -> (i32, i32, none, none) {
    %a:2 = fabric.instance @ld(%i, %va, %go) {sym_name = "ld_a"} : (index, i32, none) -> (i32, index)
    %b:2 = fabric.instance @ld(%j, %vb, %go2) {sym_name = "ld_b"} : (index, i32, none) -> (i32, index)
    %ta = fabric.add_tag %a#1 {tag = 1 : i64} : index -> !fabric.tagged<!fabric.bits<57>, i1>
    %tb = fabric.add_tag %b#1 {tag = 0 : i64} : index -> !fabric.tagged<!fabric.bits<57>, i1>
    %m:1 = fabric.instance @merge(%ta, %tb) {sym_name = "merge"}
        : (!fabric.tagged<!fabric.bits<57>, i1>, !fabric.tagged<!fabric.bits<57>, i1>)
          -> (!fabric.tagged<!fabric.bits<57>, i1>)
    %e:2 = fabric.extmemory @dram [ldCount = 2, stCount = 0, lsqDepth = 0, memrefType = memref<?xi32>, numRegion = 2]
        (%host, %m#0) : (memref<?xi32>, !fabric.tagged<!fabric.bits<57>, i1>)
          -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<none, i1>)
    %d:2 = fabric.instance @split32(%e#0) {sym_name = "data"}
        : (!fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>)
    %k:2 = fabric.instance @split0(%e#1) {sym_name = "done"}
        : (!fabric.tagged<none, i1>) -> (!fabric.tagged<none, i1>, !fabric.tagged<none, i1>)
    %va = fabric.del_tag %d#0 : !fabric.tagged<!fabric.bits<32>, i1> -> i32
    %vb = fabric.del_tag %d#1 : !fabric.tagged<!fabric.bits<32>, i1> -> i32
    %ka = fabric.del_tag %k#0 : !fabric.tagged<none, i1> -> none
    %kb = fabric.del_tag %k#1 : !fabric.tagged<none, i1> -> none
    fabric.yield %a#0, %b#0, %ka, %kb : i32, i32, none, none
  }
}
