// FAULT: row sums over a window [col0, col0 + w) where only col0 <= dim and w <= dim are promised: the window may leave the row.
module {
  func.func @rowsum_window(%A: memref<?x?xf32>, %out: memref<?xf32>, %col0: index, %w: index) attributes {loom.assume = ["0 <= col0 && col0 <= dim(A, 1)", "0 <= w && w <= dim(A, 1)", "dim(out) >= dim(A, 0)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = memref.dim %A, %c0 : memref<?x?xf32>
    scf.for %arg4 = %c0 to %dim step %c1 {
      %subview = memref.subview %A[%arg4, %col0] [1, %w] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
      %0 = scf.for %arg5 = %c0 to %w step %c1 iter_args(%arg6 = %cst) -> (f32) {
        %1 = memref.load %subview[%arg5] : memref<?xf32, strided<[1], offset: ?>>
        %2 = arith.addf %arg6, %1 : f32
        scf.yield %2 : f32
      }
      memref.store %0, %out[%arg4] : memref<?xf32>
    }
    return
  }
}
