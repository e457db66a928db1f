// FAULT: integer forward substitution; divides by the diagonal L[i][i], which the caller never promised to be non-zero.
module {
  func.func @trisolve_int(%L: memref<?x?xi32>, %b: memref<?xi32>, %x: memref<?xi32>, %n: index) attributes {loom.assume = ["0 <= n", "n <= dim(L, 0) && n <= dim(L, 1)", "n <= dim(b) && n <= dim(x)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg4 = %c0 to %n step %c1 {
      %0 = memref.load %b[%arg4] : memref<?xi32>
      %1 = scf.for %arg5 = %c0 to %arg4 step %c1 iter_args(%arg6 = %0) -> (i32) {
        %4 = memref.load %L[%arg4, %arg5] : memref<?x?xi32>
        %5 = memref.load %x[%arg5] : memref<?xi32>
        %6 = arith.muli %4, %5 : i32
        %7 = arith.subi %arg6, %6 : i32
        scf.yield %7 : i32
      }
      %2 = memref.load %L[%arg4, %arg4] : memref<?x?xi32>
      %3 = arith.divsi %1, %2 : i32
      memref.store %3, %x[%arg4] : memref<?xi32>
    }
    return
  }
}
