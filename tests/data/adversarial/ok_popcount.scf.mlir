// Population count of each i32 word by testing each of its 32 bits: the shift amount is the inner induction variable (< 32).
module {
  func.func @popcount(%a: memref<?xi32>, %out: memref<?xi32>) attributes {loom.assume = ["dim(out) >= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %dim = memref.dim %a, %c0 : memref<?xi32>
    scf.for %arg2 = %c0 to %dim step %c1 {
      %0 = memref.load %a[%arg2] : memref<?xi32>
      %1 = scf.for %arg3 = %c0 to %c32 step %c1 iter_args(%arg4 = %c0_i32) -> (i32) {
        %2 = arith.index_cast %arg3 : index to i32
        %3 = arith.shrui %0, %2 : i32
        %4 = arith.andi %3, %c1_i32 : i32
        %5 = arith.addi %arg4, %4 : i32
        scf.yield %5 : i32
      }
      memref.store %1, %out[%arg2] : memref<?xi32>
    }
    return
  }
}
