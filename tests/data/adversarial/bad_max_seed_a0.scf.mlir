// FAULT: max reduction seeded with a[0] before checking that the vector is non-empty.
module {
  func.func @max_seed(%a: memref<?xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dim = memref.dim %a, %c0 : memref<?xi32>
    %0 = memref.load %a[%c0] : memref<?xi32>
    %1 = scf.for %arg1 = %c1 to %dim step %c1 iter_args(%arg2 = %0) -> (i32) {
      %2 = memref.load %a[%arg1] : memref<?xi32>
      %3 = arith.maxsi %arg2, %2 : i32
      scf.yield %3 : i32
    }
    return %1 : i32
  }
}
