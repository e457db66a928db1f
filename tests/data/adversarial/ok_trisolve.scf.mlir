// Forward substitution L x = b for a lower-triangular n x n matrix (float division: IEEE, no trap).
module {
  func.func @trisolve(%L: memref<?x?xf32>, %b: memref<?xf32>, %x: memref<?xf32>, %n: index) attributes {loom.assume = ["n <= dim(L, 0) && n <= dim(L, 1)", "n <= dim(b) && n <= dim(x)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg4 = %c0 to %n step %c1 {
      %0 = memref.load %b[%arg4] : memref<?xf32>
      %1 = scf.for %arg5 = %c0 to %arg4 step %c1 iter_args(%arg6 = %0) -> (f32) {
        %4 = memref.load %L[%arg4, %arg5] : memref<?x?xf32>
        %5 = memref.load %x[%arg5] : memref<?xf32>
        %6 = arith.mulf %4, %5 : f32
        %7 = arith.subf %arg6, %6 : f32
        scf.yield %7 : f32
      }
      %2 = memref.load %L[%arg4, %arg4] : memref<?x?xf32>
      %3 = arith.divf %1, %2 : f32
      memref.store %3, %x[%arg4] : memref<?xf32>
    }
    return
  }
}
