// Inclusive prefix sum of i32 values with a running total carried in iter_args; returns the total.
module {
  func.func @prefix_sum(%a: memref<?xi32>, %out: memref<?xi32>, %n: index) -> i32 attributes {loom.assume = ["n <= dim(a) && n <= dim(out)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %0 = scf.for %arg3 = %c0 to %n step %c1 iter_args(%arg4 = %c0_i32) -> (i32) {
      %1 = memref.load %a[%arg3] : memref<?xi32>
      %2 = arith.addi %arg4, %1 : i32
      memref.store %2, %out[%arg3] : memref<?xi32>
      scf.yield %2 : i32
    }
    return %0 : i32
  }
}
