// Merge two sorted vectors into out (two-pointer while loop, then the tails), with the sum precondition
// replaced by the expressible dim(a) <= 1000, dim(b) <= 1000, dim(out) >= 2000.
module {
  func.func @merge_sorted_bounded(%a: memref<?xi32>, %b: memref<?xi32>, %out: memref<?xi32>) attributes {loom.assume = ["dim(a) <= 1000 && dim(b) <= 1000", "dim(out) >= 2000"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dim = memref.dim %a, %c0 : memref<?xi32>
    %dim_0 = memref.dim %b, %c0 : memref<?xi32>
    %0:2 = scf.while (%arg3 = %c0, %arg4 = %c0) : (index, index) -> (index, index) {
      %3 = arith.cmpi slt, %arg3, %dim : index
      %4 = arith.cmpi slt, %arg4, %dim_0 : index
      %5 = arith.andi %3, %4 : i1
      scf.condition(%5) %arg3, %arg4 : index, index
    } do {
    ^bb0(%arg3: index, %arg4: index):
      %3 = memref.load %a[%arg3] : memref<?xi32>
      %4 = memref.load %b[%arg4] : memref<?xi32>
      %5 = arith.cmpi sle, %3, %4 : i32
      %6 = arith.addi %arg3, %arg4 : index
      %7:2 = scf.if %5 -> (index, index) {
        memref.store %3, %out[%6] : memref<?xi32>
        %8 = arith.addi %arg3, %c1 : index
        scf.yield %8, %arg4 : index, index
      } else {
        memref.store %4, %out[%6] : memref<?xi32>
        %8 = arith.addi %arg4, %c1 : index
        scf.yield %arg3, %8 : index, index
      }
      scf.yield %7#0, %7#1 : index, index
    }
    scf.for %arg3 = %0#0 to %dim step %c1 {
      %3 = memref.load %a[%arg3] : memref<?xi32>
      %4 = arith.addi %arg3, %0#1 : index
      memref.store %3, %out[%4] : memref<?xi32>
    }
    scf.for %arg3 = %0#1 to %dim_0 step %c1 {
      %3 = memref.load %b[%arg3] : memref<?xi32>
      %4 = arith.addi %0#0, %arg3 : index
      memref.store %3, %out[%4] : memref<?xi32>
    }
    return
  }
}
