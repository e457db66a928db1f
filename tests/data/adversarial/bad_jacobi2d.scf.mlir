// FAULT: 2-D 5-point Jacobi step whose row loop runs to n - 1 but whose column loop runs to m (not m - 1): B[i][j+1] reads past the row.
module {
  func.func @jacobi2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>) attributes {loom.assume = ["dim(B, 0) == dim(A, 0) && dim(B, 1) == dim(A, 1)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 2.000000e-01 : f32
    %dim = memref.dim %A, %c0 : memref<?x?xf32>
    %dim_0 = memref.dim %A, %c1 : memref<?x?xf32>
    %0 = arith.subi %dim, %c1 : index
    scf.for %arg2 = %c1 to %0 step %c1 {
      scf.for %arg3 = %c1 to %dim_0 step %c1 {
        %1 = arith.subi %arg2, %c1 : index
        %2 = arith.addi %arg2, %c1 : index
        %3 = arith.subi %arg3, %c1 : index
        %4 = arith.addi %arg3, %c1 : index
        %5 = memref.load %A[%arg2, %arg3] : memref<?x?xf32>
        %6 = memref.load %A[%1, %arg3] : memref<?x?xf32>
        %7 = memref.load %A[%2, %arg3] : memref<?x?xf32>
        %8 = memref.load %A[%arg2, %3] : memref<?x?xf32>
        %9 = memref.load %A[%arg2, %4] : memref<?x?xf32>
        %10 = arith.addf %5, %6 : f32
        %11 = arith.addf %10, %7 : f32
        %12 = arith.addf %11, %8 : f32
        %13 = arith.addf %12, %9 : f32
        %14 = arith.mulf %13, %cst : f32
        memref.store %14, %B[%arg2, %arg3] : memref<?x?xf32>
      }
    }
    return
  }
}
