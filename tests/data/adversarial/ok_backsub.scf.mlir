// Back substitution U x = y for an upper-triangular n x n matrix, rows visited from the last: i = n - 1 - k.
module {
  func.func @backsub(%U: memref<?x?xf64>, %y: memref<?xf64>, %x: memref<?xf64>, %n: index) attributes {loom.assume = ["0 <= n", "n <= dim(U, 0) && n <= dim(U, 1)", "n <= dim(y) && n <= dim(x)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg4 = %c0 to %n step %c1 {
      %0 = arith.subi %n, %arg4 : index
      %1 = arith.subi %0, %c1 : index
      %2 = memref.load %y[%1] : memref<?xf64>
      %3 = arith.addi %1, %c1 : index
      %4 = scf.for %arg5 = %3 to %n step %c1 iter_args(%arg6 = %2) -> (f64) {
        %7 = memref.load %U[%1, %arg5] : memref<?x?xf64>
        %8 = memref.load %x[%arg5] : memref<?xf64>
        %9 = arith.mulf %7, %8 : f64
        %10 = arith.subf %arg6, %9 : f64
        scf.yield %10 : f64
      }
      %5 = memref.load %U[%1, %1] : memref<?x?xf64>
      %6 = arith.divf %4, %5 : f64
      memref.store %6, %x[%1] : memref<?xf64>
    }
    return
  }
}
