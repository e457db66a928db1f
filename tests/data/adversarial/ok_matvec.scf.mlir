// Dense matrix-vector product y = A x over an m x k matrix, nested loops with an f32 iter_arg.
module {
  func.func @matvec(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) attributes {loom.assume = ["dim(x) >= dim(A, 1)", "dim(y) >= dim(A, 0)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = memref.dim %A, %c0 : memref<?x?xf32>
    %dim_0 = memref.dim %A, %c1 : memref<?x?xf32>
    scf.for %arg3 = %c0 to %dim step %c1 {
      %0 = scf.for %arg4 = %c0 to %dim_0 step %c1 iter_args(%arg5 = %cst) -> (f32) {
        %1 = memref.load %A[%arg3, %arg4] : memref<?x?xf32>
        %2 = memref.load %x[%arg4] : memref<?xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %arg5, %3 : f32
        scf.yield %4 : f32
      }
      memref.store %0, %y[%arg3] : memref<?xf32>
    }
    return
  }
}
