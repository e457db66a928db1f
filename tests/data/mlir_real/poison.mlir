// ub.poison as mlir-opt prints it (a dead-branch placeholder from canonicalize).
module {
  func.func @pick(%arg0: memref<?xi32>, %arg1: index) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = ub.poison : i32
    %1 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %0) -> (i32) {
      %2 = memref.load %arg0[%arg2] : memref<?xi32>
      scf.yield %2 : i32
    }
    return %1 : i32
  }
}
