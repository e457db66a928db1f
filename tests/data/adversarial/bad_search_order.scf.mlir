// FAULT: search condition evaluated as a[i] != key && i < n with both sides computed: the load runs at i == n.
module {
  func.func @search_order(%a: memref<?xi32>, %n: index, %key: i32) -> index attributes {loom.assume = ["0 <= n && n <= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = scf.while (%arg3 = %c0) : (index) -> index {
      %1 = memref.load %a[%arg3] : memref<?xi32>
      %2 = arith.cmpi ne, %1, %key : i32
      %3 = arith.cmpi slt, %arg3, %n : index
      %4 = arith.andi %2, %3 : i1
      scf.condition(%4) %arg3 : index
    } do {
    ^bb0(%arg3: index):
      %1 = arith.addi %arg3, %c1 : index
      scf.yield %1 : index
    }
    return %0 : index
  }
}
